import { scoreLabel, type Issue } from '#contract/index.js';
import { issueTitle } from '#contract/rule-guidance/index.js';
import type { AppDb } from '#db/client.js';
import * as store from '#db/stores/scans.js';
import { orderedEngines, type ReportModel } from '#reports/model.js';
import { ConflictError, NotFoundError } from '../http-errors.js';
import { toRawResult } from './report.js';

/** Spec §8: what the report page says when a scan cannot be found. */
export const reportNotFound = 'The requested compliance assessment could not be located.';

/**
 * The report model of a completed scan, read once per request, for the documents
 * (server/documents). Raw engine output is most of a row's size, so it is read only for the
 * documents that include it.
 */
export async function loadReportModel(
  db: AppDb,
  scanId: string,
  options: { raw?: boolean } = {},
): Promise<ReportModel> {
  const row = await store.findScan(db, scanId, { raw: options.raw ?? false });
  if (!row) throw new NotFoundError(reportNotFound);
  if (row.status !== 'completed' || !row.summary || !row.processingTimes) {
    throw new ConflictError(
      row.status === 'pending' || row.status === 'running'
        ? 'The scan has not finished yet; its documents are ready once it completes.'
        : row.status === 'completed'
          ? 'The scan completed without stored results, so there is nothing to report.'
          : `The scan did not complete (${row.status}), so there is nothing to report.`,
    );
  }
  const issueRows = await store.listIssues(db, scanId);
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
      // The vocabulary's label of the stored score, whatever label an older scan stored.
      label: scoreLabel(row.accessibilityScore ?? 0),
    },
    summary: row.summary,
    engines: orderedEngines([...Object.keys(engineVersions), ...Object.keys(row.engineErrors)]),
    engineVersions,
    engineErrors: row.engineErrors,
    processingTimes: row.processingTimes,
    issues: issueRows.map((issue): Issue => ({
      id: issue.issueKey,
      ruleKey: issue.ruleKey,
      title: issueTitle(issue),
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
  const raw = options.raw ? toRawResult(row) : undefined;
  if (raw) model.raw = raw;
  return model;
}
