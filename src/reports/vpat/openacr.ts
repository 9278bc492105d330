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

export interface CheckedOpenAcr {
  report: OpenAcr;
  catalogName: string;
  catalog: Catalog;
  totalCriteria: number;
  chaptersCount: number;
}

/**
 * Reads an uploaded report. JSON by default; YAML (OpenACR's own format) when the file is named
 * .yaml/.yml. YAML is read with the core schema, so an unquoted `report_date: 2023-05-12` stays
 * the string the OpenACR schema wants instead of becoming a date (the YAML 1.1 timestamp rule).
 */
export function parseOpenAcr(text: string, fileName: string): unknown {
  const isYaml = /\.ya?ml$/i.test(fileName);
  try {
    return isYaml ? yaml.load(text, { schema: yaml.CORE_SCHEMA }) : JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new OpenAcrError(`The file is not valid ${isYaml ? 'YAML' : 'JSON'}: ${reason}`);
  }
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
