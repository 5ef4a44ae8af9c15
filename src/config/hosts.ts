/** The hosts a command shows: the configured ones plus those named by --host, each once. */
import type { HostConfig } from './config.js';

/** The name a bare destination gets: its host part (`op@build-1.lan` → `build-1.lan`). */
export function hostNameOf(destination: string): string {
  const afterUser = destination.slice(destination.lastIndexOf('@') + 1);
  const noScheme = afterUser.replace(/^ssh:\/\//, '');
  const noPort = noScheme.replace(/:\d+$/, '');
  const cleaned = noPort.replace(/[^A-Za-z0-9_.-]/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  return cleaned || 'host';
}

/**
 * Configured hosts, then one per --host value: a value naming a configured host (or its
 * destination) adds nothing; any other value is a destination with the default tower command.
 */
export function resolveHosts(
  configured: readonly HostConfig[],
  flags: readonly string[],
  rules: HostConfig['rules'] = undefined,
): HostConfig[] {
  // Each host says whose rules answer there: its own setting, else the config's `hostRules`.
  const out = configured.map((h) => (h.rules || !rules ? h : { ...h, rules }));
  for (const flag of flags) {
    const value = flag.trim();
    if (value === '') continue;
    if (out.some((h) => h.name === value || h.destination === value)) continue;
    let name = hostNameOf(value);
    // Two destinations with the same host part (a@x, b@x) still get distinct names.
    for (let n = 2; out.some((h) => h.name === name); n++) name = `${hostNameOf(value)}-${n}`;
    out.push({ name, destination: value, sshArgs: [], tower: 'tower', ...(rules ? { rules } : {}) });
  }
  return out;
}

/** Whether other boxes are involved (hosts given, or this box left out). */
export function usesHosts(ctx: { hosts: readonly HostConfig[]; local: boolean }): boolean {
  return ctx.hosts.length > 0 || !ctx.local;
}
