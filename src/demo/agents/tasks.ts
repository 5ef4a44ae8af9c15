/** The agents' view of a Claude Code task folder: read every task, rewrite one atomically. */
import fs from 'node:fs';
import path from 'node:path';
import type { AgentRuntime } from './runtime.js';

/** A task as the agents use it, with the raw object kept so a rewrite keeps unknown keys. */
export interface AgentTask {
  id: string;
  subject: string;
  status: string;
  owner: string | null;
  blockedBy: string[];
  file: string;
  raw: Record<string, unknown>;
}

function byId(a: AgentTask, b: AgentTask): number {
  const na = Number(a.id);
  const nb = Number(b.id);
  if (Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
  return a.id.localeCompare(b.id);
}

/** Every readable task of the folder, in id order; garbled or foreign files are skipped. */
export function readTasks(rt: AgentRuntime, dir: string): AgentTask[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const tasks: AgentTask[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const raw = rt.readObject(file);
    if (!raw || typeof raw.id !== 'string' || typeof raw.status !== 'string') continue;
    tasks.push({
      id: raw.id,
      subject: typeof raw.subject === 'string' ? raw.subject : `task ${raw.id}`,
      status: raw.status,
      owner: typeof raw.owner === 'string' && raw.owner !== '' ? raw.owner : null,
      blockedBy: Array.isArray(raw.blockedBy) ? raw.blockedBy.filter((b): b is string => typeof b === 'string') : [],
      file,
      raw,
    });
  }
  return tasks.sort(byId);
}

/** Rewrites one task with some keys changed. */
export function writeTask(rt: AgentRuntime, task: AgentTask, patch: Record<string, unknown>): void {
  rt.writeJson(task.file, { ...task.raw, ...patch });
}

/** Whether every task this one waits for is completed. */
export function isUnblocked(task: AgentTask, all: readonly AgentTask[]): boolean {
  return task.blockedBy.every((id) => all.find((t) => t.id === id)?.status === 'completed');
}
