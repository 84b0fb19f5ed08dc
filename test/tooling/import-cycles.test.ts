// No file-level import cycle in the code that runs (issue 40): a module that imports a module which imports it back
// loads half-initialised, in an order that depends on who imported first. Type-only imports vanish at compile time and
// do not count. Read from the files' own import lines (every import here is a relative path with its .ts extension).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../lib/config.ts";

/** The runtime imports of each .ts file under `dirs`: relative specifiers of non-type import and export-from lines. */
export function importGraph(root: string, dirs: string[]): Map<string, string[]> {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith(".ts")) files.push(resolve(p));
    }
  };
  for (const d of dirs) walk(join(root, d));
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const deps: string[] = [];
    for (const m of readFileSync(f, "utf8").matchAll(/^\s*(?:import|export)\s+(type\s+)?([^;]*?)\s*from\s+"(\.[^"]+)"/gms)) {
      if (m[1]) continue;
      const names = /^\{([^}]*)\}$/.exec(m[2].trim());
      if (names && names[1].split(",").every((x) => x.trim() === "" || x.trim().startsWith("type "))) continue;
      deps.push(resolve(dirname(f), m[3]));
    }
    graph.set(f, deps);
  }
  return graph;
}

/** The strongly connected components of more than one file (Tarjan), each a cycle of imports. */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1) out.push(c.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe("import cycles", () => {
  it("none among the files of lib/, formats/, server/, tiles/ and pipeline/", () => {
    const cycles = importCycles(importGraph(PROJECT_ROOT, ["lib", "formats", "server", "tiles", "pipeline"]));
    expect(cycles.map((c) => c.map((f) => relative(PROJECT_ROOT, f)).join(" <-> "))).toEqual([]);
  });

  it("the offline side (pipeline/, lib/, formats/, tiles/) imports nothing under server/, not even a type", () => {
    const server = join(PROJECT_ROOT, "server") + "/";
    const reaching: string[] = [];
    const walk = (d: string) => {
      for (const f of readdirSync(d)) {
        const p = join(d, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith(".ts")) {
          for (const m of readFileSync(p, "utf8").matchAll(/^\s*(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"/gms)) {
            if (resolve(dirname(p), m[1]).startsWith(server)) reaching.push(`${relative(PROJECT_ROOT, p)} → ${m[1]}`);
          }
        }
      }
    };
    for (const d of ["pipeline", "lib", "formats", "tiles"]) walk(join(PROJECT_ROOT, d));
    expect(reaching).toEqual([]);
  });

  it("finds a cycle of runtime imports and ignores type-only ones", () => {
    const f = (n: string) => resolve(`/x/${n}.ts`);
    expect(importCycles(new Map([[f("a"), [f("b")]], [f("b"), [f("c")]], [f("c"), [f("a")]], [f("d"), [f("a")]]]))).toEqual([[f("a"), f("b"), f("c")]]);
    expect(importCycles(new Map([[f("a"), [f("b")]], [f("b"), []]]))).toEqual([]);
  });

  it("reads the import lines: a type-only import back is no cycle, a value import back is", () => {
    const root = mkdtempSync(join(tmpdir(), "cycles-"));
    mkdirSync(join(root, "lib"));
    writeFileSync(join(root, "lib", "a.ts"), 'import { b } from "./b.ts";\nexport interface A { n: number }\nexport const a = b + 1;\n');
    writeFileSync(join(root, "lib", "b.ts"), 'import type { A } from "./a.ts";\nimport { type A as B } from "./a.ts";\nexport const b = 1;\nexport type C = A | B;\n');
    expect(importCycles(importGraph(root, ["lib"]))).toEqual([]);
    writeFileSync(join(root, "lib", "b.ts"), 'import {\n  type A,\n  a,\n} from "./a.ts";\nexport const b = 1;\nexport const c = (x: A) => x.n + a;\n');
    expect(importCycles(importGraph(root, ["lib"])).map((c) => c.map((x) => relative(root, x)))).toEqual([["lib/a.ts", "lib/b.ts"]]);
  });
});
