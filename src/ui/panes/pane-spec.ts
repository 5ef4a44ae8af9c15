/**
 * What a detail pane is, in one record: its title, the rows its cursor moves over, the lines it
 * would like, where it sits on a wide screen, the keys it handles itself, and its lines. The
 * registry (registry.ts) lists the records; the screen's state, its view, the layout, the metrics,
 * the titles and the drawing all loop over that list, so a pane is one file and one line there.
 */
import type { DeniedByRule } from '../session-state.js';
import type { Command } from '../../keys/keymap.js';
import type { Gate, Member, Problem, Run } from '../../model/model.js';
import type { PaneLook } from '../../store/captures.js';
import type { ActivityEntry } from '../../store/types.js';
import { framedPane } from '../components/frame.js';
import type { Rect } from '../geometry.js';
import type { Dialog } from '../state/dialog-state.js';
import type { ScreenMemo } from '../screen-memo.js';
import type { Segment } from '../text/segments.js';

/** What a pane counts and sizes itself from: the selected run and what the screen holds beside it. */
export interface PaneData {
  run: Run | null;
  /** The snapshot's own problems. */
  problems: readonly Problem[];
  activity: readonly ActivityEntry[];
}

/** Where a pane sits on a wide screen (narrow screens show one pane at a time, in registry order). */
export interface PaneSlot {
  /** 0: the left column (the widest content), 1: the right. */
  column: 0 | 1;
  /** The least content lines it gets. */
  min: number;
  /** How many of the lines it would like it asks for (a long list asks for a few, then scrolls). */
  ask: (wants: number) => number;
  /** Whether it takes what its column has left. */
  grow: boolean;
}

/** What a pane is drawn from, besides its own rect, cursor and focus. */
export interface DrawContext extends PaneData {
  memo: ScreenMemo;
  rect: Rect;
  cursor: number;
  focused: boolean;
  /** The member selected in the team pane, and which pane has focus (the preview follows both). */
  member: Member | null;
  focus: string;
  contextThreshold: number;
  /** Now as the gates pane and the team pane count ages (each rounded to what it shows). */
  gatesNow: number;
  teamNow: number;
  /** Members whose request a rule denied (`<run id>/<member>`), for the team pane. */
  deniedByRule?: ReadonlyMap<string, DeniedByRule> | undefined;
  look?: ((m: Member, run: Run | null) => PaneLook | undefined) | undefined;
  previewNote?: ((run: Run) => string | null) | undefined;
  color: boolean;
}

/** What a key a pane handles itself acts on: its cursor, and its page as the last frame drew it. */
export interface PaneKeyContext {
  cursor: number;
  page: number;
  /** Lines the pane holds now (the preview: its capture's). */
  lines: number;
}

/** What a command acting inside a pane reads: what the pane counts from, and its cursor (clamped). */
export interface PaneCommandContext extends PaneData {
  cursor: number;
}

/** What a pane's own command does now: the footer's word for it and the dialog it opens. */
export interface PaneAct {
  label: string;
  dialog: Dialog;
}

/** One detail pane. */
export interface PaneSpec<Id extends string = string> {
  readonly id: Id;
  /** Its title: its name and a count. */
  title(d: PaneData): string;
  /** Rows its cursor moves over. */
  rows(d: PaneData): number;
  /** Content lines it would like, frames excluded (`gate`: the selected one, whose body the gates pane shows). */
  wants(d: PaneData & { gate: Gate | null }): number;
  /** Lines above its rows (column headers, summaries). */
  readonly topLines: number;
  readonly slot: PaneSlot;
  /** Whether Tab stops at it and it is drawn (default: always). */
  shown?(rows: number): boolean;
  /** A key this pane handles itself: the cursor it moves to, or null to leave the key to the screen. */
  key?(command: Command, k: PaneKeyContext): number | null;
  /**
   * Commands that act inside this pane while it has focus (a binding attached to the pane): what
   * each does for the row under the cursor, or null for nothing (silently). The pane owns them: the
   * screen's command of that name is not tried. The key table (keymap.ts) still gives their keys,
   * their place in the footer and their help.
   */
  readonly commands?: { readonly [C in Command]?: (c: PaneCommandContext) => PaneAct | null };
  /** Its lines, frame included. */
  draw(c: DrawContext): readonly (readonly Segment[])[];
}

/** A pane's content in its frame with its title, each kept on what it is drawn from. */
export function framed(spec: PaneSpec, c: DrawContext, content: readonly (readonly Segment[])[]): Segment[][] {
  const title = paneTitle(spec, c.memo, c);
  return c.memo.draw(`${spec.id}:frame`, framedPane, {
    title,
    focused: c.focused,
    width: c.rect.width,
    height: c.rect.height,
    content,
  });
}

function titleProps(p: PaneData & { spec: PaneSpec }): string {
  return p.spec.title(p);
}

/** A pane's title kept on what it counts (the narrow layout's tab bar reads it too). */
export function paneTitle(spec: PaneSpec, memo: ScreenMemo, d: PaneData): string {
  return memo.draw(`${spec.id}:title`, titleProps, { spec, run: d.run, problems: d.problems, activity: d.activity });
}
