/** The `notify` key of the config file: which channels tell the operator, and about what. */
import { z } from 'zod';

/** What newly needs a human: the events a notification is about. */
export const NOTIFY_EVENTS = ['gate-opened', 'checkpoint-timeout', 'member-died', 'member-waiting'] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

export const NotifyConfigSchema = z
  .object({
    /** Ring the terminal bell. */
    bell: z.boolean().default(true),
    /** A desktop notification through the terminal: OSC 9, OSC 777, or none. */
    desktop: z.union([z.literal('osc9'), z.literal('osc777'), z.literal(false)]).default('osc9'),
    /** Say in the terminal title how many runs need you (the previous title comes back on exit). */
    title: z.boolean().default(true),
    /** A shell command line run for each event, with TOWER_EVENT, TOWER_RUN, TOWER_GATE, TOWER_TITLE, TOWER_HOST. */
    command: z.string().min(1).nullable().default(null),
    /** Seconds the command may take before it is killed. */
    timeoutSec: z.number().positive().default(10),
    /** The events to tell (default all). */
    events: z.array(z.enum(NOTIFY_EVENTS)).default([...NOTIFY_EVENTS]),
  })
  .strict();
export type NotifyConfig = z.infer<typeof NotifyConfigSchema>;

/** The defaults, as if `notify` were `{}`. */
export function defaultNotifyConfig(): NotifyConfig {
  return NotifyConfigSchema.parse({});
}
