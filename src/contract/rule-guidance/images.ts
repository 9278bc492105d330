import type { RuleGuidance } from './types.js';

/** Text alternatives for images, graphics, objects and image maps (WCAG 1.1.1). */
export const imageGuidance: readonly RuleGuidance[] = [
  {
    keys: ['23a2a8'],
    title: 'Image has no text alternative',
    what: 'The image has no accessible name: no alt attribute, an alt that is missing its value, or an ARIA label that points at nothing. Screen readers then read the file name, or skip the image, so whatever it shows is lost.',
    who: 'Blind and low-vision people using screen readers or braille displays; people who turn images off to save data; search engines and voice assistants that read the page.',
    fix: [
      'Decide what the image is for. If it carries information or is a link or button, write an alt that says that information or action in a few words ("Red running shoe, side view").',
      'If it is pure decoration (a flourish, a background photo that the text already describes), give it an empty alt="" so screen readers skip it.',
      'For a complex image such as a chart, keep a short alt and give the full data in the text or a linked table beside it.',
    ],
    example:
      '<img src="shoe.jpg" alt="Red running shoe, side view">\n<img src="divider.svg" alt="">',
  },
  {
    keys: ['59796f'],
    title: 'Image button has no text alternative',
    what: 'An <input type="image"> (an image used as a submit button) has no alt, aria-label or title, so assistive technology announces just "button" or the image file name.',
    who: 'Screen reader and braille users cannot tell what the button does; voice control users cannot name it to press it.',
    fix: [
      'Add an alt attribute that names the action, not the picture ("Search", not "magnifying glass").',
      'Or replace the image input with a <button> holding the icon and visible or visually hidden text.',
    ],
    example: '<input type="image" src="search.svg" alt="Search">',
  },
  {
    keys: ['8fc3b6'],
    title: 'Object showing non-text content has no text alternative',
    what: 'An <object> element that renders an image, a document or a plug-in has no accessible name and no fallback text, so assistive technology has nothing to announce.',
    who: 'Screen reader users, and anyone whose browser cannot render the embedded content, get no idea what it contains.',
    fix: [
      'Give the <object> an aria-label or title that says what it shows.',
      'Put fallback content inside the element (text or a link to the file) for browsers that cannot render it.',
    ],
    example:
      '<object data="floor-plan.svg" type="image/svg+xml" aria-label="Floor plan of the ground floor">\n  <a href="floor-plan.pdf">Floor plan of the ground floor (PDF)</a>\n</object>',
  },
  {
    keys: ['7d6734', 'ibm:svg_graphics_labelled', 'ibm:aria_graphic_labelled'],
    title: 'Graphic has no accessible name',
    what: 'An <svg> or an element with a graphics role (img, graphics-document) is exposed as an image but has no name: no <title>, aria-label or aria-labelledby.',
    who: 'Screen reader users hear "image" or "graphic" with nothing more, or miss an icon that is the only content of a control.',
    fix: [
      'For a meaningful graphic, add role="img" and an aria-label, or a <title> as the first child referenced by aria-labelledby.',
      'For a decorative graphic, hide it with aria-hidden="true" instead of giving it a role.',
    ],
    example:
      '<svg role="img" aria-label="Rating: 4 out of 5 stars" viewBox="0 0 100 20">…</svg>\n<svg aria-hidden="true" focusable="false">…</svg>',
  },
  {
    keys: ['46ca7f'],
    title: 'Image marked as decorative is still announced',
    what: 'The element is marked as decorative (alt="" or role="presentation"/"none") but something else gives it a name or makes it focusable, so browsers ignore the decorative marking and expose it anyway.',
    who: 'Screen reader users hear a graphic that the author meant to hide, which adds noise or contradicts the page.',
    fix: [
      'If the image is decorative, remove the aria-label, aria-labelledby, title and tabindex from it.',
      'If it carries information, remove role="presentation" or the empty alt and give it a real alt text.',
    ],
    example: '<img src="swirl.png" alt="">',
  },
  {
    keys: ['redundant-image-alt', 'ibm:img_alt_misuse'],
    title: 'Image alternative text repeats or does not replace the nearby text',
    what: 'The alt text says the same as the text right beside the image (often the link or caption text), or is not a good replacement for the image (a file name, "image", "photo").',
    who: 'Screen reader users hear the same words twice, or a meaningless word instead of the picture.',
    fix: [
      'If the text beside the image already says everything, set alt="" on the image.',
      'Otherwise write an alt that adds what only the image shows; never use a file name or the word "image".',
    ],
    example: '<a href="/team/ana"><img src="ana.jpg" alt=""> Ana Ruiz, head of support</a>',
  },
  {
    keys: ['image-null-alt-title'],
    title: 'Decorative image has a title',
    what: 'The image has an empty alt (decorative) but also a title attribute. Some browsers and screen readers then use the title as its name, and mouse users see a tooltip, so it is half hidden and half not.',
    who: 'Screen reader users may hear the title of an image meant to be skipped; the page reads differently in different browsers.',
    fix: [
      'If the image is decorative, remove the title attribute.',
      'If the title says something useful, the image is not decorative: move that text into alt.',
    ],
    example: '<img src="corner.png" alt="">',
  },
  {
    keys: ['applet-alt'],
    title: 'Applet has no text alternative',
    what: 'A Java <applet> has no alt attribute and no text inside it. Browsers no longer run applets, so nobody gets its content, and assistive technology has nothing to announce.',
    who: 'Every visitor, and in particular screen reader users, who are told nothing about what is missing.',
    fix: [
      'Replace the applet with HTML and JavaScript.',
      'Until then, give it an alt and fallback text inside the element that provides the same information.',
    ],
    example: '<p>Loan calculator: <a href="/calculator">use the calculator</a></p>',
  },
  {
    keys: ['adjacent-image-text-links', 'link-adjacent-same-target'],
    title: 'Adjacent links go to the same place',
    what: 'An image link and a text link (or two links) side by side lead to the same page, so the same destination is announced twice and takes two tab stops.',
    who: 'Keyboard users press Tab twice for one destination; screen reader users hear the link twice, once possibly as an unnamed image.',
    fix: [
      'Put the image and the text into one <a> element.',
      'Give the image alt="" inside the combined link, since the text names the destination.',
    ],
    example:
      '<a href="/products/kettle">\n  <img src="kettle.jpg" alt=""> Electric kettle, 1.7 l\n</a>',
  },
  {
    keys: ['decorative-image-review'],
    title: 'Image hidden from assistive technology may not be decorative',
    what: 'The image is hidden from screen readers (alt="", role="presentation" or aria-hidden). That is right only if it adds nothing the text does not already say; a person has to check.',
    who: 'If the image carries information (a chart, a warning icon, a product photo), screen reader users miss it.',
    fix: [
      'Look at the image in its context. If it only decorates, leave it hidden.',
      'If it conveys something, remove the hiding and write an alt that says it.',
    ],
    example: '<img src="warning.svg" alt="Warning:"> Your session ends in 2 minutes.',
  },
  {
    keys: ['server-side-image-map', 'ibm:img_ismap_misuse'],
    title: 'Server-side image map is used',
    what: 'The image uses ismap, so the server decides the destination from the click coordinates. Its regions are not links in the page: they cannot be reached by keyboard and have no names.',
    who: 'Keyboard users and screen reader users cannot use any of its destinations; voice control users cannot name them.',
    fix: [
      'Replace the server-side map with a client-side <map> whose <area> elements each have an href and alt.',
      'Or offer the same destinations as ordinary text links next to the image.',
    ],
    example:
      '<img src="regions.png" alt="Sales regions" usemap="#regions">\n<map name="regions">\n  <area shape="rect" coords="0,0,100,80" href="/north" alt="North">\n</map>',
  },
  {
    keys: ['ibm:imagemap_alt_exists'],
    title: 'Image map or its areas have no text alternative',
    what: 'The image of a client-side image map, or one of its <area> elements, has no alt text, so the map and its links have no names.',
    who: 'Screen reader users hear unnamed links or the file name; voice control users cannot activate a region by name.',
    fix: [
      'Give the <img> an alt that names the whole map.',
      'Give every <area href> an alt that names its destination.',
    ],
    example:
      '<img src="map.png" alt="Campus map" usemap="#campus">\n<map name="campus">\n  <area shape="circle" coords="60,40,20" href="/library" alt="Library">\n</map>',
  },
  {
    keys: ['ibm:asciiart_alt_exists'],
    title: 'ASCII art has no text alternative',
    what: 'A picture drawn with characters (ASCII art) has no text that says what it shows. Screen readers read it character by character.',
    who: 'Screen reader and braille users hear a long run of punctuation and letters with no meaning.',
    fix: [
      'Wrap the art in a <figure> with role="img" and an aria-label, or hide it with aria-hidden="true" and give a text description next to it.',
    ],
    example:
      '<figure role="img" aria-label="A cat sitting, drawn in text characters">\n  <pre>  /\\_/\\\n ( o.o )</pre>\n</figure>',
  },
  {
    keys: ['ibm:canvas_content_described'],
    title: 'Canvas content may have no accessible alternative',
    what: 'A <canvas> draws pixels that assistive technology cannot read. Unless the page gives its content another way, that content is invisible to screen readers.',
    who: 'Screen reader users, and keyboard users when the canvas holds interactive controls.',
    fix: [
      'Give a static canvas role="img" and an aria-label that says what it shows.',
      'For charts or interactive canvases, put an equivalent (a data table, real buttons) in the HTML next to or inside the canvas.',
    ],
    example:
      '<canvas role="img" aria-label="Visitors per month: rising from 1,200 in January to 3,400 in June"></canvas>',
  },
  {
    keys: ['ibm:embed_alt_exists', 'ibm:noembed_content_exists', 'ibm:frame_src_valid'],
    title: 'Embedded content has no accessible alternative',
    what: 'An <embed> element (or a frame showing non-HTML content) has no name and no alternative content, or its <noembed> is empty. Assistive technology cannot read plug-in content.',
    who: 'Screen reader users and people whose browser cannot play the embedded content get nothing.',
    fix: [
      'Give the <embed> a title or aria-label that says what it is.',
      'Offer the same content in HTML, or link to an accessible version, next to it.',
    ],
    example:
      '<embed src="tour.mp4" type="video/mp4" title="Virtual tour of the shop">\n<p><a href="tour-transcript.html">Transcript of the virtual tour</a></p>',
  },
  {
    keys: ['ibm:emoticons_alt_exists'],
    title: 'Emoticon has no text alternative',
    what: 'An emoticon written with punctuation, such as :-), is read out character by character ("colon dash close paren").',
    who: 'Screen reader users lose the feeling the emoticon expresses.',
    fix: ['Wrap it in an element with role="img" and an aria-label that names it.'],
    example: '<span role="img" aria-label="smiling face">:-)</span>',
  },
  {
    keys: ['ibm:figure_label_exists'],
    title: 'Figure has no caption or label',
    what: 'A <figure> has no <figcaption> and no aria-label, so the figure as a whole has no name.',
    who: 'Screen reader users moving through figures cannot tell what each one is about.',
    fix: ['Add a <figcaption> inside the figure that describes it.'],
    example:
      '<figure>\n  <img src="sales.png" alt="Bar chart of sales by quarter">\n  <figcaption>Sales rose every quarter in 2025.</figcaption>\n</figure>',
  },
  {
    keys: ['ibm:img_alt_background', 'ibm:style_background_decorative'],
    title: 'Information is given only in a CSS background image',
    what: 'A CSS background image appears to carry information (text, an icon that is the only label of a control). Background images have no text alternative and vanish in high-contrast modes.',
    who: 'Screen reader users, and people using Windows high-contrast or forced colours, lose the information.',
    fix: [
      'Use an <img> with an alt for images that carry information.',
      'Or keep the background but put the same information in the HTML as text (visible, or visually hidden for an icon button).',
    ],
    example:
      '<button class="icon-print"><span class="visually-hidden">Print this page</span></button>',
  },
  {
    keys: ['ibm:img_alt_decorative'],
    title: 'Image marked as decorative also has a text alternative',
    what: 'The image has role="presentation" or role="none" but also a non-empty alt, so it is both hidden and named, and browsers resolve this differently.',
    who: 'Screen reader users may or may not hear the alt depending on their browser.',
    fix: [
      'If the image is decorative, set alt="" and remove the role.',
      'If it carries information, remove role="presentation" and keep the alt.',
    ],
    example: '<img src="flourish.png" alt="">',
  },
  {
    keys: ['ibm:img_longdesc_misuse'],
    title: 'Long description link does not point at HTML',
    what: 'The image has a longdesc attribute that does not point at an HTML page or fragment, so the long description cannot be opened by assistive technology.',
    who: 'Screen reader users who need the detailed description of a complex image.',
    fix: [
      'Point longdesc at an HTML page or an id on the page holding the description, or better, link to the description with a visible link next to the image.',
    ],
    example:
      '<img src="chart.png" alt="Energy use by month" aria-describedby="chart-desc">\n<p id="chart-desc">Use peaks in January at 420 kWh…</p>',
  },
  {
    keys: ['ibm:media_alt_brief'],
    title: 'Alternative text is too long',
    what: 'The alt text is longer than about 150 characters. Screen readers cannot pause or move within an alt, so long text is hard to take in.',
    who: 'Screen reader users, who must hear the whole alt again to catch a detail.',
    fix: [
      'Keep the alt to a short description of what matters.',
      'Put longer descriptions in the page text or a caption linked with aria-describedby.',
    ],
    example:
      '<img src="map.png" alt="Route from the station to our office" aria-describedby="route">\n<p id="route">Leave the station by the north exit…</p>',
  },
];
