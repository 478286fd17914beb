/**
 * `npm run api`: API Extractor's report of every public entry point of package.json "exports", written to
 * api/<entry>.api.md from the built declarations under dist/ (run `npm run build` first). The reports are checked
 * in: a change to what users import shows as a diff of them, and `tests/package/api-report.test.ts` fails while
 * they are stale. `--check` compares instead of writing and exits 1 with the diff.
 *
 * The shared settings are api/api-extractor.json; API Extractor takes one entry point per config, so this runs it
 * once per entry with that entry's "types" target and report name.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Extractor, ExtractorConfig, ExtractorLogLevel, type ExtractorMessage } from "@microsoft/api-extractor";

export const ROOT = path.resolve(__dirname, "..");
export const API_DIR = path.join(ROOT, "api");
const BASE_CONFIG = path.join(API_DIR, "api-extractor.json");

/** A public entry point: its subpath in "exports", the report's name, the declarations it resolves to. */
export interface ApiEntry {
  readonly subpath: string;
  readonly name: string;
  readonly types: string;
}

/**
 * Every subpath of "exports" that has types gets a report, "./package.json" aside. Two of them are worth a word:
 *
 * - "./provider/runtime" is not for users to import, but the serialized dynamic providers stored in every
 *   resource's state load it by name at call time (`runtime()[kind]`, `kinds`, `configure`): state written by an
 *   older version calls whatever it exported then. That makes it the most binding contract of all, so it is
 *   reported like the others, and a change to it is reviewed as a break for existing stacks.
 * - "./billing" is the provider plugin's generated Node.js SDK (the import `pulumi import` prints). It is
 *   generated from sdk-gen/schema.json, whose diff is reviewed too, but its report shows the change in the
 *   terms a TypeScript user meets (a property gone, an input turned required), so it is reported as well.
 */
export function apiEntries(): ApiEntry[] {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    exports: Record<string, string | { types?: string }>;
  };
  return Object.entries(pkg.exports)
    .filter((e): e is [string, { types: string }] => typeof e[1] === "object" && typeof e[1].types === "string")
    .map(([subpath, target]) => ({
      subpath,
      name: subpath === "." ? "index" : subpath.slice("./".length).replaceAll("/", "-"),
      types: path.join(ROOT, target.types),
    }));
}

export interface ApiReportResult {
  readonly entry: ApiEntry;
  /** The checked-in report, api/<name>.api.md. */
  readonly reportFile: string;
  /** Whether the checked-in report matched (check mode) or was already up to date (write mode). */
  readonly upToDate: boolean;
  /** In check mode, a unified diff from the checked-in report to what the current dist/ gives; "" when equal. */
  readonly diff: string;
  /** Errors and warnings API Extractor raised (each "file:line — text [id]"). */
  readonly problems: string[];
}

/** `diff -u` of two files, labelled; "" when they are equal. */
function unifiedDiff(before: string, after: string, label: string): string {
  try {
    execFileSync("diff", ["-u", "--label", `${label} (checked in)`, "--label", `${label} (from dist/)`, before, after], {
      encoding: "utf8",
    });
    return "";
  } catch (err) {
    const e = err as { status?: number; stdout?: string };
    if (e.status === 1 && e.stdout !== undefined) return e.stdout;
    throw err;
  }
}

/**
 * Runs API Extractor for each entry. `check: false` (local mode) rewrites api/<name>.api.md; `check: true`
 * (production mode) leaves them alone and reports a diff for each one that the current dist/ does not match.
 */
export function apiReport(o: { check: boolean; entries?: readonly ApiEntry[] }): ApiReportResult[] {
  const entries = o.entries ?? apiEntries();
  const temp = mkdtempSync(path.join(tmpdir(), "billing-api-report-"));
  try {
    const results = entries.map((entry) => runOne(entry, o.check, temp));
    if (!o.check && !o.entries) {
      // The report of a subpath that left "exports" goes too (the test fails while it is there).
      const kept = new Set(entries.map((e) => `${e.name}.api.md`));
      for (const f of readdirSync(API_DIR)) {
        if (f.endsWith(".api.md") && !kept.has(f)) {
          rmSync(path.join(API_DIR, f));
          console.log(`api/${f}: deleted (no such entry in package.json "exports")`);
        }
      }
    }
    return results;
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

function runOne(entry: ApiEntry, check: boolean, temp: string): ApiReportResult {
  if (!existsSync(entry.types)) {
    throw new Error(`${path.relative(ROOT, entry.types)} (the types of "${entry.subpath}") does not exist: run \`npm run build\` first.`);
  }
  const configObject = ExtractorConfig.loadFile(BASE_CONFIG);
  configObject.mainEntryPointFilePath = entry.types;
  // The program is the entry's declarations and what they import, nothing else of dist/.
  configObject.compiler = {
    ...configObject.compiler,
    overrideTsconfig: { ...configObject.compiler?.overrideTsconfig, files: [entry.types] },
  };
  configObject.apiReport = { enabled: true, ...configObject.apiReport, reportFileName: entry.name, reportTempFolder: temp };
  const config = ExtractorConfig.prepare({
    configObject,
    configObjectFullPath: BASE_CONFIG,
    packageJsonFullPath: path.join(ROOT, "package.json"),
  });
  const problems: string[] = [];
  const result = Extractor.invoke(config, {
    localBuild: !check,
    messageCallback: (m: ExtractorMessage) => {
      // The report is the output; the console stays quiet but for what API Extractor calls a problem.
      if (m.logLevel === ExtractorLogLevel.Error || m.logLevel === ExtractorLogLevel.Warning) {
        // A stale or new report is what this script's result says (with the diff); the rest of console-* is chatter.
        if (!String(m.messageId).startsWith("console-") || m.logLevel === ExtractorLogLevel.Error) {
          const where = m.sourceFilePath ? `${path.relative(ROOT, m.sourceFilePath)}:${m.sourceFileLine ?? 0} — ` : "";
          problems.push(`${where}${m.text} [${m.messageId}]`);
        }
      }
      m.handled = true;
    },
  });
  const reportFile = path.join(config.reportFolder, `${entry.name}.api.md`);
  const tempFile = path.join(temp, `${entry.name}.api.md`);
  const diff =
    check && result.apiReportChanged
      ? existsSync(reportFile)
        ? unifiedDiff(reportFile, tempFile, path.relative(ROOT, reportFile))
        : `${path.relative(ROOT, reportFile)} does not exist.\n`
      : "";
  return { entry, reportFile, upToDate: !result.apiReportChanged, diff, problems };
}

if (require.main === module) {
  const check = process.argv.includes("--check");
  let failed = false;
  for (const r of apiReport({ check })) {
    const name = path.relative(ROOT, r.reportFile);
    for (const p of r.problems) console.error(`${name}: ${p}`);
    if (r.problems.length) failed = true;
    if (check && !r.upToDate) {
      failed = true;
      console.error(`${name} is stale (the exports of "${r.entry.subpath}" changed): run \`npm run api\`.\n${r.diff}`);
    } else {
      console.log(`${name}: ${r.upToDate ? "up to date" : "rewritten"}`);
    }
  }
  if (failed) process.exit(1);
}
