/**
 * The servers of agent CLIs that serve one (opencode's `--port N`), followed per pane: the exact
 * source of a member's state, prompt and context where there is one. A pane's server is found from
 * its processes' argv once per process, followed while the pane runs that process, and let go when
 * the pane goes or runs another. Bounded: at most MAX_FOLLOWED servers at once.
 */
import type { AgentCli, AgentWays, ServerFollow, ServerReading } from '../agents/types.js';

/** The most servers followed at once (one per pane). */
export const MAX_FOLLOWED = 64;
/** How long a one-shot read (`tower status`) waits for a server it has just found (a loaded box's took over 3 s). */
const ONCE_MS = 5000;

interface Followed {
  /** The pane's process and command the port was read from. */
  pid: number;
  port: number | null;
  follow: ServerFollow | null;
}

/** Every pane's followed server, by pane key. */
export class AgentServers {
  private followed = new Map<string, Followed>();

  constructor(
    /** Called with a pane's key when what its server says may have changed. */
    private readonly onChange: (key: string) => void,
    /** `once`: a one-shot read, which waits for a new server's first answer; `live`: it does not. */
    private readonly mode: 'live' | 'once',
  ) {}

  /**
   * Follows the server the pane's process serves, when its CLI has one and its argv names the port
   * (`argvOf` reads them); what was followed for another process of the pane is let go. A one-shot
   * read, or `wait` (the live store's first tick), waits for a new server's first answer (bounded).
   */
  async see(
    key: string,
    cli: AgentCli,
    ways: AgentWays,
    pid: number | null | undefined,
    argvOf: (pid: number) => string[][],
    wait = false,
  ): Promise<void> {
    const server = ways.server;
    if (!server || !pid) return this.drop(key);
    const had = this.followed.get(key);
    if (had?.pid === pid) return;
    this.drop(key);
    const argv = argvOf(pid).find((a) => cli.recognise.argv(a) || cli.recognise.commands.includes(baseName(a[0])));
    const port = argv ? server.portOf(argv) : null;
    const room = this.followed.size < MAX_FOLLOWED;
    const follow = port !== null && room ? server.follow(port, () => this.onChange(key)) : null;
    this.followed.set(key, { pid, port, follow });
    if (follow && (this.mode === 'once' || wait)) await Promise.race([follow.ready(), delay(ONCE_MS)]);
  }

  /** What the server of a pane's process says now, or null (none, not reached, or nothing said yet). */
  read(key: string): ServerReading | null {
    return this.followed.get(key)?.follow?.read() ?? null;
  }

  /** Why a pane's server is not followed now, or null. */
  problem(key: string): string | null {
    return this.followed.get(key)?.follow?.problem() ?? null;
  }

  /** Why servers are not followed, where that lasts (a password asked for): one line each, each server once. */
  problems(): string[] {
    const out = new Set<string>();
    for (const f of this.followed.values()) {
      const p = f.follow?.problem();
      if (p) out.add(p);
    }
    return [...out];
  }

  /** Lets a pane's server go. */
  drop(key: string): void {
    this.followed.get(key)?.follow?.close();
    this.followed.delete(key);
  }

  /** Lets every server go. */
  close(): void {
    for (const key of [...this.followed.keys()]) this.drop(key);
  }
}

function baseName(file: string | undefined): string {
  return (file ?? '').split('/').pop() ?? '';
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
