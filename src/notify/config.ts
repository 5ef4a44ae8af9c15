/** The `notify` key of the config file: which channels tell the operator, and about what. */
import type { z } from 'zod';
import type { NotifyConfigSchema } from './config-schema.js';

/** What newly needs a human: the events a notification is about. */
export const NOTIFY_EVENTS = ['gate-opened', 'checkpoint-timeout', 'member-died', 'member-waiting'] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

export type NotifyConfig = z.infer<typeof NotifyConfigSchema>;

/** The defaults, as if `notify` were `{}` (the same values as the schema's defaults). */
export function defaultNotifyConfig(): NotifyConfig {
  return { bell: true, desktop: 'osc9', title: true, command: null, timeoutSec: 10, events: [...NOTIFY_EVENTS] };
}
