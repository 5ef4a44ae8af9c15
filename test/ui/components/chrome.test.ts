/** The header says whose rules answer on each box that said so, and nothing for boxes that did not. */
import { describe, expect, it } from 'vitest';
import type { HostState, Snapshot } from '../../../src/model/model.js';
import { headerLine, hostRulesWords } from '../../../src/ui/components/chrome.js';

const host = (name: string, rules?: HostState['rules']): HostState => ({
  name,
  state: 'ok',
  since: null,
  error: null,
  ...(rules ? { rules } : {}),
});

describe('whose rules answer, in the header', () => {
  it('names the boxes of each, yours first', () => {
    const hosts = [
      host('c', { whose: 'box', problem: null }),
      host('a', { whose: 'yours', problem: null }),
      host('b', { whose: 'yours', problem: 'refused' }),
      host('d'),
    ];
    expect(hostRulesWords(hosts)).toBe("rules: yours on a, b; the box's on c");
    const snapshot: Snapshot = { version: 1, generatedAt: 'now', runs: [], problems: [], hosts };
    const header = headerLine({ snapshot, width: 120, readonly: false, loading: false, muted: false })
      .map((s) => s.text)
      .join('');
    expect(header).toContain("· rules: yours on a, b; the box's on c");
  });

  it('says nothing with no host, or none that said', () => {
    expect(hostRulesWords(undefined)).toBe('');
    expect(hostRulesWords([host('a')])).toBe('');
  });
});
