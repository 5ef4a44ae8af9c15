/** The Team pane names the CLI a member runs when it is not Claude Code, and marks one tower does not know. */
import { describe, expect, it } from 'vitest';
import { activityCell } from '../../../src/ui/panes/activity-words.js';

describe('the Team pane', () => {
  it('names a CLI other than Claude Code beside the activity, and one tower does not know', () => {
    const m = { name: 'a', role: 'r', model: 'm', paneId: '%1', state: 'alive' as const, lead: false };
    expect(activityCell({ ...m, activity: 'working', agent: 'codex' }, 0).text).toBe('▶ working · codex');
    expect(activityCell({ ...m, activity: 'working', agent: 'unknown' }, 0).text).toBe('▶ working · CLI unknown');
    expect(activityCell({ ...m, activity: 'working', agent: 'claude-code' }, 0).text).toBe('▶ working');
  });
});
