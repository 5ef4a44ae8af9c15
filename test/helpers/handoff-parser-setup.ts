// Readers called straight from a test parse handoffs: the parser the store loads on demand
// (src/systems/tina/handoff-parser.ts) is loaded before each test file. test/systems/handoff-on-demand.test.ts
// checks the on-demand loading itself in a process of its own.
import { loadHandoffParser } from '../../src/systems/tina/handoff-parser.js';

await loadHandoffParser();
