/**
 * The normalized snapshot: every run on the machine, whatever system wrote it.
 * This is the contract of `tower status --json` (version 1); the UI and the actions read only this.
 * The shapes are the zod schemas of model-schema.ts; only their types are imported here, so that
 * reading and printing runs never loads the validator.
 */
import type { z } from 'zod';
import type * as S from './schema.js';
import type { GateKind, System } from './values.js';

export * from './values.js';

export type Problem = z.infer<typeof S.ProblemSchema>;
export type Phase = z.infer<typeof S.PhaseSchema>;
export type Member = z.infer<typeof S.MemberSchema>;
export type Task = z.infer<typeof S.TaskSchema>;
export type Review = z.infer<typeof S.ReviewSchema>;
export type Gate = z.infer<typeof S.GateSchema>;
export type Context = z.infer<typeof S.ContextSchema>;
export type Handoff = z.infer<typeof S.HandoffSchema>;
export type Run = z.infer<typeof S.RunSchema>;
export type HostState = z.infer<typeof S.HostStateSchema>;
export type Snapshot = z.infer<typeof S.SnapshotSchema>;

/** An empty run with every list empty; sources fill in what their files hold. */
export function emptyRun(system: System, name: string, root: string | null, stateDir: string | null): Run {
  return {
    id: `${system}:${name}`,
    system,
    name,
    root,
    status: 'unknown',
    phase: null,
    members: [],
    tasks: [],
    reviews: [],
    gates: [],
    context: null,
    handoff: null,
    problems: [],
    stateDir,
    warnings: [],
    host: null,
  };
}

/** Pending gates of a kind, the counts the runs list shows. */
export function pendingGates(run: Run, kinds: readonly GateKind[]): Gate[] {
  return run.gates.filter((g) => g.state === 'pending' && kinds.includes(g.kind));
}
