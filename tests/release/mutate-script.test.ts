import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { MutantResult, MutationTestResult } from "mutation-testing-report-schema";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  DATA_BRANCH,
  type DataPlace,
  dataCommitMessage,
  ensureNativeTypescript,
  folderFiles,
  merge,
  readMutationData,
  recordOf,
  saveMutationData,
  scoresMarkdown,
  within,
  withScores,
} from "../../scripts/mutate";

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

describe("the incremental files on a branch of their own (mutation-data), read before a run and saved after", () => {
  // Run from a git hook (GIT_DIR, GIT_INDEX_FILE set), git would act on this repository, not on the temporary ones.
  const inherited = Object.entries(process.env).filter(([name]) => name.startsWith("GIT_"));
  beforeAll(() => {
    for (const [name] of inherited) delete process.env[name];
  });
  afterAll(() => {
    for (const [name, value] of inherited) process.env[name] = value;
  });
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8", stdio: "pipe" }).trim();
  const configure = (cwd: string) => {
    git(cwd, "config", "user.name", "mutate test");
    git(cwd, "config", "user.email", "mutate-test@example.invalid");
    git(cwd, "config", "commit.gpgsign", "false");
  };
  /** A repository on `main` with one commit, mutation/incremental/ ignored, and a change staged and one not. */
  const repository = () => {
    const root = mkdtempSync(path.join(tmpdir(), "mutate-data-"));
    made.push(root);
    git(root, "init", "-q", "-b", "main");
    configure(root);
    writeFileSync(path.join(root, ".gitignore"), "/mutation/incremental/\n");
    writeFileSync(path.join(root, "source.ts"), "export const a = 1;\n");
    git(root, "add", ".gitignore", "source.ts");
    git(root, "commit", "-q", "-m", "first");
    writeFileSync(path.join(root, "staged.ts"), "export const b = 2;\n");
    git(root, "add", "staged.ts");
    writeFileSync(path.join(root, "source.ts"), "export const a = 3; // not staged\n");
    const place: DataPlace = { root, dir: path.join(root, "mutation", "incremental"), branch: DATA_BRANCH, remote: "origin" };
    return { root, place };
  };
  /** What must not move: main's commit, the checked-out branch, the index, the working tree's status. */
  const mainState = (root: string) => ({
    head: git(root, "rev-parse", "HEAD"),
    branch: git(root, "symbolic-ref", "HEAD"),
    index: git(root, "ls-files", "--stage"),
    status: git(root, "status", "--porcelain=v1", "--untracked-files=all"),
    source: readFileSync(path.join(root, "source.ts"), "utf8"),
  });
  // Bytes a text filter would change (CRLF, no final newline), and a large file: stored and read back as they are.
  const sdk = Buffer.from('{"files":{"sdk/a.ts":{"mutants":[]}}}\r\n{"crlf": true}');
  const runs = Buffer.from(`${JSON.stringify({ sdk: { started: "2026-11-27T12:46:00.000Z" } })}\n${" ".repeat(1_000_000)}\n`);
  const write = (dir: string, files: Record<string, Buffer>) => {
    mkdirSync(dir, { recursive: true });
    for (const [name, bytes] of Object.entries(files)) writeFileSync(path.join(dir, name), bytes);
  };
  const jsonIn = (dir: string) =>
    readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .sort();

  it("saves with plumbing only: a commit on the branch; main's HEAD, index and working tree unchanged; read back byte for byte", () => {
    const { root, place } = repository();
    expect(readMutationData(place)).toBe(
      "no mutation-data branch, here or on origin: starting with no results (every mutant is tested); the first saved run creates the branch",
    );
    write(place.dir, { "sdk.json": sdk, "runs.json": runs });
    const before = mainState(root);

    const saved = saveMutationData("Mutation data: sdk/ run of 2026-11-27 12:46 UTC\n", place);
    const first = git(root, "rev-parse", `refs/heads/${DATA_BRANCH}`);
    expect(saved).toBe(
      `saved 2 files of mutation/incremental/ to mutation-data ${first.slice(0, 12)} (a new branch); \`git push origin mutation-data\` shares them`,
    );
    expect(mainState(root)).toEqual(before);
    expect(git(root, "log", "--format=%s", DATA_BRANCH)).toBe("Mutation data: sdk/ run of 2026-11-27 12:46 UTC");
    // The branch holds the files at its root, and nothing else; the commit has no parent (the branch is new).
    expect(git(root, "ls-tree", "--name-only", DATA_BRANCH).split("\n")).toEqual(["runs.json", "sdk.json"]);
    expect(git(root, "rev-list", "--parents", "-n", "1", DATA_BRANCH)).toBe(first);
    expect(execFileSync("git", ["cat-file", "blob", `${DATA_BRANCH}:sdk.json`], { cwd: root })).toEqual(sdk);

    // Saved again unchanged: no commit.
    expect(saveMutationData("again\n", place)).toBe(
      `mutation-data ${first.slice(0, 12)} already holds mutation/incremental/: nothing to commit`,
    );
    expect(git(root, "rev-parse", DATA_BRANCH)).toBe(first);

    // A fresh checkout of the folder (removed): read back the same bytes.
    rmSync(place.dir, { recursive: true });
    expect(readMutationData(place)).toBe(
      `read 2 files (1.0 MB) from mutation-data ${first.slice(0, 12)} into mutation/incremental/: "Mutation data: sdk/ run of 2026-11-27 12:46 UTC"`,
    );
    expect(readFileSync(path.join(place.dir, "sdk.json"))).toEqual(sdk);
    expect(readFileSync(path.join(place.dir, "runs.json"))).toEqual(runs);
    expect(readMutationData(place)).toBe(`mutation/incremental/ already holds mutation-data ${first.slice(0, 12)}`);

    // A run changes one file and drops another: the next commit has the first as parent and exactly these files.
    rmSync(path.join(place.dir, "runs.json"));
    write(place.dir, { "sdk.json": Buffer.from("{}\n"), "fleet.json": Buffer.from('{"fleet":1}\n') });
    saveMutationData("second\n", place);
    const second = git(root, "rev-parse", DATA_BRANCH);
    expect(git(root, "rev-list", "--parents", "-n", "1", DATA_BRANCH)).toBe(`${second} ${first}`);
    expect(git(root, "ls-tree", "--name-only", DATA_BRANCH).split("\n")).toEqual(["fleet.json", "sdk.json"]);
    expect(mainState(root)).toEqual(before);

    // Reading an older state (the branch moved back, as after a fetch of someone else's): the folder mirrors it.
    git(root, "update-ref", `refs/heads/${DATA_BRANCH}`, first);
    expect(readMutationData(place)).toMatch(/^read 2 files \(1\.0 MB\) from mutation-data /);
    expect(jsonIn(place.dir)).toEqual(["runs.json", "sdk.json"]);
    expect(readFileSync(path.join(place.dir, "sdk.json"))).toEqual(sdk);
    expect(mainState(root)).toEqual(before);
  });

  it("keeps results that were not saved (--no-save, a run killed before it saved) rather than overwrite them", () => {
    const { place } = repository();
    write(place.dir, { "sdk.json": sdk });
    saveMutationData("first\n", place);
    writeFileSync(path.join(place.dir, "sdk.json"), "{}\n");
    expect(readMutationData(place)).toMatch(
      /^mutation\/incremental\/ holds results that are not on mutation-data \(a run with --no-save, or one stopped before it saved\): kept, not replaced by mutation-data [0-9a-f]{12}; the next saved run commits them/,
    );
    expect(readFileSync(path.join(place.dir, "sdk.json"), "utf8")).toBe("{}\n");
    // Files from before the branch (no record of where they came from) are kept the same way.
    rmSync(path.join(place.dir, ".commit"));
    expect(readMutationData(place)).toMatch(/^mutation\/incremental\/ holds results that are not on mutation-data/);
    expect(existsSync(path.join(place.dir, "sdk.json"))).toBe(true);
  });

  it("a clone reads origin's branch (creating the local one), and fast-forwards to it when origin is ahead", () => {
    const { root, place } = repository();
    write(place.dir, { "sdk.json": sdk });
    saveMutationData("on the first machine\n", place);
    const clone = mkdtempSync(path.join(tmpdir(), "mutate-clone-"));
    made.push(clone);
    git(clone, "clone", "-q", root, ".");
    configure(clone);
    const there: DataPlace = { ...place, root: clone, dir: path.join(clone, "mutation", "incremental") };
    expect(git(clone, "branch", "--list", DATA_BRANCH)).toBe("");
    expect(readMutationData(there)).toMatch(
      /^read 1 file \(0\.0 MB\) from mutation-data [0-9a-f]{12} into mutation\/incremental\/ \(created from origin\/mutation-data\): "on the first machine"$/,
    );
    expect(readFileSync(path.join(there.dir, "sdk.json"))).toEqual(sdk);
    expect(git(clone, "rev-parse", DATA_BRANCH)).toBe(git(root, "rev-parse", DATA_BRANCH));

    // The first machine saves another run; the clone fetches it and its next read takes it.
    writeFileSync(path.join(place.dir, "fleet.json"), '{"fleet":2}\n');
    saveMutationData("a fleet run\n", place);
    git(clone, "fetch", "-q", "origin");
    expect(readMutationData(there)).toMatch(/\(fast-forwarded to origin\/mutation-data\): "a fleet run"$/);
    expect(jsonIn(there.dir)).toEqual(["fleet.json", "sdk.json"]);
    expect(git(clone, "rev-parse", DATA_BRANCH)).toBe(git(root, "rev-parse", DATA_BRANCH));

    // The clone's own run: saved on its branch, ahead of origin's until pushed.
    writeFileSync(path.join(there.dir, "plugin.json"), "{}\n");
    expect(saveMutationData("a plugin run\n", there)).toMatch(/`git push origin mutation-data` shares them$/);
    expect(readMutationData(there)).toMatch(
      /already holds mutation-data [0-9a-f]{12} \(ahead of origin\/mutation-data: `git push origin mutation-data` shares it\)$/,
    );
  });

  it("does not move the branch while a worktree has it checked out", () => {
    const { root, place } = repository();
    write(place.dir, { "sdk.json": sdk });
    saveMutationData("first\n", place);
    const tip = git(root, "rev-parse", DATA_BRANCH);
    const worktree = path.join(mkdtempSync(path.join(tmpdir(), "mutate-wt-")), "data");
    made.push(path.dirname(worktree));
    git(root, "worktree", "add", "-q", worktree, DATA_BRANCH);
    writeFileSync(path.join(place.dir, "sdk.json"), "{}\n");
    expect(saveMutationData("second\n", place)).toBe(
      `mutation-data is checked out in ${git(worktree, "rev-parse", "--show-toplevel")}: mutation/incremental/ not saved (commit the files there, or remove that worktree)`,
    );
    expect(git(root, "rev-parse", DATA_BRANCH)).toBe(tip);
  });

  it("the commit message names the folder, when its run started, its options, how it ended and the folder's score", () => {
    const record = { started: "2026-11-27T12:46:10.000Z", seconds: 1316, complete: true, args: ["--concurrency", "4"] };
    expect(dataCommitMessage("sdk", record, 94.1398, "main fb8789c69fdd")).toBe(
      "Mutation data: sdk/ run of 2026-11-27 12:46 UTC (--concurrency 4), to the end in 21 min 56 s: sdk/ 94.14%\n\nWritten by npm run mutate (scripts/mutate.ts), testing main fb8789c69fdd.\n",
    );
    expect(dataCommitMessage("fleet", { ...record, complete: false, args: [] }, Number.NaN, undefined).split("\n")[0]).toBe(
      "Mutation data: fleet/ run of 2026-11-27 12:46 UTC, stopped in 21 min 56 s: fleet/ —",
    );
  });

  it("this repository: mutation/incremental/ is ignored on main and not in its tree", () => {
    const root = path.resolve(__dirname, "..", "..");
    expect(git(root, "check-ignore", "mutation/incremental/sdk.json")).toBe("mutation/incremental/sdk.json");
    expect(git(root, "ls-files", "mutation/incremental")).toBe("");
  });
});
