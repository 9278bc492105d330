/**
 * Hand-checked rule-key tables: the part of the cross-engine rule mapping that no engine ships.
 *
 * A rule key names one check so that findings of different engines on the same element can be
 * merged. Where an engine rule implements a W3C ACT rule, the key is the ACT rule id (axe
 * `actIds`, IBM `act`, both read from the engine snapshots by scripts/build-scanner-data.ts).
 * Everything else gets a named key here. scripts/build-scanner-data.ts combines these tables with
 * the snapshots into src/scanner/data/*.json; the product reads only those JSON files, so after an
 * edit here, rerun `npx tsx scripts/build-scanner-data.ts`.
 */

/** Named keys (no ACT rule) with the title shown to users. ACT keys take their ACT rule name. */
export const namedKeyTitles: Record<string, string> = {
  'redundant-image-alt': 'Image alternative text does not repeat nearby text',
  'image-null-alt-title': 'Decorative image has no title',
  'applet-alt': 'Applet has alternative text',
  'anchor-without-href': 'Anchor without href is used as a link placeholder',
  'control-name': 'User interface control has an accessible name',
  'form-field-value': 'Form field has an initial value or selected option',
  'label-reference-valid': 'Label refers to an existing form control',
  'color-pair-specified': 'Foreground and background colours are specified together',
  'skip-link-target': 'In-page link target exists',
  'form-submit-button': 'Form has a submit button',
  'text-looks-like-heading': 'Text styled as a heading is marked up as a heading',
  'data-table-headers': 'Data table cells are associated with header cells',
  'scope-attr-valid': 'Table scope attribute has a valid value',
  'layout-table-structure': 'Layout table does not use data table markup',
  'table-summary-redundant': 'Table caption and summary are different',
  'table-caption': 'Data table has a caption or summary',
  'fieldset-legend': 'Fieldset has a legend',
  'radio-group': 'Related radio buttons and checkboxes are grouped',
  'select-optgroup': 'Long option lists are grouped',
  'list-markup': 'Lists use list markup',
  'aria-label-review': 'ARIA labelling is meaningful',
  'presentation-with-semantic-children': 'Presentational element has no semantic children',
  'presentational-markup': 'Presentational markup is not used for meaning',
  blink: 'Blinking content is not used',
  'blink-css': 'CSS blinking is not used',
  marquee: 'Scrolling marquee is not used',
  'ruby-markup': 'Ruby annotation is complete',
  'link-purpose-rel': 'Link relationships are described',
  'link-new-window': 'Links that open a new window say so',
  'keyboard-event-handlers': 'Mouse event handlers have keyboard equivalents',
  'keyboard-trap': 'Keyboard focus is not trapped',
  reflow: 'Content reflows without two-dimensional scrolling',
  'content-in-landmark': 'All content is inside landmarks',
  'landmark-name-unique': 'Landmarks have unique names',
  'target-size': 'Targets have sufficient size or spacing',
  'form-field-multiple-labels': 'Form field has at most one label',
  'aria-allowed-role': 'ARIA role is allowed for the element',
  'meter-name': 'Meter and progress bar have accessible names',
  'heading-order': 'Heading levels increase by one',
  'timing-adjustable': 'Time limits can be adjusted',
  'main-or-skip-link': 'Page has a main landmark or a skip link',
  'anchor-as-target': 'Anchor element is not used only as an in-page link target',
  'adjacent-image-text-links': 'Adjacent image and text links to the same resource are combined',
  'decorative-image-review': 'Image hidden from assistive technology is decorative',
  'hidden-field-label': 'Hidden form field is not labelled',
  'empty-table-header': 'Table header cell has an accessible name',
};

/**
 * Keys of checks that no WCAG success criterion requires: whatever criterion an engine files
 * them under, their findings are best practices (docs/scoring.md, "Best-practice keys"). Content
 * outside landmarks and a page without a main landmark or skip link still meet 1.3.1 and 2.4.1
 * (headings, or no repeated blocks at all, are enough); axe files the same checks as best
 * practices, and IBM's filing under WCAG made a clean one-heading page score 92.
 */
export const bestPracticeKeys: readonly string[] = [
  'content-in-landmark',
  'landmark-name-unique',
  'main-or-skip-link',
  'skip-link-target',
  'heading-order',
  'aria-allowed-role',
  'anchor-as-target',
  'hidden-field-label',
  'empty-table-header',
];

/**
 * HTML_CodeSniffer techniques to rule keys. HTML_CodeSniffer has no ACT mapping; each row was
 * checked against the sniff's message and the element it reports on. A row matches the technique
 * part of a code (after the SC segment) when the code equals the prefix or continues it with
 * '.' or ','. The longest matching prefix wins; `sc` restricts a row to one success criterion.
 */
export interface HtmlcsKeyRow {
  prefix: string;
  key: string;
  sc?: string;
}

export const htmlcsKeyRows: readonly HtmlcsKeyRow[] = [
  // 1.1.1 Non-text content
  { prefix: 'H37', key: '23a2a8' }, // img without alt
  { prefix: 'H36', key: '59796f' }, // image button without alt
  { prefix: 'H24', key: 'c487ae' }, // area without alt: axe area-alt shares the link-name ACT rule
  { prefix: 'H30.2', key: 'c487ae' }, // link whose only content is an image without alt
  { prefix: 'H2', key: 'redundant-image-alt' }, // H2.EG3/EG5: alt repeats link text
  { prefix: 'H2.EG4', key: 'adjacent-image-text-links' }, // empty-alt image link beside a text link
  { prefix: 'H35', key: 'applet-alt' },
  { prefix: 'H53', key: '8fc3b6' }, // object without text alternative
  { prefix: 'H67', key: 'image-null-alt-title' }, // H67.1: img alt="" with a title
  { prefix: 'H67.2', key: 'decorative-image-review' }, // img hidden from AT: is it decorative?
  // 1.3.1 Info and relationships
  { prefix: 'F68', key: 'e086e5' }, // form control without an accessible name
  { prefix: 'F68.Hidden', key: 'hidden-field-label' }, // a hidden field that has a label
  { prefix: 'F68.HiddenAttr', key: 'hidden-field-label' },
  { prefix: 'H44', key: 'label-reference-valid' }, // label[for] to a missing or non-form element
  { prefix: 'H65', key: 'e086e5' }, // control named by title only (warning)
  { prefix: 'H42.2', key: 'ffd0e9' }, // empty heading
  { prefix: 'H42', key: 'text-looks-like-heading' },
  { prefix: 'H43.IncorrectAttr', key: 'a25f45' }, // headers attribute points at wrong cells
  { prefix: 'H43.MissingHeaderIds', key: 'a25f45' },
  { prefix: 'H43', key: 'data-table-headers' },
  { prefix: 'H63', key: 'scope-attr-valid' }, // H63.2/.3: scope on a td, invalid scope value
  { prefix: 'H63.1', key: 'data-table-headers' }, // th without scope: cells not associated
  { prefix: 'H39.3.LayoutTable', key: 'layout-table-structure' },
  { prefix: 'H73.3.LayoutTable', key: 'layout-table-structure' },
  { prefix: 'H39,H73.4', key: 'table-summary-redundant' },
  { prefix: 'H39', key: 'table-caption' },
  { prefix: 'H73', key: 'table-caption' },
  { prefix: 'H71.SameName', key: 'radio-group' },
  { prefix: 'H71', key: 'fieldset-legend' },
  { prefix: 'H85', key: 'select-optgroup' },
  { prefix: 'H48', key: 'list-markup' },
  { prefix: 'ARIA6', key: 'aria-label-review' },
  { prefix: 'ARIA16,ARIA9', key: 'aria-label-review' },
  { prefix: 'F92,ARIA4', key: 'presentation-with-semantic-children' },
  { prefix: 'H49', key: 'presentational-markup' },
  // 1.3.5 Identify input purpose
  { prefix: 'H98', key: '73f2c2' },
  // 1.4.3 Contrast (minimum); 1.4.6 only runs under WCAG2AAA
  { prefix: 'G18', key: 'afw4f7', sc: '1.4.3' },
  { prefix: 'G145', key: 'afw4f7', sc: '1.4.3' },
  { prefix: 'G18', key: '09o5cg', sc: '1.4.6' },
  { prefix: 'G17', key: '09o5cg', sc: '1.4.6' },
  { prefix: 'F24', key: 'color-pair-specified' },
  { prefix: 'C32,C31,C33,C38,SCR34,G206', key: 'reflow' },
  // 2.1 Keyboard
  { prefix: 'G90', key: 'keyboard-event-handlers' },
  { prefix: 'SCR20', key: 'keyboard-event-handlers' },
  { prefix: 'F10', key: 'keyboard-trap' },
  // 2.2 Enough time
  { prefix: 'F40.2', key: 'bc659a' }, // meta refresh redirect with delay
  { prefix: 'F41.2', key: 'bc659a' }, // meta refresh reload
  { prefix: 'F47', key: 'blink' },
  { prefix: 'F4', key: 'blink-css' },
  // 2.4 Navigable
  { prefix: 'G1,G123,G124', key: 'skip-link-target' },
  { prefix: 'H64.1', key: 'cae760' }, // iframe without title
  { prefix: 'H25', key: '2779a5' }, // page without title
  { prefix: 'H59', key: 'link-purpose-rel' },
  // 2.5.3 Label in name
  { prefix: 'F96', key: '2ee8b8' },
  // 3.1 Readable
  { prefix: 'H57.2', key: 'b5c3f8' }, // html without lang
  { prefix: 'H57.3', key: 'bf051a' }, // html lang not valid
  { prefix: 'H58', key: 'de46e4' }, // element lang not valid
  { prefix: 'H62', key: 'ruby-markup' },
  // 3.2 Predictable
  { prefix: 'H32.2', key: 'form-submit-button' },
  { prefix: 'H83.3', key: 'link-new-window' },
  // 4.1 Compatible
  { prefix: 'F77', key: '3ea0c8' }, // duplicate id
  // H91.A.Empty / EmptyWithName / NoHref: an anchor with an id or name but no href is an
  // in-page target, not a link; only EmptyNoId and NoContent are links without a name.
  { prefix: 'H91.A.Empty', key: 'anchor-as-target' },
  { prefix: 'H91.A.EmptyWithName', key: 'anchor-as-target' },
  { prefix: 'H91.A.NoHref', key: 'anchor-as-target' },
  { prefix: 'H91.A.Placeholder', key: 'anchor-without-href' },
  { prefix: 'H91.A.EmptyNoId', key: 'c487ae' },
  { prefix: 'H91.A.NoContent', key: 'c487ae' },
  { prefix: 'H91.Button.Name', key: '97a4e1' },
  { prefix: 'H91.InputButton.Name', key: '97a4e1' },
  { prefix: 'H91.InputSubmit.Name', key: '97a4e1' },
  { prefix: 'H91.InputReset.Name', key: '97a4e1' },
  { prefix: 'H91.InputImage.Name', key: '59796f' },
  { prefix: 'H91.Fieldset.Name', key: 'fieldset-legend' }, // a fieldset's name is its legend
];

/**
 * HTML_CodeSniffer's H91 sniff builds `H91.<Element>.Name` / `.Value` dynamically. Names of form
 * inputs and selects are the form-field-name ACT rule; other elements (ARIA widgets) get a
 * generic control-name key; `.Value` codes ask for an initial value, a different check.
 */
export const htmlcsDynamicKeyRows: readonly { pattern: RegExp; key: string }[] = [
  { pattern: /^H91\.[A-Za-z]+\.Value$/, key: 'form-field-value' },
  { pattern: /^H91\.(Input[A-Za-z]*|Select|Textarea)\.Name$/, key: 'e086e5' },
  { pattern: /^H91\.[A-Za-z]+\.Name$/, key: 'control-name' },
];

/**
 * Extra keys for axe rules: rules with no ACT id that check the same thing as an IBM rule or an
 * HTML_CodeSniffer technique, and rules whose ACT id the snapshot lacks. Listed keys come after
 * the rule's own ACT ids.
 */
export const axeExtraKeys: Record<string, readonly string[]> = {
  'summary-name': ['2t702h'],
  'image-redundant-alt': ['redundant-image-alt'],
  'p-as-heading': ['text-looks-like-heading'],
  'td-has-header': ['data-table-headers'],
  'scope-attr-valid': ['scope-attr-valid'],
  blink: ['blink'],
  marquee: ['marquee'],
  region: ['content-in-landmark'],
  'landmark-unique': ['landmark-name-unique'],
  'skip-link': ['skip-link-target'],
  'target-size': ['target-size'],
  'form-field-multiple-labels': ['form-field-multiple-labels'],
  'aria-allowed-role': ['aria-allowed-role'],
  'aria-meter-name': ['meter-name'],
  'aria-progressbar-name': ['meter-name'],
  'heading-order': ['heading-order'],
};

/**
 * Extra keys for IBM rules that implement no ACT rule (or only for some reason codes) but check
 * the same thing as an axe rule or HTML_CodeSniffer technique. For a rule whose `act` mapping is
 * per reason code, reasons the ACT rule calls "fail" get that ACT key, other reasons these keys.
 */
export const ibmExtraKeys: Record<string, readonly string[]> = {
  area_alt_exists: ['c487ae'],
  img_alt_redundant: ['redundant-image-alt'],
  img_alt_null: ['image-null-alt-title'],
  applet_alt_exists: ['applet-alt'],
  blink_elem_deprecated: ['blink'],
  blink_css_review: ['blink-css'],
  marquee_elem_avoid: ['marquee'],
  aria_content_in_landmark: ['content-in-landmark'],
  aria_landmark_name_unique: ['landmark-name-unique'],
  target_spacing_sufficient: ['target-size'],
  form_label_unique: ['form-field-multiple-labels'],
  text_block_heading: ['text-looks-like-heading'],
  table_headers_exists: ['data-table-headers'],
  table_scope_valid: ['scope-attr-valid'],
  table_summary_redundant: ['table-summary-redundant'],
  label_ref_valid: ['label-reference-valid'],
  form_submit_button_exists: ['form-submit-button'],
  heading_content_exists: ['ffd0e9'],
  fieldset_legend_valid: ['fieldset-legend'],
  input_checkboxes_grouped: ['radio-group'],
  select_options_grouped: ['select-optgroup'],
  list_markup_review: ['list-markup'],
  a_target_warning: ['link-new-window'],
  element_mouseevent_keyboard: ['keyboard-event-handlers'],
  aria_role_valid: ['aria-allowed-role'],
  // IBM's widget-name rule covers buttons, text boxes and menu items alike.
  aria_widget_labelled: ['97a4e1', 'e086e5'],
  // "No main landmark and no skip link": not a 2.4.1 failure (headings bypass blocks too).
  skip_main_exists: ['main-or-skip-link'],
  meta_refresh_delay: ['bc659a'],
};

/**
 * Keys of single IBM reason codes, replacing every other key of the rule for that reason: where
 * one IBM rule checks several things, each reason is titled as what it is.
 */
export const ibmReasonKeys: Record<string, Record<string, readonly string[]>> = {
  // An aria-label overriding alt="" is the decorative-exposed check, not a title on the image.
  img_alt_null: { potential_aria_override: ['46ca7f'] },
  // A fieldset without a name is one without a legend; a duplicate name is IBM's own check.
  fieldset_label_valid: { Fail_1: ['fieldset-legend'] },
};

/** Keys of one IBM rule by the role its message names (see `ibmRoleKeys`). */
export interface IbmRoleKeyRow {
  /** Which of the result's `messageArgs` holds the role. */
  arg: number;
  roles: Record<string, readonly string[]>;
  /** Where IBM names no role (`null`): keys by the element's tag. */
  tags?: Record<string, readonly string[]>;
  /** Every other role or tag. */
  other?: readonly string[];
}

/**
 * Keys by the role IBM names in its message, for rules that check one property of many roles.
 * aria_accessiblename_exists fails headings and table headers as well as images (only its image
 * reason is the image-name ACT rule); aria_widget_labelled fails buttons, form fields, menu items
 * and links alike, and was titled "Menuitem has non-empty accessible name" on all of them.
 */
export const ibmRoleKeys: Record<string, IbmRoleKeyRow> = {
  aria_accessiblename_exists: {
    arg: 1,
    roles: {
      heading: ['ffd0e9'],
      columnheader: ['empty-table-header'],
      rowheader: ['empty-table-header'],
    },
  },
  aria_widget_labelled: {
    arg: 0,
    roles: {
      button: ['97a4e1'],
      menuitem: ['m6b1q3'],
      menuitemcheckbox: ['m6b1q3'],
      menuitemradio: ['m6b1q3'],
      // The form-field-name ACT rule's roles.
      checkbox: ['e086e5'],
      combobox: ['e086e5'],
      listbox: ['e086e5'],
      radio: ['e086e5'],
      searchbox: ['e086e5'],
      slider: ['e086e5'],
      spinbutton: ['e086e5'],
      switch: ['e086e5'],
      textbox: ['e086e5'],
    },
    tags: {
      button: ['97a4e1'],
      input: ['e086e5'],
      select: ['e086e5'],
      textarea: ['e086e5'],
    },
    other: ['control-name'],
  },
};

/**
 * IBM rules whose shipped ACT mapping names a different check. aria_id_unique fails an ID
 * reference to a missing element; IBM maps it to the image-button name (59796f) and ARIA value
 * (6a7281) rules, whose test cases pass such a reference, so its issues carried the image-button
 * title and false-alarmed there. Its check is the ARIA ID references rule.
 */
export const ibmKeyOverrides: Record<string, readonly string[]> = {
  aria_id_unique: ['in6db8'],
};

/**
 * Named checks where another engine's review request or recommendation on the same element
 * confirms an imprecise engine's violation (HTML_CodeSniffer's "fieldset without legend" backed
 * by IBM's recommendation of the same). Measured on the ACT corpus (npm run act, stored raw
 * output re-scored): the same promotion on ACT rule keys found no further failed case and added
 * false alarms on 2ee8b8, afw4f7 and bc659a, so no ACT key is listed; these named keys have no
 * ACT test cases and produced no violation on any corpus page.
 */
export const corroboratedKeys: readonly string[] = [
  'fieldset-legend',
  'data-table-headers',
  'scope-attr-valid',
  'image-null-alt-title',
];

/** What a roll-up key's findings roll up to (see analysis/roll-up.ts). */
export type RollUpScope = 'table' | 'component';

/**
 * Checks reported per cell or per target that are one problem of the table or component: a
 * table without headers is one issue, not one per cell; a pager of tiny links is one issue.
 */
export const rollUpKeys: Record<string, RollUpScope> = {
  'data-table-headers': 'table',
  a25f45: 'table', // headers attribute refers to cells in the same table
  d0f69e: 'table', // header cell has assigned cells
  'scope-attr-valid': 'table',
  'empty-table-header': 'table',
  'ibm:table_headers_related': 'table',
  'table-caption': 'table',
  'target-size': 'component',
};

/**
 * Keys about the page as a whole: engines report them on different elements (html, head, title)
 * or none, so they merge by key alone.
 */
export const pageLevelKeys: readonly string[] = [
  '2779a5', // page has a title
  'b5c3f8', // html has lang
  'bf051a', // html lang is valid
  'b4f0c3', // meta viewport allows zoom
  'bc659a', // meta refresh
  'bisz58',
  'cf77f2', // bypass blocks
];
