import type { OwnCheckDefinition } from '../own-engine.js';

/**
 * Conformly's own link and presentation checks. `kind` is the most a finding of the check can
 * be; each says why it is that and not more (docs/decisions, "Own link and presentation checks").
 */
export const checks = {
  /*
   * Violation when nothing programmatically tied to the link (its sentence, paragraph, list item,
   * table cell and headers, aria-describedby, title) and nothing next to it explains the text:
   * WCAG 2.4.4 fails (F84/F63). Needs-review when such context exists (2.4.4 may pass; 2.4.9,
   * AAA, fails anyway) or when only loosely related text nearby (a card's heading) explains it.
   */
  'link-text-generic': {
    title: 'Link text does not say where the link goes',
    description:
      'Links such as "click here", "read more" or "more" make no sense when a screen reader lists the links of a page. Put the destination into the link text, e.g. "Read more about pricing", or into an aria-label that starts with the visible text.',
    wcag: ['2.4.4', '2.4.9'],
    kind: 'violation',
    impact: 'serious',
  },
  /*
   * Violation when nothing tied to the link explains it (as for vague text): screen readers skip
   * or spell out punctuation, so "." or "»" alone says nothing about the destination (2.4.4,
   * F84/F63); needs-review where its sentence or description may explain it, and for symbols
   * such as arrows, which people may read as "next" or "back" in their place.
   */
  'link-text-punctuation': {
    title: 'Link text is only punctuation or a symbol',
    description:
      'A link whose whole text is a full stop, a dash or an arrow is read as nothing, or as "dot", by screen readers, and is hard to see and to hit. Link words that name the destination instead.',
    wcag: ['2.4.4', '2.4.9'],
    kind: 'violation',
    impact: 'serious',
  },
  /*
   * Best practice: a title that repeats the text adds nothing (H33 asks it to supplement the
   * text) and some screen readers read it twice; no criterion fails for it.
   */
  'link-title-redundant': {
    title: 'Link title only repeats the link text',
    description:
      'The title attribute says the same as the link text, so some screen readers announce it twice and mouse users get a tooltip that adds nothing. Remove the title, or use it for information the text lacks.',
    wcag: [],
    kind: 'best-practice',
    impact: 'minor',
  },
  /*
   * Needs-review: an audio or video file linked without a transcript, captions or audio
   * description offered beside it (1.2.1 for audio or video alone, 1.2.2 and 1.2.3 for video
   * with sound); the alternative may sit elsewhere, and only a person can judge it.
   */
  'link-media-no-alternative': {
    title: 'Link to audio or video without an alternative nearby',
    description:
      'People who cannot hear or see the recording need its content another way: a transcript for audio, captions and a transcript or audio description for video. Link the alternative right beside the recording.',
    wcag: ['1.2.1', '1.2.2', '1.2.3'],
    kind: 'needs-review',
    impact: 'serious',
  },
  /*
   * Violation when the field asks for the user's own name, e-mail, phone, address, postal code,
   * birthday or organisation (by its type or label; the label or its legend says it is the
   * user's: "your", "my") and no autocomplete names that purpose (1.3.5; H98 is the technique).
   * Needs-review when whose data it is stays open (1.3.5 does not apply to data about someone
   * else) or only the field's name tells its purpose.
   */
  'autocomplete-missing': {
    title: 'Field for personal data does not name its purpose (autocomplete)',
    description:
      'Fields that ask for the user\'s own name, e-mail, phone or address need an autocomplete attribute naming their purpose (for example autocomplete="email"), so browsers can fill them in and assistive technology can show familiar icons or words. This helps people with memory, motor and language disabilities.',
    wcag: ['1.3.5'],
    kind: 'violation',
    impact: 'serious',
  },
  /*
   * Violation when the page's text, long enough and in every part, is clearly in another language
   * than its lang attribute names (3.1.1; H57 gets the language wrong): measured with the eld
   * language detector, thresholds in language.ts. Needs-review when the text is short or mixed.
   */
  'language-page-mismatch': {
    title: 'Page language does not match its text',
    description:
      'The lang attribute of the page names another language than the one its text is written in, so screen readers read it with the wrong voice and pronunciation, and translation tools are misled. Set lang on the html element to the language of the page.',
    wcag: ['3.1.1'],
    kind: 'violation',
    impact: 'serious',
  },
  /*
   * Violation only for a long passage that is clearly, in every part, in another language than
   * the one declared for it (3.1.2, H58); shorter passages are needs-review: names, quotations and
   * borrowed words are exempt, and a detector misjudges short text.
   */
  'language-part-mismatch': {
    title: 'Passage in another language is not marked',
    description:
      'This passage is in another language than the one declared for it. Mark it with a lang attribute (for example <span lang="fr">), so screen readers switch to the right pronunciation.',
    wcag: ['3.1.2'],
    kind: 'violation',
    impact: 'moderate',
  },
  /*
   * Needs-review: in the served source a link, button, label, heading, list or table is not
   * closed where it should be (the old 4.1.1 failure F70). 4.1.1 is obsolete in WCAG 2.2; what
   * counts is whether the browser's repair changed a name (4.1.2) or the structure (1.3.1),
   * which a person confirms on the page. Each result names the one criterion at stake.
   */
  'markup-tree-changed': {
    title: 'Broken markup may change a name or the page structure',
    description:
      'An element is not closed where it should be in the HTML the server sends. Browsers repair this, and the repair can pull the text that follows into a link, button or heading, or cut a list or table short, so assistive technology reads another structure than the one shown. Close every element in the right place (an HTML validator finds them).',
    wcag: ['1.3.1', '4.1.2'],
    kind: 'needs-review',
    impact: 'moderate',
  },
  /* Best practice: 4.1.1 Parsing is obsolete in WCAG 2.2 and these repairs do not change meaning. */
  'markup-invalid': {
    title: 'Markup is malformed',
    description:
      'Elements closed out of order or attributes written twice are repaired by browsers, each in its own way. Valid HTML is read the same by every browser and assistive technology.',
    wcag: [],
    kind: 'best-practice',
    impact: 'minor',
  },
  /* A web address can be a fine link text (a reference list); a person must judge. */
  'link-text-url': {
    title: 'Link text is a bare web address',
    description:
      'Screen readers read a web address character by character, and it rarely says what the page is. Use a short description of the destination as the link text.',
    wcag: ['2.4.4'],
    kind: 'needs-review',
    impact: 'minor',
  },
  /* Context can tell such links apart in ways the check does not see (a card's heading). */
  'link-same-text-different-target': {
    title: 'Links with the same text go to different places',
    description:
      'When links read the same but lead to different pages, people who navigate by links cannot tell them apart. Give each link a text that names its destination.',
    wcag: ['2.4.4', '2.4.9'],
    kind: 'needs-review',
    impact: 'moderate',
  },
  /* WCAG technique H2 is sufficient, not required: redundant links are a nuisance, not a failure. */
  'link-adjacent-same-target': {
    title: 'Adjacent links go to the same place',
    description:
      'An image link and a text link (or two links) side by side to one destination mean two tab stops and a repeated announcement. Put the image and the text into one link.',
    wcag: [],
    kind: 'best-practice',
    impact: 'minor',
  },
  /* Whether the link runs a script action (then it should be a button) only a person can tell. */
  'link-used-as-button': {
    title: 'Link goes nowhere and probably acts as a button',
    description:
      'A link to "#" or "javascript:" usually runs an action. Assistive technology announces it as a link, and Space does not activate it. Use a <button>, or give the element role="button" and handle Space.',
    wcag: ['4.1.2'],
    kind: 'needs-review',
    impact: 'moderate',
  },
  /* Naming the file type is advisory (H30, G197); leaving it out surprises, rarely blocks. */
  'link-file-unannounced': {
    title: 'Link to a file does not say what kind of file it is',
    description:
      'A link that downloads or opens a PDF, office document, archive, audio or video file should say so (and how big it is), so people know what will open and whether their software can read it.',
    wcag: ['2.4.4'],
    kind: 'needs-review',
    impact: 'minor',
  },
  /*
   * Never a violation: the criterion that asks for a warning, 3.2.5 (G201, H83), is level AAA,
   * and whether opening a new window disorients depends on the link. The id is the rule key IBM
   * (a_target_warning) and HTML_CodeSniffer (H83.3) report under, so their findings merge.
   */
  'link-new-window': {
    title: 'Link opens a new window without warning',
    description:
      'Links that open a new window or tab should say so, e.g. "(opens in a new tab)" in the link text or its description, so people are not lost when the Back button stops working.',
    wcag: ['3.2.5'],
    kind: 'needs-review',
    impact: 'minor',
  },
  /*
   * Violation: at a 320 px wide viewport (400 % zoom of a 1280 px window) text is cut off or the
   * page scrolls sideways to reach it. Content with a two-dimensional layout (data tables, maps,
   * images, video, code) is allowed to scroll and is left out.
   */
  'reflow-horizontal-scroll': {
    title: 'Content does not fit a narrow screen (horizontal scrolling at 320 px)',
    description:
      'At 400 % zoom (a 320 px wide window) people must scroll sideways to read every line. Use flexible widths (max-width, %, flex/grid wrapping) instead of fixed widths.',
    wcag: ['1.4.10'],
    kind: 'violation',
    impact: 'serious',
  },
  /* Violation where text is cut off; needs-review where it ends in an ellipsis or line clamp. */
  'reflow-text-clipped': {
    title: 'Text is cut off on a narrow screen (320 px)',
    description:
      'At 400 % zoom (a 320 px wide window) this text no longer fits its box and is cut off. Let boxes grow with their text: avoid fixed heights and widths with overflow:hidden.',
    wcag: ['1.4.10'],
    kind: 'violation',
    impact: 'serious',
  },
  /*
   * Needs-review: text alone is doubled (like a browser's "zoom text only" or a large default
   * font). Browser zoom may still pass 1.4.4 for the same box, so a person confirms.
   */
  'text-resize-clipped': {
    title: 'Text is cut off or overlaps when text is enlarged to 200 %',
    description:
      'With the text twice as large this box no longer holds its text: it is cut off or runs into other content. Size boxes in em/rem or let them grow (min-height instead of height).',
    wcag: ['1.4.4'],
    kind: 'needs-review',
    impact: 'serious',
  },
  /*
   * Violation where the size follows the viewport all the way (F94: zoom cannot enlarge it);
   * needs-review where it stops at a minimum that more zoom might still double.
   */
  'text-viewport-units': {
    title: 'Text does not grow when the page is zoomed',
    description:
      'This text is sized in viewport units (vw), so browser zoom leaves it the same size and people cannot enlarge it to 200 %. Size text in rem or em, or combine vw with rem, e.g. calc(1rem + 1vw).',
    wcag: ['1.4.4'],
    kind: 'violation',
    impact: 'serious',
  },
  /*
   * Violation where text is cut off: 1.4.12 asks for no loss of content when a user sets these
   * spacings, and no other way around it counts. Needs-review for ellipsis or overlap.
   */
  'text-spacing-clipped': {
    title: 'Text is cut off when text spacing is increased',
    description:
      'People with dyslexia or low vision set wider line, letter and word spacing (line height 1.5, letter spacing 0.12em, word spacing 0.16em, 2em after paragraphs). This box then cuts its text off. Let boxes grow with their text instead of fixing their height.',
    wcag: ['1.4.12'],
    kind: 'violation',
    impact: 'serious',
  },
  /* F87 names it a failure, but browsers expose generated text to screen readers: a person judges. */
  'css-generated-content': {
    title: 'Meaningful text is added with CSS',
    description:
      'Text added with CSS ::before or ::after (such as "New:" or "Warning") is lost when styles are turned off or replaced, and some assistive technology does not read it. Put meaningful words into the HTML.',
    wcag: ['1.3.1'],
    kind: 'needs-review',
    impact: 'moderate',
  },
  /* No success criterion sets a minimum size; zoom can enlarge it (1.4.4 covers that). */
  'text-too-small': {
    title: 'Text is very small',
    description:
      'Text smaller than 9 px is hard to read for many people without zooming. Use at least 12 px (0.75rem) for body text and notes.',
    wcag: [],
    kind: 'best-practice',
    impact: 'minor',
  },
  /* 1.4.8 (visual presentation) is level AAA: a recommendation, not an A/AA failure. */
  'text-justified': {
    title: 'Long text is justified',
    description:
      'Justified text makes uneven gaps between words ("rivers") that make reading hard for people with dyslexia. Align long text to one side.',
    wcag: ['1.4.8'],
    kind: 'best-practice',
    impact: 'minor',
  },
  'text-all-caps': {
    title: 'Long text is in capital letters',
    description:
      'Long passages in capitals are slower to read, and some screen readers spell words in capitals letter by letter. Use capitals for short labels only.',
    wcag: ['1.4.8'],
    kind: 'best-practice',
    impact: 'minor',
  },
  'text-italic': {
    title: 'Long text is in italics',
    description:
      'Long passages in italics are harder to read, especially for people with dyslexia or low vision. Use italics for short emphasis only.',
    wcag: ['1.4.8'],
    kind: 'best-practice',
    impact: 'minor',
  },
  /*
   * Needs-review: 2.2.2 requires a way to pause motion that lasts over 5 s; the check measures
   * the image's own running time but cannot see a pause control next to it.
   */
  'animated-image': {
    title: 'Animated image plays for more than 5 seconds',
    description:
      'Moving images distract people with attention or reading difficulties and can trigger migraines. Stop the animation within 5 seconds, or offer a way to pause it (for example a still image with a play button).',
    wcag: ['2.2.2'],
    kind: 'needs-review',
    impact: 'moderate',
  },
  /*
   * Violation when every visible border side of an enabled text field or select, and its fill,
   * stand out by less than 3:1 from the colour around it, measured from styles alone (no shadow,
   * outline, image, gradient, filter or opacity involved): the field's edges fail 1.4.11's test.
   * Needs-review when the field has no border at all: a wrapper or its place may set it apart.
   */
  'field-boundary-contrast': {
    title: 'Form field edges are too faint to see',
    description:
      'The border of this field (and its fill) differs so little from the background that people with low vision cannot see where the field is. Give the field a border with at least 3:1 contrast against the background around it, for example #767676 on white.',
    wcag: ['1.4.11'],
    kind: 'violation',
    impact: 'serious',
  },
  /*
   * Violation when a button or link shows only an icon (an inline SVG in one colour, or an icon
   * font glyph) whose colour has less than 3:1 contrast against the solid colour behind it: the
   * graphic is what tells a sighted user what the control does (1.4.11). Many-coloured icons,
   * translucent paint and backgrounds styles cannot decide are not judged.
   */
  'icon-contrast': {
    title: 'Icon-only control is too faint to make out',
    description:
      'This control shows only an icon, and the icon differs so little from its background that people with low vision may not make it out or know what it does. Give the icon at least 3:1 contrast against its background.',
    wcag: ['1.4.11'],
    kind: 'violation',
    impact: 'serious',
  },
} as const satisfies Record<string, OwnCheckDefinition>;

/** The id of one of the link and presentation checks. */
export type ChecksCheckId = keyof typeof checks;
