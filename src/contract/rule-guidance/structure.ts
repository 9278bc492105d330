import type { RuleGuidance } from './types.js';

/** Headings, landmarks and ways to skip repeated blocks (WCAG 1.3.1, 2.4.1, 2.4.6). */
export const structureGuidance: readonly RuleGuidance[] = [
  {
    keys: ['cf77f2', '047fe0', 'b40fd1', 'ye5d6e', '3e12e1', 'ibm:html_skipnav_exists'],
    title: 'Page has no way to skip repeated content',
    what: 'Blocks that repeat on every page (header, navigation) come before the main content, and the page offers no skip link, no main landmark and no heading at the start of the main content to jump past them.',
    who: 'Keyboard users must Tab through every navigation link on every page; screen reader users have no landmark or heading to jump to the content.',
    fix: [
      'Wrap the main content in <main>, and start it with a heading (usually the <h1>).',
      'Add a "Skip to main content" link as the first focusable element, pointing at the main content.',
    ],
    example:
      '<body>\n  <a class="skip-link" href="#main">Skip to main content</a>\n  <header>…</header>\n  <main id="main" tabindex="-1">\n    <h1>Opening hours</h1>\n  </main>\n</body>',
  },
  {
    keys: ['main-or-skip-link'],
    title: 'Page has no main landmark or skip link',
    what: 'The page has neither a <main> landmark nor a skip link. Headings may still let people jump past repeated content, so this is a best practice rather than a failure.',
    who: 'Keyboard users who must Tab through repeated navigation; screen reader users who jump by landmark.',
    fix: [
      'Wrap the main content in <main>, and add a skip link to it as the first focusable element.',
    ],
    example: '<a class="skip-link" href="#main">Skip to main content</a>\n<main id="main">…</main>',
  },
  {
    keys: ['skip-link-target'],
    title: 'In-page link points at a target that does not exist',
    what: 'A skip link or other in-page link (href="#…") names an id that is not on the page, or whose element is hidden, so activating it does nothing.',
    who: 'Keyboard users who use the skip link stay at the top of the page; screen reader users are not moved.',
    fix: ['Give the target element the id the link names, and make sure it is visible.'],
    example: '<a href="#main">Skip to main content</a>\n…\n<main id="main" tabindex="-1">…</main>',
  },
  {
    keys: ['skip-link-broken'],
    title: 'Skip link does not move keyboard focus',
    what: 'The page offers a link to skip to its main content, but activating it does not move keyboard focus there: the next Tab still lands in the skipped block.',
    who: 'Keyboard users, who still have to Tab through all of the navigation.',
    fix: [
      'Point the link at an existing id on the main content.',
      'If the target is not focusable, give it tabindex="-1" so browsers move focus to it.',
    ],
    example:
      '<a class="skip-link" href="#main">Skip to main content</a>\n<main id="main" tabindex="-1">…</main>',
  },
  {
    keys: ['ibm:skip_main_described'],
    title: 'Skip link does not say where it goes',
    what: 'The link that skips to the main content has text that does not say so (for example just "Skip").',
    who: 'Screen reader and keyboard users cannot tell where the link leads.',
    fix: ['Use text that names the destination, such as "Skip to main content".'],
    example: '<a href="#main">Skip to main content</a>',
  },
  {
    keys: ['content-in-landmark'],
    title: 'Content is outside every landmark',
    what: 'Some content is not inside a landmark (header, nav, main, aside, footer), so people who move by landmarks skip it.',
    who: 'Screen reader users who jump from landmark to landmark miss that content.',
    fix: [
      'Put all content inside a landmark: usually header, nav, main and footer cover the whole page.',
    ],
    example:
      '<header>…</header>\n<nav aria-label="Main">…</nav>\n<main>…</main>\n<footer>…</footer>',
  },
  {
    keys: [
      'landmark-name-unique',
      'ibm:aria_application_label_unique',
      'ibm:aria_article_label_unique',
      'ibm:aria_banner_label_unique',
      'ibm:aria_complementary_label_unique',
      'ibm:aria_contentinfo_label_unique',
      'ibm:aria_document_label_unique',
      'ibm:aria_form_label_unique',
      'ibm:aria_main_label_unique',
      'ibm:aria_navigation_label_unique',
      'ibm:aria_region_label_unique',
      'ibm:aria_search_label_unique',
      'ibm:aria_toolbar_label_unique',
    ],
    title: 'Landmarks of the same kind share a name',
    what: 'Two or more landmarks or regions of the same role (for example two <nav> elements) have no name or the same name, so they cannot be told apart.',
    who: 'Screen reader users listing landmarks hear "navigation, navigation" and must explore each to find the one they want.',
    fix: [
      'Give each landmark of a repeated role a different aria-label or aria-labelledby ("Main", "Footer", "Breadcrumb").',
    ],
    example: '<nav aria-label="Main">…</nav>\n<nav aria-label="Footer">…</nav>',
  },
  {
    keys: [
      'ibm:aria_region_labelled',
      'ibm:aria_complementary_labelled',
      'ibm:aria_application_labelled',
    ],
    title: 'Region has no name',
    what: 'An element with role region, complementary or application has no aria-label or aria-labelledby. A region without a name is not exposed as a landmark at all.',
    who: 'Screen reader users cannot find the section by landmark or tell what it holds.',
    fix: [
      'Name the region after its heading with aria-labelledby, or remove the role if it is not an important section.',
    ],
    example: '<section aria-labelledby="news-h">\n  <h2 id="news-h">Latest news</h2>\n</section>',
  },
  {
    keys: ['ibm:aria_main_label_visible', 'ibm:aria_complementary_label_visible'],
    title: 'Landmark has no visible label',
    what: 'The landmark is named only by an aria-label, with no visible heading that says the same, so sighted users and screen reader users are given different labels.',
    who: 'Sighted keyboard users and people with cognitive disabilities, who see no heading for the section; voice control users.',
    fix: ['Start the landmark with a visible heading and reference it with aria-labelledby.'],
    example: '<aside aria-labelledby="rel">\n  <h2 id="rel">Related articles</h2>\n</aside>',
  },
  {
    keys: [
      'landmark-no-duplicate-banner',
      'landmark-no-duplicate-contentinfo',
      'landmark-no-duplicate-main',
      'ibm:aria_banner_single',
      'ibm:aria_contentinfo_single',
    ],
    title: 'Page has more than one banner, main or footer landmark',
    what: 'The page has more than one top-level header (banner), main or footer (contentinfo) landmark, where there should be one of each.',
    who: 'Screen reader users jumping to "main" or "banner" land on one of several and may miss the real one.',
    fix: [
      'Keep one <main>, and one page-level <header> and <footer> outside any article or section.',
      'Headers and footers inside <article> or <section> are not landmarks and may stay.',
    ],
    example:
      '<header>Site name</header>\n<main>\n  <article><header>Post title</header>…</article>\n</main>\n<footer>© 2026</footer>',
  },
  {
    keys: ['landmark-one-main'],
    title: 'Page has no main landmark',
    what: 'The page has no <main> element (or role="main"), so the main content is not marked.',
    who: 'Screen reader users cannot jump straight to the main content.',
    fix: ['Wrap the main content of the page in one <main> element.'],
    example: '<main id="main">\n  <h1>Order status</h1>\n</main>',
  },
  {
    keys: [
      'landmark-banner-is-top-level',
      'landmark-complementary-is-top-level',
      'landmark-contentinfo-is-top-level',
      'landmark-main-is-top-level',
      'ibm:aria_contentinfo_misuse',
    ],
    title: 'Landmark is nested inside another landmark',
    what: 'A banner, main, complementary or contentinfo landmark is placed inside another landmark, or a page footer is used on a page with no main landmark, so the page outline is confused.',
    who: 'Screen reader users navigating by landmark get a structure that does not match the page.',
    fix: [
      'Make header, main, aside and footer direct children of <body> (or of a plain wrapper <div>).',
    ],
    example:
      '<body>\n  <header>…</header>\n  <main>…</main>\n  <aside aria-label="Related">…</aside>\n  <footer>…</footer>\n</body>',
  },
  {
    keys: ['ffd0e9'],
    title: 'Heading is empty',
    what: 'A heading element has no text (or only an image without alt), so it appears in the list of headings with no name.',
    who: 'Screen reader users jumping by headings land on an empty heading and lose track of the structure.',
    fix: ['Put text in the heading, or remove the heading element if it only adds spacing.'],
    example: '<h2>Delivery</h2>',
  },
  {
    keys: ['heading-order', 'htmlcs:1.3.1.G141'],
    title: 'Heading levels skip a level',
    what: 'A heading jumps more than one level deeper than the one before it (an <h2> followed by an <h4>), so the outline suggests missing sections.',
    who: 'Screen reader users who navigate the outline by heading level think they missed content.',
    fix: [
      'Use heading levels in order, one deeper at a time; style them with CSS rather than choosing a level for its size.',
    ],
    example: '<h1>Recipes</h1>\n<h2>Soups</h2>\n<h3>Tomato soup</h3>',
  },
  {
    keys: ['page-has-heading-one'],
    title: 'Page has no level-one heading',
    what: 'The page has no <h1>, so there is no heading that names its main content.',
    who: 'Screen reader users who press "1" to jump to the main heading find nothing, and lack the page\'s title in the outline.',
    fix: ['Add one <h1> at the start of the main content that says what the page is about.'],
    example: '<main>\n  <h1>Contact us</h1>\n</main>',
  },
  {
    keys: ['text-looks-like-heading'],
    title: 'Text looks like a heading but is not marked as one',
    what: 'A short paragraph is styled like a heading (bold, larger) but is not a heading element, so it is missing from the outline.',
    who: 'Screen reader users who move by headings skip it and miss the section it introduces.',
    fix: ['Mark it up as a heading of the right level, and style the heading with CSS.'],
    example: '<h2 class="section-title">Our services</h2>',
  },
  {
    keys: ['ibm:heading_markup_misuse'],
    title: 'Heading element is used for styling',
    what: 'A heading element is used to make text big or bold where the text is not a heading of a section.',
    who: 'Screen reader users get a false outline of the page.',
    fix: ['Use a <p> or <span> with CSS for big text; keep heading elements for headings.'],
    example: '<p class="lead">Free delivery this week</p>',
  },
];
