/**
 * `npm pack` contents are checked (issue 22): the tarball holds what package.json "files" names (and what npm always
 * adds), nothing of the tests, caches, fixtures, benchmark or examples; every target of "exports" and "bin" is in
 * it; and the packed package passes publint (strict) and arethetypeswrong for the resolutions a user's TypeScript
 * uses. The sizes are printed (the benchmark reports them too: figure 10).
 *
 * Packs without lifecycle scripts: `prepack` would rebuild dist/, so, like the other package tests, this one
 * asks for a current build instead (`npm test` builds first).
 */
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt } from "./built";
import { kB, npmPack, type Packed, ROOT } from "./pack";

const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  files: string[];
  exports: Record<string, unknown>;
  bin: Record<string, string>;
  main: string;
  types: string;
};

/** What npm packs whatever "files" says (npm-packlist): the manifest, the readme and the licence. */
const ALWAYS_PACKED = /^(package\.json|readme(\.[^/]*)?|licen[cs]e(\.[^/]*)?|copying(\.[^/]*)?)$/i;

/** Paths that must never ship, whatever "files" comes to say. */
const NEVER = [
  /(^|\/)(tests?|__tests__|fixtures?|bench|benchmarks?|examples?|coverage|node_modules|\.cache|\.github|\.pulumi-state)\//,
  /\.(test|spec)\.[cm]?[jt]sx?(\.map)?$/,
  /\.(tgz|tsbuildinfo|log)$/,
  /(^|\/)\.env/,
  /(^|\/)Pulumi\.[^/]*\.yaml$/,
];

/** Every string target of an exports map (conditions and subpaths, nested). */
function targets(node: unknown): string[] {
  if (typeof node === "string") return [node];
  if (node && typeof node === "object") return Object.values(node).flatMap(targets);
  return [];
}

/**
 * `import()` of an ES module package that has only "exports": the repo's TypeScript resolution (node10) does not
 * read them, so the call is untyped and its result is given the package's types by an import type that resolves as
 * an ES module import would.
 */
const importEsm = (specifier: string): Promise<unknown> => import(specifier);
type PublintModule = typeof import("publint", { with: { "resolution-mode": "import" }});
type PublintUtils = typeof import("publint/utils", { with: { "resolution-mode": "import" }});

/** The attw command (@arethetypeswrong/cli's bin; the package exports no path to it). */
const ATTW = path.join(path.dirname(require.resolve("@arethetypeswrong/cli/package.json")), "dist/index.js");

const rel = (p: string) => path.posix.normalize(p).replace(/^\.\//, "");

describe("npm pack", () => {
  let packed: Packed;
  let files: Set<string>;
  beforeAll(() => {
    assertBuilt();
    packed = npmPack();
    files = new Set(packed.files.map((f) => f.path));
    console.log(`npm pack: ${packed.filename}, ${kB(packed.size)} packed, ${kB(packed.unpackedSize)} unpacked, ${packed.entryCount} files`);
  }, 120_000);

  it('holds only what package.json "files" names, and the files npm always adds', () => {
    const allowed = pkg.files.map(rel);
    const stray = [...files].filter((f) => !ALWAYS_PACKED.test(f) && !allowed.some((a) => f === a || f.startsWith(`${a}/`)));
    expect(stray, 'files outside package.json "files"').toEqual([]);
  });

  it("holds no tests, fixtures, caches, benchmark, examples or their source maps", () => {
    expect([...files].filter((f) => NEVER.some((re) => re.test(f)))).toEqual([]);
  });

  it("holds no build output of a source that is gone (tsc leaves them in dist/; publishing would ship them)", () => {
    // dist/<x>.js is compiled from <x>.ts; one without its source is left over from a renamed or deleted module.
    const orphans = [...files]
      .filter((f) => f.startsWith("dist/") && f.endsWith(".js"))
      .filter((f) => {
        try {
          readFileSync(path.join(ROOT, f.slice("dist/".length, -".js".length) + ".ts"));
          return false;
        } catch {
          return true;
        }
      });
    expect(orphans, "left over in dist/: `rm -rf dist && npm run build`").toEqual([]);
  });

  it('holds every target of "exports", "main", "types" and "bin"', () => {
    const wanted = [...targets(pkg.exports), pkg.main, pkg.types, ...Object.values(pkg.bin)].map(rel);
    expect(wanted.length).toBeGreaterThan(20);
    expect(wanted.filter((t) => !files.has(t))).toEqual([]);
  });

  it("gives each bin a #! line", () => {
    for (const bin of Object.values(pkg.bin)) {
      expect(readFileSync(path.join(ROOT, bin), "utf8").split("\n")[0], bin).toMatch(/^#!\/usr\/bin\/env node/);
    }
  });
});

describe("the packed package's exports and types", () => {
  let dir: string;
  let tarball: string;
  beforeAll(() => {
    assertBuilt();
    dir = mkdtempSync(path.join(tmpdir(), "billing-pack-"));
    tarball = path.join(dir, npmPack({ destination: dir }).filename);
  }, 120_000);
  afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

  it("pass publint (strict: its warnings count as errors), suggestions included", async () => {
    const { publint } = (await importEsm("publint")) as PublintModule;
    const { formatMessage } = (await importEsm("publint/utils")) as PublintUtils;
    const data = readFileSync(tarball);
    const { messages, pkg: manifest } = await publint({
      // The folder inside the tarball (npm packs everything under package/).
      pkgDir: "package",
      strict: true,
      pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer },
    });
    expect(messages.map((m) => `${m.type} ${m.code}: ${formatMessage(m, manifest)}`)).toEqual([]);
  }, 60_000);

  it("pass arethetypeswrong for node16 (CommonJS and ESM importers), bundler and node10", () => {
    // Into a file, not a pipe: attw exits (1 when it finds problems) before a pipe has taken all of its JSON.
    const report = path.join(dir, "attw.json");
    const fd = openSync(report, "w");
    try {
      spawnSync(process.execPath, [ATTW, tarball, "--format", "json"], { stdio: ["ignore", fd, "inherit"] });
    } finally {
      closeSync(fd);
    }
    const out = readFileSync(report, "utf8");
    const { analysis } = JSON.parse(out) as { analysis: { problems: Problem[]; types: unknown } };
    expect(analysis.types, "the package ships its own types").toBeTruthy();
    const problems = analysis.problems.filter((p) => !KNOWN.some((k) => k.matches(p)));
    expect(problems.map(describeProblem)).toEqual([]);
  }, 120_000);
});

interface Problem {
  kind: string;
  entrypoint?: string;
  resolutionKind?: string;
  typesFileName?: string;
  missing?: string[];
}

function describeProblem(p: Problem): string {
  const what = [p.kind, p.entrypoint, p.resolutionKind, p.typesFileName, p.missing?.join(",")].filter(Boolean).join(" ");
  // TypeScript's node10 resolution (`moduleResolution: "node"`, older projects') does not read "exports".
  const hint =
    p.kind === "NoResolution" && p.resolutionKind === "node10"
      ? ` (give "${p.entrypoint?.replace(/^\.\//, "")}" its types in package.json "typesVersions")`
      : "";
  return what + hint;
}

/**
 * Findings of arethetypeswrong that are not problems, each with why. A finding not listed fails the test; a
 * listed one that stops appearing is harmless (delete it here).
 */
const KNOWN: { why: string; matches: (p: Problem) => boolean }[] = [
  {
    why:
      "simulator/index.ts re-exports records.ts with `export type *`, so its functions (isoSeconds, addMonths, addInterval) " +
      "are types-only names there: TypeScript refuses them as values, and the JavaScript rightly lacks them. " +
      "attw's NamedExports check compares the declared names with the JavaScript's and does not see that they are type-only.",
    matches: (p) =>
      p.kind === "NamedExports" &&
      (p.typesFileName ?? "").endsWith("/dist/simulator/index.d.ts") &&
      (p.missing ?? []).every((n) => ["isoSeconds", "addMonths", "addInterval"].includes(n)),
  },
];
