import {
  AlignmentType,
  BorderStyle,
  Document,
  Footer,
  HeadingLevel,
  Packer,
  PageNumber,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type ParagraphChild,
} from 'docx';
import {
  catalogs,
  chapterDefinition,
  findChapter,
  type Catalog,
  type CatalogChapter,
  type CatalogStandard,
} from './catalog.js';
import type { CheckedOpenAcr, OpenAcr, OpenAcrChapter, OpenAcrContact } from './openacr.js';

/**
 * An Accessibility Conformance Report as a Word document, laid out like the ITI VPAT® 2.4 Rev
 * template (see VPAT-2.4-structure.md): title, front matter, applicable standards, terms, one
 * report per standard with a three-column table per chapter, legal disclaimer, and the ITI
 * service-mark notice in the footer. The input is an OpenACR report checked against its catalog,
 * whether uploaded or made from a scan (from-scan.ts), so both paths share one renderer.
 *
 * The document is accessible itself: real headings, tables with a repeated header row, the
 * document title and language set.
 */

export interface VpatDocxOptions {
  /**
   * Text shown in place of each front-matter field the report leaves empty. The filled template
   * sets it to a bracketed prompt so the vendor sees what to complete; a finished report says
   * "Not provided".
   */
  missingField?: (label: string) => string;
  /**
   * White label: the file names no maker (its properties say "Conformly" otherwise), so an
   * agency can hand it on as its own. Off by default.
   */
  whiteLabel?: boolean;
}

const serviceMark =
  'VPAT® and Voluntary Product Accessibility Template® are registered service marks of the Information Technology Industry Council (ITI). This report is based on the VPAT® 2.4 Rev template.';

export async function renderVpatDocx(
  checked: CheckedOpenAcr,
  options: VpatDocxOptions = {},
): Promise<Buffer> {
  const { report, catalog, catalogName } = checked;
  const missing = options.missingField ?? (() => 'Not provided');
  const version = catalogName.startsWith('2.5') ? '2.5Rev' : '2.4Rev';
  const chapters = report.chapters ?? {};

  const body: (Paragraph | Table)[] = [
    new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(reportTitle(report))] }),
    para(`${catalog.title}. Based on VPAT® Version ${version}.`),
    ...frontMatter(report, missing),
    heading('Applicable Standards/Guidelines', HeadingLevel.HEADING_1),
    para(
      'This report covers the degree of conformance for the following accessibility standard/guidelines:',
    ),
    standardsTable(standardsToRender(checked), chapters),
    heading('Terms', HeadingLevel.HEADING_1),
    para('The terms used in the Conformance Level information are defined as follows:'),
    ...catalog.terms.map(
      (term) =>
        new Paragraph({
          bullet: { level: 0 },
          children: [
            new TextRun({ text: `${term.label}: `, bold: true }),
            new TextRun(term.description),
          ],
        }),
    ),
  ];

  for (const { standard, source } of standardsToRender(checked)) {
    const present = standard.chapters
      .map((id) => ({ id, definition: findChapter(source, id) }))
      .map(({ id, definition }) => ({
        definition,
        key: Object.keys(chapters).find(
          (key) => definition && findChapter(source, key) === definition,
        ),
        id,
      }))
      .filter((entry) => entry.definition && entry.key);
    if (present.length === 0) continue;
    body.push(heading(standard.report_heading, HeadingLevel.HEADING_1));
    if (standard.id.startsWith('wcag')) {
      body.push(
        para(
          'Note: When reporting on conformance with the WCAG 2.x Success Criteria, they are scoped for full pages, complete processes, and accessibility-supported ways of using technology as documented in the WCAG 2.x Conformance Requirements.',
        ),
      );
    }
    for (const entry of present) {
      body.push(...chapterSection(entry.definition!, chapters[entry.key!]!, source, catalogName));
    }
  }

  if (report.legal_disclaimer) {
    const company = report.vendor?.company_name ?? report.author.company_name;
    body.push(
      heading(`Legal Disclaimer${company ? ` (${company})` : ''}`, HeadingLevel.HEADING_1),
      ...paragraphs(report.legal_disclaimer),
    );
  }

  const document = new Document({
    title: reportTitle(report),
    description: `Accessibility Conformance Report based on VPAT® ${version}`,
    // An empty creator leaves the property out (docx would otherwise write "Un-named").
    creator: options.whiteLabel ? '' : 'Conformly',
    ...(options.whiteLabel ? { lastModifiedBy: '' } : {}),
    styles: { default: { document: { run: { language: { value: 'en-US' }, font: 'Calibri' } } } },
    sections: [
      {
        footers: {
          default: new Footer({
            children: [
              new Paragraph({ children: [new TextRun({ text: serviceMark, size: 16 })] }),
              new Paragraph({
                alignment: AlignmentType.RIGHT,
                children: [new TextRun({ children: ['Page ', PageNumber.CURRENT], size: 16 })],
              }),
            ],
          }),
        },
        children: body,
      },
    ],
  });
  return Packer.toBuffer(document);
}

function reportTitle(report: OpenAcr): string {
  return /accessibility conformance report/i.test(report.title)
    ? report.title
    : `${report.title} Accessibility Conformance Report`;
}

function frontMatter(report: OpenAcr, missing: (label: string) => string): Paragraph[] {
  const product = [report.product.name, report.product.version].filter(Boolean).join(' ');
  const dates = [
    report.report_date,
    report.last_modified_date ? `last modified ${report.last_modified_date}` : undefined,
    report.version !== undefined ? `report version ${report.version}` : undefined,
  ]
    .filter(Boolean)
    .join('; ');
  const contacts = [report.author, report.vendor]
    .filter((contact): contact is OpenAcrContact => Boolean(contact))
    .map(contactText)
    .filter((text, index, all) => all.indexOf(text) === index);
  const fields: [string, string | undefined][] = [
    ['Name of Product/Version', product],
    ['Report Date', dates || undefined],
    ['Product Description', report.product.description],
    ['Contact Information', contacts.join('\n') || undefined],
    ['Notes', report.notes],
    ['Evaluation Methods Used', report.evaluation_methods_used],
  ];
  return fields.flatMap(([label, value]) => [
    heading(label, HeadingLevel.HEADING_2),
    ...paragraphs(value?.trim() ? value : missing(label)),
  ]);
}

function contactText(contact: OpenAcrContact): string {
  return [
    contact.name,
    contact.company_name,
    contact.address,
    contact.email,
    contact.phone,
    contact.website,
  ]
    .filter(Boolean)
    .join(', ');
}

/** The catalog's standards, plus those of chapters the report fills beyond its catalog. */
function standardsToRender(
  checked: CheckedOpenAcr,
): { standard: CatalogStandard; source: Catalog }[] {
  const out = checked.catalog.standards.map((standard) => ({
    standard,
    source: checked.catalog,
  }));
  for (const id of Object.keys(checked.report.chapters ?? {})) {
    if (findChapter(checked.catalog, id)) continue;
    const found = chapterDefinition(checked.catalogName, id);
    if (!found) continue;
    const standard = found.catalog.standards.find((s) =>
      s.chapters.some((c) => findChapter(found.catalog, c) === found.chapter),
    );
    if (
      standard &&
      !out.some((entry) => entry.standard.report_heading === standard.report_heading)
    ) {
      out.push({ standard, source: found.catalog });
    }
  }
  return out;
}

function chapterIncluded(chapter: OpenAcrChapter | undefined): boolean {
  return Boolean(chapter && (!chapter.disabled || chapter.notes));
}

function standardsTable(
  standards: { standard: CatalogStandard; source: Catalog }[],
  chapters: Record<string, OpenAcrChapter>,
): Table {
  const rows = standards.map(({ standard, source }) => {
    const included = (chapterId: string) => {
      const definition = findChapter(source, chapterId);
      const key = Object.keys(chapters).find(
        (k) => definition && findChapter(source, k) === definition,
      );
      return chapterIncluded(key ? chapters[key] : undefined);
    };
    let answer: string;
    if (standard.id.startsWith('wcag')) {
      answer = standard.chapters
        .map((id) => {
          const definition = findChapter(source, id);
          const level = definition?.short_label ?? id;
          return `Level ${level} (${included(id) ? 'Yes' : 'No'})`;
        })
        .join(' / ');
    } else {
      answer = standard.chapters.some(included) ? 'Yes' : 'No';
    }
    return [standard.label, answer];
  });
  return table(['Standard/Guideline', 'Included In Report'], rows, [60, 40]);
}

function chapterSection(
  definition: CatalogChapter,
  chapter: OpenAcrChapter,
  source: Catalog,
  catalogName: string,
): (Paragraph | Table)[] {
  const out: (Paragraph | Table)[] = [heading(definition.label, HeadingLevel.HEADING_2)];
  if (chapter.notes) out.push(...paragraphs(`Notes: ${chapter.notes}`));
  const criteria = chapter.criteria ?? [];
  if (criteria.length === 0) {
    if (!chapter.notes) out.push(para('No criteria of this chapter are reported.'));
    return out;
  }
  const componentLabel = new Map(source.components.map((c) => [c.id, c.label]));
  const known = new Map((definition.criteria ?? []).map((c) => [c.id, c]));
  const isWcag = /^success_criteria_level_/.test(definition.id);
  const rows = criteria.map((criterion) => {
    const info = known.get(criterion.num);
    let name = info ? `${criterion.num} ${info.handle}` : criterion.num;
    if (isWcag && definition.short_label) {
      const only = versionOnly(criterion.num, catalogName);
      name += ` (Level ${definition.short_label}${only ? ` ${only}` : ''})`;
    }
    const components = criterion.components ?? [];
    const prefix = (id: string) => {
      const label = componentLabel.get(id) ?? id;
      return components.length > 1 || (label && id !== 'none') ? `${label}: ` : '';
    };
    const levels = components.map((component) => {
      const level = component.adherence?.level;
      const term = source.terms.find((t) => t.id === level)?.label ?? level ?? '';
      return `${prefix(component.name)}${term}`;
    });
    const remarks = components
      .filter((component) => component.adherence?.notes)
      .map((component) => `${prefix(component.name)}${component.adherence!.notes!.trim()}`);
    return [name, levels.join('\n'), remarks.join('\n')];
  });
  out.push(
    table(['Criteria', 'Conformance Level', 'Remarks and Explanations'], rows, [30, 20, 50]),
  );
  return out;
}

/** "2.1 only" / "2.2 only" next to criteria newer than WCAG 2.0, as the template flags them. */
function versionOnly(num: string, catalogName: string): string | undefined {
  const has = (name: string) =>
    catalogs[name]!.chapters.some((chapter) => chapter.criteria?.some((c) => c.id === num));
  if (catalogName.includes('wcag-2.0')) return undefined;
  if (!has('2.5-edition-wcag-2.1-508-en')) return '2.2 only';
  if (!has('2.4-edition-wcag-2.0-508-en')) return '2.1 only';
  return undefined;
}

function heading(text: string, level: (typeof HeadingLevel)[keyof typeof HeadingLevel]): Paragraph {
  return new Paragraph({ heading: level, children: [new TextRun(text)] });
}

function para(text: string): Paragraph {
  return new Paragraph({ children: [new TextRun(text)] });
}

/** One Word paragraph per line of text, so line breaks in notes survive. */
function paragraphs(text: string): Paragraph[] {
  return text
    .trim()
    .split(/\r?\n+/)
    .map((line) => para(line));
}

const border = { style: BorderStyle.SINGLE, size: 4, color: '666666' };

function cell(text: string, widthPct: number, header: boolean): TableCell {
  const lines = text.split('\n');
  return new TableCell({
    width: { size: widthPct, type: WidthType.PERCENTAGE },
    borders: { top: border, bottom: border, left: border, right: border },
    shading: header ? { fill: 'E7E6E6' } : undefined,
    children: lines.map(
      (line) =>
        new Paragraph({
          children: [new TextRun({ text: line, bold: header })] as ParagraphChild[],
        }),
    ),
  });
}

function table(headers: string[], rows: string[][], widths: number[]): Table {
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    rows: [
      new TableRow({
        tableHeader: true,
        children: headers.map((text, i) => cell(text, widths[i] ?? 33, true)),
      }),
      ...rows.map(
        (row) =>
          new TableRow({
            cantSplit: true,
            children: row.map((text, i) => cell(text, widths[i] ?? 33, false)),
          }),
      ),
    ],
  });
}
