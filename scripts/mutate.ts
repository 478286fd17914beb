/**
 * `npm run mutate`: the mutation score of sdk/, provider/, fleet/ and plugin/ (issue 24), one Stryker run
 * per folder, each incremental on its own file in mutation/incremental/, then the score per folder.
 *
 *   npm run mutate                                   every folder (each re-tests only what changed)
 *   npm run mutate -- fleet plugin                   some folders
 *   npm run mutate -- sdk --mutate sdk/transport.ts  part of a folder (other Stryker options pass through)
 *   npm run mutate -- --report                       no run: the scores the incremental files hold
 *
 * Why a wrapper: Stryker writes its incremental file with the results of the files its run mutated and
 * nothing else, so a narrowed run (or one stopped with Ctrl-C, which saves what it finished) would drop
 * every other file's results. Here each run's results are laid over the folder's earlier ones, file by
 * file. That is safe: Stryker reuses an earlier result only when the mutant's code and its tests are
 * unchanged, and re-tests the rest.
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
    "Written by `npm run mutate` (scripts/mutate.ts) from the incremental files in `mutation/incremental/`; do not edit.",
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

async function main(argv: string[]): Promise<void> {
  const reportOnly = argv.includes("--report");
  const folders = argv.filter((a): a is Folder => (FOLDERS as readonly string[]).includes(a));
  const passThrough = argv.filter((a) => a !== "--report" && !(FOLDERS as readonly string[]).includes(a));
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
      else writeFileSync(RUNS, `${JSON.stringify({ ...readRuns(), [folder]: record }, null, 2)}\n`);
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
  if (failed) process.exitCode = 1;
}

if (require.main === module) void main(process.argv.slice(2));
