import { Ajv, type ErrorObject } from 'ajv';
import yaml from 'js-yaml';
import { catalogs, defaultCatalogName, findChapter, type Catalog } from './catalog.js';
import schema from './data/openacr-0.1.0.json' with { type: 'json' };

/** An OpenACR report (schema openacr-0.1.0), as far as the VPAT renderer reads it. */
export interface OpenAcr {
  title: string;
  product: { name: string; version?: string; description?: string };
  author: OpenAcrContact;
  vendor?: OpenAcrContact;
  report_date?: string;
  last_modified_date?: string;
  version?: number;
  notes?: string;
  evaluation_methods_used?: string;
  legal_disclaimer?: string;
  license?: string;
  repository?: string;
  feedback?: string;
  catalog?: string;
  chapters?: Record<string, OpenAcrChapter>;
}
export interface OpenAcrContact {
  name?: string;
  company_name?: string;
  address?: string;
  email: string;
  phone?: string;
  website?: string;
}
export interface OpenAcrChapter {
  notes?: string;
  disabled?: boolean;
  criteria?: OpenAcrCriterion[];
}
export interface OpenAcrCriterion {
  num: string;
  components?: { name: string; adherence?: { level: string; notes?: string } }[];
}

/** A report that cannot be read or does not validate; `path` names the offending value. */
export class OpenAcrError extends Error {
  constructor(
    message: string,
    readonly path?: string,
  ) {
    super(path ? `${path}: ${message}` : message);
    this.name = 'OpenAcrError';
  }
}

/**
 * A file too big to check: more values than `openAcrLimits.maxValues`. Answered 413, like a file
 * over the size limit.
 */
export class OpenAcrTooLargeError extends OpenAcrError {
  constructor() {
    super(
      `The report is too large: it holds more than ${openAcrLimits.maxValues.toLocaleString('en-US')} ` +
        'values (keys and list items), while an OpenACR report of the largest catalog holds about 5,000.',
    );
    this.name = 'OpenAcrTooLargeError';
  }
}

/**
 * What one uploaded report may hold, so that checking it costs a bounded amount of work: a
 * complete report of the largest catalog (VPAT 2.5 INT, 344 criteria) has about 5,000 values and
 * nests 9 levels deep. Counted while the file is read, before the schema check walks it.
 */
export const openAcrLimits = { maxValues: 20_000, maxDepth: 32 };

const tooDeep = () =>
  new OpenAcrError(
    `The report nests deeper than ${openAcrLimits.maxDepth} levels, while an OpenACR report nests 9.`,
  );

/**
 * One pass over JSON text, before JSON.parse builds anything, counting as `measureValue` does:
 * each key (a `:`), each list item (a `,` in a list, and its first) and the report itself. Throws
 * at the first value or level over the limits.
 */
function measureJson(text: string): void {
  const { maxValues, maxDepth } = openAcrLimits;
  // Per open level, whether it is a list (its commas separate items, an object's separate keys).
  const isList = new Uint8Array(maxDepth + 1);
  let values = 1;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i += 1; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
      continue;
    }
    let counts = false;
    switch (code) {
      case 0x22: // "
        inString = true;
        break;
      case 0x7b: // {
      case 0x5b: // [
        depth += 1;
        if (depth > maxDepth) throw tooDeep();
        isList[depth] = code === 0x5b ? 1 : 0;
        counts = code === 0x5b;
        break;
      case 0x7d: // }
      case 0x5d: // ]
        depth -= 1;
        break;
      case 0x3a: // :
        counts = true;
        break;
      case 0x2c: // ,
        counts = isList[depth] === 1;
        break;
    }
    if (counts && ++values > maxValues) throw new OpenAcrTooLargeError();
  }
}

/**
 * The parsed report walked once, stopping at the first value over the limits. YAML aliases are
 * read as references to one value, so a short file can stand for a huge document; here each
 * reference counts in full, as the schema check would walk it.
 */
function measureValue(root: unknown): void {
  const { maxValues, maxDepth } = openAcrLimits;
  let values = 0;
  const stack: [value: unknown, depth: number][] = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    values += 1;
    if (values > maxValues) throw new OpenAcrTooLargeError();
    if (value === null || typeof value !== 'object') continue;
    if (depth >= maxDepth) throw tooDeep();
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      stack.push([child, depth + 1]);
    }
  }
}

export interface CheckedOpenAcr {
  report: OpenAcr;
  catalogName: string;
  catalog: Catalog;
  totalCriteria: number;
  chaptersCount: number;
}

/**
 * Reads an uploaded report, within `openAcrLimits` (OpenAcrTooLargeError, or an OpenAcrError for
 * nesting). JSON by default; YAML (OpenACR's own format) when the file is named .yaml/.yml. YAML is read with the core schema, so an unquoted `report_date: 2023-05-12` stays
 * the string the OpenACR schema wants instead of becoming a date (the YAML 1.1 timestamp rule).
 */
export function parseOpenAcr(text: string, fileName: string): unknown {
  const isYaml = /\.ya?ml$/i.test(fileName);
  let data: unknown;
  try {
    if (isYaml) {
      let nodes = 0;
      data = yaml.load(text, {
        schema: yaml.CORE_SCHEMA,
        // Every key, value and alias the parser meets, counted as it meets them.
        listener(event, state) {
          if (event !== 'open') return;
          nodes += 1;
          if (nodes > 2 * openAcrLimits.maxValues) throw new OpenAcrTooLargeError();
          if ((state as { depth?: number }).depth! > openAcrLimits.maxDepth) throw tooDeep();
        },
      });
    } else {
      measureJson(text);
      data = JSON.parse(text);
    }
  } catch (error) {
    if (error instanceof OpenAcrError) throw error;
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new OpenAcrError(`The file is not valid ${isYaml ? 'YAML' : 'JSON'}: ${reason}`);
  }
  measureValue(data);
  return data;
}

const ajv = new Ajv({ allErrors: false, strict: false });
const validateSchema = ajv.compile(schema);

/** "/chapters/x/criteria/0/num" -> "chapters.x.criteria[0].num" */
function dotted(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce(
      (path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part),
      '',
    );
}

function schemaError(error: ErrorObject): OpenAcrError {
  const at = dotted(error.instancePath);
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return new OpenAcrError('is required', at ? `${at}.${missing}` : missing);
  }
  if (error.keyword === 'enum') {
    const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
    return new OpenAcrError(`must be one of ${allowed.join(', ')}`, at || '(report)');
  }
  return new OpenAcrError(error.message ?? 'is invalid', at || '(report)');
}

/**
 * Validates a parsed report as OpenACR's own tool does: the JSON schema first, then against the
 * catalog the report names (default: `defaultCatalogName`). For each chapter the catalog has,
 * every criterion number must be in that chapter, every component must be one the catalog
 * defines and allows for that criterion, and every level must be a catalog term. Chapters the
 * catalog does not have are not checked (OpenACR ignores them too). Throws the first problem.
 */
export function checkOpenAcr(data: unknown): CheckedOpenAcr {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new OpenAcrError('An OpenACR report must be an object with title, product and author.');
  }
  if (!validateSchema(data)) {
    const first = validateSchema.errors?.[0];
    throw first ? schemaError(first) : new OpenAcrError('does not match the OpenACR schema');
  }
  const report = data as unknown as OpenAcr;
  const catalogName = report.catalog ?? defaultCatalogName;
  const catalog = catalogs[catalogName];
  if (!catalog) {
    throw new OpenAcrError(
      `unknown catalog "${catalogName}"; known catalogs: ${Object.keys(catalogs).join(', ')}`,
      'catalog',
    );
  }
  const components = new Set(catalog.components.map((component) => component.id));
  const terms = new Set(catalog.terms.map((term) => term.id));
  let totalCriteria = 0;
  const chapters = report.chapters ?? {};
  for (const [chapterId, chapter] of Object.entries(chapters)) {
    const criteria = chapter.criteria ?? [];
    totalCriteria += criteria.length;
    const definition = findChapter(catalog, chapterId);
    if (!definition) continue;
    const known = new Map(
      (definition.criteria ?? []).map((criterion) => [criterion.id, criterion]),
    );
    criteria.forEach((criterion, index) => {
      const at = `chapters.${chapterId}.criteria[${index}]`;
      const allowed = known.get(criterion.num);
      if (!allowed) {
        throw new OpenAcrError(
          `criterion "${criterion.num}" is not in chapter "${definition.label}" of catalog ${catalogName}`,
          `${at}.num`,
        );
      }
      (criterion.components ?? []).forEach((component, c) => {
        const cat = `${at}.components[${c}]`;
        if (!components.has(component.name)) {
          throw new OpenAcrError(
            `unknown component "${component.name}"; the catalog defines ${[...components].join(', ')}`,
            `${cat}.name`,
          );
        }
        if (!allowed.components.includes(component.name)) {
          throw new OpenAcrError(
            `component "${component.name}" does not apply to criterion ${criterion.num}; allowed: ${allowed.components.join(', ')}`,
            `${cat}.name`,
          );
        }
        // An empty level is a row not answered yet; OpenACR's tool lets it through too.
        const level = component.adherence?.level;
        if (level && !terms.has(level)) {
          throw new OpenAcrError(
            `unknown conformance level "${level}"; use one of ${[...terms].join(', ')}`,
            `${cat}.adherence.level`,
          );
        }
      });
    });
  }
  return {
    report,
    catalogName,
    catalog,
    totalCriteria,
    chaptersCount: Object.keys(chapters).length,
  };
}
