/**
 * The layers of docs/layers.md hold: every import (static, type-only or lazy) points to the same
 * layer or one below, every source file belongs to a layer, and the import graph has no cycle.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '..');
const SRC = path.join(REPO, 'src');

interface Layer {
  rank: number;
  patterns: RegExp[];
}

/** The numbered lines of docs/layers.md: rank 1 on top, each with its backticked path patterns. */
function readLayers(): Layer[] {
  const text = fs.readFileSync(path.join(REPO, 'docs', 'layers.md'), 'utf8');
  const layers: Layer[] = [];
  for (const line of text.split('\n')) {
    const m = /^(\d+)\. (.*?):/.exec(line);
    if (!m) continue;
    const patterns = [...m[2]!.matchAll(/`([^`]+)`/g)].map(([, p]) => {
      const body = p!.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
      return new RegExp(p!.endsWith('/') ? `^${body}` : `^${body}$`);
    });
    layers.push({ rank: Number(m[1]), patterns });
  }
  return layers;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sourceFiles(p, out);
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(path.relative(SRC, p));
  }
  return out;
}

/** The files under src/ a file imports, by TypeScript's own reading of its import forms. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(fs.readFileSync(path.join(SRC, file), 'utf8'), true, true);
  const out: string[] = [];
  for (const { fileName } of info.importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const base = path.join(path.dirname(file), fileName).replace(/\.js$/, '');
    const hit = ['.ts', '.tsx', '/index.ts'].map((ext) => base + ext).find((f) => fs.existsSync(path.join(SRC, f)));
    if (hit) out.push(path.normalize(hit));
  }
  return out;
}

type Graph = Map<string, string[]>;

/** Every import from a file to a file of a higher layer, as `from → to`. */
function upwardEdges(graph: Graph, rankOf: (file: string) => number | undefined): string[] {
  const upward: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) if (rankOf(target)! < rankOf(file)!) upward.push(`${file} → ${target}`);
  }
  return upward;
}

/** Strongly connected components with more than one file (or a file importing itself). */
function cycles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(scc.sort());
    }
  };
  for (const f of graph.keys()) if (!index.has(f)) visit(f);
  return found;
}

const layers = readLayers();
const files = sourceFiles(SRC);
const graph: Graph = new Map(files.map((f) => [f, importsOf(f)]));
/** A file's layer: the line naming the file itself (a pattern without a trailing `/`) wins over its folder's. */
const rankOf = (file: string): number | undefined =>
  (
    layers.find((l) => l.patterns.some((p) => !p.source.endsWith('/') && p.test(file))) ??
    layers.find((l) => l.patterns.some((p) => p.test(file)))
  )?.rank;

describe('layers', () => {
  it('docs/layers.md lists the layers in order, each with paths', () => {
    expect(layers.length).toBeGreaterThan(10);
    expect(layers.map((l) => l.rank)).toEqual(layers.map((_, i) => i + 1));
    for (const l of layers) expect(l.patterns.length).toBeGreaterThan(0);
  });

  it('puts every source file in a layer', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((f) => rankOf(f) === undefined)).toEqual([]);
  });

  it('has no import that points up a layer', () => {
    expect(upwardEdges(graph, rankOf)).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('reads static, type-only and lazy imports', () => {
    expect(graph.get('cli/cli.ts')).toContain('commands/status.ts');
    expect(graph.get('config/config.ts')).toContain('config/config-schema.ts');
    expect(graph.get('model/model.ts')).toContain('model/schema.ts');
  });

  it('finds an upward import and a cycle where there is one', () => {
    const bad: Graph = new Map([
      ['model/model.ts', ['ui/app.tsx']],
      ['ui/app.tsx', ['model/model.ts']],
      ['text/sanitize.ts', []],
    ]);
    expect(upwardEdges(bad, rankOf)).toEqual(['model/model.ts → ui/app.tsx']);
    expect(cycles(bad)).toEqual([['model/model.ts', 'ui/app.tsx']]);
    expect(cycles(new Map([['text/sanitize.ts', ['text/sanitize.ts']]]))).toEqual([['text/sanitize.ts']]);
  });
});
