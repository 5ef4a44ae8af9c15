/**
 * Entry point of the demo's fake agents, run in tmux panes as
 * `node dist/demo-agent.js <role> --sandbox DIR [--flag value]...`.
 */
import { runCliStandIn } from './agents/cli-agent.js';
import { runDotagent } from './agents/dotagent.js';
import { runHarness } from './agents/harness.js';
import { runLead } from './agents/lead.js';
import { runOrchestrator } from './agents/orchestrator.js';
import { runReviewer } from './agents/reviewer.js';
import { AgentRuntime, parseAgentArgs } from './agents/runtime.js';
import { runSage } from './agents/sage.js';
import { runWorker } from './agents/worker.js';

const ROLES = {
  lead: runLead,
  worker: runWorker,
  reviewer: runReviewer,
  orchestrator: runOrchestrator,
  harness: runHarness,
  sage: runSage,
  dotagent: runDotagent,
  codex: (rt: AgentRuntime) => runCliStandIn('codex', rt),
  opencode: (rt: AgentRuntime) => runCliStandIn('opencode', rt),
  gemini: (rt: AgentRuntime) => runCliStandIn('gemini', rt),
} as const;

type Role = keyof typeof ROLES;

function isRole(s: string | undefined): s is Role {
  return s !== undefined && Object.hasOwn(ROLES, s);
}

const [role, ...rest] = process.argv.slice(2);
if (!isRole(role)) {
  process.stderr.write(`usage: demo-agent <${Object.keys(ROLES).join('|')}> --sandbox DIR [options]\n`);
  process.exit(2);
}
let rt: AgentRuntime;
try {
  rt = new AgentRuntime(parseAgentArgs(rest));
} catch (err) {
  process.stderr.write(`demo-agent ${role}: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
}
rt.installSignalHandlers();
try {
  ROLES[role](rt);
} catch (err) {
  process.stderr.write(`demo-agent ${role}: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
