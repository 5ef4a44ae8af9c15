/**
 * The detail panes, one line each. Their order is the Tab order and, within each column of a wide
 * screen, top to bottom: the left column first, then the right (Tab follows the screen).
 */
import { activityPane } from './activity-pane.js';
import { gatesPane } from './gates-pane.js';
import type { PaneSpec } from './pane-spec.js';
import { previewPane } from './preview-lines.js';
import { problemsPane } from './problems-pane.js';
import { reviewsPane } from './reviews-pane.js';
import { tasksPane } from './tasks-pane.js';
import { teamPane } from './team-pane.js';

/** Every detail pane. A pane not listed here cannot be focused, sized or drawn. */
export const PANE_SPECS = [
  teamPane,
  tasksPane,
  problemsPane,
  gatesPane,
  reviewsPane,
  activityPane,
  previewPane,
] as const;

/** A detail pane's id. */
export type DetailPane = (typeof PANE_SPECS)[number]['id'];

/** The pane's record. */
export function paneSpec(id: DetailPane): PaneSpec<DetailPane> {
  const spec = PANE_SPECS.find((s) => s.id === id);
  if (!spec) throw new Error(`no pane "${String(id)}" in the registry`);
  return spec;
}
