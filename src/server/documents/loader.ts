import { asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { AppDb } from '../../db/client.js';
import { issues, scans } from '../../db/schema/index.js';
import type { Issue } from '../../contract/index.js';
import { orderedEngines, type ReportModel } from '../../reports/model.js';
import { ConflictError, NotFoundError } from '../http-errors.js';

/** Spec §8: what the report page says when a scan cannot be found. */
export const reportNotFound = 'The requested compliance assessment could not be located.';

const rawColumns = new Set(['axeData', 'pa11yData', 'ibmData']);
const modelColumns = Object.fromEntries(
  Object.entries(getTableColumns(scans)).filter(([name]) => !rawColumns.has(name)),
) as Omit<ReturnType<typeof getTableColumns<typeof scans>>, 'axeData' | 'pa11yData' | 'ibmData'>;

/**
 * The report model of a completed scan, read once per request. Raw engine output is most of a
 * row's size, so it is read only for the documents that include it.
 */
export async function loadReportModel(
  db: AppDb,
  scanId: string,
  options: { raw?: boolean } = {},
): Promise<ReportModel> {
  const [row] = await db.select(modelColumns).from(scans).where(eq(scans.id, scanId));
  if (!row) throw new NotFoundError(reportNotFound);
  if (row.status !== 'completed' || !row.summary || !row.processingTimes) {
    throw new ConflictError(
      row.status === 'pending' || row.status === 'running'
        ? 'The scan has not finished yet; its documents are ready once it completes.'
        : `The scan did not complete (${row.status}), so there is nothing to report.`,
    );
  }
  const issueRows = await db
    .select()
    .from(issues)
    .where(eq(issues.scanId, scanId))
    .orderBy(
      sql`array_position(array['critical','serious','moderate','minor']::text[], ${issues.impact})`,
      asc(issues.ruleKey),
      asc(issues.selector),
      asc(issues.id),
    );
  const engineVersions = row.engineVersions ?? {};
  const model: ReportModel = {
    scanId: row.id,
    url: row.url,
    finalUrl: row.finalUrl ?? row.url,
    domain: row.domain,
    pageTitle: row.title ?? '',
    createdAt: row.createdAt,
    scannedAt: row.completedAt ?? row.createdAt,
    score: {
      value: row.accessibilityScore ?? 0,
      label: (row.scoreLabel as ReportModel['score']['label'] | null) ?? 'Needs Work',
    },
    summary: row.summary,
    engines: orderedEngines([...Object.keys(engineVersions), ...Object.keys(row.engineErrors)]),
    engineVersions,
    engineErrors: row.engineErrors,
    processingTimes: row.processingTimes,
    issues: issueRows.map((issue): Issue => ({
      id: issue.issueKey,
      ruleKey: issue.ruleKey,
      title: issue.title,
      description: issue.description,
      wcag: issue.wcag,
      level: issue.level,
      impact: issue.impact,
      kind: issue.kind,
      confidence: issue.confidence,
      selector: issue.selector,
      html: issue.html,
      helpUrl: issue.helpUrl,
      engines: issue.engines,
      rules: issue.rules,
      findings: issue.findings,
    })),
    aiSummary: row.aiSummary,
  };
  if (options.raw) {
    const [raw] = await db
      .select({ axe: scans.axeData, pa11y: scans.pa11yData, ibm: scans.ibmData })
      .from(scans)
      .where(eq(scans.id, scanId));
    if (raw?.axe && raw.pa11y && raw.ibm)
      model.raw = {
        meta: {
          url: model.finalUrl,
          scanId: row.id,
          timestamp: (row.startedAt ?? row.createdAt).toISOString(),
          processingTimes: row.processingTimes,
        },
        axeRaw: raw.axe,
        pa11yRaw: raw.pa11y,
        ibmRaw: raw.ibm,
      };
  }
  return model;
}
