import type { Page } from 'puppeteer-core';
import { checkResult } from '../own-engine.js';
import type { OwnCheckResult } from '#contract/index.js';
import { checks, type ChecksCheckId } from './checks.js';
import { readLinks, type LinkFacts } from './link-facts.js';

/**
 * Link texts that say nothing about the destination, by language (primary subtag). English is
 * checked on every page: "Read more" is common on pages in any language.
 */
export const genericLinkTexts: Readonly<Record<string, readonly string[]>> = {
  en: [
    'click here',
    'click',
    'here',
    'more',
    'read more',
    'learn more',
    'more info',
    'more information',
    'more details',
    'details',
    'link',
    'this link',
    'this',
    'go',
    'continue',
    'continue reading',
    'see more',
    'view more',
    'find out more',
    'info',
    'click this link',
    'this page',
    'page',
    'website',
    'read',
    'view',
    'see',
    'tap here',
    'press here',
    'go here',
    'read this',
    'more here',
    'show more',
    'keep reading',
    'full story',
    'open',
  ],
  de: [
    'hier',
    'hier klicken',
    'klicken sie hier',
    'klick hier',
    'mehr',
    'weiter',
    'weiterlesen',
    'mehr erfahren',
    'mehr lesen',
    'mehr informationen',
    'details',
    'link',
    'zum artikel',
  ],
  fr: [
    'ici',
    'cliquez ici',
    'clique ici',
    'lire la suite',
    'en savoir plus',
    'plus',
    'suite',
    'voir plus',
    'lien',
    'détails',
    'plus d’infos',
    "plus d'infos",
  ],
  es: [
    'aquí',
    'aqui',
    'haga clic aquí',
    'haz clic aquí',
    'pulse aquí',
    'leer más',
    'más',
    'ver más',
    'más información',
    'saber más',
    'enlace',
    'detalles',
  ],
  it: [
    'qui',
    'clicca qui',
    'leggi tutto',
    'leggi di più',
    'di più',
    'scopri di più',
    'altro',
    'dettagli',
  ],
  nl: [
    'hier',
    'klik hier',
    'lees meer',
    'meer',
    'meer info',
    'meer informatie',
    'details',
    'verder lezen',
  ],
  pt: ['aqui', 'clique aqui', 'leia mais', 'saiba mais', 'mais', 'ver mais', 'detalhes'],
};

/** File types a link should name, by extension. */
const fileTypes: Readonly<Record<string, string>> = {
  pdf: 'PDF',
  doc: 'Word',
  docx: 'Word',
  odt: 'OpenDocument text',
  rtf: 'RTF',
  xls: 'Excel',
  xlsx: 'Excel',
  ods: 'OpenDocument spreadsheet',
  csv: 'CSV',
  ppt: 'PowerPoint',
  pptx: 'PowerPoint',
  odp: 'OpenDocument presentation',
  epub: 'EPUB',
  zip: 'ZIP',
  rar: 'RAR',
  '7z': '7-Zip',
  gz: 'gzip',
  tgz: 'gzip',
  tar: 'tar',
  mp3: 'audio',
  wav: 'audio',
  ogg: 'audio',
  oga: 'audio',
  m4a: 'audio',
  flac: 'audio',
  aac: 'audio',
  opus: 'audio',
  mp4: 'video',
  m4v: 'video',
  mov: 'video',
  webm: 'video',
  avi: 'video',
  mkv: 'video',
  wmv: 'video',
  ogv: 'video',
  exe: 'program',
  msi: 'program',
  dmg: 'disk image',
  apk: 'app',
  iso: 'disk image',
};

/** Words that tell a reader what kind of file comes (any of these names the type well enough). */
const fileWords =
  /\b(pdf|docx?|word|xlsx?|excel|spreadsheet|csv|pptx?|powerpoint|slides?|presentation|odt|ods|odp|opendocument|rtf|epub|e-?book|zip|rar|7z|7-zip|gzip|tar|archive|compressed|mp3|wav|ogg|m4a|flac|aac|audio|podcast|sound|mp4|m4v|mov|webm|avi|mkv|wmv|video|film|movie|exe|msi|dmg|apk|iso|installer|app|disk image|program)\b|\d+([.,]\d+)?\s?(bytes?|[kmg]i?b|[kmg]o)\b/i;

/** Wording that warns of a new window or tab, in the languages we check. */
const newWindowWords =
  /new (browser )?(window|tab)|neue[nms]? (browser)?(fenster|tab)|nouvel(le)? (fenêtre|onglet)|nueva (ventana|pestaña)|nuova (finestra|scheda)|nieuw(e)? (venster|tabblad)|nova (janela|aba)|opens? (in )?(a )?(separate|external)|external (site|link|website)/i;

/** A whole web address; a short domain alone ("example.com") names its site well enough. */
const bareUrl = /^(https?:\/\/|www\.)\S+$|^[\w-]+(\.[\w-]+)+\/\S+$/i;

/** Lower case, no leading or trailing punctuation and symbols ("Read more »" -> "read more"). */
export function linkTextKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/[\p{P}\p{S}\s]+$/u, '')
    .replace(/^[\p{P}\p{S}\s]+/u, '')
    .replace(/\s+/g, ' ');
}

function isGeneric(name: string, lang: string): boolean {
  const key = linkTextKey(name);
  if (key === '') return false;
  return (
    (genericLinkTexts.en ?? []).includes(key) ||
    (lang !== 'en' && (genericLinkTexts[lang] ?? []).includes(key))
  );
}

/**
 * Where a link goes, so that addresses of one place compare equal: no tracking parameters, no
 * default document name or trailing slash, either scheme. A fragment names a different place
 * ("skip to navigation", "skip to content"), except an empty one; links to "#" or
 * "javascript:" go nowhere ('').
 */
export function destination(link: Pick<LinkFacts, 'href' | 'rawHref'>): string {
  const raw = link.rawHref.trim();
  if (!link.href || /^javascript:/i.test(raw) || raw === '#' || raw === '#!') return '';
  let url: URL;
  try {
    url = new URL(link.href);
  } catch {
    return link.href;
  }
  for (const name of [...url.searchParams.keys()]) {
    if (/^(utm_|fbclid$|gclid$|mc_)/i.test(name)) url.searchParams.delete(name);
  }
  const path = url.pathname
    .replace(/\/(index|default)\.(html?|php|aspx?)$/i, '/')
    .replace(/\/$/, '');
  return `${url.host}${path}${url.search}${url.hash.length > 1 ? url.hash : ''}`;
}

function result(
  check: ChecksCheckId,
  link: LinkFacts,
  message: string,
  options: { kind?: OwnCheckResult['kind']; details?: Record<string, unknown> } = {},
): OwnCheckResult {
  return checkResult(checks, check, link, message, options);
}

/**
 * Punctuation only ("." or "…" or "-"): read as nothing or as "dot". Quotation marks and brackets
 * ("»", "›") are left to the signs below: pagers use them as arrows.
 */
const punctuationOnly = /^[\p{Po}\p{Pd}\p{Pc}\s]+$/u;
/** Punctuation and symbols only ("»", "→", "+"): a sign some people may read as "next" or "add". */
const signsOnly = /^[\p{P}\p{S}\s]+$/u;

/** A link whose whole name is punctuation or symbols. */
function punctuationFindings(link: LinkFacts): OwnCheckResult[] {
  const name = link.name;
  if (!name || !signsOnly.test(name)) return [];
  const explained = link.context || link.description;
  const kind =
    explained || link.nearby || !punctuationOnly.test(name) ? 'needs-review' : 'violation';
  const why = explained
    ? `its sentence, list item, table cell or description ("${explained.slice(0, 80)}") may explain it; check that it does`
    : link.nearby
      ? `only nearby text ("${link.nearby.slice(0, 80)}") that is not programmatically tied to the link explains it`
      : punctuationOnly.test(name)
        ? 'nothing around it says where it goes'
        : 'a symbol may be read as a word ("next", "close"), but nothing around it says where it goes';
  return [
    result(
      'link-text-punctuation',
      link,
      `The link text is only "${name}": screen readers skip it or read it as a sign, so it says nothing about where the link goes; ${why}.`,
      { kind, details: { name, context: link.context, nearby: link.nearby } },
    ),
  ];
}

/** A title that says what the text says. */
function titleFindings(link: LinkFacts): OwnCheckResult[] {
  if (!link.title || !link.name || linkTextKey(link.title) !== linkTextKey(link.name)) return [];
  if (!linkTextKey(link.name)) return [];
  return [
    result(
      'link-title-redundant',
      link,
      `The link's title ("${link.title.slice(0, 80)}") only repeats its text: it adds nothing, and some screen readers read it twice.`,
      { details: { name: link.name, title: link.title } },
    ),
  ];
}

/** Audio and video files get an alternative beside them (1.2.1-1.2.3), checked by a person. */
function mediaFindings(link: LinkFacts): OwnCheckResult[] {
  if (!link.href) return [];
  let path: string;
  try {
    path = new URL(link.href).pathname.toLowerCase();
  } catch {
    return [];
  }
  const extension = /\.([a-z0-9]{2,4})$/.exec(path)?.[1];
  const type = extension ? fileTypes[extension] : undefined;
  if ((type !== 'audio' && type !== 'video') || link.mediaAlternative) return [];
  const found = result(
    'link-media-no-alternative',
    link,
    type === 'audio'
      ? `This link opens an audio file (.${extension}) and no transcript is offered beside it: check that one exists and is easy to find.`
      : `This link opens a video file (.${extension}) and no captions, transcript or audio description is offered beside it: check that the video has them.`,
    { details: { extension, type } },
  );
  return [{ ...found, wcag: type === 'audio' ? ['1.2.1'] : found.wcag }];
}

/** Text that says nothing out of context; a bare URL. */
function textFindings(link: LinkFacts): OwnCheckResult[] {
  const name = link.name;
  if (isGeneric(name, link.lang)) {
    const explained = link.context || link.description;
    const kind = explained || link.nearby ? 'needs-review' : 'violation';
    const why = explained
      ? `its sentence, list item, table cell or description ("${(link.context || link.description).slice(0, 80)}") may explain it; check that it does`
      : link.nearby
        ? `only nearby text ("${link.nearby.slice(0, 80)}") that is not programmatically tied to the link explains it`
        : 'nothing around it says where it goes';
    return [
      result(
        'link-text-generic',
        link,
        `The link text "${name}" says nothing about where the link goes; ${why}.`,
        {
          kind,
          details: {
            name,
            context: link.context,
            description: link.description,
            nearby: link.nearby,
          },
        },
      ),
    ];
  }
  if (bareUrl.test(name) && name.length > 0) {
    return [
      result(
        'link-text-url',
        link,
        `The link text is a bare web address ("${name.slice(0, 80)}"): screen readers spell it out and it may not say what the page is.`,
        { details: { name } },
      ),
    ];
  }
  return [];
}

function buttonFindings(link: LinkFacts): OwnCheckResult[] {
  const href = link.rawHref.trim();
  if (!link.hasHref) return [];
  if (link.role && link.role !== 'link') return [];
  const empty = href === '#' || href === '#!' || href === '';
  const script = /^javascript:/i.test(href);
  if (!empty && !script) return [];
  // A link to "#" goes to the top of the page, which is a destination when it says so.
  if (empty && /\b(top|oben|haut|arriba|inizio|boven)\b/i.test(link.name)) return [];
  if (link.tag === 'area' && empty) return [];
  return [
    result(
      'link-used-as-button',
      link,
      `This link goes nowhere (href="${href.slice(0, 40)}"): if it performs an action, it should be a button, so screen readers announce it as one and Space activates it.`,
      { details: { href } },
    ),
  ];
}

function fileFindings(link: LinkFacts): OwnCheckResult[] {
  if (!link.href) return [];
  let path: string;
  try {
    path = new URL(link.href).pathname.toLowerCase();
  } catch {
    return [];
  }
  const extension = /\.([a-z0-9]{1,4})$/.exec(path)?.[1];
  const type = extension ? fileTypes[extension] : undefined;
  if (!type) return [];
  const said = `${link.name} ${link.description} ${link.after}`;
  if (fileWords.test(said)) return [];
  return [
    result(
      'link-file-unannounced',
      link,
      `This link opens a ${type} file (.${extension}) but does not say so: say the file type (and size), e.g. "Annual report (${type}, 2 MB)".`,
      { details: { extension, type } },
    ),
  ];
}

function newWindowFindings(link: LinkFacts): OwnCheckResult[] {
  const target = link.target.trim().toLowerCase();
  if (!target || ['_self', '_parent', '_top'].includes(target)) return [];
  if (!link.href || /^javascript:/i.test(link.rawHref.trim())) return [];
  const said = `${link.name} ${link.description} ${link.after}`;
  if (newWindowWords.test(said)) return [];
  return [
    result(
      'link-new-window',
      link,
      `This link opens a new window or tab (target="${link.target}") without saying so; people using screen readers or magnification may not notice and lose the Back button.`,
      { details: { target: link.target } },
    ),
  ];
}

/** Links with one text going to different places where no context tells them apart. */
function sameTextFindings(links: readonly LinkFacts[]): OwnCheckResult[] {
  const groups = new Map<string, LinkFacts[]>();
  for (const link of links) {
    const key = linkTextKey(link.name);
    if (!key || link.skipped || !destination(link) || isGeneric(link.name, link.lang)) continue;
    // Same text and same context (often none): a reader cannot tell the links apart.
    const groupKey = `${key}\u0000${linkTextKey(link.context)}\u0000${link.description}`;
    const group = groups.get(groupKey) ?? [];
    group.push(link);
    groups.set(groupKey, group);
  }
  const found: OwnCheckResult[] = [];
  for (const group of groups.values()) {
    const targets = [...new Set(group.map(destination))];
    if (targets.length < 2) continue;
    const first = group[0]!;
    found.push(
      result(
        'link-same-text-different-target',
        first,
        `${group.length} links read "${first.name}" but go to ${targets.length} different places; give each a text that says where it goes.`,
        { details: { name: first.name, targets, selectors: group.map((link) => link.selector) } },
      ),
    );
  }
  return found;
}

/** An image link and a text link (or two text links) next to each other, to one place. */
function adjacentFindings(links: readonly LinkFacts[]): OwnCheckResult[] {
  const found: OwnCheckResult[] = [];
  for (let index = 1; index < links.length; index++) {
    const link = links[index]!;
    const previous = links[index - 1]!;
    if (!link.adjacentToPrevious || link.skipped || previous.skipped) continue;
    const target = destination(link);
    if (!target || target !== destination(previous)) continue;
    const sameText = linkTextKey(link.name) === linkTextKey(previous.name);
    found.push(
      result(
        'link-adjacent-same-target',
        previous,
        sameText
          ? `Two links next to each other both read "${link.name}" and go to the same place: keyboard and screen reader users meet it twice. Make them one link.`
          : `Two links next to each other ("${previous.name}" and "${link.name}") go to the same place: keyboard and screen reader users meet it twice. Make them one link.`,
        {
          details: {
            selectors: [previous.selector, link.selector],
            names: [previous.name, link.name],
            target,
          },
        },
      ),
    );
  }
  return found;
}

/** Runs every link check on the loaded page. */
export async function runLinkChecks(page: Page): Promise<OwnCheckResult[]> {
  return linkFindings(await readLinks(page));
}

/** The link checks' findings for links read from a page. */
export function linkFindings(links: readonly LinkFacts[]): OwnCheckResult[] {
  const found: OwnCheckResult[] = [];
  for (const link of links) {
    if (link.skipped) continue;
    found.push(
      ...textFindings(link),
      ...punctuationFindings(link),
      ...titleFindings(link),
      ...mediaFindings(link),
      ...buttonFindings(link),
      ...fileFindings(link),
      ...newWindowFindings(link),
    );
  }
  found.push(...sameTextFindings(links), ...adjacentFindings(links));
  return found;
}
