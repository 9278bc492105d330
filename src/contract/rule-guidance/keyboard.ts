import type { RuleGuidance } from './types.js';

/** Keyboard access, focus, pointer input and content on hover (WCAG 1.4.13, 2.1, 2.4.3, 2.4.7, 2.4.11, 2.5). */
export const keyboardGuidance: readonly RuleGuidance[] = [
  {
    keys: ['keyboard-trap'],
    title: 'Keyboard focus is trapped',
    what: 'Once keyboard focus enters this component, Tab keeps cycling through a few elements and neither Shift+Tab nor Escape gets out, so the rest of the page cannot be reached.',
    who: 'Keyboard users, switch users and many screen reader users are stuck and must reload the page or give up; nobody else notices.',
    fix: [
      'Let Tab and Shift+Tab move focus out of the component in both directions.',
      'If focus is deliberately kept inside (a modal dialog), close the dialog on Escape and on its close button, and return focus to the control that opened it.',
      'Check embedded players and widgets in iframes too: some keep every key press.',
    ],
    example:
      '<dialog id="terms" aria-labelledby="terms-h">\n  <h2 id="terms-h">Terms</h2>\n  <button type="button" onclick="this.closest(\'dialog\').close()">Close</button>\n</dialog>\n<!-- showModal() keeps Tab inside; Escape closes it -->',
  },
  {
    keys: ['keyboard-event-handlers'],
    title: 'Mouse event handler has no keyboard equivalent',
    what: 'The element reacts to mouse events (mouseover, mousedown, dblclick) with no matching keyboard event, so its function may be out of reach without a mouse.',
    who: 'Keyboard users, switch users and people using voice control or screen readers.',
    fix: [
      'Pair each mouse handler with a keyboard one (mouseover with focus, mousedown with keydown).',
      'Prefer click on a native <button> or <a href>, which the keyboard triggers too.',
    ],
    example:
      '<button type="button" class="preview">Preview</button>\n<!-- listen for click, and for focus where you use mouseover -->',
  },
  {
    keys: ['mouse-only-control'],
    title: 'Control works with the mouse but not with the keyboard',
    what: 'This element looks or acts like a control (a click handler, a pointer cursor, a button or link role) but Tab never reaches it, so keyboard users cannot use it.',
    who: 'Keyboard users, switch users, and people using screen readers or voice control, who cannot reach or activate the control.',
    fix: [
      'Use a real <button> for actions and <a href> for navigation.',
      'If a custom element must stay, give it tabindex="0", a role and Enter/Space handling.',
    ],
    example:
      '<button type="button" class="card-toggle">Show details</button>\n<!-- instead of <div onclick="…"> -->',
  },
  {
    keys: ['ibm:script_onclick_avoid', 'ibm:script_onclick_misuse'],
    title: 'Script is used to make something act as a link',
    what: 'An element that is not a real link (a <div>, a <span>, or an <a> without a usable href) takes people to another page with an onclick script.',
    who: 'Keyboard users may not reach it; screen reader users are not told it is a link; nobody can open it in a new tab, copy its address or bookmark it.',
    fix: ['Use an <a> element with the destination in its href, and drop the script.'],
    example:
      '<a href="/offers">Spring offers</a>\n<!-- instead of <span onclick="location.href=\'/offers\'"> -->',
  },
  {
    keys: ['custom-control-keys'],
    title: 'Custom control does not respond to Enter or Space',
    what: 'Tab reaches this control and a click works, but pressing Enter (or Space on a button) does nothing.',
    who: 'Keyboard and switch users, who can focus the control but not use it.',
    fix: [
      'Use a native <button> or <a href>, which handle the keys themselves.',
      'Otherwise handle Enter (and Space for button roles) in a keydown listener.',
    ],
    example: '<button type="button" aria-pressed="false">Mute</button>',
  },
  {
    keys: ['hover-only-content'],
    title: 'Content opens on hover but not with the keyboard',
    what: 'Moving the pointer onto this element shows more content (a submenu, a tooltip), but giving it keyboard focus, pressing Enter, Space or the arrow keys does not.',
    who: 'Keyboard users and screen reader users never see the content or reach its links.',
    fix: [
      'Show the content on focus as well (:focus-within in CSS), or use a button that opens it with aria-expanded.',
    ],
    example:
      '<li>\n  <button aria-expanded="false" aria-controls="sub">Products</button>\n  <ul id="sub" hidden>…</ul>\n</li>',
  },
  {
    keys: [
      'hover-content-not-dismissible',
      'hover-content-not-hoverable',
      'hover-content-not-persistent',
      'ibm:style_hover_persistent',
    ],
    title: 'Content shown on hover or focus cannot be dismissed, hovered or kept open',
    what: 'Content that appears when the pointer rests on an element or when it takes focus cannot be closed with Escape, vanishes when the pointer moves onto it, or disappears on its own after a moment.',
    who: 'People who magnify the screen, who must move the pointer to read the popup; people with low vision or slow reading; keyboard users whose view is covered.',
    fix: [
      'Close the popup on Escape without moving focus.',
      'Keep it open while the pointer is over the trigger or the popup itself.',
      'Keep it visible until the pointer or focus leaves or the user dismisses it; never hide it on a timer.',
    ],
    example:
      '<button aria-describedby="tip">Info</button>\n<div role="tooltip" id="tip">Prices include VAT</div>\n<!-- show on hover and focus; stay open over the tooltip; hide on Escape -->',
  },
  {
    keys: ['focus-not-visible', 'ibm:style_focus_visible'],
    title: 'Keyboard focus is not visible',
    what: 'When this element gets keyboard focus, its look does not change (no outline, shadow, border or background change), usually because the outline was removed with CSS.',
    who: 'Sighted keyboard users and switch users cannot tell where they are on the page.',
    fix: [
      'Do not set outline: none without a replacement.',
      'Give a clear :focus-visible style with at least 3:1 contrast against the background.',
    ],
    example:
      'a:focus-visible,\nbutton:focus-visible {\n  outline: 3px solid #1d4ed8;\n  outline-offset: 2px;\n}',
  },
  {
    keys: ['focus-indicator-faint'],
    title: 'Keyboard focus indicator is too faint to see',
    what: 'Focus shows only as an outline, shadow, border, background or text colour too close to what was there before (under 3:1 contrast), so it barely changes the page.',
    who: 'Sighted keyboard users, and people with low vision in particular, cannot tell where they are on the page.',
    fix: [
      'Give the focus outline a colour with at least 3:1 contrast against the background it is drawn over.',
      'Make it at least 2 px thick, and offset it so it does not merge with a border.',
    ],
    example:
      'a:focus-visible,\nbutton:focus-visible,\ninput:focus-visible {\n  outline: 2px solid #1d4ed8; /* 6.7:1 on white */\n  outline-offset: 2px;\n}',
  },
  {
    keys: ['focus-appearance'],
    title: 'Focus indicator is smaller or fainter than WCAG 2.4.13 (AAA) asks',
    what: 'The part of the focus indicator that changes by at least 3:1 covers less than a 2 CSS px thick line round the element (WCAG 2.4.13 Focus Appearance, level AAA).',
    who: 'People with low vision, who need a large, high-contrast change to find focus.',
    fix: [
      'Draw a focus outline or ring at least 2 px thick all round the element.',
      'Give it at least 3:1 contrast against the pixels it replaces (the background it is drawn over).',
    ],
    example:
      'a:focus-visible,\nbutton:focus-visible {\n  outline: 2px solid #1d4ed8;\n  outline-offset: 2px;\n}',
  },
  {
    keys: ['focus-hidden', 'ibm:element_tabbable_visible'],
    title: 'Keyboard focus lands on something that cannot be seen',
    what: 'Tab stops on an element that is hidden, off-screen, clipped or transparent while it has focus.',
    who: 'Sighted keyboard users lose track of where they are, and press Tab into nothing.',
    fix: [
      'Remove hidden elements from the tab order (hidden, inert or tabindex="-1").',
      'Or make the element appear when it receives focus, as a skip link does.',
    ],
    example:
      '.skip-link { position: absolute; left: -999px; }\n.skip-link:focus { left: 1rem; top: 1rem; }',
  },
  {
    keys: ['6cfa84'],
    title: 'Keyboard focus reaches content hidden from assistive technology',
    what: 'Tab stops on an element inside aria-hidden="true", so screen reader users land on something their software does not announce.',
    who: 'Screen reader users, who hear nothing (or the wrong thing) when focus arrives.',
    fix: [
      'Take the element out of the tab order (tabindex="-1", inert or hidden).',
      'Or do not hide its container from assistive technology.',
    ],
    example: '<div class="carousel-slide" inert>\n  <a href="/offer">Spring offer</a>\n</div>',
  },
  {
    keys: ['focus-obscured', 'ibm:element_tabbable_unobscured'],
    title: 'Focused element is covered by other content',
    what: 'When this element has keyboard focus, other content (a sticky header or footer, a cookie banner, a chat button) sits on top of it.',
    who: 'Sighted keyboard users cannot see the element they are on.',
    fix: [
      'Add scroll-padding to the page equal to the height of sticky bars, so focused elements scroll clear of them.',
      'Let banners be dismissed, and do not cover content with non-modal overlays.',
    ],
    example: 'html { scroll-padding-top: 5rem; scroll-padding-bottom: 4rem; }',
  },
  {
    keys: ['focus-order', 'tabindex'],
    title: 'Tab order does not follow the reading order',
    what: 'Keyboard focus jumps against the visual reading order here, often because of a tabindex greater than zero, which puts the element before everything else.',
    who: 'Keyboard and screen reader users, who meet controls in a confusing order; people with cognitive disabilities.',
    fix: [
      'Remove positive tabindex values (use 0 or -1 only).',
      'Order the HTML source like the layout, rather than rearranging with CSS.',
    ],
    example: '<input id="first-name" tabindex="0">\n<!-- not tabindex="3" -->',
  },
  {
    keys: ['0ssw9k'],
    title: 'Scrollable area cannot be reached with the keyboard',
    what: 'A region scrolls (overflow: auto or scroll) but neither it nor anything inside it can get keyboard focus, so keyboard users cannot scroll it.',
    who: 'Keyboard users cannot read the content that is scrolled out of view.',
    fix: ['Give the scrolling container tabindex="0", a role="region" and a name.'],
    example:
      '<div class="table-scroll" tabindex="0" role="region" aria-label="Price table">…</div>',
  },
  {
    keys: ['akn7bn'],
    title: 'Frame with interactive content is removed from the tab order',
    what: 'An <iframe> has tabindex="-1" but contains links or controls, so keyboard users cannot reach them.',
    who: 'Keyboard users cannot use anything inside the frame.',
    fix: ['Remove tabindex="-1" from frames that contain interactive content.'],
    example: '<iframe src="/booking-widget" title="Book a table"></iframe>',
  },
  {
    keys: ['accesskeys', 'accesskey-conflict', 'ibm:element_accesskey_unique'],
    title: 'Two elements share one access key',
    what: 'Several elements use the same accesskey value, so the shortcut reaches only one of them, and which one differs between browsers.',
    who: 'Keyboard users who rely on shortcuts; the key may also override a shortcut of the browser or screen reader.',
    fix: [
      'Give each element its own key, or remove accesskey (it often clashes with assistive technology shortcuts).',
    ],
    example: '<a href="/" accesskey="h">Home</a>\n<a href="/search" accesskey="s">Search</a>',
  },
  {
    keys: ['ibm:script_focus_blur_review'],
    title: 'Script may remove focus from a focusable element',
    what: 'A script calls blur() or moves focus away when an element receives focus, so keyboard users cannot stay on it.',
    who: 'Keyboard and screen reader users, who cannot reach or use the element.',
    fix: [
      'Do not blur elements on focus; if an element should not take focus, remove it from the tab order instead.',
    ],
    example: '<button type="button">Continue</button>',
  },
  {
    keys: ['ibm:download_keyboard_controllable'],
    title: 'File download may not work with the keyboard or may lose focus',
    what: 'A download is started by a control that may not work with the keyboard, or focus may be lost after the download starts.',
    who: 'Keyboard and screen reader users, who cannot start the download or lose their place after it.',
    fix: [
      'Use a plain link with the download attribute, or a button; keep focus on it after the download starts.',
    ],
    example: '<a href="/files/report.pdf" download>Download the report (PDF, 2 MB)</a>',
  },
  {
    keys: ['dialog-focus-not-moved'],
    title: 'Keyboard focus does not move into the dialog that opened',
    what: 'After the control opens a dialog, focus stays behind it and the next Tab does not reach the dialog either.',
    who: 'Keyboard and screen reader users, who do not know the dialog opened and cannot get to it.',
    fix: [
      'Move focus into the dialog when it opens (its first control, or its heading with tabindex="-1").',
      'The <dialog> element opened with showModal() does this by itself.',
    ],
    example:
      '<dialog id="cart" aria-labelledby="cart-h">\n  <h2 id="cart-h" tabindex="-1">Your cart</h2>\n</dialog>\n<!-- cart.showModal() -->',
  },
  {
    keys: ['modal-focus-escapes'],
    title: 'Keyboard focus leaves an open modal dialog',
    what: 'While a modal dialog is open, Tab moves focus to content behind it, which the dialog covers.',
    who: 'Keyboard users work on things they cannot see; screen reader users leave the dialog without knowing.',
    fix: [
      'Keep Tab and Shift+Tab inside the dialog until it closes: use <dialog> with showModal(), or make the rest of the page inert.',
    ],
    example: '<main inert>…</main>\n<dialog open aria-modal="true" aria-labelledby="h">…</dialog>',
  },
  {
    keys: ['dialog-focus-not-returned'],
    title: 'Keyboard focus does not return to the control after the dialog closes',
    what: 'When the dialog closes, focus does not go back to the control that opened it, but to the top of the page or nowhere.',
    who: 'Keyboard and screen reader users, who have to find their place again from the top.',
    fix: [
      'Remember the opener and call focus() on it when the dialog closes (<dialog> does this when closed normally).',
    ],
    example:
      "const opener = document.activeElement;\ndialog.addEventListener('close', () => opener.focus());",
  },
  {
    keys: ['character-key-shortcut'],
    title: 'A single character key triggers a shortcut',
    what: 'Pressing one letter, digit or punctuation key, with focus on the page and not in a field, makes the page act.',
    who: 'Speech input users, whose spoken words are typed as letters and set off shortcuts by accident; keyboard users with tremors who hit keys unintentionally.',
    fix: [
      'Offer a setting to turn the shortcuts off or to remap them to keys with Ctrl or Alt.',
      'Or make them work only while the component they belong to has focus.',
    ],
    example:
      "document.addEventListener('keydown', (e) => {\n  if (e.altKey && e.key === 's') openSearch();\n});",
  },
  {
    keys: ['down-event-action'],
    title: 'Control acts when the pointer goes down, not when it comes up',
    what: 'Pressing the pointer on this control makes the page act before the button or finger is released, so a person who presses the wrong control cannot slide away to cancel.',
    who: 'People with tremors or limited dexterity, and anyone who mis-taps on a touch screen.',
    fix: ['Act on click (the up event), or let the action be undone.'],
    example: "button.addEventListener('click', deleteItem); // not 'mousedown' or 'pointerdown'",
  },
  {
    keys: ['ibm:draggable_alternative_exists'],
    title: 'Dragging has no single-pointer alternative',
    what: 'An element can be dragged (to reorder, move or resize), but the same result cannot be reached with a single click or tap.',
    who: 'People who cannot hold a button down and move at the same time: people with motor disabilities, and users of head pointers, eye tracking or voice control.',
    fix: [
      'Offer buttons or menus that do the same ("Move up", "Move to…") next to the drag handle.',
    ],
    example:
      '<li draggable="true">Task A\n  <button type="button">Move up</button>\n  <button type="button">Move down</button>\n</li>',
  },
  {
    keys: ['target-size'],
    title: 'Target is too small or too close to others',
    what: 'A link or control is smaller than 24 by 24 CSS pixels and sits so close to other targets that a 24 px circle around it overlaps them.',
    who: 'People with tremors or limited dexterity, people on touch screens, and older users, who hit the neighbouring target by mistake.',
    fix: [
      'Make targets at least 24 × 24 px (44 × 44 px is better), or leave enough space between them.',
    ],
    example:
      '.pager a {\n  display: inline-block;\n  min-width: 24px;\n  min-height: 24px;\n  padding: 0.25rem;\n}',
  },
  {
    keys: ['htmlcs:2.5.4.manual'],
    title: 'Function triggered by motion may have no alternative',
    what: 'A function may be set off by moving the device (shaking, tilting) or by gestures toward the camera; such functions need an ordinary control too and a way to turn motion off.',
    who: 'People who cannot move a device, for example with a device mounted on a wheelchair, and people whose tremors set off motion by accident.',
    fix: [
      'Offer a button for every function triggered by motion, and a setting that turns motion actuation off.',
    ],
    example: '<button type="button">Undo</button>\n<!-- as well as "shake to undo" -->',
  },
];
