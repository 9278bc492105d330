import type { RuleGuidance } from './types.js';

/** Names of links, buttons and fields; labels, groups and form behaviour (1.3.1, 1.3.5, 2.5.3, 3.2, 3.3, 4.1.2). */
export const namesAndFormsGuidance: readonly RuleGuidance[] = [
  {
    keys: ['c487ae'],
    title: 'Link has no accessible name',
    what: 'The link has no text that assistive technology can read: it is empty, holds only an image without alt, or only an icon font glyph.',
    who: 'Screen reader users hear "link" and nothing else; voice control users cannot say its name to follow it.',
    fix: [
      'Put text inside the link that names the destination.',
      'For an image link, give the image an alt that names the destination; for an icon link, add visually hidden text or an aria-label.',
    ],
    example:
      '<a href="/cart"><svg aria-hidden="true" focusable="false">…</svg><span class="visually-hidden">Shopping cart</span></a>',
  },
  {
    keys: ['97a4e1'],
    title: 'Button has no accessible name',
    what: 'The button has no text, no aria-label and no aria-labelledby; often it holds only an icon.',
    who: 'Screen reader users hear "button" with no idea of what it does; voice control users cannot press it by name.',
    fix: [
      'Put visible text in the button, or add an aria-label that names its action ("Close", "Search").',
      'Hide the icon itself with aria-hidden="true".',
    ],
    example: '<button type="button" aria-label="Close"><svg aria-hidden="true">…</svg></button>',
  },
  {
    keys: ['e086e5'],
    title: 'Form field has no label',
    what: 'The input, select or text area has no accessible name: no <label>, no aria-label or aria-labelledby. A placeholder or title alone is not a dependable label.',
    who: 'Screen reader users hear "edit text" without knowing what to type; voice control users cannot move to the field by name; everyone loses the hint once a placeholder disappears.',
    fix: [
      'Add a visible <label for="…"> whose for matches the field\'s id, or wrap the field in its label.',
      'Where a visible label is impossible (a search box beside a Search button), use aria-label.',
    ],
    example:
      '<label for="email">E-mail address</label>\n<input id="email" type="email" autocomplete="email">',
  },
  {
    keys: ['cae760'],
    title: 'Frame has no title',
    what: 'The <iframe> has no title or aria-label, so assistive technology announces it as "frame" without saying what it contains.',
    who: 'Screen reader users moving between frames cannot tell a video from a map or an advertisement.',
    fix: ['Add a title attribute that says what the frame holds.'],
    example: '<iframe src="https://maps.example/embed" title="Map of our shop location"></iframe>',
  },
  {
    keys: ['2t702h'],
    title: 'Summary of a disclosure has no accessible name',
    what: 'A <summary> element (the toggle of a <details> disclosure) is empty or holds only an unnamed image, so the toggle has no name.',
    who: 'Screen reader users hear an unnamed expandable control; voice control users cannot name it.',
    fix: ['Put text in the <summary> that says what the disclosure reveals.'],
    example:
      '<details>\n  <summary>Delivery times</summary>\n  <p>Orders ship within two days.</p>\n</details>',
  },
  {
    keys: ['m6b1q3'],
    title: 'Menu item has no accessible name',
    what: 'An element with role menuitem, menuitemcheckbox or menuitemradio has no text or label.',
    who: 'Screen reader users moving through the menu hear unnamed items and cannot choose.',
    fix: ['Put text in each menu item, or an aria-label when it shows only an icon.'],
    example:
      '<li role="menuitem">Rename</li>\n<li role="menuitem" aria-label="Delete"><svg aria-hidden="true">…</svg></li>',
  },
  {
    keys: ['control-name'],
    title: 'Control has no accessible name',
    what: 'An interactive element or widget (for example a custom slider, switch, tab, tree item or a role that requires a name) exposes no name to assistive technology.',
    who: 'Screen reader users hear only the role ("slider", "switch"); voice control users cannot address it.',
    fix: [
      'Give the element a visible label and point aria-labelledby at it, or add an aria-label.',
      'Prefer native elements (<input type="range">, <button>) with a <label>, which get their name for free.',
    ],
    example:
      '<span id="vol-label">Volume</span>\n<div role="slider" tabindex="0" aria-labelledby="vol-label" aria-valuenow="5" aria-valuemin="0" aria-valuemax="10"></div>',
  },
  {
    keys: ['ibm:aria_accessiblename_exists'],
    title: 'Element whose role needs a name has none',
    what: 'The element has a role that requires an accessible name (for example a dialog, a table, a figure, a widget or a region meant as a landmark), but it has no text, aria-label or aria-labelledby that gives one.',
    who: 'Screen reader users hear only the role ("dialog", "table") and cannot tell this one from others; voice control users cannot name it.',
    fix: [
      'Point aria-labelledby at the visible heading or caption of the element, or add an aria-label.',
    ],
    example: '<h2 id="fees-h">Fees</h2>\n<table aria-labelledby="fees-h">…</table>',
  },
  {
    keys: ['aria-dialog-name'],
    title: 'Dialog has no accessible name',
    what: 'An element with role dialog or alertdialog has no aria-label or aria-labelledby, so when it opens assistive technology cannot say what it is.',
    who: 'Screen reader users hear "dialog" without knowing its purpose.',
    fix: ["Point aria-labelledby at the dialog's heading."],
    example:
      '<div role="dialog" aria-modal="true" aria-labelledby="dlg-title">\n  <h2 id="dlg-title">Edit address</h2>\n</div>',
  },
  {
    keys: ['aria-tab-name'],
    title: 'Tab has no accessible name',
    what: 'An element with role="tab" has no text, aria-label or aria-labelledby, so the tab is announced without a name.',
    who: 'Screen reader users hear "tab, 2 of 4" without knowing what the tab shows.',
    fix: ['Put text in the tab, or an aria-label when it shows only an icon.'],
    example: '<button role="tab" aria-selected="true" aria-controls="p1" id="t1">Details</button>',
  },
  {
    keys: ['aria-tooltip-name'],
    title: 'Tooltip has no accessible name',
    what: 'An element with role="tooltip" is empty or has no label, so the description it is meant to give is empty.',
    who: 'Screen reader users get no description for the control that uses the tooltip.',
    fix: [
      'Put the tooltip text inside the role="tooltip" element and reference it with aria-describedby.',
    ],
    example:
      '<button aria-describedby="tip">Save</button>\n<div role="tooltip" id="tip">Saves a draft, not the final version</div>',
  },
  {
    keys: ['aria-treeitem-name'],
    title: 'Tree item has no accessible name',
    what: 'An element with role="treeitem" has no text, aria-label or aria-labelledby, so the item is announced without a name.',
    who: 'Screen reader users moving through the tree hear unnamed items.',
    fix: ['Put text in each tree item or give it an aria-label.'],
    example: '<li role="treeitem" aria-expanded="false">Documents</li>',
  },
  {
    keys: ['meter-name'],
    title: 'Meter or progress bar has no accessible name',
    what: 'An element with role meter or progressbar (or a <progress> / <meter>) has no label, so its value is announced without saying what it measures.',
    who: 'Screen reader users hear "60 percent" with no idea what is 60 % done.',
    fix: ['Give it a visible label referenced by aria-labelledby, or an aria-label.'],
    example:
      '<label for="upload">Uploading report.pdf</label>\n<progress id="upload" max="100" value="60">60 %</progress>',
  },
  {
    keys: ['label-title-only', 'ibm:input_label_visible', 'ibm:input_placeholder_label_visible'],
    title: 'Form field has no visible label',
    what: 'The field is named only by a title or placeholder, or by an invisible label, so there is no label on screen while people type.',
    who: 'People with memory or cognitive disabilities forget what the field was for once the placeholder goes; voice control users cannot see a name to say; low-vision users often cannot read faint placeholder text.',
    fix: [
      'Add a visible <label> tied to the field with for/id.',
      'Keep the placeholder only for an example of the format, if at all.',
    ],
    example:
      '<label for="postcode">Postcode</label>\n<input id="postcode" autocomplete="postal-code" placeholder="e.g. 1010">',
  },
  {
    keys: ['ibm:label_content_exists'],
    title: 'Label is empty',
    what: 'A <label> element has no text, so the field it labels has no name.',
    who: 'Screen reader users hear an unnamed field; sighted users see no label.',
    fix: ['Put descriptive text in the label.'],
    example: '<label for="city">City</label>\n<input id="city" autocomplete="address-level2">',
  },
  {
    keys: ['form-field-multiple-labels'],
    title: 'Form field has more than one label',
    what: 'Two or more <label> elements point at the same field. Screen readers and browsers differ in which one they use, so the name heard may not be the one meant.',
    who: 'Screen reader users may hear only part of the label, or a different one from what sighted users read; voice control may not match.',
    fix: [
      'Keep one <label> per field.',
      'Put extra help text in an element referenced by aria-describedby.',
    ],
    example:
      '<label for="pw">Password</label>\n<input id="pw" type="password" aria-describedby="pw-help">\n<p id="pw-help">At least 12 characters.</p>',
  },
  {
    keys: ['label-reference-valid'],
    title: 'Label points at a missing field',
    what: "The label's for attribute names an id that does not exist, or an element that is not a form control, so the label labels nothing.",
    who: 'Screen reader users hear the field without a name; clicking the label does not move to the field, which hurts people with motor disabilities who rely on the bigger target.',
    fix: ["Make the label's for match the id of the field it describes."],
    example: '<label for="phone">Phone</label>\n<input id="phone" type="tel" autocomplete="tel">',
  },
  {
    keys: ['hidden-field-label'],
    title: 'Hidden form field has a label',
    what: 'A field of type hidden (or with the hidden attribute) has a label. People never see or fill it in, so the label points at nothing they can use.',
    who: 'Screen reader users may hear a label with no field to go with it.',
    fix: [
      'Remove the label from the hidden field, or, if people should fill it in, make the field visible.',
    ],
    example: '<input type="hidden" name="token" value="…">',
  },
  {
    keys: ['2ee8b8'],
    title: 'Visible label is not part of the accessible name',
    what: 'The control shows one text but its accessible name (from aria-label or aria-labelledby) does not contain that text, for example a button showing "Send" named "Submit form".',
    who: 'Voice control users say what they see ("click Send") and nothing happens; screen reader users hear different words from those on screen.',
    fix: [
      'Make the accessible name start with the visible text, or remove the aria-label so the visible text is the name.',
    ],
    example:
      '<button aria-label="Send message">Send</button>\n<!-- or simply -->\n<button>Send</button>',
  },
  {
    keys: ['form-field-value'],
    title: 'Form field may have no initial value where one is expected',
    what: 'A select list or option group has no selected option, or a field that needs a starting value has none, so assistive technology may announce nothing as chosen.',
    who: 'Screen reader users can be unsure whether a choice has been made.',
    fix: [
      'Mark a sensible default with selected, or add a first option such as "Choose a country".',
    ],
    example:
      '<select id="country">\n  <option value="" selected>Choose a country</option>\n  <option>Austria</option>\n</select>',
  },
  {
    keys: ['73f2c2', 'ibm:input_autocomplete_valid'],
    title: 'Autocomplete value is not valid for the field',
    what: 'The autocomplete attribute holds a value that is not in the HTML list of purposes, or one that does not fit the type of field, so browsers cannot fill it in and assistive technology cannot tell its purpose.',
    who: 'People with memory, motor or language disabilities who rely on autofill; people using tools that show familiar icons for each field.',
    fix: [
      'Use one of the HTML autocomplete tokens that matches the field (name, email, tel, street-address, postal-code, cc-number…).',
      'Use "off" only where autofill would be wrong (a one-time amount).',
    ],
    example: '<label for="fn">First name</label>\n<input id="fn" autocomplete="given-name">',
  },
  {
    keys: ['autocomplete-missing'],
    title: 'Field for personal data does not name its purpose (autocomplete)',
    what: "The field asks for the user's own data (name, e-mail, phone, address) but has no autocomplete attribute naming that purpose.",
    who: 'People with memory, motor and language disabilities, who depend on the browser filling in their details and on tools that mark fields with familiar icons.',
    fix: ["Add the matching autocomplete token to each field that asks for the user's own data."],
    example:
      '<label for="mail">E-mail</label>\n<input id="mail" type="email" autocomplete="email">\n<label for="tel">Phone</label>\n<input id="tel" type="tel" autocomplete="tel">',
  },
  {
    keys: ['ibm:error_message_exists'],
    title: 'Error message is not tied to its field',
    what: 'A custom error message is referenced with an id that does not exist, or it is shown without being exposed to assistive technology (no aria-describedby or aria-errormessage, no live region).',
    who: 'Screen reader users do not hear why the form was rejected or which field to correct.',
    fix: [
      'Put the message in an element with an id next to the field and reference it with aria-describedby (and aria-invalid="true").',
      'Move focus to the first field with an error, or announce a summary in a live region.',
    ],
    example:
      '<label for="dob">Date of birth</label>\n<input id="dob" aria-invalid="true" aria-describedby="dob-err">\n<p id="dob-err">Enter the date as DD/MM/YYYY.</p>',
  },
  {
    keys: ['ibm:form_font_color', 'ibm:style_color_misuse'],
    title: 'Colour alone conveys information',
    what: 'Something is shown only by colour, such as required fields in red or a status in green, with no text, symbol or pattern to say the same.',
    who: 'People with colour blindness, people with low vision, screen reader users (colour is not announced), and anyone on a monochrome display.',
    fix: [
      'Add text or a symbol that says what the colour says ("required", "*" explained in the form intro, "Error:").',
      'Keep the colour as an extra cue.',
    ],
    example:
      '<label for="name">Name <span aria-hidden="true">*</span><span class="visually-hidden">required</span></label>\n<input id="name" required>',
  },
  {
    keys: ['fieldset-legend', 'ibm:fieldset_label_valid'],
    title: 'Group of fields has no legend or unique name',
    what: 'A <fieldset> (or role="group") has no <legend> or label, or two groups share one name, so the question the fields answer is not announced with them.',
    who: 'Screen reader users hear "Yes" and "No" radio buttons without the question they belong to, or cannot tell two "Address" groups apart.',
    fix: [
      'Give each <fieldset> a <legend> as its first child that states the question or purpose.',
      'Make the legends of groups on one page different ("Billing address", "Delivery address").',
    ],
    example:
      '<fieldset>\n  <legend>Delivery address</legend>\n  <label for="d-street">Street</label>\n  <input id="d-street" autocomplete="shipping street-address">\n</fieldset>',
  },
  {
    keys: ['radio-group', 'ibm:input_fields_grouped'],
    title: 'Related radio buttons or checkboxes are not grouped',
    what: 'Radio buttons or checkboxes that answer one question (they share a name) are not inside a <fieldset> with a legend, or a role="group" with a label.',
    who: 'Screen reader users hear each option without the question; they may not know the options belong together.',
    fix: ['Wrap the options in a <fieldset> and put the question in its <legend>.'],
    example:
      '<fieldset>\n  <legend>Contact me by</legend>\n  <input type="radio" id="c-mail" name="contact"><label for="c-mail">E-mail</label>\n  <input type="radio" id="c-phone" name="contact"><label for="c-phone">Phone</label>\n</fieldset>',
  },
  {
    keys: ['select-optgroup'],
    title: 'Long option list is not grouped',
    what: 'A select list has many options that fall into groups, but they are not marked with <optgroup>.',
    who: 'Screen reader and keyboard users must go through every option one by one without the structure sighted users may infer.',
    fix: ['Group related options in <optgroup label="…"> elements.'],
    example:
      '<select id="store">\n  <optgroup label="Vienna">\n    <option>Mariahilf</option>\n  </optgroup>\n  <optgroup label="Graz">\n    <option>Lend</option>\n  </optgroup>\n</select>',
  },
  {
    keys: ['form-submit-button'],
    title: 'Form has no submit button',
    what: 'The form has no submit button, so it is submitted only by script (on change or on Enter in one field), or not at all by keyboard.',
    who: 'Keyboard and screen reader users may not know how to send the form; people are surprised when it submits without asking.',
    fix: [
      'Add a <button type="submit"> (or <input type="submit">) with a clear label to every form.',
    ],
    example:
      '<form action="/search">\n  <label for="q">Search</label>\n  <input id="q" name="q">\n  <button type="submit">Search</button>\n</form>',
  },
  {
    keys: [
      'ibm:form_submit_review',
      'ibm:form_interaction_review',
      'ibm:input_onchange_review',
      'ibm:script_select_review',
      'input-changes-context',
    ],
    title: 'Changing a field changes the context without warning',
    what: 'Choosing an option, ticking a box or typing in this field opens a window, loads another page, submits the form or moves focus before the person asks for it.',
    who: 'Screen reader and keyboard users, who move through a select list with arrow keys and are sent away on the first option; people with cognitive disabilities, who are disoriented by sudden changes.',
    fix: [
      'Let a button apply the change ("Go", "Apply filters").',
      'If the change must happen on input, say so in the text before the control.',
    ],
    example:
      '<label for="lang">Language</label>\n<select id="lang" name="lang">…</select>\n<button type="submit">Change language</button>',
  },
  {
    keys: ['focus-changes-context'],
    title: 'Giving a control focus changes the context',
    what: 'Moving focus to this element with Tab opens a window, loads another page, submits a form or takes focus away, although the person only arrived on it.',
    who: 'Keyboard and screen reader users, who reach every control on the way through the page and are sent away before they can read it.',
    fix: ['Act only when the person activates the control (click, Enter, Space), never on focus.'],
    example:
      '<button type="button" id="help-btn">Open help</button>\n<!-- listener on click, not on focus -->',
  },
  {
    keys: ['paste-blocked'],
    title: 'Pasting into a password or code field is blocked',
    what: 'The field refuses pasted text, so people must type a password or code from memory or by copying it character by character.',
    who: 'People who rely on a password manager or copy and paste instead of remembering and typing: many people with cognitive, memory or motor disabilities.',
    fix: [
      'Remove the paste and autofill blocking (onpaste="return false", preventDefault on paste).',
      'Mark the field with autocomplete="current-password", "new-password" or "one-time-code".',
    ],
    example:
      '<label for="pw">Password</label>\n<input id="pw" type="password" autocomplete="current-password">',
  },
  {
    keys: ['autofill-blocked'],
    title: 'A password manager cannot fill a password or code field',
    what: 'The field removes a value filled in without typing each key, or stays read-only until a key is pressed, so a browser or password manager cannot fill it.',
    who: 'People who rely on a password manager instead of remembering and typing: many people with cognitive, memory or motor disabilities.',
    fix: [
      'Keep any value the field receives with its input and change events; do not demand one key press per character.',
      'Do not keep the field read-only until a key is pressed.',
      'Mark the field with autocomplete="current-password", "new-password" or "one-time-code".',
    ],
    example:
      '<label for="pw">Password</label>\n<input id="pw" type="password" autocomplete="current-password">',
  },
  {
    keys: ['ibm:input_haspopup_conflict'],
    title: 'Input with a suggestion list also sets aria-haspopup',
    what: 'An <input list="…"> already exposes its suggestions as a listbox; an explicit aria-haspopup on it conflicts with that.',
    who: 'Screen reader users may hear a popup type that does not match what opens.',
    fix: ['Remove aria-haspopup from inputs that use a <datalist>.'],
    example:
      '<label for="fruit">Fruit</label>\n<input id="fruit" list="fruits">\n<datalist id="fruits"><option>Apple</option></datalist>',
  },
  {
    keys: ['ibm:input_label_before', 'ibm:input_label_after'],
    title: 'Label is on the wrong side of the field',
    what: 'The label of a text field or select list comes after it, or the label of a checkbox or radio button comes before it, against the usual layout.',
    who: 'People using screen magnification, who see only part of the screen and look for the label where they expect it; people with cognitive disabilities.',
    fix: [
      'Place labels before text fields and select lists, and after checkboxes and radio buttons.',
    ],
    example:
      '<label for="q">Search</label> <input id="q">\n<input type="checkbox" id="news"> <label for="news">Send me news</label>',
  },
  {
    keys: ['ibm:element_accesskey_labelled'],
    title: 'Element with an access key has no label',
    what: 'An element has an accesskey but no accessible name, so a person who presses the shortcut cannot tell what it reached.',
    who: 'Screen reader and keyboard users of the shortcut.',
    fix: ['Give the element a visible text name or a label, or remove the accesskey.'],
    example: '<a href="/search" accesskey="s">Search</a>',
  },
];
