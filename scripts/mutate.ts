/**
 * `npm run mutate`: the mutation score of sdk/, provider/, fleet/ and plugin/ (issue 24), one Stryker run
 * per folder, each incremental on its own file in mutation/incremental/, then the score per folder.
 *
 *   npm run mutate                                   every folder (each re-tests only what changed)
 *   npm run mutate -- fleet plugin                   some folders
 *   npm run mutate -- sdk --mutate sdk/transport.ts  part of a folder (other Stryker options pass through)
 *   npm run mutate -- --report                       no run: the scores the incremental files hold
 *   npm run mutate -- fleet --no-save                a run whose results are not committed to mutation-data
 *
 * Why a wrapper: Stryker writes its incremental file with the results of the files its run mutated and
 * nothing else, so a narrowed run (or one stopped with Ctrl-C, which saves what it finished) would drop
 * every other file's results. Here each run's results are laid over the folder's earlier ones, file by
 * file. That is safe: Stryker reuses an earlier result only when the mutant's code and its tests are
 * unchanged, and re-tests the rest.
 *
 * Where the results live (issue 40): on the branch `mutation-data`, not in main's tree (they were 37 MB of it,
 * rewritten by every run). Before a run the wrapper reads the branch (the local one, else origin's) into the
 * ignored mutation/incremental/; after each folder's run it commits that folder back to the branch with git
 * plumbing (hash-object, mktree, commit-tree, update-ref), so the checked-out branch, the index and the working
 * tree are never touched. `git push origin mutation-data` shares the results; `--no-save` leaves the branch as it was.
 *
 * Writes mutation/scores.md (the table, the time each folder took, every surviving mutant), the table into
 * docs/development.md ("Mutation score"), and prints it.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { calculateMutationTestMetrics } from "mutation-testing-metrics";
import type { MutantResult, MutationTestResult } from "mutation-testing-report-schema";

const ROOT = path.resolve(__dirname, "..");
export const FOLDERS = ["sdk", "provider", "fleet", "plugin"] as const;
type Folder = (typeof FOLDERS)[number];
/** The incremental files while a run uses them: a copy of the `mutation-data` branch, ignored by git. */
const INCREMENTAL = path.join(ROOT, "mutation", "incremental");
const SCORES = path.join(ROOT, "mutation", "scores.md");
const RUNS = path.join(INCREMENTAL, "runs.json");

/** A folder's last run: when it started, how long it took, whether it ran to the end, with what options. */
interface RunRecord {
  started?: string;
  seconds?: number;
  complete?: boolean;
  args?: string[];
}

const incrementalFile = (folder: Folder) => path.join(INCREMENTAL, `${folder}.json`);

/** The files stryker.config.mjs mutates in a folder (its own patterns, so the two cannot drift apart). */
export function folderFiles(folder: Folder): string[] {
  const patterns: string[] = require("../stryker.config.mjs").mutatePatterns([folder]);
  const include = patterns.filter((p) => !p.startsWith("!"));
  const exclude = patterns.filter((p) => p.startsWith("!")).map((p) => p.slice(1));
  return (readdirSync(path.join(ROOT, folder), { recursive: true }) as string[])
    .map((f) => path.join(folder, f).split(path.sep).join("/"))
    .filter((f) => include.some((p) => path.matchesGlob(f, p)) && !exclude.some((p) => path.matchesGlob(f, p)))
    .sort();
}

/** How many mutants Stryker's instrumenter finds in a folder now (what a whole run would test). */
async function mutantsIn(folder: Folder): Promise<number> {
  const { Instrumenter } = await import("@stryker-mutator/instrumenter");
  const quiet = () => false;
  const none = () => {};
  const log = {
    debug: none,
    info: none,
    warn: none,
    error: none,
    trace: none,
    fatal: none,
    isDebugEnabled: quiet,
    isTraceEnabled: quiet,
    isInfoEnabled: quiet,
    isWarnEnabled: quiet,
    isErrorEnabled: quiet,
    isFatalEnabled: quiet,
  };
  const files = folderFiles(folder).map((name) => ({ name, content: readFileSync(path.join(ROOT, name), "utf8"), mutate: true as const }));
  const { mutants } = await new Instrumenter(log as never).instrument(files, { plugins: null, excludedMutations: [], ignorers: [] });
  return mutants.length;
}

function readReport(file: string): MutationTestResult | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as MutationTestResult) : undefined;
}

/** `earlier`'s files that `latest` did not run, then every file of `latest`. */
export function merge(earlier: MutationTestResult | undefined, latest: MutationTestResult | undefined): MutationTestResult | undefined {
  if (!earlier || !latest) return latest ?? earlier;
  return {
    ...latest,
    files: { ...earlier.files, ...latest.files },
    testFiles: { ...(earlier.testFiles ?? {}), ...(latest.testFiles ?? {}) },
  };
}

/** `report` with only the files named: a file deleted, or no longer mutated (a bin), leaves the score with it. */
export function within(report: MutationTestResult | undefined, files: readonly string[]): MutationTestResult | undefined {
  if (!report) return undefined;
  return { ...report, files: Object.fromEntries(Object.entries(report.files).filter(([name]) => files.includes(name))) };
}

function readRuns(): Partial<Record<Folder, RunRecord>> {
  return existsSync(RUNS) ? JSON.parse(readFileSync(RUNS, "utf8")) : {};
}

/**
 * What a folder's run leaves in runs.json: nothing when Stryker wrote no results (it failed before testing, e.g. a
 * test failed in its initial run), so the last run that tested something stays the one the scores name.
 */
export function recordOf(started: Date, ended: Date, code: number | null, wroteResults: boolean, args: string[]): RunRecord | undefined {
  if (!wroteResults) return undefined;
  return { started: started.toISOString(), seconds: Math.round((ended.getTime() - started.getTime()) / 1000), complete: code === 0, args };
}

const modified = (file: string): number | undefined => (existsSync(file) ? statSync(file).mtimeMs : undefined);

const NATIVE = path.join(ROOT, "mutation", "native");

/**
 * TypeScript 7 for the checker (stryker.config.mjs, `experimentalNativePreview`), where Stryker looks for it:
 * `@typescript/native`. Installed from mutation/native's own lockfile, not as a root dev dependency: an
 * npm alias there would link TypeScript 7's `tsc` over TypeScript 5's in node_modules/.bin, and the build
 * and the typecheck need TypeScript 5. Returns why it could not, or undefined.
 */
export function ensureNativeTypescript(root = ROOT, native = NATIVE): string | undefined {
  const wanted: string = JSON.parse(readFileSync(path.join(native, "package.json"), "utf8")).dependencies.typescript;
  const installed = path.join(native, "node_modules", "typescript");
  const version = (): string | undefined =>
    existsSync(path.join(installed, "package.json"))
      ? JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8")).version
      : undefined;
  if (version() !== wanted) {
    process.stdout.write(`Installing TypeScript ${wanted} for the mutation run's checker (mutation/native)\n`);
    const npm = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: native, stdio: "inherit" });
    if (npm.status !== 0 || version() !== wanted) return `npm ci in ${path.relative(root, native)} failed (exit ${npm.status})`;
  }
  const link = path.join(root, "node_modules", "@typescript", "native");
  const target = path.relative(path.dirname(link), installed);
  let current: string | undefined;
  try {
    current = readlinkSync(link);
  } catch {}
  if (current !== target) {
    rmSync(link, { recursive: true, force: true });
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(target, link, "dir");
  }
  return undefined;
}

/** One Stryker run over `folder` (or the narrower `--mutate` the user passed); resolves when it ended. */
async function runFolder(folder: Folder, passThrough: string[]): Promise<RunRecord | undefined> {
  const file = incrementalFile(folder);
  const earlier = readReport(file);
  const before = modified(file);
  const started = new Date();
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(
      path.join(ROOT, "node_modules", ".bin", "stryker"),
      ["run", "--incrementalFile", path.relative(ROOT, file), ...passThrough],
      { cwd: ROOT, env: { ...process.env, BILLING_MUTATE_FOLDER: folder }, stdio: ["inherit", "pipe", "inherit"] },
    );
    child.stdout.on("data", (chunk: Buffer) => process.stdout.write(chunk));
    child.on("close", resolve);
  });
  const wrote = modified(file) !== before;
  const merged = within(merge(earlier, readReport(file)), folderFiles(folder));
  if (merged) writeFileSync(file, `${JSON.stringify(merged, null, 2)}\n`);
  return recordOf(started, new Date(), code, wrote, passThrough);
}

interface Row {
  folder: string;
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  compileErrors: number;
  ignored: number;
  untested: number | undefined;
  score: number;
  /** The score without the mutants no test reached (only the engine and e2e tests, which are not Stryker's, run that code). */
  covered: number;
}

function rowOf(folder: string, report: MutationTestResult, mutants: number | undefined): Row {
  const m = calculateMutationTestMetrics(report).systemUnderTestMetrics.metrics;
  return {
    folder,
    killed: m.killed,
    timeout: m.timeout,
    survived: m.survived,
    noCoverage: m.noCoverage,
    compileErrors: m.compileErrors,
    ignored: m.ignored,
    untested: mutants === undefined ? undefined : Math.max(0, mutants - m.totalMutants),
    score: m.mutationScore,
    covered: m.mutationScoreBasedOnCoveredCode,
  };
}

/**
 * A mutant reported Survived although tests reach it and none of them ran: not a result. It happened with
 * vitest's isolation off (mutation/vitest.config.mts says why it is on); counted apart so that it shows.
 */
export const ranNoTest = (m: MutantResult): boolean => m.status === "Survived" && (m.coveredBy?.length ?? 0) > 0 && m.testsCompleted === 0;

const pct = (n: number) => (Number.isNaN(n) ? "—" : `${n.toFixed(2)}%`);

/** The scores table, the runs, and every surviving (or uncovered) mutant, as Markdown. */
export function scoresMarkdown(
  reports: Partial<Record<Folder, MutationTestResult>>,
  runs: Partial<Record<Folder, RunRecord>>,
  /** Each folder's mutants as the instrumenter finds them now: what is untested is the difference. */
  mutants: Partial<Record<Folder, number>> = {},
): string {
  const rows: Row[] = [];
  const all: MutationTestResult[] = [];
  for (const folder of FOLDERS) {
    // A folder never run still has a row when its mutants are counted: all of them untested.
    const report =
      reports[folder] ??
      (mutants[folder] === undefined ? undefined : { schemaVersion: "1.0", thresholds: { high: 85, low: 70 }, files: {} });
    if (!report) continue;
    all.push(report);
    rows.push(rowOf(`${folder}/`, report, mutants[folder]));
  }
  const total =
    all.length > 0 ? rowOf("**all four**", { ...all[0], files: Object.assign({}, ...all.map((r) => r.files)) }, undefined) : undefined;
  if (total) total.untested = rows.every((r) => r.untested !== undefined) ? rows.reduce((s, r) => s + (r.untested ?? 0), 0) : undefined;
  const line = (r: Row) =>
    `| ${r.folder} | **${pct(r.score)}** | ${pct(r.covered)} | ${r.killed} | ${r.timeout} | ${r.survived} | ${r.noCoverage} | ${r.compileErrors} | ${r.ignored} | ${r.untested ?? "?"} |`;
  const out = [
    "# Mutation scores",
    "",
    "Written by `npm run mutate` (scripts/mutate.ts) from the incremental files (branch `mutation-data`); do not edit.",
    "Score: killed and timed-out mutants of those tested that compile (survived and no-coverage count against it;",
    "compile errors and static mutants, ignored, do not). *Of covered code*: the same without the mutants no",
    "unit test reaches (code only the engine and e2e tests run, which Stryker's vitest runner cannot).",
    "*Untested*: found by the instrumenter, no result yet (a run stopped before them, or a narrowed one).",
    "",
    "| folder | score | of covered code | killed | timeout | survived | no coverage | compile errors | ignored (static) | untested |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(line),
    ...(total ? [line(total)] : []),
    "",
    "## Runs",
    "",
    "| folder | last run started (UTC) | took | ran to the end | options |",
    "|---|---|---:|---|---|",
    ...FOLDERS.filter((f) => runs[f]).map((f) => {
      const r = runs[f] as RunRecord;
      const took = r.seconds === undefined ? "?" : `${Math.floor(r.seconds / 60)} min ${r.seconds % 60} s`;
      return `| ${f}/ | ${r.started?.replace("T", " ").slice(0, 16) ?? "?"} | ${took} | ${r.complete ? "yes" : "no (stopped; its results are kept)"} | ${r.args?.length ? `\`${r.args.join(" ")}\`` : "—"} |`;
    }),
    "",
    "## Surviving and uncovered mutants",
    "",
    "Those of `provider/runtime/` and `sdk/{transport,retry,outcome,replay,migration}.ts` are explained in",
    "[survivors.md](survivors.md).",
    "",
    "| file:line | mutator | replacement | status |",
    "|---|---|---|---|",
  ];
  for (const report of all) {
    for (const [file, { mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
      for (const m of [...mutants].sort((a, b) => a.location.start.line - b.location.start.line)) {
        if (m.status !== "Survived" && m.status !== "NoCoverage") continue;
        const replacement = (m.replacement ?? "").replace(/\s+/g, " ").slice(0, 80).replace(/\|/g, "\\|").replace(/`/g, "'");
        out.push(
          `| ${file}:${m.location.start.line} | ${m.mutatorName} | \`${replacement}\` | ${ranNoTest(m) ? "Survived, **no test ran**" : m.status} |`,
        );
      }
    }
  }
  const suspect = all.flatMap((r) => Object.values(r.files).flatMap((f) => f.mutants)).filter(ranNoTest).length;
  if (suspect > 0)
    out.splice(out.indexOf("## Runs"), 0, `**${suspect} survivors ran no test although tests reach them: not results.**`, "");
  return `${out.join("\n")}\n`;
}

/** Where the incremental files are kept between runs: a branch of the repository of their own. */
export interface DataPlace {
  /** The repository's work tree (git runs there). */
  root: string;
  /** The folder a run reads and writes the files in (ignored by git). */
  dir: string;
  /** The branch that holds them, at its root, and nothing else. */
  branch: string;
  /** The remote whose copy of the branch is read when there is no local one. */
  remote: string;
}

export const DATA_BRANCH = "mutation-data";
const DATA: DataPlace = { root: ROOT, dir: INCREMENTAL, branch: DATA_BRANCH, remote: "origin" };
/** In `dir`: the commit of the branch its files were read from or saved as (so a later read knows whether they changed). */
const READ_FROM = ".commit";

function git(root: string, args: string[], input?: string): Buffer {
  const run = spawnSync("git", args, { cwd: root, input, maxBuffer: 1 << 30 });
  if (run.error) throw run.error;
  if (run.status !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr.toString().trim()}`);
  return run.stdout;
}
const gitLine = (root: string, args: string[], input?: string): string => git(root, args, input).toString().trim();
/** The commit a ref names, or undefined when there is no such ref. */
function commitOf(root: string, ref: string): string | undefined {
  const run = spawnSync("git", ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { cwd: root });
  return run.status === 0 ? run.stdout.toString().trim() : undefined;
}
const treeOfCommit = (root: string, commit: string): string | undefined => {
  const run = spawnSync("git", ["rev-parse", "--verify", "--quiet", `${commit}^{tree}`], { cwd: root });
  return run.status === 0 ? run.stdout.toString().trim() : undefined;
};
const isAncestor = (root: string, a: string, b: string): boolean =>
  spawnSync("git", ["merge-base", "--is-ancestor", a, b], { cwd: root }).status === 0;
const inGit = (root: string): boolean => spawnSync("git", ["rev-parse", "--git-dir"], { cwd: root }).status === 0;
const short = (commit: string) => commit.slice(0, 12);
const fileCount = (n: number) => `${n} file${n === 1 ? "" : "s"}`;
const subjectOf = (root: string, commit: string) => gitLine(root, ["log", "-1", "--format=%s", commit]);

/** The incremental files in `dir` (runs.json and one per folder), by name. */
function dataFiles(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(".json"))
        .sort()
    : [];
}

/** The tree `dir`'s files make, their bytes as they are (no filters); `write` stores the objects, else only hashes. */
function treeOfDir(place: DataPlace, write: boolean): string {
  const files = dataFiles(place.dir);
  const blobs = files.length
    ? gitLine(
        place.root,
        ["hash-object", ...(write ? ["-w"] : []), "--no-filters", "--stdin-paths"],
        files.map((f) => `${path.join(place.dir, f)}\n`).join(""),
      ).split("\n")
    : [];
  const listing = files.map((f, i) => `100644 blob ${blobs[i]}\t${f}\n`).join("");
  return gitLine(place.root, ["mktree", ...(write ? [] : ["--missing"])], listing);
}

const readFromOf = (dir: string): string | undefined =>
  existsSync(path.join(dir, READ_FROM)) ? readFileSync(path.join(dir, READ_FROM), "utf8").trim() : undefined;
const setReadFrom = (dir: string, commit: string) => writeFileSync(path.join(dir, READ_FROM), `${commit}\n`);

/**
 * Before a run: `place.dir` gets the files of the branch (the local one; origin's when there is none, or when it
 * is ahead, the local branch then created or fast-forwarded to it). Files in `dir` that changed since they were
 * read (a run with --no-save, or one killed before it saved) are kept, not overwritten. Returns what it did.
 */
export function readMutationData(place: DataPlace = DATA): string {
  const { root, dir, branch, remote } = place;
  const shown = `${path.relative(root, dir).split(path.sep).join("/")}/`;
  const held = dataFiles(dir);
  if (!inGit(root)) return `not a git checkout: using the ${fileCount(held.length)} ${shown} holds; nothing will be saved`;
  const local = commitOf(root, `refs/heads/${branch}`);
  const theirs = commitOf(root, `refs/remotes/${remote}/${branch}`);
  const notes: string[] = [];
  let commit = local;
  if (theirs && theirs !== local) {
    if (!local || isAncestor(root, local, theirs)) {
      git(root, ["update-ref", "-m", `npm run mutate: ${remote}/${branch}`, `refs/heads/${branch}`, theirs, local ?? ""]);
      commit = theirs;
      notes.push(local ? `fast-forwarded to ${remote}/${branch}` : `created from ${remote}/${branch}`);
    } else if (isAncestor(root, theirs, local)) notes.push(`ahead of ${remote}/${branch}: \`git push ${remote} ${branch}\` shares it`);
    else notes.push(`${remote}/${branch} has diverged from it: using the local branch`);
  }
  const also = notes.length ? ` (${notes.join("; ")})` : "";
  if (!commit)
    return held.length
      ? `no ${branch} branch, here or on ${remote}: starting from the ${fileCount(held.length)} ${shown} holds; the first saved run creates the branch`
      : `no ${branch} branch, here or on ${remote}: starting with no results (every mutant is tested); the first saved run creates the branch`;
  const tree = treeOfCommit(root, commit);
  if (held.length) {
    const current = treeOfDir(place, false);
    if (current === tree) {
      setReadFrom(dir, commit);
      return `${shown} already holds ${branch} ${short(commit)}${also}`;
    }
    const readFrom = readFromOf(dir);
    if (!readFrom || current !== treeOfCommit(root, readFrom))
      return `${shown} holds results that are not on ${branch} (a run with --no-save, or one stopped before it saved): kept, not replaced by ${branch} ${short(commit)}${also}; the next saved run commits them (remove ${shown} to start from ${branch} instead)`;
  }
  const entries = git(root, ["ls-tree", "-z", commit])
    .toString()
    .split("\0")
    .filter(Boolean)
    .map((line) => {
      const [meta, name] = line.split("\t");
      const [, type, blob] = meta.split(" ");
      return { type, blob, name };
    })
    .filter((e) => e.type === "blob" && e.name.endsWith(".json"));
  mkdirSync(dir, { recursive: true });
  for (const f of held) if (!entries.some((e) => e.name === f)) rmSync(path.join(dir, f));
  let bytes = 0;
  for (const e of entries) {
    const content = git(root, ["cat-file", "blob", e.blob]);
    bytes += content.length;
    writeFileSync(path.join(dir, e.name), content);
  }
  setReadFrom(dir, commit);
  return `read ${fileCount(entries.length)} (${(bytes / 1e6).toFixed(1)} MB) from ${branch} ${short(commit)} into ${shown}${also}: "${subjectOf(root, commit)}"`;
}

/**
 * After a run: commits `place.dir`'s files to the branch (its tip as parent), with git plumbing only: the objects,
 * a tree, a commit, and the branch moved to it (only from the tip it had). The checked-out branch, the index and
 * the working tree stay as they are. Nothing is committed when the branch already holds exactly these files.
 */
export function saveMutationData(message: string, place: DataPlace = DATA): string {
  const { root, dir, branch, remote } = place;
  const shown = `${path.relative(root, dir).split(path.sep).join("/")}/`;
  if (!inGit(root)) return `not a git checkout: ${shown} not saved`;
  const files = dataFiles(dir);
  if (!files.length) return `${shown} holds no results: nothing saved to ${branch}`;
  const checkedOut = gitLine(root, ["worktree", "list", "--porcelain"])
    .split("\n\n")
    .find((w) => w.split("\n").includes(`branch refs/heads/${branch}`));
  if (checkedOut)
    return `${branch} is checked out in ${checkedOut.split("\n")[0].replace(/^worktree /, "")}: ${shown} not saved (commit the files there, or remove that worktree)`;
  const tree = treeOfDir(place, true);
  const local = commitOf(root, `refs/heads/${branch}`);
  const parent = local ?? commitOf(root, `refs/remotes/${remote}/${branch}`);
  if (parent && treeOfCommit(root, parent) === tree) {
    if (!local) git(root, ["update-ref", "-m", `npm run mutate: ${remote}/${branch}`, `refs/heads/${branch}`, parent, ""]);
    setReadFrom(dir, parent);
    return `${branch} ${short(parent)} already holds ${shown}: nothing to commit`;
  }
  const commit = gitLine(root, ["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-F", "-"], message);
  git(root, ["update-ref", "-m", `npm run mutate: ${message.split("\n")[0]}`, `refs/heads/${branch}`, commit, local ?? ""]);
  setReadFrom(dir, commit);
  return `saved ${fileCount(files.length)} of ${shown} to ${branch} ${short(commit)}${parent ? "" : " (a new branch)"}; \`git push ${remote} ${branch}\` shares them`;
}

/** The commit message of a folder's saved run: what ran, how long, to the end or not, and the folder's score. */
export function dataCommitMessage(folder: Folder, record: RunRecord, score: number, testedAt: string | undefined): string {
  const took = record.seconds === undefined ? "?" : `${Math.floor(record.seconds / 60)} min ${record.seconds % 60} s`;
  const options = record.args?.length ? ` (${record.args.join(" ")})` : "";
  return [
    `Mutation data: ${folder}/ run of ${record.started?.replace("T", " ").slice(0, 16) ?? "?"} UTC${options}, ${record.complete ? "to the end" : "stopped"} in ${took}: ${folder}/ ${pct(score)}`,
    "",
    `Written by npm run mutate (scripts/mutate.ts)${testedAt ? `, testing ${testedAt}` : ""}.`,
    "",
  ].join("\n");
}

/** The page that shows the scores table ("Mutation score"; the README links it). */
const SCORES_PAGE = path.join(ROOT, "docs", "development.md");
const BLOCK = /(<!-- mutation-scores -->\n)[\s\S]*?(<!-- \/mutation-scores -->)/;

/** docs/development.md's copy of the scores table (between its `mutation-scores` markers), from scores.md's first table. */
export function withScores(page: string, scores: string): string {
  const lines = scores.split("\n");
  const from = lines.findIndex((l) => l.startsWith("| folder | score"));
  const to = lines.findIndex((l, i) => i > from && !l.startsWith("|"));
  const table = from < 0 ? [] : lines.slice(from, to < 0 ? undefined : to);
  return page.replace(BLOCK, (_, open: string, close: string) => `${open}${table.map((l) => `${l}\n`).join("")}${close}`);
}

/** What a run tested: the checked-out branch and commit (the working tree may differ from it). */
function testedAt(): string | undefined {
  try {
    const head = gitLine(ROOT, ["rev-parse", "--short=12", "HEAD"]);
    const name = spawnSync("git", ["symbolic-ref", "--short", "-q", "HEAD"], { cwd: ROOT }).stdout?.toString().trim();
    return name ? `${name} ${head}` : head;
  } catch {
    return undefined;
  }
}

async function main(argv: string[]): Promise<void> {
  const reportOnly = argv.includes("--report");
  const save = !argv.includes("--no-save");
  const folders = argv.filter((a): a is Folder => (FOLDERS as readonly string[]).includes(a));
  const passThrough = argv.filter((a) => a !== "--report" && a !== "--no-save" && !(FOLDERS as readonly string[]).includes(a));
  try {
    process.stdout.write(`Mutation data: ${readMutationData()}\n`);
  } catch (err) {
    // Without the earlier results every mutant would be tested again: hours. Better not to start.
    process.stderr.write(`Mutation data: could not read ${DATA_BRANCH}: ${(err as Error).message}\n`);
    process.exitCode = 1;
    return;
  }
  mkdirSync(INCREMENTAL, { recursive: true });
  // Ctrl-C reaches Stryker too (same process group): it saves what it finished, and the merge keeps it; this
  // process stays to merge and write the scores.
  process.on("SIGINT", () => {});
  let failed = false;
  if (!reportOnly) {
    const notReady = ensureNativeTypescript();
    if (notReady) {
      process.stderr.write(`TypeScript 7 for the checker: ${notReady}\n`);
      process.exitCode = 1;
      return;
    }
    for (const folder of folders.length ? folders : FOLDERS) {
      const record = await runFolder(folder, passThrough);
      if (!record)
        process.stderr.write(`\n${folder}/: Stryker stopped before testing any mutant (see its errors above); nothing recorded\n`);
      else {
        writeFileSync(RUNS, `${JSON.stringify({ ...readRuns(), [folder]: record }, null, 2)}\n`);
        if (save) {
          const report = within(readReport(incrementalFile(folder)), folderFiles(folder));
          const score = report ? rowOf(folder, report, undefined).score : Number.NaN;
          const message = dataCommitMessage(folder, record, score, testedAt());
          try {
            process.stdout.write(`\nMutation data: ${saveMutationData(message)}\n`);
          } catch (err) {
            // The results stay in mutation/incremental/: the next read keeps them, and the next saved run commits them.
            process.stderr.write(
              `\nMutation data: not saved to ${DATA_BRANCH} (${(err as Error).message}); ${path.relative(ROOT, INCREMENTAL)}/ keeps them\n`,
            );
          }
        }
      }
      if (!record?.complete) {
        failed = true;
        break;
      }
    }
  }
  const reports = Object.fromEntries(FOLDERS.map((f) => [f, within(readReport(incrementalFile(f)), folderFiles(f))]));
  const counts: Partial<Record<Folder, number>> = {};
  for (const f of FOLDERS) counts[f] = await mutantsIn(f);
  const markdown = scoresMarkdown(reports, readRuns(), counts);
  writeFileSync(SCORES, markdown);
  writeFileSync(SCORES_PAGE, withScores(readFileSync(SCORES_PAGE, "utf8"), markdown));
  process.stdout.write(`\n${markdown.split("\n## Surviving")[0]}\nEvery surviving mutant: ${path.relative(ROOT, SCORES)}\n`);
  if (!reportOnly && !save)
    process.stdout.write(
      `Mutation data: --no-save: ${DATA_BRANCH} left as it was; ${path.relative(ROOT, INCREMENTAL)}/ keeps this run's results (the next run uses them, and a saved one commits them)\n`,
    );
  if (failed) process.exitCode = 1;
}

if (require.main === module) void main(process.argv.slice(2));
