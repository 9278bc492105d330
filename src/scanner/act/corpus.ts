import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

/**
 * The W3C ACT test-case corpus (../shared/corpus/act): its manifest lists every case with the
 * outcome W3C expects, and every rule with the axe-core / IBM rules W3C's reports map to it.
 * It is read in place at run time, never copied into the repository.
 */

export const ActExpected = z.enum(['passed', 'failed', 'inapplicable']);
export type ActExpected = z.infer<typeof ActExpected>;

export const ActRule = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  /** Engine (`axe-core`, `equal-access`) to the rule ids W3C's implementation report maps here. */
  engine_mappings: z
    .record(z.string(), z.object({ procedures: z.array(z.string()), consistency: z.string() }))
    .default({}),
  counts: z.object({ passed: z.number(), failed: z.number(), inapplicable: z.number() }),
});
export type ActRule = z.infer<typeof ActRule>;

export const ActCase = z.object({
  id: z.string(),
  rule_id: z.string(),
  title: z.string(),
  expected: ActExpected,
  file: z.string(),
});
export type ActCase = z.infer<typeof ActCase>;

export const ActManifest = z.object({
  sources: z.array(z.object({ repo: z.string(), commit: z.string() })).default([]),
  serving: z.object({ asset_url_prefix: z.string() }),
  rules: z.array(ActRule),
  cases: z.array(ActCase),
});
export type ActManifest = z.infer<typeof ActManifest>;

/** `ACT_CORPUS_DIR`, else `corpus/act` in the shared reference folder. */
export function actCorpusDir(sharedDir: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.ACT_CORPUS_DIR ? resolve(env.ACT_CORPUS_DIR) : resolve(sharedDir, 'corpus', 'act');
}

export function loadActManifest(corpusDir: string): ActManifest {
  const text = readFileSync(join(corpusDir, 'manifest.json'), 'utf8');
  return ActManifest.parse(JSON.parse(text));
}

/**
 * Where a case answers on a server that mounts the corpus at the manifest's asset prefix: the
 * pages load their assets from that absolute path.
 */
export function actCaseUrl(baseUrl: string, manifest: ActManifest, c: ActCase): string {
  const prefix = manifest.serving.asset_url_prefix.replace(/\/?$/, '/');
  return `${baseUrl.replace(/\/$/, '')}${prefix}${c.file}`;
}

/** W3C status of a rule, shortened for tables. */
export function isApproved(rule: ActRule): boolean {
  return rule.status === 'approved';
}

/** "w3c/wcag-act-rules@800c3b4, ..." for reports. */
export function describeCorpus(manifest: ActManifest): string {
  return manifest.sources.map((s) => `${s.repo}@${s.commit.slice(0, 7)}`).join(', ');
}
