import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * A stand-in for the Pulumi CLI, for runSite's tests (the real CLI is not installed where unit tests run). It
 * answers `version` with 3.200.0 (one the Automation API accepts, and below 3.205, so engine events come through
 * the --event-log file), counting those calls in `versions`. Every other call is recorded (argv, working folder, the variables runSite sets) in
 * calls.jsonl, and answered from scenario.json: by the command (`up`, `preview`, `stack init`, `config set-all`,
 * …), the n-th call with the n-th answer (the last one repeats): its engine events go to the --event-log file,
 * then stdout, stderr and the exit code; `hang` waits for SIGINT (writing its events first) and exits 255.
 */
export interface FakeAnswer {
  readonly events?: readonly object[];
  /** Written as it is, or chunk by chunk 150 ms apart (a line split across two chunks). */
  readonly stdout?: string | readonly string[];
  readonly stderr?: string;
  readonly code?: number;
  readonly hang?: boolean;
}

export type Scenario = Readonly<Record<string, readonly FakeAnswer[]>>;

export interface FakeCall {
  readonly argv: string[];
  readonly cwd: string;
  readonly env: Record<string, string | undefined>;
}

const SCRIPT = `#!/usr/bin/env node
const fs = require("node:fs");
const path = require("node:path");
const argv = process.argv.slice(2);
if (argv[0] === "version") {
  if (process.env.FAKE_PULUMI_DIR) fs.appendFileSync(path.join(process.env.FAKE_PULUMI_DIR, "versions"), "version\\n");
  process.stdout.write("v3.200.0\\n");
  process.exit(0);
}
const dir = process.env.FAKE_PULUMI_DIR;
const key = argv[0] === "stack" || argv[0] === "config" ? argv.slice(0, 2).join(" ") : argv[0];
const env = {};
for (const k of ["PULUMI_BACKEND_URL", "NODE_PATH", "NODE_COMPILE_CACHE", "PULUMI_AUTOMATION_API"]) env[k] = process.env[k];
fs.appendFileSync(path.join(dir, "calls.jsonl"), JSON.stringify({ argv, cwd: process.cwd(), env }) + "\\n");
const scenario = JSON.parse(fs.readFileSync(path.join(dir, "scenario.json"), "utf8"));
const answers = scenario[key] || [{}];
const countFile = path.join(dir, "count-" + key.replace(/ /g, "_"));
const n = fs.existsSync(countFile) ? Number(fs.readFileSync(countFile, "utf8")) : 0;
fs.writeFileSync(countFile, String(n + 1));
const a = answers[Math.min(n, answers.length - 1)];
const at = argv.indexOf("--event-log");
if (at >= 0) fs.writeFileSync(argv[at + 1], (a.events || []).map((e) => JSON.stringify(e) + "\\n").join(""));
const chunks = [].concat(a.stdout || []);
const rest = () => {
  if (chunks.length) {
    process.stdout.write(chunks.shift());
    setTimeout(rest, 150);
  } else finish();
};
rest();
function finish() {
if (a.stderr) process.stderr.write(a.stderr);
if (a.hang) {
  process.on("SIGINT", () => setTimeout(() => process.exit(255), 400));
  fs.writeFileSync(path.join(dir, "hanging"), "");
  setInterval(() => undefined, 1000);
} else {
  // The Automation API tails the event log every 200 ms: give it time to read the events.
  setTimeout(() => process.exit(a.code || 0), at >= 0 ? 450 : 0);
}
}
`;

/** Writes the fake `pulumi` into a new folder's bin/ and puts that first on PATH; returns the folder. */
export async function installFakePulumi(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "fake-pulumi-"));
  await mkdir(path.join(dir, "bin"));
  await writeFile(path.join(dir, "bin", "pulumi"), SCRIPT, { mode: 0o755 });
  process.env.PATH = `${path.join(dir, "bin")}${path.delimiter}${process.env.PATH ?? ""}`;
  return dir;
}

/** A fresh folder for one test's scenario and calls, named to the fake through FAKE_PULUMI_DIR. */
export async function useScenario(root: string, scenario: Scenario): Promise<string> {
  const dir = await mkdtemp(path.join(root, "case-"));
  await writeFile(path.join(dir, "scenario.json"), JSON.stringify(scenario));
  process.env.FAKE_PULUMI_DIR = dir;
  return dir;
}

/** The next run's scenario in `dir`: its answers from the first again, no calls recorded. */
export async function nextScenario(dir: string, scenario: Scenario): Promise<void> {
  for (const f of await readdir(dir)) if (f.startsWith("count-") || f === "calls.jsonl") await rm(path.join(dir, f));
  await writeFile(path.join(dir, "scenario.json"), JSON.stringify(scenario));
}

/** How many times `pulumi version` ran for the scenario in `dir`. */
export async function versionCalls(dir: string): Promise<number> {
  return (await readFile(path.join(dir, "versions"), "utf8").catch(() => "")).split("\n").filter(Boolean).length;
}

/** The calls the fake recorded in `dir`, in order. */
export async function callsIn(dir: string): Promise<FakeCall[]> {
  const text = await readFile(path.join(dir, "calls.jsonl"), "utf8").catch(() => "");
  return text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as FakeCall);
}
