import type { RuleGuidance } from './types.js';

/** ARIA roles, states and properties, ids and widgets (WCAG 1.3.1, 4.1.2 and ARIA conformance). */
export const ariaGuidance: readonly RuleGuidance[] = [
  {
    keys: ['674b10'],
    title: 'Role attribute has an invalid value',
    what: 'The role attribute holds a word that is not a WAI-ARIA role (a typo, or an invented role), so browsers ignore it and the element has no role, or not the one intended.',
    who: 'Screen reader users hear the element as plain text or a generic group instead of the widget it should be.',
    fix: [
      'Use a role from the WAI-ARIA specification, spelled in lower case (button, navigation, tablist…).',
      'Better still, use the native HTML element that has the role already.',
    ],
    example: '<nav aria-label="Main">…</nav>\n<!-- instead of <div role="navigaton"> -->',
  },
  {
    keys: ['4e8ab6'],
    title: 'Element with a role lacks a required state or property',
    what: 'The element has an ARIA role that needs certain attributes (a checkbox needs aria-checked, a slider aria-valuenow, a heading aria-level, a combobox aria-expanded), and one is missing.',
    who: 'Screen reader users are not told the state: whether the box is checked, where the slider is, whether the list is open.',
    fix: [
      'Add the required attributes for the role and keep them updated by script.',
      'Or use the native element (<input type="checkbox">, <input type="range">), which exposes its state itself.',
    ],
    example: '<div role="checkbox" aria-checked="false" tabindex="0">Subscribe</div>',
  },
  {
    keys: ['5c01ea', 'ibm:aria_attribute_conflict'],
    title: 'ARIA attribute is not allowed on this element',
    what: 'The element uses an ARIA state or property that its role does not support (for example aria-checked on a link), or one that contradicts a native HTML attribute on the same element.',
    who: "Screen reader users may hear a state that does not exist, or browsers drop it silently, so the author's intent is lost.",
    fix: [
      'Remove attributes the role does not support, or change the role to one that supports them.',
      'Where HTML has the same attribute (required, disabled, checked, hidden), use only the HTML one.',
    ],
    example:
      '<input type="checkbox" id="t" required>\n<!-- not <input type="checkbox" required aria-required="false"> -->',
  },
  {
    keys: ['5f99a7'],
    title: 'ARIA attribute does not exist',
    what: 'The element has an attribute starting with aria- that is not defined in WAI-ARIA (often a typo such as aria-labeledby).',
    who: 'Screen reader users miss whatever the attribute was meant to say, since browsers ignore unknown attributes.',
    fix: ['Correct the spelling, or remove the attribute.'],
    example: '<input id="q" aria-labelledby="q-label">',
  },
  {
    keys: ['6a7281'],
    title: 'ARIA attribute has an invalid value',
    what: 'An ARIA attribute holds a value its definition does not allow, for example aria-expanded="yes" or aria-hidden="hidden".',
    who: 'Screen reader users get the wrong state, or none, because browsers fall back to the default.',
    fix: [
      'Use the values the attribute allows (true/false, an id, a number, one of the listed tokens).',
    ],
    example: '<button aria-expanded="false" aria-controls="menu">Menu</button>',
  },
  {
    keys: ['in6db8', 'ibm:aria_activedescendant_valid'],
    title: 'ARIA reference points at an element that does not exist',
    what: 'An attribute that must refer to other elements by id (aria-labelledby, aria-controls, aria-activedescendant, aria-describedby) names an id that is not on the page, or that belongs to a hidden or empty element.',
    who: 'Screen reader users lose the label, description or active option that the reference should provide.',
    fix: [
      'Point the attribute at the id of an existing, visible element, and keep ids in step when content changes.',
    ],
    example: '<h2 id="ship">Shipping</h2>\n<section aria-labelledby="ship">…</section>',
  },
  {
    keys: ['ff89c9'],
    title: 'Element is outside the container its role requires',
    what: 'The element has a role that must sit inside a particular parent role (a listitem inside a list, a tab inside a tablist, a menuitem inside a menu) but its container is missing or different.',
    who: 'Screen reader users are not told the position or the group ("tab 2 of 4"), and some screen readers ignore the element.',
    fix: [
      'Put the element inside a container with the right role, or use native list and table elements.',
    ],
    example:
      '<div role="tablist">\n  <button role="tab" aria-selected="true">Details</button>\n</div>',
  },
  {
    keys: ['bc4a75', 'ibm:list_children_valid'],
    title: 'Element with a role lacks the children its role requires',
    what: 'The element has a role that must own particular child roles (a list needs listitems, a tablist tabs, a menu menuitems, a grid rows) but holds none, or other elements in between.',
    who: 'Screen reader users cannot move through the items as a group or learn how many there are.',
    fix: [
      'Give the container children with the required roles, and keep wrappers between them presentational.',
    ],
    example:
      '<ul role="menu">\n  <li role="menuitem">Copy</li>\n  <li role="menuitem">Paste</li>\n</ul>',
  },
  {
    keys: ['307n5z', 'aria-text'],
    title: 'Focusable element is inside an element whose children are presentational',
    what: 'A link, button or other focusable element sits inside an element whose role makes its children presentational (a button, an image, a tab, role="text"), so it is reachable by Tab but not exposed to assistive technology.',
    who: 'Keyboard users reach a control that screen reader users cannot hear; screen reader users hear nothing when focus lands there.',
    fix: [
      'Move the inner control out, so interactive elements are never nested inside each other.',
    ],
    example:
      '<div class="card">\n  <button>Add to cart</button>\n  <a href="/details">Details</a>\n</div>',
  },
  {
    keys: ['aria-allowed-role', 'ibm:aria_role_redundant', 'ibm:element_tabbable_role_valid'],
    title: 'Role does not fit the element',
    what: 'The element has a role that HTML does not allow on it (role="button" on a heading), repeats the role it already has (role="button" on a <button>), or is focusable with a role that is not interactive.',
    who: 'Screen reader users hear a different kind of element from what it is or does; redundant roles add noise and can confuse older assistive technology.',
    fix: [
      'Remove redundant roles.',
      'Use the element that has the behaviour you need instead of changing the role of another.',
      'Focusable elements need an interactive role (button, link, checkbox…).',
    ],
    example: '<h2><button aria-expanded="false">Opening hours</button></h2>',
  },
  {
    keys: ['aria-braille-equivalent'],
    title: 'Braille label has no spoken equivalent',
    what: 'The element has aria-braillelabel or aria-brailleroledescription but no ordinary aria-label or role description, so only braille users get the information.',
    who: 'Screen reader users who listen to speech get nothing.',
    fix: [
      'Give the element an accessible name or aria-roledescription as well, and use the braille attributes only to abbreviate them.',
    ],
    example: '<button aria-label="Next slide" aria-braillelabel="next">→</button>',
  },
  {
    keys: ['aria-hidden-body'],
    title: 'Whole page is hidden from assistive technology',
    what: 'The <body> element has aria-hidden="true", so everything on the page is hidden from screen readers (often left behind by a dialog script).',
    who: 'Screen reader users get an empty page.',
    fix: [
      'Remove aria-hidden from <body>.',
      'To hide content behind a modal dialog, use the inert attribute on the other top-level regions, or <dialog> with showModal().',
    ],
    example: '<main inert>…</main>\n<dialog open aria-labelledby="d">…</dialog>',
  },
  {
    keys: ['aria-roledescription'],
    title: 'Role description is on an element without a role',
    what: 'aria-roledescription is used on an element that has no semantic role (a plain <div> or <span>), where assistive technology ignores it or announces a role that does not match any behaviour.',
    who: 'Screen reader users hear a made-up role for something that is not a widget.',
    fix: [
      'Use aria-roledescription only on elements with a real role, and only when the role name misleads.',
    ],
    example: '<section aria-roledescription="slide" aria-label="1 of 4">…</section>',
  },
  {
    keys: ['aria-label-review'],
    title: 'ARIA label may not describe the element',
    what: 'The element is named with aria-label or aria-labelledby; a person has to check that the name says what the element is or does.',
    who: 'Screen reader and voice control users rely on the name alone for elements such as icon buttons and landmarks.',
    fix: ['Read each name in context: it should be short, specific and match any visible text.'],
    example: '<nav aria-label="Breadcrumb">…</nav>',
  },
  {
    keys: ['presentation-with-semantic-children', 'ibm:table_structure_misuse'],
    title: 'Presentational element holds elements with meaning',
    what: 'An element marked role="presentation" or role="none" (often a layout table) contains structure that only makes sense with its role, such as table headers, captions or summary.',
    who: 'Screen reader users hear fragments of table structure with no table around them.',
    fix: [
      'If it is a layout table, remove th, caption, summary, scope and headers from it.',
      'If it is a data table, remove role="presentation".',
    ],
    example: '<table role="presentation">\n  <tr><td>Logo</td><td>Menu</td></tr>\n</table>',
  },
  {
    keys: ['ibm:table_aria_descendants'],
    title: 'Table part has its own role',
    what: 'A row, cell or header inside a <table> has an explicit role, which overrides its table semantics.',
    who: 'Screen reader users lose row and column headers when moving through the table.',
    fix: ['Remove the role attributes from tr, th and td inside tables.'],
    example: '<table>\n  <tr><th scope="col">Item</th><th scope="col">Price</th></tr>\n</table>',
  },
  {
    keys: ['focus-order-semantics'],
    title: 'Focusable element has no fitting role',
    what: 'An element that Tab reaches has no interactive role (for example a <div tabindex="0"> used as a button), so assistive technology does not say what it is.',
    who: 'Screen reader users hear a group or plain text and do not know they can activate it.',
    fix: [
      'Use a native control, or add the right role (button, link…) and the keyboard behaviour that goes with it.',
    ],
    example: '<button type="button">Show more</button>',
  },
  {
    keys: ['3ea0c8', 'ibm:element_id_unique'],
    title: 'Id is used more than once',
    what: 'Two or more elements on the page share one id. Labels, aria-labelledby and in-page links that use the id reach only the first one.',
    who: 'Screen reader users may hear the wrong label or none; skip links may go to the wrong place.',
    fix: ['Make every id unique on the page (in generated markup, add the row or item number).'],
    example:
      '<label for="qty-1">Quantity</label><input id="qty-1">\n<label for="qty-2">Quantity</label><input id="qty-2">',
  },
  {
    keys: ['ibm:aria_activedescendant_tabindex_valid'],
    title: 'Element using aria-activedescendant cannot be focused',
    what: 'A composite widget manages its active child with aria-activedescendant, but the element itself is not focusable, so keyboard users never reach it.',
    who: 'Keyboard and screen reader users cannot use the widget.',
    fix: [
      'Give the element with aria-activedescendant tabindex="0" (or make it a native focusable element).',
    ],
    example:
      '<ul role="listbox" tabindex="0" aria-activedescendant="opt-2">\n  <li role="option" id="opt-2">Green</li>\n</ul>',
  },
  {
    keys: ['ibm:aria_child_tabbable', 'ibm:widget_tabbable_exists'],
    title: 'Widget has nothing the keyboard can reach',
    what: 'A composite widget (a menu, listbox, grid, tablist, toolbar) has no element in the tab order, so Tab skips it entirely.',
    who: 'Keyboard users, switch users and many screen reader users cannot operate it.',
    fix: [
      'Give one element of the widget tabindex="0" (the selected one), and move focus between items with the arrow keys (roving tabindex).',
    ],
    example:
      '<div role="tablist">\n  <button role="tab" aria-selected="true" tabindex="0">A</button>\n  <button role="tab" aria-selected="false" tabindex="-1">B</button>\n</div>',
  },
  {
    keys: ['ibm:widget_tabbable_single'],
    title: 'Widget has more than one tab stop',
    what: 'A composite widget (a tablist, menu, radio group, toolbar) puts several of its items in the tab order, instead of one tab stop with arrow keys inside.',
    who: 'Keyboard users must press Tab through every item to get past the widget; screen reader users get a different model from the one the role announces.',
    fix: [
      'Keep one item at tabindex="0" and the others at tabindex="-1", and move between them with arrow keys.',
    ],
    example:
      '<div role="toolbar" aria-label="Format">\n  <button tabindex="0">Bold</button>\n  <button tabindex="-1">Italic</button>\n</div>',
  },
  {
    keys: ['ibm:aria_keyboard_handler_exists', 'ibm:aria_eventhandler_role_valid'],
    title: 'Custom widget may not work with the keyboard',
    what: 'An element with an interactive ARIA role or a mouse event handler may have no keyboard handling, or no role that tells assistive technology it can be used.',
    who: 'Keyboard and switch users cannot operate it; screen reader users do not know it is interactive.',
    fix: [
      'Give elements with event handlers a fitting role, make them focusable, and handle the keys the role implies (Enter and Space for buttons, arrows for menus).',
      'Prefer native elements that bring their keyboard support with them.',
    ],
    example: '<button type="button" aria-expanded="false" aria-controls="panel">Filters</button>',
  },
  {
    keys: ['ibm:aria_attribute_deprecated'],
    title: 'Deprecated ARIA role or attribute is used',
    what: 'The element uses an ARIA role or attribute that WAI-ARIA has deprecated (for example aria-grabbed, aria-dropeffect or role="directory"), which assistive technology may no longer support.',
    who: 'Screen reader users may hear nothing of what the attribute was meant to say.',
    fix: ['Replace it with its current equivalent, or remove it.'],
    example: '<ul aria-label="Files">…</ul>\n<!-- instead of role="directory" -->',
  },
  {
    keys: ['ibm:aria_attribute_redundant'],
    title: 'ARIA attribute repeats an HTML attribute',
    what: 'The element sets an ARIA attribute that says the same as a native HTML attribute on it (aria-required with required, aria-disabled with disabled).',
    who: 'Nobody is blocked, but the two can drift apart when one is updated by script and the other is not.',
    fix: ['Keep the HTML attribute and remove the redundant ARIA one.'],
    example: '<input id="email" type="email" required>',
  },
  {
    keys: [
      'ibm:combobox_active_descendant',
      'ibm:combobox_autocomplete_valid',
      'ibm:combobox_design_valid',
      'ibm:combobox_focusable_elements',
      'ibm:combobox_haspopup_valid',
      'ibm:combobox_popup_reference',
    ],
    title: 'Combobox does not follow the ARIA pattern',
    what: "The combobox's parts do not fit together as ARIA 1.2 requires: the popup is not referenced with aria-controls, aria-haspopup does not match the popup's role, focus moves into the list instead of staying on the input, or aria-autocomplete is misplaced.",
    who: 'Screen reader users are not told the list opened, which option is highlighted, or how suggestions work; keyboard users may get stuck in the list.',
    fix: [
      'Put role="combobox", aria-expanded, aria-controls and aria-autocomplete on the text input.',
      'Keep DOM focus on the input and point aria-activedescendant at the highlighted option.',
      'Or use a native <select> or <input list>.',
    ],
    example:
      '<label for="city">City</label>\n<input id="city" role="combobox" aria-expanded="true" aria-controls="city-list"\n  aria-autocomplete="list" aria-activedescendant="city-2">\n<ul id="city-list" role="listbox">\n  <li role="option" id="city-2" aria-selected="true">Graz</li>\n</ul>',
  },
  {
    keys: ['ibm:application_content_accessible'],
    title: 'Content inside an application region may not be readable',
    what: 'Static text or images sit inside an element with role="application", where screen readers switch off their reading keys, so that content may not be read.',
    who: 'Screen reader users, who cannot read text in an application region the usual way.',
    fix: [
      'Use role="application" only for widgets that need every key, and keep static content outside it.',
      'Or link the text to a focusable element with aria-describedby.',
    ],
    example:
      '<h2>Drawing board</h2>\n<p>Use the arrow keys to move the pen.</p>\n<div role="application" aria-label="Drawing board">…</div>',
  },
];
