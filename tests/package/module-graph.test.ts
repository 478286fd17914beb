import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The package's modules import each other without circles (issue 40): a circle makes a module's exports
 * undefined while another of the circle loads, and makes every file of it part of every change. Type-only
 * imports are erased, so they close no circle at run time; but the kinds and the runtime that serves them
 * do not import each other even for types (provider/engine.ts holds what both need).
 */

const ROOT = path.resolve(__dirname, "../..");
const FOLDERS = ["sdk", "provider", "plugin", "catalog", "site", "review", "policy", "fleet", "simulator"];

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) out.push(...sources(file));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(file);
  }
  return out;
}

/** Each module's relative imports, and whether each is for types only. */
function importsOf(file: string): { to: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const out: { to: string; typeOnly: boolean }[] = [];
  const resolve = (spec: string) => {
    const base = path.resolve(path.dirname(file), spec);
    for (const candidate of [`${base}.ts`, path.join(base, "index.ts")])
      if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
    return undefined;
  };
  for (const s of source.statements) {
    let spec: string | undefined;
    let typeOnly = false;
    if (ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier)) {
      spec = s.moduleSpecifier.text;
      const clause = s.importClause;
      const named = clause?.namedBindings;
      typeOnly =
        clause?.isTypeOnly === true ||
        (clause !== undefined &&
          clause.name === undefined &&
          named !== undefined &&
          ts.isNamedImports(named) &&
          named.elements.length > 0 &&
          named.elements.every((e) => e.isTypeOnly));
    } else if (ts.isExportDeclaration(s) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier)) {
      spec = s.moduleSpecifier.text;
      typeOnly =
        s.isTypeOnly ||
        (s.exportClause !== undefined && ts.isNamedExports(s.exportClause) && s.exportClause.elements.every((e) => e.isTypeOnly));
    }
    if (spec === undefined || !spec.startsWith(".")) continue;
    const to = resolve(spec);
    if (to) out.push({ to, typeOnly });
  }
  return out;
}

const files = FOLDERS.flatMap((f) => sources(path.join(ROOT, f)));
const edges = new Map(files.map((f) => [f, importsOf(f)]));
const rel = (f: string) => path.relative(ROOT, f);

/** The strongly connected components of more than one module (Tarjan), over imports kept at run time. */
function circles(): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const { to, typeOnly } of edges.get(v) ?? []) {
      if (typeOnly || !edges.has(to)) continue;
      if (!idx.has(to)) {
        visit(to);
        low.set(v, Math.min(low.get(v) as number, low.get(to) as number));
      } else if (on.has(to)) low.set(v, Math.min(low.get(v) as number, idx.get(to) as number));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        on.delete(w);
        scc.push(rel(w));
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const f of files) if (!idx.has(f)) visit(f);
  return out;
}

describe("the package's module graph", () => {
  it("has no circle of imports that run", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(circles()).toEqual([]);
  });

  it("keeps the kinds and the runtime that serves them apart: kinds/ imports nothing of runtime/, even for types", () => {
    const kinds = path.join(ROOT, "provider", "kinds") + path.sep;
    const runtime = path.join(ROOT, "provider", "runtime") + path.sep;
    const crossing = [...edges].flatMap(([from, to]) =>
      from.startsWith(kinds) ? to.filter((t) => t.to.startsWith(runtime)).map((t) => `${rel(from)} → ${rel(t.to)}`) : [],
    );
    expect(crossing).toEqual([]);
  });
});
