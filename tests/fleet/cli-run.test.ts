import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { FleetReport, SiteReport } from "../../fleet/report";
import { summaryTable } from "../../fleet/summary";
import { runCli } from "./run-cli";

/**
 * `billing-fleet up|preview|…` run through main() with no Pulumi CLI: the sites either are skipped by --resume
 * (every one succeeded last time) or fail on their secret's unset environment variable, which a site checks
 * before anything else. That is enough to see the exit code, where the table and the JSON report go, the
 * display chosen, and the signal handlers' lifetime and message. The backend is http(s), so no passphrase.
 */

let dir: string;
let file: string;
let n = 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "billing-fleet-cli-run-"));
  file = path.join(dir, "fleet.yaml");
  await writeFile(path.join(dir, "site.js"), "exports.program = () => ({});\n");
  await writeFile(
    file,
    [
      "program: ./site.js",
      "backend: http://127.0.0.1:9",
      "secrets: { billing:apiKey: NOT_SET_KEY }",
      "sites:",
      "  - name: us",
      "  - name: uk",
    ].join("\n"),
  );
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

afterEach(() => {
  vi.unstubAllEnvs();
});

/** A fresh state folder per test. */
const fresh = async () => {
  const d = path.join(dir, `state-${++n}`);
  await mkdir(d, { recursive: true });
  return d;
};

const site = (name: string, result: SiteReport["result"]): SiteReport => ({
  name,
  stack: name,
  result,
  changes: {},
  changed: 0,
  durationMs: 1000,
});

/** The last report of `up` as a previous run left it in `stateDir`. */
async function lastUp(stateDir: string, sites: SiteReport[]): Promise<void> {
  const report: FleetReport = {
    kind: "billing-fleet-report",
    version: 1,
    operation: "up",
    fleetFile: file,
    startedAt: "2026-01-01T00:00:00.000Z",
    finishedAt: "2026-01-01T00:01:00.000Z",
    sites,
  };
  await writeFile(path.join(stateDir, "last-up.json"), `${JSON.stringify(report, null, 2)}\n`);
}

/** The record this run wrote (the report main printed or wrote, byte for byte) and its summary table. */
async function recorded(stateDir: string, color = false): Promise<{ json: string; table: string; report: FleetReport }> {
  const json = await readFile(path.join(stateDir, "last-up.json"), "utf8");
  const report = JSON.parse(json) as FleetReport;
  return { json, report, table: await summaryTable(report, { color, width: process.stdout.columns }) };
}

const cli = runCli;

const SECRET = "secret config billing:apiKey needs the environment variable NOT_SET_KEY, which is not set";

describe("exit code and where the table and the report go", () => {
  it("every site skipped: exit 0, the table on stdout", async () => {
    const stateDir = await fresh();
    await lastUp(stateDir, [site("us", "succeeded"), site("uk", "succeeded")]);
    const run = await cli(["up", file, "--resume", "--state-dir", stateDir]);
    const { table, report } = await recorded(stateDir);
    expect(report.sites.map((s) => s.result)).toEqual(["skipped", "skipped"]);
    expect(run).toEqual({ code: 0, out: `\n${table}`, err: "" });
  });

  it("one site skipped, one failed: exit 1", async () => {
    const stateDir = await fresh();
    await lastUp(stateDir, [site("us", "succeeded"), site("uk", "failed")]);
    const run = await cli(["up", file, "--resume", "--state-dir", stateDir]);
    const { table, report } = await recorded(stateDir);
    expect(report.sites.map((s) => [s.name, s.result, s.error])).toEqual([
      ["us", "skipped", undefined],
      ["uk", "failed", SECRET],
    ]);
    expect(run).toEqual({ code: 1, out: `\n${table}`, err: "" });
  });

  it("--json -: the report alone on stdout, the table on stderr", async () => {
    const stateDir = await fresh();
    await lastUp(stateDir, [site("us", "succeeded"), site("uk", "succeeded")]);
    const run = await cli(["up", file, "--resume", "--state-dir", stateDir, "--json", "-"]);
    const { json, table } = await recorded(stateDir);
    expect(run).toEqual({ code: 0, out: json, err: `\n${table}` });
  });

  it("--json FILE: the report in FILE, the table on stdout", async () => {
    const stateDir = await fresh();
    await lastUp(stateDir, [site("us", "succeeded"), site("uk", "succeeded")]);
    const output = path.join(stateDir, "report.json");
    const run = await cli(["up", file, "--resume", "--state-dir", stateDir, "--json", output]);
    const { json, table } = await recorded(stateDir);
    expect(run).toEqual({ code: 0, out: `\n${table}`, err: "" });
    expect(await readFile(output, "utf8")).toBe(json);
  });

  it("--json in a folder that does not exist: exit 1 with the system's message, not a usage error", async () => {
    const stateDir = await fresh();
    await lastUp(stateDir, [site("us", "succeeded"), site("uk", "succeeded")]);
    const output = path.join(stateDir, "no-such-folder", "report.json");
    const run = await cli(["up", file, "--resume", "--state-dir", stateDir, "--json", output]);
    const { table } = await recorded(stateDir);
    expect(run).toEqual({ code: 1, out: `\n${table}`, err: `billing-fleet: ENOENT: no such file or directory, open '${output}'\n` });
  });

  it("a refused run (a file backend, no passphrase): exit 1 with the runner's message", async () => {
    const stateDir = await fresh();
    vi.stubEnv("PULUMI_CONFIG_PASSPHRASE", "");
    vi.stubEnv("PULUMI_CONFIG_PASSPHRASE_FILE", "");
    const run = await cli(["up", file, "--state-dir", stateDir, "--backend", "s3://bucket/fleet"]);
    expect(run).toEqual({
      code: 1,
      out: "",
      err: "billing-fleet: the stacks on s3://bucket/fleet keep their secrets with a passphrase: set PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE) before running the fleet\n",
    });
  });
});

describe("the table's colour", () => {
  it.each([
    ["a terminal: in colour", true, undefined, true],
    ["a terminal with NO_COLOR: plain", true, "1", false],
    ["not a terminal: plain", false, undefined, false],
  ])("%s", async (_, isTTY, noColor, color) => {
    if (noColor) vi.stubEnv("NO_COLOR", noColor);
    else vi.stubEnv("NO_COLOR", undefined);
    const stateDir = await fresh();
    await lastUp(stateDir, [site("us", "succeeded"), site("uk", "succeeded")]);
    const run = await cli(["up", file, "--resume", "--state-dir", stateDir, "--json", "-"], isTTY);
    const { json, table } = await recorded(stateDir, color);
    expect(table === (await recorded(stateDir, !color)).table).toBe(false);
    expect(run).toEqual({ code: 0, out: json, err: `\n${table}` });
  });
});

/**
 * What the display draws goes to process.stdout (listr2), not to main's streams: captured here, with
 * process.stdout taken for a terminal so that the live display is drawn rather than its plain fallback.
 */
async function drawn(run: () => Promise<unknown>): Promise<string> {
  let text = "";
  const write = process.stdout.write;
  const isTTY = Object.getOwnPropertyDescriptor(process.stdout, "isTTY");
  process.stdout.write = ((chunk: unknown) => {
    text += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  Object.defineProperty(process.stdout, "isTTY", { value: true, configurable: true, writable: true });
  try {
    await run();
  } finally {
    process.stdout.write = write;
    if (isTTY) Object.defineProperty(process.stdout, "isTTY", isTTY);
    else delete (process.stdout as { isTTY?: boolean }).isTTY;
  }
  return text;
}

const HIDE_CURSOR = "\u001b[?25l";

describe("the display", () => {
  /** The plain display's lines on stdout (its failures go to stderr), colour codes set aside, sorted (the sites run at once). */
  const lines = (text: string) => stripVTControlCharacters(text).split("\n").filter(Boolean).sort();

  it.each([
    ["not a terminal: a line per event", [], false],
    ["--plain on a terminal: a line per event", ["--plain"], true],
  ])("%s", async (_, flags, isTTY) => {
    const stateDir = await fresh();
    let run: Awaited<ReturnType<typeof cli>> | undefined;
    const text = await drawn(async () => {
      run = await cli(["up", file, "--state-dir", stateDir, ...flags], isTTY);
    });
    expect(text.includes(HIDE_CURSOR)).toBe(false);
    expect(lines(text)).toEqual(["\u276f uk (up)", "\u276f us (up)"]);
    expect(run?.code).toBe(1);
  });

  it("a terminal: the live display (drawn in place, the cursor hidden)", async () => {
    const stateDir = await fresh();
    let run: Awaited<ReturnType<typeof cli>> | undefined;
    const text = await drawn(async () => {
      run = await cli(["up", file, "--state-dir", stateDir], true);
    });
    expect(text.startsWith(HIDE_CURSOR)).toBe(true);
    expect(run?.code).toBe(1);
  });

  it("--json -: no display at all (stdout is the report's)", async () => {
    const stateDir = await fresh();
    let run: Awaited<ReturnType<typeof cli>> | undefined;
    const text = await drawn(async () => {
      run = await cli(["up", file, "--state-dir", stateDir, "--json", "-"], true);
    });
    expect(text).toBe("");
    const { json } = await recorded(stateDir);
    expect(run?.out).toBe(json);
    expect(run?.code).toBe(1);
  });
});

describe("signals during a run", () => {
  /** Runs main; when it adds its handler of `signal`, calls that handler `times` times (as a delivered signal would). */
  async function signalled(signal: NodeJS.Signals, times: number) {
    const added: { event: string | symbol; listener: (...a: unknown[]) => void }[] = [];
    const onNew = (event: string | symbol, listener: (...a: unknown[]) => void) => {
      added.push({ event, listener });
      if (event === signal) for (let i = 0; i < times; i++) listener(signal);
    };
    const before = { SIGTERM: process.listeners("SIGTERM"), SIGINT: process.listeners("SIGINT") };
    process.on("newListener", onNew);
    const stateDir = await fresh();
    let run: Awaited<ReturnType<typeof cli>>;
    try {
      run = await cli(["up", file, "--state-dir", stateDir]);
    } finally {
      process.off("newListener", onNew);
    }
    return { run, added, before, stateDir };
  }

  it.each<[NodeJS.Signals, number]>([
    ["SIGTERM", 1],
    ["SIGINT", 1],
    ["SIGTERM", 2],
  ])("%s (%i times): one message, the sites still report, the handlers removed at the end", async (signal, times) => {
    const { run, added, before, stateDir } = await signalled(signal, times);
    const { table } = await recorded(stateDir);
    expect(run).toEqual({
      code: 1,
      out: `\n${table}`,
      err: `billing-fleet: ${signal}: stopping the running stacks gracefully; sites not started will not run\n`,
    });
    // One handler for each signal, the same function, gone once the run is over.
    const mine = added.filter((a) => a.event === "SIGTERM" || a.event === "SIGINT");
    expect(mine.map((a) => a.event)).toEqual(["SIGTERM", "SIGINT"]);
    expect(mine[0]?.listener).toBe(mine[1]?.listener);
    expect(process.listeners("SIGTERM")).toEqual(before.SIGTERM);
    expect(process.listeners("SIGINT")).toEqual(before.SIGINT);
  });

  it("no handler is left behind by a run that ends normally", async () => {
    const { run, added, before } = await signalled("SIGHUP", 0);
    expect(run.code).toBe(1);
    expect(added.filter((a) => a.event === "SIGTERM" || a.event === "SIGINT")).toHaveLength(2);
    expect(process.listeners("SIGTERM")).toEqual(before.SIGTERM);
    expect(process.listeners("SIGINT")).toEqual(before.SIGINT);
  });
});
