import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Fleet, parseFleet } from "../../fleet/fleet-file";
import { PolicyConfigError } from "../../fleet/policy-config";
import type { FleetReport, SiteReport } from "../../fleet/report";
import { backendOf, type FleetRunOptions, runFleet, stateDirOf } from "../../fleet/runner";

/**
 * runFleet decides much before any site runs, or without running one: where its state and backend are, what it
 * refuses, which sites `--resume` skips and what it records. These cases need no Pulumi CLI: nothing runs, or
 * the sites that run fail on a secret whose environment variable is not set, which runSite checks first.
 */

let dir: string;
let n = 0;
/** A fresh folder per test (for its fleet file and state folder). */
const fresh = async () => {
  const d = path.join(dir, `case-${++n}`);
  await mkdir(d, { recursive: true });
  return d;
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "billing-fleet-runner-"));
  await writeFile(path.join(dir, "site.js"), "exports.program = () => ({});\n");
  await writeFile(path.join(dir, "policy.json"), '{ "webhooks-stay-enabled-in-production": { "production": true } }\n');
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Sites in shard 1 of 2 (by the hash of the stack name): uk and fr; in shard 0: us, eu and acme/billing/in. */
const SITES = ["  - name: us", "  - name: uk", "  - name: eu", "  - name: fr", "  - { name: in, stack: acme/billing/in }"];

/** A fleet file in its own folder; every site's secret names NOT_SET_KEY, so a site that runs fails before any CLI. */
async function fleetIn(d: string, lines: string[] = []): Promise<Fleet> {
  const file = path.join(d, "fleet.yaml");
  const text = [`program: ${path.join(dir, "site.js")}`, "secrets: { billing:apiKey: NOT_SET_KEY }", ...lines, "sites:", ...SITES].join(
    "\n",
  );
  await writeFile(file, text);
  return parseFleet(text, file);
}

const PASS = { PULUMI_CONFIG_PASSPHRASE: "correct horse" };

const skipped = (name: string, stack = name): SiteReport => ({
  name,
  stack,
  result: "skipped",
  changes: {},
  changed: 0,
  durationMs: 0,
});
const succeeded = (name: string, stack = name): SiteReport => ({
  name,
  stack,
  result: "succeeded",
  changes: { create: 2, same: 1 },
  changed: 2,
  durationMs: 4200,
});
const failed = (name: string, stack = name): SiteReport => ({
  name,
  stack,
  result: "failed",
  changes: {},
  changed: 0,
  durationMs: 1300,
  error: "billing:index:Product (pro): 422 Unprocessable Entity",
});
/** What a site that runs reports here: it fails on the secret whose variable is not set, before any CLI. */
const noSecret = (name: string, stack = name): SiteReport => ({
  name,
  stack,
  result: "failed",
  changes: {},
  changed: 0,
  durationMs: expect.any(Number) as unknown as number,
  error: "secret config billing:apiKey needs the environment variable NOT_SET_KEY, which is not set",
});

/** The last report as a previous run writes it. */
async function writeLast(
  stateDir: string,
  name: string,
  fleet: Fleet,
  sites: SiteReport[],
  shard?: { index: number; count: number },
): Promise<string> {
  const report: FleetReport = {
    kind: "billing-fleet-report",
    version: 1,
    operation: "up",
    fleetFile: fleet.file,
    ...(shard ? { shard } : {}),
    startedAt: "2026-01-01T00:00:00.000Z",
    finishedAt: "2026-01-01T00:01:00.000Z",
    sites,
  };
  await mkdir(stateDir, { recursive: true });
  const text = `${JSON.stringify(report, null, 2)}\n`;
  await writeFile(path.join(stateDir, name), text);
  return text;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The record file's content (parsed), with its timestamps checked and set aside. */
async function recorded(file: string): Promise<Omit<FleetReport, "startedAt" | "finishedAt">> {
  const text = await readFile(file, "utf8");
  expect(text.endsWith("}\n")).toBe(true);
  const { startedAt, finishedAt, ...rest } = JSON.parse(text) as FleetReport;
  expect(startedAt).toMatch(ISO);
  expect(finishedAt).toMatch(ISO);
  expect(startedAt <= finishedAt).toBe(true);
  return rest;
}

describe("stateDirOf", () => {
  it("is .billing-fleet beside the fleet file by default", async () => {
    const d = await fresh();
    const fleet = await fleetIn(d);
    expect(stateDirOf(fleet, {})).toBe(path.join(d, ".billing-fleet"));
  });

  it("is stateDir when given, resolved against the working directory", async () => {
    const fleet = await fleetIn(await fresh());
    expect(stateDirOf(fleet, { stateDir: "some/state" })).toBe(path.resolve("some/state"));
    expect(stateDirOf(fleet, { stateDir: "/srv/fleet/../state" })).toBe("/srv/state");
  });
});

describe("backendOf", () => {
  const STATE = "/var/fleet-state";
  it.each<[string, { option?: string; file?: string; env?: string }, string]>([
    ["the option first", { option: "s3://option", file: "s3://file", env: "s3://env" }, "s3://option"],
    ["then the fleet file's backend", { file: "s3://file", env: "s3://env" }, "s3://file"],
    ["then PULUMI_BACKEND_URL of o.env", { env: "s3://env" }, "s3://env"],
    ["else a file backend in the state folder", {}, "file:///var/fleet-state/state"],
  ])("%s", async (_, given, wanted) => {
    const fleet = await fleetIn(await fresh(), given.file ? [`backend: ${given.file}`] : []);
    expect(fleet.backend).toBe(given.file);
    const o: FleetRunOptions = {
      operation: "up",
      ...(given.option ? { backend: given.option } : {}),
      env: given.env ? { PULUMI_BACKEND_URL: given.env } : {},
    };
    expect(backendOf(fleet, o, STATE)).toBe(wanted);
  });

  it("reads PULUMI_BACKEND_URL of the process when no env is given, and not when one is", async () => {
    const fleet = await fleetIn(await fresh());
    vi.stubEnv("PULUMI_BACKEND_URL", "s3://process");
    try {
      expect(backendOf(fleet, { operation: "up" }, STATE)).toBe("s3://process");
      expect(backendOf(fleet, { operation: "up", env: {} }, STATE)).toBe("file:///var/fleet-state/state");
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("runFleet's refusals, before any site runs", () => {
  const message = (backend: string) =>
    `the stacks on ${backend} keep their secrets with a passphrase: set PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE) before running the fleet`;

  it("a file backend without a passphrase: the message names the backend; nothing is made", async () => {
    const d = await fresh();
    const fleet = await fleetIn(d);
    const stateDir = path.join(d, ".billing-fleet");
    await expect(runFleet(fleet, { operation: "up", display: "none", env: {} })).rejects.toThrow(
      new Error(message(`file://${stateDir}/state`)),
    );
    expect(await readdir(d)).toEqual(["fleet.yaml"]);
  });

  it.each([
    ["PULUMI_CONFIG_PASSPHRASE empty", { PULUMI_CONFIG_PASSPHRASE: "", PULUMI_CONFIG_PASSPHRASE_FILE: "" }],
    ["a backend URL in the environment only", { PULUMI_BACKEND_URL: "gs://bucket/fleet" }],
  ])("a cloud-storage backend without a passphrase (%s): nothing is made", async (_, env) => {
    const d = await fresh();
    const fleet = await fleetIn(d);
    const backend = "PULUMI_BACKEND_URL" in env ? "gs://bucket/fleet" : "s3://bucket/fleet";
    await expect(
      runFleet(fleet, { operation: "preview", display: "none", env, ...(backend.startsWith("s3") ? { backend } : {}) }),
    ).rejects.toThrow(new Error(message(backend)));
    expect(await readdir(d)).toEqual(["fleet.yaml"]);
  });

  it("policy pack configs that don't pair with the packs: PolicyConfigError, before the state folder is made", async () => {
    const d = await fresh();
    const fleet = await fleetIn(d);
    const err = await runFleet(fleet, {
      operation: "preview",
      display: "none",
      env: PASS,
      policyPacks: [dir, dir],
      policyPackConfigs: [path.join(dir, "policy.json")],
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PolicyConfigError);
    expect((err as Error).message).toBe(
      "--policy-pack-config names 1 config file, one per policy pack in order, but 2 --policy-pack options were given: give one --policy-pack DIR per config file (or as many config files as packs)",
    );
    expect(await readdir(d)).toEqual(["fleet.yaml"]);
  });

  it("the fleet file's policyPackConfig without a pack is refused the same way (before the passphrase)", async () => {
    const d = await fresh();
    const fleet = await fleetIn(d, [`policyPackConfig: ${path.join(dir, "policy.json")}`]);
    await expect(runFleet(fleet, { operation: "up", display: "none", env: {} })).rejects.toThrow(
      new PolicyConfigError(
        "the fleet file's policyPackConfig names 1 config file, one per policy pack in order, but no --policy-pack was given: give one --policy-pack DIR per config file (or as many config files as packs)",
      ),
    );
    expect(await readdir(d)).toEqual(["fleet.yaml"]);
  });
});

describe("--resume", () => {
  const ALL = [succeeded("us"), succeeded("uk"), succeeded("eu"), succeeded("fr"), succeeded("in", "acme/billing/in")];

  it("every site succeeded last time: none runs, each is skipped in the fleet file's order, and the record is replaced", async () => {
    const d = await fresh();
    const fleet = await fleetIn(d);
    const stateDir = path.join(d, ".billing-fleet");
    // The last report in another order than the fleet file's.
    await writeLast(stateDir, "last-up.json", fleet, [...ALL].reverse());
    const report = await runFleet(fleet, { operation: "up", resume: true, display: "none", env: PASS });
    const wanted = {
      kind: "billing-fleet-report",
      version: 1,
      operation: "up",
      fleetFile: path.join(d, "fleet.yaml"),
      sites: [skipped("us"), skipped("uk"), skipped("eu"), skipped("fr"), skipped("in", "acme/billing/in")],
    };
    expect(await recorded(path.join(stateDir, "last-up.json"))).toEqual(wanted);
    expect(report).toEqual({ ...wanted, startedAt: expect.stringMatching(ISO), finishedAt: expect.stringMatching(ISO) });
    expect(JSON.parse(await readFile(path.join(stateDir, "last-up.json"), "utf8"))).toEqual(report);
    // No site ran: no log, no workspace, no config record; only the file backend's folder and the report.
    expect((await readdir(stateDir)).sort()).toEqual(["last-up.json", "state"]);
  });

  it("a site skipped last time counts as done; a site that failed runs again (and here fails on its unset secret)", async () => {
    const d = await fresh();
    const fleet = await fleetIn(d);
    const stateDir = path.join(d, "elsewhere");
    await writeLast(stateDir, "last-up.json", fleet, [
      succeeded("us"),
      failed("uk"),
      skipped("eu"),
      failed("fr"),
      succeeded("in", "acme/billing/in"),
    ]);
    const report = await runFleet(fleet, { operation: "up", resume: true, display: "none", env: PASS, stateDir });
    const sites = [skipped("us"), noSecret("uk"), skipped("eu"), noSecret("fr"), skipped("in", "acme/billing/in")];
    expect(report.sites).toEqual(sites);
    expect(await recorded(path.join(stateDir, "last-up.json"))).toEqual({
      kind: "billing-fleet-report",
      version: 1,
      operation: "up",
      fleetFile: fleet.file,
      sites,
    });
    // Only the sites that ran have a log.
    expect((await readdir(path.join(stateDir, "logs"))).sort()).toEqual(["fr.log", "uk.log"]);
    expect(await readFile(path.join(stateDir, "logs", "uk.log"), "utf8")).toMatch(
      /^# billing-fleet up uk \S+\n\nsecret config billing:apiKey needs the environment variable NOT_SET_KEY, which is not set\n$/,
    );
  });

  it("a site the last report does not name runs; the last report of another operation is not read", async () => {
    const d = await fresh();
    const fleet = await fleetIn(d);
    const stateDir = path.join(d, ".billing-fleet");
    await writeLast(stateDir, "last-preview.json", fleet, ALL);
    await writeLast(stateDir, "last-up.json", fleet, [succeeded("us"), succeeded("eu")]);
    const report = await runFleet(fleet, { operation: "up", resume: true, display: "none", env: PASS });
    expect(report.sites).toEqual([skipped("us"), noSecret("uk"), skipped("eu"), noSecret("fr"), noSecret("in", "acme/billing/in")]);
  });

  it("without --resume the last report is ignored: every site runs", async () => {
    const d = await fresh();
    const fleet = await fleetIn(d);
    const stateDir = path.join(d, ".billing-fleet");
    await writeLast(stateDir, "last-up.json", fleet, ALL);
    const report = await runFleet(fleet, { operation: "up", display: "none", env: PASS });
    expect(report.sites).toEqual([noSecret("us"), noSecret("uk"), noSecret("eu"), noSecret("fr"), noSecret("in", "acme/billing/in")]);
  });

  it("a shard reads and writes its own record, reporting only its sites", async () => {
    const d = await fresh();
    const fleet = await fleetIn(d);
    const stateDir = path.join(d, ".billing-fleet");
    const shard = { index: 1, count: 2 };
    await writeLast(stateDir, "last-up.shard-1-of-2.json", fleet, [succeeded("uk"), succeeded("fr")], shard);
    // The whole fleet's record (and the other shard's) say otherwise; neither is this shard's.
    const whole = await writeLast(stateDir, "last-up.json", fleet, [failed("uk"), failed("fr")]);
    const other = await writeLast(stateDir, "last-up.shard-0-of-2.json", fleet, [failed("uk"), failed("fr")], { index: 0, count: 2 });
    const report = await runFleet(fleet, { operation: "up", resume: true, shard, display: "none", env: PASS });
    const wanted = {
      kind: "billing-fleet-report",
      version: 1,
      operation: "up",
      fleetFile: fleet.file,
      shard: { index: 1, count: 2 },
      sites: [skipped("uk"), skipped("fr")],
    };
    expect(report).toEqual({ ...wanted, startedAt: expect.stringMatching(ISO), finishedAt: expect.stringMatching(ISO) });
    expect(await recorded(path.join(stateDir, "last-up.shard-1-of-2.json"))).toEqual(wanted);
    expect(await readFile(path.join(stateDir, "last-up.json"), "utf8")).toBe(whole);
    expect(await readFile(path.join(stateDir, "last-up.shard-0-of-2.json"), "utf8")).toBe(other);
  });

  it("the other shard runs its own sites (failed on the unset secret), not the first shard's", async () => {
    const d = await fresh();
    const fleet = await fleetIn(d);
    const stateDir = path.join(d, ".billing-fleet");
    const report = await runFleet(fleet, { operation: "preview", resume: true, shard: { index: 0, count: 2 }, display: "none", env: PASS });
    const ran = (name: string, stack = name) => ({
      ...noSecret(name, stack),
      preview: { steps: [], diagnostics: [], policyViolations: [] },
    });
    expect(report).toEqual({
      kind: "billing-fleet-report",
      version: 1,
      operation: "preview",
      fleetFile: fleet.file,
      shard: { index: 0, count: 2 },
      startedAt: expect.stringMatching(ISO),
      finishedAt: expect.stringMatching(ISO),
      sites: [ran("us"), ran("eu"), ran("in", "acme/billing/in")],
    });
    expect((await readdir(stateDir)).sort()).toEqual(["last-preview.shard-0-of-2.json", "logs", "state"]);
  });

  it("an http(s) backend needs no passphrase: with every site done, the run succeeds and makes no state folder for it", async () => {
    const d = await fresh();
    const fleet = await fleetIn(d, ["backend: http://127.0.0.1:9"]);
    const stateDir = path.join(d, ".billing-fleet");
    await writeLast(stateDir, "last-refresh.json", fleet, ALL);
    await runFleet(fleet, { operation: "refresh", resume: true, display: "none", env: {} });
    expect(await recorded(path.join(stateDir, "last-refresh.json"))).toEqual({
      kind: "billing-fleet-report",
      version: 1,
      operation: "refresh",
      fleetFile: fleet.file,
      sites: [skipped("us"), skipped("uk"), skipped("eu"), skipped("fr"), skipped("in", "acme/billing/in")],
    });
    expect(await readdir(stateDir)).toEqual(["last-refresh.json"]);
    const https = await fleetIn(await fresh(), ["backend: https://api.pulumi.example"]);
    await writeLast(stateDir, "last-destroy.json", https, ALL);
    const r2 = await runFleet(https, { operation: "destroy", resume: true, display: "none", env: {}, stateDir });
    expect(r2.sites.map((s) => s.result)).toEqual(["skipped", "skipped", "skipped", "skipped", "skipped"]);
  });

  it.each([
    ["PULUMI_CONFIG_PASSPHRASE", { PULUMI_CONFIG_PASSPHRASE: "correct horse" }],
    ["PULUMI_CONFIG_PASSPHRASE_FILE", { PULUMI_CONFIG_PASSPHRASE_FILE: "/run/secrets/passphrase" }],
  ])("%s alone is a passphrase for a file backend", async (_, env) => {
    const d = await fresh();
    const fleet = await fleetIn(d);
    const stateDir = path.join(d, ".billing-fleet");
    await writeLast(stateDir, "last-up.json", fleet, ALL);
    const report = await runFleet(fleet, { operation: "up", resume: true, display: "none", env });
    expect(report.sites.map((s) => s.result)).toEqual(["skipped", "skipped", "skipped", "skipped", "skipped"]);
    expect((await stat(path.join(stateDir, "state"))).isDirectory()).toBe(true);
  });

  it("a policy config on refresh pairs with nothing and is ignored (only preview and up run policies)", async () => {
    const d = await fresh();
    const fleet = await fleetIn(d, [`policyPackConfig: ${path.join(dir, "policy.json")}`]);
    await writeLast(path.join(d, ".billing-fleet"), "last-refresh.json", fleet, ALL);
    const report = await runFleet(fleet, { operation: "refresh", resume: true, display: "none", env: PASS });
    expect(report.sites.map((s) => s.result)).toEqual(["skipped", "skipped", "skipped", "skipped", "skipped"]);
  });
});

describe("an aborted signal", () => {
  it("with every site done last time, nothing runs and the report is written as usual", async () => {
    const d = await fresh();
    const fleet = await fleetIn(d);
    const stateDir = path.join(d, ".billing-fleet");
    await writeLast(stateDir, "last-up.json", fleet, [
      succeeded("us"),
      succeeded("uk"),
      succeeded("eu"),
      succeeded("fr"),
      succeeded("in", "acme/billing/in"),
    ]);
    const report = await runFleet(fleet, { operation: "up", resume: true, display: "none", env: PASS, signal: AbortSignal.abort() });
    expect(report.sites).toEqual([skipped("us"), skipped("uk"), skipped("eu"), skipped("fr"), skipped("in", "acme/billing/in")]);
  });

  it("a site that fails before its CLI operation begins keeps its own error: the stop did not cause it", async () => {
    const d = await fresh();
    const fleet = await fleetIn(d);
    const report = await runFleet(fleet, { operation: "up", display: "none", env: PASS, signal: AbortSignal.abort() });
    expect(report.sites).toEqual([noSecret("us"), noSecret("uk"), noSecret("eu"), noSecret("fr"), noSecret("in", "acme/billing/in")]);
  });
});
