import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first. CI tests a fresh clone, so vitest has no durations
 * of an earlier run and orders files by size, larger first: the ACT file, a few minutes long but
 * small, then started two thirds of the way through and could be left running alone at the end
 * while the other worker sat idle. Started first, these run beside the many short files instead.
 * A slow file missing here only starts later; a name that no longer exists is ignored.
 */
export const slowestFiles = [
  'test/act/act-conformance.test.ts', // 546 full three-engine scans
  'src/server/fuzz.test.ts', // 18,000 requests on PGlite and Postgres
  'src/cli/ci-pa11yci.test.ts', // the CLI as a process, launching its own browser
  'src/jobs/site-audit-scale-out.postgres.test.ts', // the service's own queue timings
  'src/jobs/scan-worker-scale-out.postgres.test.ts', // the service's own queue timings
  'src/jobs/monitor-schedule.test.ts', // a runtime with its own browser, the queue's polling
];

/** vitest's order (its recorded durations when it has them, else size), the slowest files first. */
export default class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = slowestFiles.indexOf(
        relative(file.project.config.root, file.moduleId).replaceAll('\\', '/'),
      );
      return index === -1 ? slowestFiles.length : index;
    };
    // Array.prototype.sort is stable: the other files keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
