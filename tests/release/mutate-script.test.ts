import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { MutantResult, MutationTestResult } from "mutation-testing-report-schema";
import { afterEach, describe, expect, it } from "vitest";
import { ensureNativeTypescript, folderFiles, merge, recordOf, scoresMarkdown, within, withScores } from "../../scripts/mutate";

// `npm run mutate` (scripts/mutate.ts): a narrowed or stopped Stryker run writes its incremental file with
// only the files it ran; the wrapper lays those over the folder's earlier results, then scores each folder.

let id = 0;
const mutant = (
  status: MutantResult["status"],
  line: number,
  replacement = "true",
  mutatorName = "ConditionalExpression",
): MutantResult => ({
  id: String(id++),
  mutatorName,
  replacement,
  status,
  location: { start: { line, column: 1 }, end: { line, column: 5 } },
});

const report = (files: Record<string, MutantResult[]>): MutationTestResult => ({
  schemaVersion: "1.0",
  thresholds: { high: 85, low: 70 },
  files: Object.fromEntries(Object.entries(files).map(([name, mutants]) => [name, { language: "typescript", source: "", mutants }])),
  testFiles: {},
});

describe("the files a folder's score counts", () => {
  it("are stryker.config.mjs's: a folder's TypeScript less generated code, bins and declarations", () => {
    const plugin = folderFiles("plugin");
    expect(plugin).toContain("plugin/serve.ts");
    expect(plugin).not.toContain("plugin/bin.ts");
    expect(folderFiles("fleet")).not.toContain("fleet/bin.ts");
    expect(folderFiles("sdk").filter((f) => f.includes("/generated/") || f.endsWith(".d.ts"))).toEqual([]);
    expect(folderFiles("provider").filter((f) => f.startsWith("provider/kinds/generated/"))).toEqual([]);
    expect(folderFiles("provider")).toContain("provider/runtime/provide.ts");
  });

  it("within: results of files no longer mutated (deleted, or a bin) leave the report", () => {
    const r = report({ "plugin/bin.ts": [mutant("NoCoverage", 1)], "plugin/serve.ts": [mutant("Killed", 2)] });
    expect(Object.keys(within(r, ["plugin/serve.ts", "plugin/schema.ts"])?.files ?? {})).toEqual(["plugin/serve.ts"]);
    expect(within(undefined, ["plugin/serve.ts"])).toBeUndefined();
  });
});

describe("merge: a run's results over the folder's earlier ones", () => {
  it("keeps the files the run did not mutate, and takes the run's result for every file it did", () => {
    const earlier = report({ "sdk/a.ts": [mutant("Survived", 1)], "sdk/b.ts": [mutant("Killed", 2)] });
    const latest = report({ "sdk/a.ts": [mutant("Killed", 1), mutant("Killed", 3)] });
    const merged = merge(earlier, latest);
    expect(Object.keys(merged?.files ?? {}).sort()).toEqual(["sdk/a.ts", "sdk/b.ts"]);
    expect(merged?.files["sdk/a.ts"].mutants.map((m) => m.status)).toEqual(["Killed", "Killed"]);
    expect(merged?.files["sdk/b.ts"].mutants.map((m) => m.status)).toEqual(["Killed"]);
  });

  it("a first run, or a run that wrote nothing (it failed before testing), leaves what there is", () => {
    const only = report({ "fleet/x.ts": [mutant("Killed", 1)] });
    expect(merge(undefined, only)).toBe(only);
    expect(merge(only, undefined)).toBe(only);
    expect(merge(undefined, undefined)).toBeUndefined();
  });
});

describe("scoresMarkdown: the score per folder, of the mutants that compile", () => {
  const reports = {
    sdk: report({
      "sdk/a.ts": [
        mutant("Killed", 1),
        mutant("Killed", 2),
        mutant("Timeout", 3),
        mutant("Survived", 4, "a | b"),
        mutant("CompileError", 5),
      ],
    }),
    plugin: report({ "plugin/p.ts": [mutant("Killed", 1), mutant("NoCoverage", 9, "{}", "BlockStatement"), mutant("Ignored", 2)] }),
  };
  const text = scoresMarkdown(
    reports,
    { sdk: { seconds: 125, complete: true, started: "2026-11-26T10:00:00.000Z", args: [] } },
    { sdk: 7 },
  );
  const row = (name: string) => text.split("\n").find((l) => l.startsWith(`| ${name} |`));

  it("counts killed and timed-out mutants against survived and uncovered ones; compile errors and static ones apart", () => {
    // sdk: (2 killed + 1 timeout) / (3 + 1 survived) = 75%; two mutants the instrumenter found have no result yet.
    expect(row("sdk/")).toBe("| sdk/ | **75.00%** | 75.00% | 2 | 1 | 1 | 0 | 1 | 0 | 2 |");
    // plugin: 1 killed, 1 without coverage: 50%, 100% of covered code; the ignored (static) one is not in the score; no run recorded.
    expect(row("plugin/")).toBe("| plugin/ | **50.00%** | 100.00% | 1 | 0 | 0 | 1 | 0 | 1 | ? |");
    expect(row("**all four**")).toBe("| **all four** | **66.67%** | 80.00% | 3 | 1 | 1 | 1 | 1 | 1 | ? |");
    expect(row("provider/")).toBeUndefined();
    // A folder never run, its mutants counted: every one untested, no score.
    const unrun = scoresMarkdown(reports, {}, { sdk: 7, fleet: 40 }).split("\n");
    expect(unrun.find((l) => l.startsWith("| fleet/ |"))).toBe("| fleet/ | **—** | — | 0 | 0 | 0 | 0 | 0 | 0 | 40 |");
    expect(unrun.find((l) => l.startsWith("| **all four** |"))).toBe("| **all four** | **66.67%** | 80.00% | 3 | 1 | 1 | 1 | 1 | 1 | ? |");
  });

  it("says how long each folder's last run took, and lists every surviving and uncovered mutant where it is", () => {
    expect(row("sdk/")).toBeDefined();
    expect(text).toContain("| sdk/ | 2026-11-26 10:00 | 2 min 5 s | yes | — |");
    expect(text).toContain("| sdk/a.ts:4 | ConditionalExpression | `a \\| b` | Survived |");
    expect(text).toContain("| plugin/p.ts:9 | BlockStatement | `{}` | NoCoverage |");
    expect(text).not.toMatch(/sdk\/a\.ts:[1235] /);
    expect(text).not.toContain("no test ran");
  });

  it("a survivor that tests reach but that ran none of them is flagged, not taken as a result", () => {
    const unrun = { ...mutant("Survived", 7), coveredBy: ["t1", "t2"], testsCompleted: 0 };
    const ran = { ...mutant("Survived", 8), coveredBy: ["t1"], testsCompleted: 1 };
    const flagged = scoresMarkdown({ fleet: report({ "fleet/f.ts": [unrun, ran] }) }, {});
    expect(flagged).toContain("| fleet/f.ts:7 | ConditionalExpression | `true` | Survived, **no test ran** |");
    expect(flagged).toContain("| fleet/f.ts:8 | ConditionalExpression | `true` | Survived |");
    expect(flagged).toContain("**1 survivors ran no test although tests reach them: not results.**");
  });
});

describe("withScores: docs/development.md's copy of the table", () => {
  it("replaces what is between the markers with scores.md's per-folder table, and nothing else", () => {
    const scores = scoresMarkdown({ sdk: report({ "sdk/a.ts": [mutant("Killed", 1), mutant("Survived", 2)] }) }, {});
    const page = "# Title\n\nbefore\n<!-- mutation-scores -->\nold table\n<!-- /mutation-scores -->\nafter\n";
    const updated = withScores(page, scores);
    const block = updated.split("<!-- mutation-scores -->\n")[1].split("<!-- /mutation-scores -->")[0].trim().split("\n");
    expect(block[0]).toMatch(/^\| folder \| score \|/);
    expect(block.slice(2)).toEqual([
      "| sdk/ | **50.00%** | 50.00% | 1 | 0 | 1 | 0 | 0 | 0 | ? |",
      "| **all four** | **50.00%** | 50.00% | 1 | 0 | 1 | 0 | 0 | 0 | ? |",
    ]);
    expect(updated.startsWith("# Title\n\nbefore\n<!-- mutation-scores -->\n| folder")).toBe(true);
    expect(updated.endsWith("|\n<!-- /mutation-scores -->\nafter\n")).toBe(true);
    expect(withScores("no markers\n", scores)).toBe("no markers\n");
  });

  it("the table is docs/development.md's (Mutation score), the same rows as mutation/scores.md; the README links it", () => {
    const root = path.resolve(__dirname, "..", "..");
    const read = (file: string) => readFileSync(path.join(root, file), "utf8");
    const rows = (text: string) => text.split("\n").filter((l) => /^\| (sdk|provider|fleet|plugin)\/ \||^\| \*\*all four\*\* \|/.test(l));
    const page = read("docs/development.md");
    expect(page).toMatch(/^## Mutation score$/m);
    const block = page.split("<!-- mutation-scores -->\n")[1]?.split("<!-- /mutation-scores -->")[0] ?? "";
    expect(rows(block)).toEqual(rows(read("mutation/scores.md").split("\n## Runs")[0]));
    expect(rows(block)).toHaveLength(5);
    const readme = read("README.md");
    expect(readme).not.toContain("<!-- mutation-scores -->");
    expect(readme).toContain("](docs/development.md#mutation-score)");
  });
});

describe("a folder's run record (runs.json)", () => {
  const started = new Date("2026-11-26T16:48:18.000Z");
  const ended = new Date("2026-11-26T16:51:04.400Z");

  it("is nothing when Stryker wrote no results (it failed before testing): the last real run stays on record", () => {
    expect(recordOf(started, ended, 1, false, ["--mutate", "sdk/errors.ts"])).toBeUndefined();
  });

  it.each([
    [0, true],
    [1, false],
    [null, false],
  ])("with exit code %s: complete %s, its start, its whole seconds and its options", (code, complete) => {
    expect(recordOf(started, ended, code, true, ["--mutate", "sdk/errors.ts"])).toEqual({
      started: "2026-11-26T16:48:18.000Z",
      seconds: 166,
      complete,
      args: ["--mutate", "sdk/errors.ts"],
    });
  });
});

describe("ensureNativeTypescript: TypeScript 7 for the checker, beside the build's TypeScript 5", () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  /** A checkout whose mutation/native already holds `installed` (so no npm runs). */
  const checkout = (wanted: string, installed: string) => {
    const root = mkdtempSync(path.join(tmpdir(), "mutate-native-"));
    made.push(root);
    const native = path.join(root, "mutation", "native");
    mkdirSync(path.join(native, "node_modules", "typescript"), { recursive: true });
    writeFileSync(path.join(native, "package.json"), JSON.stringify({ dependencies: { typescript: wanted } }));
    writeFileSync(path.join(native, "node_modules", "typescript", "package.json"), JSON.stringify({ version: installed }));
    return { root, native, link: path.join(root, "node_modules", "@typescript", "native") };
  };

  it("links node_modules/@typescript/native, where Stryker's checker imports it from, to mutation/native's install", () => {
    const { root, native, link } = checkout("7.0.2", "7.0.2");
    expect(ensureNativeTypescript(root, native)).toBeUndefined();
    expect(readlinkSync(link)).toBe(path.join("..", "..", "mutation", "native", "node_modules", "typescript"));
    expect(JSON.parse(readFileSync(path.join(link, "package.json"), "utf8")).version).toBe("7.0.2");
  });

  it("replaces a link or folder left there by something else (an npm alias install, an older checkout)", () => {
    const { root, native, link } = checkout("7.0.2", "7.0.2");
    mkdirSync(link, { recursive: true });
    writeFileSync(path.join(link, "package.json"), JSON.stringify({ version: "7.0.0-dev" }));
    expect(ensureNativeTypescript(root, native)).toBeUndefined();
    expect(JSON.parse(readFileSync(path.join(link, "package.json"), "utf8")).version).toBe("7.0.2");
  });

  it("the pinned version and its lockfile agree, and the repo's own tsc stays TypeScript 5 (build, typecheck)", () => {
    const root = path.resolve(__dirname, "..", "..");
    const pinned = JSON.parse(readFileSync(path.join(root, "mutation", "native", "package.json"), "utf8")).dependencies.typescript;
    const lock = JSON.parse(readFileSync(path.join(root, "mutation", "native", "package-lock.json"), "utf8"));
    expect(pinned).toMatch(/^7\.\d+\.\d+$/);
    expect(lock.packages["node_modules/typescript"].version).toBe(pinned);
    const tsc = execFileSync(process.execPath, [path.join(root, "node_modules", ".bin", "tsc"), "--version"], { encoding: "utf8" });
    expect(tsc).toMatch(/^Version 5\./);
  });

  // `npx stryker run` without the wrapper: Stryker's own error would suggest an npm alias, which replaces the repo's tsc.
  it("Stryker's CLI loading the config where TypeScript 7 is not linked: refused, saying to run npm run mutate", () => {
    const { root } = checkout("7.0.2", "7.0.2");
    writeFileSync(path.join(root, "stryker.config.mjs"), readFileSync(path.resolve(__dirname, "..", "..", "stryker.config.mjs")));
    // Named as Stryker's bin is, so the config takes the process for Stryker's CLI.
    writeFileSync(path.join(root, "stryker.mjs"), 'await import("./stryker.config.mjs");\n');
    const run = () => execFileSync(process.execPath, [path.join(root, "stryker.mjs")], { cwd: root, encoding: "utf8", stdio: "pipe" });
    expect(run).toThrow(
      "the mutation checker needs TypeScript 7 (mutation/native), which `npm run mutate -- <folder>` installs and links; run it instead of `npx stryker run`",
    );
    ensureNativeTypescript(root, path.join(root, "mutation", "native"));
    expect(run()).toBe("");
  });
});
