import c20508v24 from './data/2.4-edition-wcag-2.0-508-en.json' with { type: 'json' };
import c21508v24 from './data/2.4-edition-wcag-2.1-508-en.json' with { type: 'json' };
import c21intv24 from './data/2.4-edition-wcag-2.1-508-eu-en.json' with { type: 'json' };
import c21v24 from './data/2.4-edition-wcag-2.1-en.json' with { type: 'json' };
import c20508v25 from './data/2.5-edition-wcag-2.0-508-en.json' with { type: 'json' };
import c21508v25 from './data/2.5-edition-wcag-2.1-508-en.json' with { type: 'json' };
import c22508v25 from './data/2.5-edition-wcag-2.2-508-en.json' with { type: 'json' };
import c22intv25 from './data/2.5-edition-wcag-2.2-508-eu-en.json' with { type: 'json' };
import c22v25 from './data/2.5-edition-wcag-2.2-en.json' with { type: 'json' };

/** An OpenACR catalog (schema openacr-catalog-0.1.0): what a report's chapters may contain. */
export interface Catalog {
  title: string;
  lang: string;
  standards: CatalogStandard[];
  chapters: CatalogChapter[];
  components: { id: string; label: string }[];
  terms: { id: string; label: string; description: string }[];
}
export interface CatalogStandard {
  id: string;
  label: string;
  report_heading: string;
  url: string;
  chapters: string[];
}
export interface CatalogChapter {
  id: string;
  label: string;
  short_label?: string;
  order?: number;
  criteria?: CatalogCriterion[];
}
export interface CatalogCriterion {
  id: string;
  handle: string;
  alt_id?: string;
  components: string[];
}

export const catalogs: Record<string, Catalog> = {
  '2.4-edition-wcag-2.0-508-en': c20508v24,
  '2.4-edition-wcag-2.1-508-en': c21508v24,
  '2.4-edition-wcag-2.1-508-eu-en': c21intv24,
  '2.4-edition-wcag-2.1-en': c21v24,
  '2.5-edition-wcag-2.0-508-en': c20508v25,
  '2.5-edition-wcag-2.1-508-en': c21508v25,
  '2.5-edition-wcag-2.2-508-en': c22508v25,
  '2.5-edition-wcag-2.2-508-eu-en': c22intv25,
  '2.5-edition-wcag-2.2-en': c22v25,
};

/**
 * The catalog a report without a `catalog` field is checked against: the one OpenACR's own
 * tool uses by default (WCAG 2.1 and Revised Section 508, VPAT 2.4).
 */
export const defaultCatalogName = '2.4-edition-wcag-2.1-508-en';

/**
 * Chapter ids are spelled differently across catalogs (`en_301_549_ICT_with_2way_voice` in 2.4,
 * `en_301_549_ict_with_two-way_voice` in 2.5; the 2.4 EU standards list says
 * `..._ICT-providing-relay-...` while the chapter is `..._ICT_providing_relay_...`), so chapters
 * are matched by a folded form of their id.
 */
export function chapterKey(id: string): string {
  return id
    .toLowerCase()
    .replace(/two[-_]?way/g, '2way')
    .replace(/[-_\s]/g, '');
}

export function findChapter(catalog: Catalog, id: string): CatalogChapter | undefined {
  const key = chapterKey(id);
  return catalog.chapters.find((chapter) => chapterKey(chapter.id) === key);
}

/**
 * The definition of a chapter for display: from the report's catalog, else from the widest
 * catalog of the same edition (a report may fill 508 chapters while naming the WCAG-only
 * catalog; OpenACR accepts that and ignores them in its checks), else from any catalog.
 */
export function chapterDefinition(
  catalogName: string,
  id: string,
): { chapter: CatalogChapter; catalog: Catalog } | undefined {
  const edition = catalogName.slice(0, 3);
  const order = [
    catalogName,
    ...Object.keys(catalogs).filter((name) => name !== catalogName && name.startsWith(edition)),
    ...Object.keys(catalogs).filter((name) => !name.startsWith(edition)),
  ];
  for (const name of order) {
    const catalog = catalogs[name];
    const chapter = catalog && findChapter(catalog, id);
    if (catalog && chapter) return { chapter, catalog };
  }
  return undefined;
}
