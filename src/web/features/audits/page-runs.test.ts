import { describe, expect, it } from 'vitest';
import type { AuditPageResult, AuditProgress } from '#contract/audit.js';
import { pageRuns, progressSentence } from './page-runs';

const urls = ['https://acme.test/', 'https://acme.test/about'];

const progress = (
  status: AuditProgress['status'],
  pages: AuditProgress['pages'][number]['status'][],
): AuditProgress => ({
  auditId: '00000000-0000-4000-8000-000000000001',
  status,
  pages: pages.map((page, i) => ({ url: urls[i] ?? 'x', status: page, error: null })),
});

const result = (url: string, status: 'complete' | 'error'): AuditPageResult => ({
  url,
  status,
  error: status === 'error' ? 'HTTP 404' : null,
  title: null,
  score: null,
  meta: null,
  pa11yRaw: null,
  axeRaw: null,
  ibmRaw: null,
  engineErrors: {},
  report: null,
});

describe('per-page progress of an audit', () => {
  it('starts with every page pending', () => {
    expect(pageRuns(urls, {}).map((run) => run.status)).toEqual(['pending', 'pending']);
  });

  it("follows the running audit's pages", () => {
    const runs = pageRuns(urls, { progress: progress('running', ['complete', 'scanning']) });
    expect(runs.map((run) => run.status)).toEqual(['complete', 'scanning']);
    expect(progressSentence(runs)).toBe('1 of 2 pages done, 1 scanning now.');
  });

  it('ignores an earlier audit that has already finished or lists other pages', () => {
    expect(
      pageRuns(urls, { progress: progress('completed', ['complete', 'complete']) }).map(
        (run) => run.status,
      ),
    ).toEqual(['pending', 'pending']);
    expect(
      pageRuns(urls, { progress: progress('running', ['scanning']) }).map((run) => run.status),
    ).toEqual(['pending', 'pending']);
  });

  it("takes each page's outcome from the answer", () => {
    const runs = pageRuns(urls, {
      progress: progress('running', ['scanning', 'pending']),
      results: [result(urls[0]!, 'complete'), result(urls[1]!, 'error')],
    });
    expect(runs.map((run) => [run.status, run.error])).toEqual([
      ['complete', null],
      ['error', 'HTTP 404'],
    ]);
    expect(runs[0]!.result?.url).toBe(urls[0]);
    expect(progressSentence(runs)).toBe('Scan finished: 1 of 2 pages completed, 1 with an error.');
  });

  it('marks every page as an error with the message when the call fails', () => {
    const runs = pageRuns(urls, {
      progress: progress('running', ['complete', 'scanning']),
      failure: 'Failed to perform smart scan',
    });
    expect(runs.map((run) => [run.status, run.error])).toEqual([
      ['error', 'Failed to perform smart scan'],
      ['error', 'Failed to perform smart scan'],
    ]);
  });
});
