/**
 * What an answer typed into a dialog (or given through its CLI's server) approves, line by line, as
 * `tower answer`, its dry run, the confirm dialog, the outcome and the audit line show it: the
 * dialog's lines as the pane draws them (a command wrapped as drawn, its tail too; a top out of
 * sight said), or the server's request with its whole input; then the question and the option.
 */
import type { PanePrompt, PromptOption } from '../store/prompt-reading.js';
import { sanitizeLine } from '../text/sanitize.js';

/** The lines `option` of prompt `p` approves, whole. */
export function promptApproves(p: PanePrompt, option: PromptOption): string[] {
  const head = p.request
    ? [
        `request ${p.request.id}, tool ${p.request.tool}, its whole input as its CLI's server gave it:`,
        `  ${p.request.whole}`,
      ]
    : [
        `the dialog, line by line as the pane draws it${p.cut ? ` (its top out of sight: ${p.cut})` : ''}:`,
        ...p.subject.map((l) => `  ${l}`),
      ];
  return [...head, `${p.question} → ${option.key}. ${option.label}`].map(sanitizeLine);
}
