/** A detail pane's title: its name and a count. Pure. */
import type { Problem, Run } from '../../model/model.js';
import type { ActivityEntry } from '../../store/types.js';
import type { DetailPane } from '../state/ui-state.js';
import { notes } from './problems-pane.js';

/** What a pane's title counts. */
export interface PaneTitleProps {
  pane: DetailPane;
  run: Run | null;
  /** The snapshot's own problems. */
  problems: readonly Problem[];
  activity: readonly ActivityEntry[];
}

/** The pane's title: its name and a count. */
export function paneTitle({ pane, run, problems, activity }: PaneTitleProps): string {
  switch (pane) {
    case 'team':
      return `Team · ${run?.members.length ?? 0}`;
    case 'preview':
      return 'Preview';
    case 'tasks':
      return `Tasks · ${run?.tasks.length ?? 0}`;
    case 'reviews':
      return `Reviews · ${run?.reviews.length ?? 0}`;
    case 'gates': {
      const pending = run?.gates.filter((g) => g.state === 'pending').length ?? 0;
      return `Gates · ${pending} pending`;
    }
    case 'problems':
      return `Problems · ${notes(run, problems).length}`;
    case 'activity':
      return `Activity · ${activity.length}`;
  }
}
