/** The zod schema of the config's `notify` key; loaded only when a config file is checked. */
import { z } from 'zod';
import { NOTIFY_EVENTS } from './defaults.js';
import { duration } from './duration.js';

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
    timeoutSec: duration('s', 0.1, 3600, 10),
    /** The events to tell (default all). */
    events: z.array(z.enum(NOTIFY_EVENTS)).default([...NOTIFY_EVENTS]),
  })
  .strict();
