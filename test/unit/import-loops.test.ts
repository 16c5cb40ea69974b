/**
 * No import loop anywhere in the source (type-only imports included: a loop of types still
 * ties two files so that neither can be read, moved or tested without the other). The graph
 * is read from every source file outside test/ with TypeScript's own import scanner, relative
 * and `#shared/` specifiers resolved to files; a loop is a strongly connected set of files.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FOLDERS = ['electron', 'shared', 'renderer', 'bench', 'scripts', 'bin'];
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;

function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && !e.name.startsWith('.')) walk(rel);
      } else if (SOURCE.test(e.name) && !e.name.endsWith('.d.mts') && !e.name.endsWith('.d.ts'))
        out.push(rel);
    }
  };
  for (const d of FOLDERS) if (fs.existsSync(path.join(ROOT, d))) walk(d);
  return out;
}

function resolve(from: string, spec: string, files: Set<string>): string | null {
  let base: string;
  if (spec.startsWith('#shared/')) base = path.posix.join('shared', spec.slice('#shared/'.length));
  else if (spec.startsWith('.')) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  else return null;
  for (const c of [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, `${base}/index.ts`])
    if (files.has(c)) return c;
  return null;
}

/** Each set of two or more files that import one another, round and round (Tarjan's algorithm). */
function importLoops(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const loop: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        loop.push(w);
      } while (w !== v);
      if (loop.length > 1 || (graph.get(v) ?? []).includes(v)) loops.push(loop.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return loops;
}

describe('the import graph', () => {
  it('finds a loop of types as a loop (the finder itself)', () => {
    const g = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['a.ts', 'c.ts']],
      ['c.ts', []],
    ]);
    expect(importLoops(g)).toEqual([['a.ts', 'b.ts']]);
  });

  it('has no loop', () => {
    const files = sourceFiles();
    const set = new Set(files);
    const graph = new Map<string, string[]>();
    for (const f of files) {
      const { importedFiles } = ts.preProcessFile(fs.readFileSync(path.join(ROOT, f), 'utf8'), true, true);
      graph.set(
        f,
        importedFiles.map((i) => resolve(f, i.fileName, set)).filter((t): t is string => t !== null),
      );
    }
    expect(files.length).toBeGreaterThan(200);
    expect(importLoops(graph)).toEqual([]);
  });
});
