import type { RuleGuidance } from './types.js';

/** Colour, contrast, zoom, reflow and text presentation (WCAG 1.3.3, 1.3.4, 1.4). */
export const visualGuidance: readonly RuleGuidance[] = [
  {
    keys: ['afw4f7'],
    title: 'Text has too little contrast',
    what: 'The text colour is too close to its background: below 4.5:1 for normal text, or below 3:1 for large text (24 px, or 18.7 px bold).',
    who: 'People with low vision or colour vision deficiencies, older people, and anyone reading on a phone in sunlight.',
    fix: [
      'Darken the text or lighten the background (or the reverse) until the ratio reaches 4.5:1, or 3:1 for large text.',
      'Check text over images and gradients at its lightest point, and check hover and focus states too.',
    ],
    example: '.note {\n  color: #595959; /* 7:1 on white */\n  background: #ffffff;\n}',
  },
  {
    keys: ['field-boundary-contrast'],
    title: 'Form field edges are too faint to see',
    what: "The field's border, and its fill, differ too little from the background around it (below 3:1), so its edges disappear into the page.",
    who: 'People with low vision, and anyone on a poor screen or in bright light, cannot find where to type.',
    fix: [
      'Give the field a border with at least 3:1 contrast against the background around it.',
      'Or give the field a fill that differs from the page by at least 3:1.',
    ],
    example:
      'input, select, textarea {\n  border: 1px solid #767676; /* 4.5:1 on white */\n  background: #ffffff;\n}',
  },
  {
    keys: ['icon-contrast'],
    title: 'Icon-only control is too faint to make out',
    what: 'A button or link shows only an icon, and the icon differs too little from its background (below 3:1) to be made out.',
    who: 'People with low vision cannot tell what the control does, or that it is there.',
    fix: [
      'Give the icon at least 3:1 contrast against the background directly behind it.',
      'Consider a visible text label beside the icon as well.',
    ],
    example:
      '.icon-button svg {\n  fill: currentColor;\n}\n.icon-button {\n  color: #4b5563; /* 7.6:1 on white */\n}',
  },
  {
    keys: ['09o5cg'],
    title: 'Text does not reach enhanced contrast',
    what: 'The text meets the minimum contrast but not the enhanced level of 7:1 (4.5:1 for large text) that WCAG AAA asks for.',
    who: 'People with moderately low vision who do not use magnification or contrast-enhancing tools.',
    fix: ['Where you aim for AAA, darken the text or lighten the background until it reaches 7:1.'],
    example: 'body { color: #333333; background: #ffffff; } /* 12.6:1 */',
  },
  {
    keys: ['link-in-text-block'],
    title: 'Link in text is distinguished only by colour',
    what: 'A link inside a paragraph differs from the text around it only by colour, with less than 3:1 contrast between the two and no underline or other cue.',
    who: 'People with colour blindness or low vision cannot find the links.',
    fix: [
      'Underline links in running text (or add another non-colour cue such as bold plus a border).',
    ],
    example: 'p a { text-decoration: underline; text-underline-offset: 0.15em; }',
  },
  {
    keys: ['color-pair-specified'],
    title: 'Text colour is set without a background colour, or the reverse',
    what: "The style sets a foreground colour without a background (or the reverse), so with a user's own colours the pair may become unreadable, for example dark text on a dark default background.",
    who: 'People with low vision who set their own colours in the browser or operating system.',
    fix: [
      'Whenever you set color, set background-color on the same element (or an ancestor), and the reverse.',
    ],
    example: '.card { color: #1f2937; background-color: #ffffff; }',
  },
  {
    keys: ['ibm:text_sensory_misuse'],
    title: 'Instructions rely on shape, size or position alone',
    what: 'The instructions refer to something only by how it looks or where it is ("click the round button", "see the box on the right").',
    who: 'Blind people, who cannot see the shape or position; people using zoom or small screens, where the layout changes.',
    fix: ['Name the control or section as well ("select Continue, the round button below").'],
    example: '<p>Select <strong>Continue</strong> at the end of the form.</p>',
  },
  {
    keys: ['ibm:style_highcontrast_visible'],
    title: 'Content may disappear in high-contrast mode',
    what: 'CSS is used to draw or position content that matters (borders of controls, icons as backgrounds), which Windows high contrast or forced colours mode removes.',
    who: 'People with low vision who use high-contrast or forced colour settings.',
    fix: [
      'Test with forced colours on; use real borders or outlines (with transparent colour where needed) instead of shadows and backgrounds for meaning.',
    ],
    example: 'button { border: 2px solid transparent; } /* shows as a border in forced colours */',
  },
  {
    keys: ['b4f0c3', 'meta-viewport-large', 'ibm:meta_viewport_zoomable'],
    title: 'Page blocks zooming',
    what: 'The meta viewport tag sets user-scalable=no or a maximum-scale below 2 (or below 5 for the stricter check), so people cannot pinch to zoom on phones and tablets.',
    who: 'People with low vision who need to enlarge text on mobile devices.',
    fix: ['Remove user-scalable=no and maximum-scale from the viewport tag.'],
    example: '<meta name="viewport" content="width=device-width, initial-scale=1">',
  },
  {
    keys: ['b33eff'],
    title: 'Page is locked to one orientation',
    what: 'CSS rotates or locks the page so it is shown only in portrait or only in landscape.',
    who: 'People whose tablet or phone is mounted in one orientation, for example on a wheelchair.',
    fix: ['Remove the orientation lock; let the layout adapt to both orientations.'],
    example: '@media (orientation: landscape) { .layout { grid-template-columns: 1fr 1fr; } }',
  },
  {
    keys: ['24afc2', '78fd32', '9e45ec', 'text-spacing-clipped'],
    title: 'Text spacing cannot be increased without loss',
    what: 'The style fixes letter spacing, word spacing or line height with !important in a style attribute, or a box cuts off its text when people widen the spacing (line height 1.5, letters 0.12em, words 0.16em, paragraphs 2em).',
    who: 'People with dyslexia or low vision who use their own style settings to space out text.',
    fix: [
      'Do not use !important on line-height, letter-spacing or word-spacing in inline styles.',
      'Let boxes grow with their text: use min-height instead of height and avoid overflow: hidden on text.',
    ],
    example: '.teaser { min-height: 6rem; line-height: 1.5; } /* no fixed height */',
  },
  {
    keys: ['reflow', 'reflow-horizontal-scroll'],
    title: 'Content needs horizontal scrolling on a narrow screen',
    what: 'At a width of 320 CSS pixels (a desktop window zoomed to 400 %), people must scroll sideways to read lines of text, because something has a fixed width.',
    who: 'People with low vision who zoom in, and people on small phones.',
    fix: [
      'Use flexible widths (max-width, %, flex and grid wrapping) instead of fixed pixel widths.',
      'Let long words and links break (overflow-wrap: anywhere), and scale images with max-width: 100%.',
    ],
    example:
      '.content { max-width: 40rem; }\nimg { max-width: 100%; height: auto; }\n.row { display: flex; flex-wrap: wrap; }',
  },
  {
    keys: ['reflow-text-clipped'],
    title: 'Text is cut off on a narrow screen',
    what: 'At a width of 320 CSS pixels this text no longer fits its box and is cut off.',
    who: 'People with low vision who zoom in to 400 %, and people on small phones.',
    fix: [
      'Let boxes grow with their text: avoid fixed heights and widths combined with overflow: hidden.',
    ],
    example: '.label { min-width: 0; overflow-wrap: anywhere; }',
  },
  {
    keys: ['text-resize-clipped'],
    title: 'Text is cut off or overlaps when enlarged to 200 %',
    what: 'With text twice as large, this box no longer holds its text: it is cut off or runs into other content.',
    who: 'People with low vision who enlarge text in the browser.',
    fix: ['Size boxes in em or rem, or let them grow (min-height instead of height).'],
    example: '.banner { min-height: 3em; padding: 0.5em 1em; }',
  },
  {
    keys: ['text-viewport-units', 'ibm:style_viewport_resizable'],
    title: 'Text does not grow when the page is zoomed',
    what: 'The text is sized in viewport units (vw), so browser zoom leaves it the same size.',
    who: 'People with low vision who zoom the page to read.',
    fix: ['Size text in rem or em, or combine vw with rem, for example calc(1rem + 1vw).'],
    example: 'h1 { font-size: clamp(1.5rem, 1rem + 2vw, 3rem); }',
  },
  {
    keys: ['text-too-small'],
    title: 'Text is very small',
    what: 'Text is smaller than 9 px, which is hard to read for many people without zooming.',
    who: 'Older people and people with low vision.',
    fix: ['Use at least 12 px (0.75rem) for notes, and 16 px (1rem) for body text.'],
    example: '.fine-print { font-size: 0.875rem; }',
  },
  {
    keys: ['text-justified'],
    title: 'Long text is justified',
    what: 'A long passage is justified, so gaps between words vary and form "rivers" down the text.',
    who: 'People with dyslexia and other reading difficulties.',
    fix: ['Align long text to one side (text-align: start).'],
    example: 'article p { text-align: start; }',
  },
  {
    keys: ['text-all-caps'],
    title: 'Long text is in capital letters',
    what: 'A long passage is set in capital letters, which removes the word shapes readers rely on.',
    who: 'People with dyslexia and low vision read capitals more slowly; some screen readers spell capitalised words letter by letter.',
    fix: [
      'Write the text in normal case and use capitals only for short labels (with text-transform, not typed capitals).',
    ],
    example: '.tag { text-transform: uppercase; } /* short labels only */',
  },
  {
    keys: ['text-italic'],
    title: 'Long text is in italics',
    what: 'A long passage is set in italics, whose slanted and joined letter forms are harder to tell apart.',
    who: 'People with dyslexia or low vision find italic text harder to read.',
    fix: ['Use italics for short emphasis only.'],
    example: 'blockquote { font-style: normal; border-inline-start: 4px solid #94a3b8; }',
  },
  {
    keys: ['ibm:text_whitespace_valid'],
    title: 'Spaces are used to space out letters',
    what: 'Spaces are typed between the letters of a word ("W E L C O M E") to spread it out.',
    who: 'Screen reader users hear single letters instead of the word.',
    fix: ['Type the word normally and use CSS letter-spacing for the look.'],
    example: '<h2 style="letter-spacing: 0.3em">Welcome</h2>',
  },
];
