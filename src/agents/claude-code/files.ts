/**
 * Claude Code's own files, as the store reads them through this module: its session files
 * (`<claude>/sessions/<pid>.json`) and its transcripts (`<claude>/projects/<cwd>/<session>.jsonl`).
 * The readers live with the Claude teams system, which reads the same files for its session teams
 * and its lead's context (a system sits below the agent modules and cannot import them); the store
 * and the actions reach them here, never in the system's folder.
 */
export type { ClaudeSession, PanePlace } from '../../systems/claude-teams/sessions.js';
export { panePlaceOf, readSessionFile, sessionFileNames, sessionIsLive } from '../../systems/claude-teams/sessions.js';
export { transcriptFile, transcriptUsage } from '../../systems/claude-teams/transcript.js';
