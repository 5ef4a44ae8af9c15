/** Every run of the sandbox, in the order the runs list shows them best. */
import type { DemoRun, SandboxLayout } from '../plan.js';
import { checkoutFlow } from './checkout-flow.js';
import { docsRefresh } from './docs-refresh.js';
import { dotagentProject } from './dotagent.js';
import { harnessProject } from './harness.js';
import { sageProject } from './sage.js';
import { searchIndex } from './search-index.js';

/** Seconds (demo time) until the harness fires pre-done. */
export const PRE_DONE_AFTER_SEC = 15;
/** Seconds (demo time) until search-index's phase blocks. */
export const BLOCK_AFTER_SEC = 30;

/** The runs of every system. */
export function demoRuns(l: SandboxLayout): DemoRun[] {
  return [
    checkoutFlow(l),
    searchIndex(l, BLOCK_AFTER_SEC),
    docsRefresh(l),
    harnessProject(l, PRE_DONE_AFTER_SEC),
    sageProject(l),
    dotagentProject(l),
  ];
}
