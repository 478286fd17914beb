import { mkdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeEach, expect } from "vitest";
import type { ResolvedSite } from "../../fleet/fleet-file";
import type { SiteReport } from "../../fleet/report";
import type { SiteRunOptions } from "../../fleet/run-site";
import { callsIn, type FakeCall, installFakePulumi, type Scenario, useScenario } from "./fake-pulumi";

/** What runSite's tests share: a site, its options, the events and answers of the fake CLI, the reports wanted. */

let installed: Promise<string> | undefined;

/**
 * Each test starts with NODE_COMPILE_CACHE and NODE_PATH unset (runSite reads them), and gets them back after;
 * after the file's tests, the fake's folder is removed and PATH is as it was.
 */
export function keepNodeEnv(): void {
  const saved = { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE, NODE_PATH: process.env.NODE_PATH };
  const savedPath = process.env.PATH;
  afterAll(async () => {
    const root = await installed;
    installed = undefined;
    process.env.PATH = savedPath;
    if (root) await rm(root, { recursive: true, force: true });
  });
  beforeEach(() => {
    delete process.env.NODE_COMPILE_CACHE;
    delete process.env.NODE_PATH;
  });
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
}

export const SECRET = "sk_live_0123456789abcdef";
export const ENV = { FLEET_KEY: SECRET, PULUMI_CONFIG_PASSPHRASE: "correct horse" };
export const STACK = "acme/billing/us";
export const URN = (type: string, name: string) => `urn:pulumi:us::billing::${type}::${name}`;
export const PRODUCT = URN("billing:index:Product", "pro");
export const COUPON = URN("billing:index:Coupon", "launch");
/** The folder runSite takes the node_modules of @pulumi/pulumi from (NODE_PATH of the CLI). */
export const MODULES = path.resolve(require.resolve("@pulumi/pulumi/package.json"), "../../..");

export const pre = (op: string, urn: string) => ({
  resourcePreEvent: { metadata: { op, urn, type: urn.split("::")[2], provider: "" } },
});
export const summary = (resourceChanges: Record<string, number>) => ({
  summaryEvent: { maybeCorrupt: false, durationSeconds: 1, resourceChanges, policyPacks: {} },
});
export const diagnostic = (message: string, urn?: string) => ({
  diagnosticEvent: { ...(urn ? { urn } : {}), prefix: "error: ", message, color: "never", severity: "error" },
});
export const policy = (enforcementLevel: string, message: string) => ({
  policyEvent: {
    resourceUrn: PRODUCT,
    message,
    color: "never",
    policyName: "webhooks-stay-enabled",
    policyPackName: "billing-policies",
    policyPackVersion: "1.0.0",
    policyPackVersionTag: "1.0.0",
    enforcementLevel,
  },
});

export interface Case {
  dir: string;
  site: ResolvedSite;
  o: SiteRunOptions;
  progress: string[];
}

/** A fresh scenario, a directory program and the options of one run of `operation`. */
export async function setUp(
  scenario: Scenario,
  operation: SiteRunOptions["operation"] = "up",
  more: Partial<SiteRunOptions> = {},
): Promise<Case> {
  installed ??= installFakePulumi();
  const dir = await useScenario(await installed, scenario);
  const program = path.join(dir, "project");
  await mkdir(program);
  const progress: string[] = [];
  const site: ResolvedSite = {
    name: "us",
    stack: STACK,
    program,
    programKind: "directory",
    config: { "billing:site": "us" },
    secrets: { "billing:apiKey": "FLEET_KEY" },
  };
  const o: SiteRunOptions = {
    operation,
    project: "billing",
    backend: "file:///srv/state",
    stateDir: path.join(dir, "state"),
    env: ENV,
    onProgress: (d) => progress.push(d),
    ...more,
  };
  return { dir, site, o, progress };
}

/** The calls' argv, the event log's temp path and an inline program's port made constant. */
export async function argvs(dir: string): Promise<string[][]> {
  return (await callsIn(dir)).map((c: FakeCall) =>
    c.argv.map((a) => a.replace(/^\/.*\/eventlog\.txt$/, "<event-log>").replace(/^--client=127\.0\.0\.1:\d+$/, "--client=<port>")),
  );
}

/** The site's log: its first line checked and set aside, the event log's temp path made constant. */
export async function logOf(c: Case, operation = c.o.operation): Promise<string> {
  const text = await readFile(path.join(c.o.stateDir, "logs", "acme_billing_us.log"), "utf8");
  const [head, ...rest] = text.split("\n");
  expect(head).toMatch(new RegExp(`^# billing-fleet ${operation} acme/billing/us \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$`));
  return rest.join("\n").replace(/\/tmp\/automation-logs-[\w-]+\/eventlog\.txt/g, "<event-log>");
}

export const INIT = ["stack", "init", STACK, "--non-interactive"];
export const SET_ALL = [
  "config",
  "set-all",
  "--stack",
  STACK,
  "--plaintext",
  "billing:site=us",
  "--secret",
  `billing:apiKey=${SECRET}`,
  "--non-interactive",
];
export const UP = [
  "up",
  "--yes",
  "--skip-preview",
  "--exec-kind",
  "auto.local",
  "--event-log",
  "<event-log>",
  "--stack",
  STACK,
  "--non-interactive",
];

/** A failed CLI call's message (a CommandError's), as the site's log and firstLine read it. */
export const failure = (code: number, argv: string[], ...output: string[]) => {
  const text = [`Command failed with exit code ${code}: pulumi ${argv.join(" ")}`, ...output].join("\n");
  return `code: -2\n stdout: \n stderr: ${text}\n err?: Error: ${text}\n`;
};
export const NO_STACK = `error: no stack named '${STACK}' found`;

export const succeeded = (changes: Record<string, number>, changed: number, more: Partial<SiteReport> = {}): SiteReport => ({
  name: "us",
  stack: STACK,
  result: "succeeded",
  changes,
  changed,
  durationMs: expect.any(Number) as unknown as number,
  ...more,
});
export const failed = (error: string, more: Partial<SiteReport> = {}): SiteReport => ({
  name: "us",
  stack: STACK,
  result: "failed",
  changes: {},
  changed: 0,
  durationMs: expect.any(Number) as unknown as number,
  error,
  ...more,
});
