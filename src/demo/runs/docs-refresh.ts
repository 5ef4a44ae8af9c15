/**
 * A Claude Code team on its own (no tina run): `docs-refresh`, a lead and two writers in their
 * own session, a researcher that runs in-process (no pane), and three members on other agent CLIs
 * in a session of their own: `examples` on Codex, `style` on opencode and `translator` on Gemini
 * CLI, each of which asks to run a command a little after the demo starts.
 */
import path from 'node:path';
import { writeTextAtomic } from '../files.js';
import type { DemoRun, SandboxLayout, TaskSeed } from '../plan.js';
import { membersIn, MODELS, tasksDirOf, teamFileOf, writeTasks } from './claude-teams.js';

const TEAM = 'docs-refresh';
const SESSION = 'docs-refresh';
const OTHER_CLIS = 'docs-refresh-clis';

const TASKS: TaskSeed[] = [
  {
    id: '1',
    subject: 'Audit outdated guide pages',
    description: 'List pages that mention the v1 API',
    status: 'completed',
    owner: 'writer-1',
    blockedBy: [],
  },
  {
    id: '2',
    subject: 'Rewrite the quickstart guide',
    description: 'Use the v2 client and the new auth flow',
    activeForm: 'Rewriting the quickstart',
    status: 'in_progress',
    owner: 'writer-1',
    blockedBy: ['1'],
  },
  {
    id: '3',
    subject: 'Update API reference docs',
    description: 'Regenerate from the OpenAPI spec',
    status: 'pending',
    owner: null,
    blockedBy: ['1'],
  },
  {
    id: '4',
    subject: 'Fix broken links in docs',
    description: 'Run the link checker and fix what it finds',
    status: 'pending',
    owner: null,
    blockedBy: ['2', '3'],
  },
  {
    id: '5',
    subject: 'Write the changelog entry',
    description: 'Summarize the docs refresh for the release notes',
    status: 'pending',
    owner: null,
    blockedBy: ['4'],
  },
];

/** The session of the members that run another CLI, each asking to run a command after a while. */
function otherClis(project: string, agent: { sandbox: string; speed: number }): DemoRun['sessions'][number] {
  return {
    name: OTHER_CLIS,
    panes: [
      {
        member: 'examples',
        role: 'codex',
        cwd: project,
        flags: {
          ...agent,
          name: 'examples',
          title: 'check that every code sample in docs/ still runs',
          ask: 'npm run test:examples',
          reason: 'Run the docs examples against the v2 client?',
          after: 12,
        },
      },
      {
        member: 'style',
        role: 'opencode',
        cwd: project,
        flags: { ...agent, name: 'style', title: 'lint the guides for style', ask: 'npx vale docs/', after: 20 },
      },
      {
        member: 'translator',
        role: 'gemini',
        cwd: project,
        flags: {
          ...agent,
          name: 'translator',
          title: 'extract the new strings for translation',
          ask: 'npm run i18n:extract',
          after: 28,
        },
      },
    ],
  };
}

/** The docs-refresh team. */
export function docsRefresh(l: SandboxLayout): DemoRun {
  const project = path.join(l.projectsDir, 'docs-site');
  const tasks = tasksDirOf(l.claudeDir, TEAM);
  const agent = { sandbox: l.dir, speed: l.speed };
  const member = membersIn(project, SESSION);

  return {
    summary:
      'claude-team docs-refresh: a team of its own, two writers, an in-process researcher, and a ' +
      'Codex, an opencode and a Gemini CLI member that each ask to run a command',
    root: null,
    write: () => {
      writeTextAtomic(path.join(project, 'README.md'), '# docs-site\n\nThe product documentation.\n');
      writeTasks(l.claudeDir, TEAM, TASKS);
    },
    sessions: [
      {
        name: SESSION,
        panes: [
          {
            member: 'team-lead',
            role: 'lead',
            cwd: project,
            flags: {
              ...agent,
              name: 'team-lead',
              tasks,
              team: teamFileOf(l.claudeDir, TEAM),
              title: 'team-lead · docs-refresh',
            },
          },
          { member: 'writer-1', role: 'worker', cwd: project, flags: { ...agent, name: 'writer-1', tasks } },
          {
            member: 'writer-2',
            role: 'worker',
            cwd: project,
            flags: { ...agent, name: 'writer-2', tasks, ask: 'npx linkinator docs/ --recurse' },
          },
        ],
      },
      otherClis(project, agent),
    ],
    teams: [
      {
        name: TEAM,
        description: 'Refresh the product docs for the v2 API',
        createdAt: l.now - 25 * 60_000,
        leadSessionId: 'demo-session-docs-refresh',
        members: [
          member('team-lead', 'team-lead', MODELS.opus),
          member('writer-1', 'general-purpose', MODELS.sonnet),
          member('writer-2', 'general-purpose', MODELS.sonnet),
          { name: 'researcher', agentType: 'Explore', model: MODELS.sonnet, cwd: project, pane: 'in-process' },
          {
            ...member('examples', 'general-purpose', 'gpt-5.1-codex'),
            pane: { session: OTHER_CLIS, member: 'examples' },
          },
          { ...member('style', 'general-purpose', 'stand-in'), pane: { session: OTHER_CLIS, member: 'style' } },
          {
            ...member('translator', 'general-purpose', 'gemini-2.5-pro'),
            pane: { session: OTHER_CLIS, member: 'translator' },
          },
        ],
      },
    ],
  };
}
