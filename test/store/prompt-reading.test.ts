/**
 * Reading Claude Code 2.1.332's permission dialogs from screens the real CLI drew
 * (test/fixtures/claude-code-2.1.332/screens): the subject is the dialog's own lines, the options are
 * read whole however they wrap, and the same dialog reads the same at any width and whatever the
 * transcript above it does.
 */
import { describe, expect, it } from 'vitest';
import { requestedBy } from '../../src/store/forwarded-requests.js';
import { readPane } from '../../src/store/pane-reading.js';
import { dialogGone, optionFor, readPrompt } from '../../src/store/prompt-reading.js';
import { readFixture } from '../helpers/fixtures.js';

const screen = (name: string) => readFixture(`claude-code-2.1.332/screens/${name}.txt`);
const PROJECT = '/tmp/cc-fixture/tower-claude-000000/project';
const BASH_OPTIONS = [
  { key: '1', label: 'Yes' },
  { key: '2', label: `Yes, and always allow access to ${PROJECT} from this project` },
  { key: '3', label: 'Yes, and switch to auto mode · auto mode handles these prompts for you' },
  { key: '4', label: 'No' },
];

describe("2.1.332's Bash dialog", () => {
  it('the subject is the dialog from its top rule: title, description, command; not the transcript, the tip or the rules', () => {
    const p = readPrompt(screen('bash-prompt.200x50'));
    expect(p).toMatchObject({
      question: 'Do you want to proceed?',
      subject: ['Bash command', 'Writing out-a.txt', 'echo a > out-a.txt'],
      options: BASH_OPTIONS,
    });
  });

  it('at 70 columns the wrapped labels (and the wrapped tip) read as at 200: the same prompt, the same signature', () => {
    const wide = readPrompt(screen('bash-prompt.200x50'))!;
    const narrow = readPrompt(screen('bash-prompt.70x40'));
    expect(narrow).toEqual(wide);
    expect(readPane(screen('bash-prompt.70x40'), true, 'claude')).toEqual({ activity: 'waiting', cue: 'question' });
  });

  it('keeps its signature while the transcript above it blinks (its ● drawn and not drawn)', () => {
    const shown = screen('bash-prompt.200x50');
    const blinked = shown.replace('● Step 1: Bash.', '  Step 1: Bash.');
    expect(blinked).not.toBe(shown);
    expect(readPrompt(blinked)?.signature).toBe(readPrompt(shown)?.signature);
  });

  it('n is the option that says No (4), y the plain Yes (1); a digit is itself', () => {
    const p = readPrompt(screen('bash-prompt.200x50'))!;
    expect(optionFor(p, 'n')).toEqual({ key: '4', label: 'No' });
    expect(optionFor(p, 'y')).toEqual({ key: '1', label: 'Yes' });
    expect(optionFor(p, '2')?.key).toBe('2');
    expect(optionFor(p, '5')).toBeNull();
  });

  it('is gone from the idle screen after the answer, and not from its own screen', () => {
    const p = readPrompt(screen('bash-prompt.200x50'))!;
    expect(dialogGone(screen('bash-prompt.200x50'), p)).toBe(false);
    expect(dialogGone(screen('bash-prompt.70x40'), p)).toBe(false);
    expect(dialogGone(screen('idle.200x50'), p)).toBe(true);
  });
});

describe("a teammate's request in its lead's pane", () => {
  it('in-process teammate: the title names the worker; four options, No is 4', () => {
    const p = readPrompt(screen('forwarded-prompt.200x50'))!;
    expect(p.subject).toEqual(['Bash command · from the worker agent', 'Writing out-b.txt', 'echo b > out-b.txt']);
    expect(requestedBy(p.subject)).toBe('worker');
    expect(optionFor(p, 'n')?.key).toBe('4');
  });

  it('teammate in a pane of its own, lead pane 35 columns: the two-column title is joined; three options, No is 3', () => {
    const p = readPrompt(screen('forwarded-prompt.pane-teammate'))!;
    expect(p.subject).toEqual(['Bash command · from the worker agent', 'Writing out-b.txt', 'echo b > out-b.txt']);
    expect(p.options).toEqual([
      { key: '1', label: 'Yes' },
      { key: '2', label: 'Yes, and switch to auto mode · auto mode handles these prompts for you' },
      { key: '3', label: 'No' },
    ]);
    expect(requestedBy(p.subject)).toBe('worker');
    expect(optionFor(p, 'n')).toEqual({ key: '3', label: 'No' });
  });

  it("the teammate's own pane, waiting for its lead's approval, reads as asking though its status line says esc to interrupt", () => {
    const waiting = screen('teammate-waiting.pane');
    expect(waiting).toContain('esc to interrupt');
    expect(readPane(waiting, false, 'claude')).toEqual({ activity: 'waiting', cue: 'question' });
    expect(readPrompt(waiting)).toBeNull();
  });
});
