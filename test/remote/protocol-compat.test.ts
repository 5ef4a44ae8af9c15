/**
 * Towers of different ages on two boxes keep talking (docs/remote.md): a snapshot as the first
 * tower of protocol 1 sent it is read whole by this one, and a snapshot from a newer tower, with
 * fields and words this one does not know, is read too, the unknown fields dropped at the door.
 * A field added to the snapshot as required fails the first test, naming it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Run } from '../../src/model/model.js';
import { admitLine } from '../../src/remote/door.js';
import { PROTOCOL_VERSION } from '../../src/remote/protocol.js';

const FIXTURE = path.join(import.meta.dirname, '..', 'fixtures', 'remote', 'protocol-1-first.jsonl');
/** The hello and the snapshot of a box running the first tower that spoke protocol 1. */
const [HELLO, SNAPSHOT] = fs.readFileSync(FIXTURE, 'utf8').trim().split('\n') as [string, string];

type Json = Record<string, unknown>;
const runsOf = (line: string) => (JSON.parse(line) as { snapshot: { runs: Json[] } }).snapshot.runs;

/** Every object in a JSON value, however deep. */
function objects(v: unknown): Json[] {
  if (Array.isArray(v)) return v.flatMap(objects);
  if (v !== null && typeof v === 'object') return [v as Json, ...Object.values(v).flatMap(objects)];
  return [];
}

describe('the door and towers of other ages', () => {
  it('this tower speaks the protocol version the fixture was sent in', () => {
    // A version bump makes two towers refuse each other outright (src/remote/link.ts): the rule is to add, not bump.
    expect(PROTOCOL_VERSION).toBe(1);
    const hello = admitLine(HELLO);
    expect(hello.problems).toEqual([]);
    expect(hello.message).toMatchObject({ type: 'hello', protocol: 1, hostname: 'build-1' });
  });

  it('reads every run of a snapshot the first protocol 1 tower sent, with nothing it lacks held against it', () => {
    const { message, problems } = admitLine(SNAPSHOT);
    // A field added since as required shows here as `members.0.<field>: …`: make it optional (docs/remote.md).
    expect(problems).toEqual([]);
    if (message?.type !== 'snapshot') throw new Error('no snapshot admitted');
    const sent = runsOf(SNAPSHOT);
    expect(message.snapshot.runs.map((r) => r.id)).toEqual(sent.map((r) => r.id));
    // What it sent comes through as sent: every field of every run, member, task, gate and problem.
    expect(message.snapshot.runs).toEqual(sent);
    expect(message.snapshot.problems).toEqual([{ file: null, message: 'tmux: no server on this box' }]);
  });

  it('reads a newer tower’s snapshot: fields it does not know are dropped, words it does not know read as unknown', () => {
    const newer = JSON.parse(SNAPSHOT) as { snapshot: Json & { runs: Json[] } };
    // Every object of the snapshot gets a field no tower has yet.
    for (const o of objects(newer.snapshot)) o.fromANewerTower = { nested: ['x'] };
    const tina = newer.snapshot.runs[0] as Json & { members: Json[] };
    (tina.members[0] as Json).state = 'hibernating';
    (tina.members[1] as Json).activity = 'daydreaming';
    const { message, problems } = admitLine(JSON.stringify(newer));
    expect(problems).toEqual([]);
    if (message?.type !== 'snapshot') throw new Error('no snapshot admitted');
    const runs: Run[] = message.snapshot.runs;
    expect(runs.map((r) => r.id)).toEqual(runsOf(SNAPSHOT).map((r) => r.id));
    expect(JSON.stringify(message.snapshot)).not.toContain('fromANewerTower');
    expect(runs[0]?.members.map((m) => [m.name, m.state, m.activity ?? null])).toEqual([
      ['team-lead', 'unknown', null],
      ['worker-1', 'alive', 'unknown'],
      ['reviewer', 'in-process', null],
    ]);
    // The rest reads as the older tower's snapshot did.
    expect(runs[1]).toEqual(runsOf(SNAPSHOT)[1]);
  });

  it('says a message of a kind it does not know comes from a newer tower, and keeps reading', () => {
    const r = admitLine(JSON.stringify({ type: 'weather', forecast: 'sun' }));
    expect(r.message).toBeNull();
    expect(r.problems.join()).toMatch(/does not know.*newer/);
    expect(admitLine(SNAPSHOT).problems).toEqual([]);
  });

  it('refuses a run whose system, status or gate kind it does not know, and reads the others', () => {
    // What the rule in docs/remote.md keeps a newer tower from sending an older one without asking first.
    const newer = JSON.parse(SNAPSHOT) as { snapshot: { runs: Json[] } };
    (newer.snapshot.runs[1] as Json).status = 'hibernating';
    const { message, problems } = admitLine(JSON.stringify(newer));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/run 2 "harness:payments".*status/);
    if (message?.type !== 'snapshot') throw new Error('no snapshot admitted');
    expect(message.snapshot.runs.map((r) => r.id)).toEqual(['tina:auth-feature', 'claude-team:side-quest']);
  });
});
