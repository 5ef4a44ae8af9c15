/**
 * Values the config's code and its schema both start from. Apart from config.ts and the schema files
 * so that each imports these and neither imports the other's values.
 */

/** The text typed into a lead's pane for each step of the checkpoint cycle. */
export interface CommandTexts {
  checkpoint: string;
  clear: string;
  rehydrate: string;
}

/** What tina's supervisor types: its plugin's skills. */
export const TINA_COMMANDS: Readonly<CommandTexts> = {
  checkpoint: '/tina:checkpoint',
  clear: '/clear',
  rehydrate: '/tina:rehydrate',
};
/** The bare forms (the seeds' words, and a plain Claude Code team's own commands). */
export const BARE_COMMANDS: Readonly<CommandTexts> = {
  checkpoint: '/checkpoint',
  clear: '/clear',
  rehydrate: '/rehydrate',
};

/** What newly needs a human: the events a notification is about. */
export const NOTIFY_EVENTS = ['gate-opened', 'checkpoint-timeout', 'member-died', 'member-waiting'] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];
