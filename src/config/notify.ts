/** The `notify` key of the config file: which channels tell the operator, and about what. */
import type { z } from 'zod';
import type { NotifyConfigSchema } from './notify-schema.js';
import { NOTIFY_EVENTS } from './defaults.js';

export { NOTIFY_EVENTS, type NotifyEvent } from './defaults.js';

export type NotifyConfig = z.infer<typeof NotifyConfigSchema>;

/** The defaults, as if `notify` were `{}` (the same values as the schema's defaults). */
export function defaultNotifyConfig(): NotifyConfig {
  return { bell: true, desktop: 'osc9', title: true, command: null, timeoutSec: 10, events: [...NOTIFY_EVENTS] };
}
