import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GateSchema } from '../../src/model/schema.js';
import {
  DOTAGENT_PHASES,
  dotagentGates,
  dotagentStatus,
  parseExecutionState,
  parseExecutionStateText,
  parsePhaseState,
  parsePhaseStateText,
  validateDotagent,
} from '../../src/systems/dotagent/read.js';
import { ESCAPES, hostileText, RUNS, truncated } from '../helpers/fuzz.js';
import { expectPrintable } from '../helpers/printable.js';

const text = hostileText([...ESCAPES, '\u0085', '"', '{', '}', '[', ']', ':', ','], 300);
const any = fc.oneof(fc.anything(), text);
const stampish = fc.oneof(
  any,
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.integer(),
  fc.constant('ISO-8601'),
);
const phaseName = fc.oneof(fc.constantFrom(...DOTAGENT_PHASES), any);

/** phase.json-shaped objects with any value in any field. */
const phaseJson = fc.record(
  {
    workflow_id: any,
    started_at: stampish,
    last_updated: stampish,
    current_phase: phaseName,
    phase_status: fc.oneof(fc.constantFrom('pending', 'in_progress', 'complete', 'failed'), any),
    completed_phases: fc.oneof(
      any,
      fc.array(
        fc.oneof(any, fc.record({ phase: phaseName, completed_at: stampish, output: any }, { requiredKeys: [] })),
        { maxLength: 7 },
      ),
    ),
    user_checkpoints: fc.oneof(
      any,
      fc.array(fc.oneof(any, fc.record({ phase: phaseName, approved_at: stampish }, { requiredKeys: [] })), {
        maxLength: 7,
      }),
    ),
    interruption_safe: any,
  },
  { requiredKeys: [] },
);
/** execution.json-shaped objects. */
const executionJson = fc.record(
  {
    tasks: fc.oneof(
      any,
      fc.array(
        fc.oneof(
          any,
          fc.record(
            {
              id: any,
              status: fc.oneof(fc.constantFrom('running', 'pending', 'complete', 'verified'), any),
              attempts: any,
              started_at: stampish,
              completed_at: stampish,
              output: any,
              last_error: any,
              failure_reason: any,
            },
            { requiredKeys: [] },
          ),
        ),
        { maxLength: 8 },
      ),
    ),
  },
  { requiredKeys: [] },
);

describe('dotagent parsers never throw and print nothing unsafe', () => {
  /** `parse` on random text, random JSON and the fixture files cut off: a list of problems, nothing unsafe. */
  const checkText = (
    parse: (raw: string, file: string) => { problems: unknown[] },
    file: string,
    ...fixtures: string[]
  ) =>
    fc.assert(
      fc.property(fc.oneof(text, fc.json(), ...fixtures.map((f) => truncated(f))), (t) => {
        const r = parse(t, file);
        expect(Array.isArray(r.problems)).toBe(true);
        expectPrintable(r);
      }),
      RUNS,
    );

  it('parsePhaseStateText on random text, random JSON and truncated files', () => {
    checkText(
      parsePhaseStateText,
      'phase.json',
      'samples/dotagent/rendered.phase.json',
      'samples/dotagent/phase.json.schema-by-example.json',
      'dotagent/invalid/memory/state/phase.json',
    );
  });

  it('parseExecutionStateText on random text, random JSON and truncated files', () => {
    checkText(
      parseExecutionStateText,
      'execution.json',
      'samples/dotagent/rendered.execution.json',
      'samples/dotagent/execution.json.retry-state.example.json',
      'samples/dotagent/execution.json.abort-report.example.json',
    );
  });

  it('parseExecutionState on any value and near-miss executions', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.jsonValue(), executionJson), (v) => {
        const r = parseExecutionState(v, 'execution.json');
        expectPrintable(r);
        if (r.value) for (const t of r.value.tasks) expect(t.id.length).toBeGreaterThan(0);
      }),
      RUNS,
    );
  });

  it('parsePhaseState, then validation, gates and status, on any value and near-miss phases', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.anything(), fc.jsonValue(), phaseJson),
        executionJson,
        fc.integer({ min: 0, max: 4e12 }),
        fc.boolean(),
        (v, e, now, outputs) => {
          const phase = parsePhaseState(v, 'phase.json');
          expectPrintable(phase);
          const exec = parseExecutionState(e, 'execution.json').value;
          const checks = validateDotagent(phase.value, exec, {
            now,
            phaseFile: 'phase.json',
            executionFile: 'execution.json',
            outputExists: () => outputs,
            live: outputs,
          });
          expectPrintable(checks);
          if (!phase.value) return;
          const gates = dotagentGates(phase.value, 'phase.json');
          for (const g of gates) GateSchema.parse(g);
          expect(new Set(gates.map((g) => g.id)).size).toBe(gates.length);
          expectPrintable(gates);
          expect(['running', 'waiting', 'blocked', 'complete', 'idle', 'unknown']).toContain(
            dotagentStatus(phase.value, gates),
          );
        },
      ),
      RUNS,
    );
  });
});
