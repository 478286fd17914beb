import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FleetReport, SiteReport } from "../../fleet/report";
import { installPacked } from "../../scripts/lib/packed-install";
import { createWorkspace, ensurePulumi, type Workspace } from "../../scripts/lib/pulumi-cli";
import { type Simulator, startSimulator } from "../../simulator";
import { ROOT } from "./support";

/**
 * The policy pack across a fleet, as a user runs it: the package and @pulumi/policy installed from the
 * packed tarball into a fresh project (no TypeScript, no ts-node: the README's site.ts loads by Node's own
 * type stripping), `billing-fleet preview|up --policy-pack node_modules/pulumi-subscription-billing/policy/pack`,
 * policy config from the fleet file (the fleet's, a site's own) and the command line, two simulators.
 */
const POLICY_VERSION: string = require("../../package.json").devDependencies["@pulumi/policy"];
const KEYS = { staging: "sk_fleet_policy_staging_5d1e", production: "sk_fleet_policy_production_8c2a" };
const POLICY = "webhooks-stay-enabled-in-production";
const MESSAGE = "WebhookSettings 'webhooks' turns webhook delivery off (webhooksEnabled: false) on a production stack";

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly report: FleetReport;
}

describe("billing-fleet with the policy pack and its config", function () {
  this.timeout(900_000);
  let dir: string;
  let fleetDir: string;
  let ws: Workspace;
  let pack: string;
  const sims: Record<keyof typeof KEYS, Simulator> = {} as Record<keyof typeof KEYS, Simulator>;
  let runs = 0;

  const bin = (name: string) => path.join(dir, "node_modules/pulumi-subscription-billing/dist", name, "bin.js");

  function exec(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, [file, ...args], { cwd: fleetDir, env, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  async function fleet(args: string[]): Promise<Run & { reportFile: string }> {
    const reportFile = path.join(fleetDir, `report-${runs++}.json`);
    const env = { ...ws.env, STAGING_API_KEY: KEYS.staging, PRODUCTION_API_KEY: KEYS.production };
    const r = await exec(bin("fleet"), [...args, "fleet.yaml", "--policy-pack", pack, "--plain", "--json", reportFile], env);
    const report = JSON.parse(await readFile(reportFile, "utf8")) as FleetReport;
    return { ...r, report, reportFile };
  }

  const site = (r: FleetReport, name: string) => r.sites.find((s) => s.name === name) as SiteReport;

  before(async () => {
    const cliBin = await ensurePulumi();
    ws = await createWorkspace(cliBin);
    dir = await mkdtemp(path.join(tmpdir(), "billing-fleet-policy-"));
    installPacked(dir, { dependencies: { "@pulumi/policy": POLICY_VERSION }, quiet: true });
    pack = path.join(dir, "node_modules/pulumi-subscription-billing/policy/pack");
    fleetDir = path.join(dir, "fleet");
    await mkdir(path.join(fleetDir, "policy"), { recursive: true });
    await cp(path.join(ROOT, "examples/fleet/site.ts"), path.join(fleetDir, "site.ts"));
    for (const name of ["staging", "production"] as const) sims[name] = await startSimulator({ apiKey: KEYS[name] });
    await writeFile(path.join(fleetDir, "policy/default.json"), JSON.stringify({ [POLICY]: { production: false } }));
    await writeFile(path.join(fleetDir, "policy/production.json"), JSON.stringify({ [POLICY]: { production: true } }));
    // Both programs turn webhooks off; only the production site's policy config says it is production.
    await writeFile(
      path.join(fleetDir, "fleet.yaml"),
      [
        "program: ./site.ts",
        "policyPackConfig: ./policy/default.json",
        "config:",
        "  site:receiver: { url: https://hooks.acme.example/billing, events: [payment_failure] }",
        "  site:webhooksEnabled: false",
        "sites:",
        "  - name: staging",
        `    config: { billing:baseUrl: "${sims.staging.url}" }`,
        "    secrets: { billing:apiKey: STAGING_API_KEY }",
        "  - name: production",
        `    config: { billing:baseUrl: "${sims.production.url}" }`,
        "    secrets: { billing:apiKey: PRODUCTION_API_KEY }",
        "    policyPackConfig: ./policy/production.json",
        "",
      ].join("\n"),
    );
  });

  after(async () => {
    for (const s of Object.values(sims)) await s?.close().catch(() => undefined);
    await ws?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("installs no TypeScript: the program is loaded by Node's type stripping", async () => {
    const pkg = JSON.parse(await readFile(path.join(dir, "package.json"), "utf8"));
    assert.deepEqual(Object.keys(pkg.dependencies).sort(), ["@pulumi/policy", "@pulumi/pulumi", "pulumi-subscription-billing"]);
    await assert.rejects(readFile(path.join(dir, "node_modules/ts-node/package.json")));
  });

  it("preview: the production site is stopped by the policy its own config turns on, named in the table, the plain line, the report and the review", async () => {
    const r = await fleet(["preview"]);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(site(r.report, "staging").result, "succeeded", JSON.stringify(site(r.report, "staging")));
    const prod = site(r.report, "production");
    assert.equal(prod.result, "failed");
    assert.ok(prod.error?.startsWith(`policy ${POLICY} (pack pulumi-subscription-billing): ${MESSAGE}`), prod.error);
    assert.deepEqual(
      prod.policyViolations?.filter((v) => v.enforcementLevel === "mandatory").map((v) => v.policyName),
      [POLICY],
    );
    assert.ok(prod.preview?.policyViolations?.some((v) => v.policyName === POLICY));
    assert.doesNotMatch(r.stdout, /preview failed/);
    // listr2 writes a failed task's line to stderr.
    assert.match(
      r.stderr,
      /production: stopped by policy in \d+\.\d s \[FAILED: production: policy webhooks-stay-enabled-in-production \(pack pulumi-subscription-billing\): WebhookSettings 'webhooks' turns webhook delivery off/,
    );
    const table = r.stdout.slice(r.stdout.indexOf("┌"));
    assert.match(table, /│ production │ production │ stopped by policy │/);
    assert.match(
      table.replace(/[│\s]+/g, " "),
      /policy webhooks-stay-enabled-in-production \(pack pulumi-subscription-billing\): WebhookSettings 'webhooks' turns/,
    );
    assert.match(table, /preview: 1 of 2 sites succeeded, 1 failed/);

    const review = await exec(bin("review"), [r.reportFile], ws.env);
    assert.equal(review.code, 0, review.stderr);
    assert.match(review.stdout, /\| `production` \| `production` \| stopped by policy `webhooks-stay-enabled-in-production` \|/);
    assert.ok(
      review.stdout.includes(`**Stopped by policy**:\n\n- \`pulumi-subscription-billing/${POLICY}\` on \`webhooks\`: ${MESSAGE}`),
      review.stdout,
    );
    assert.doesNotMatch(review.stdout, /\*\*failed\*\*: preview failed/);
  });

  it("up: the same site stops with the policy before its settings are sent; the violations are in the report", async () => {
    const before = sims.production.requests.length;
    const r = await fleet(["up"]);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(site(r.report, "staging").result, "succeeded");
    assert.equal(sims.staging.endpoints().length, 1);
    const prod = site(r.report, "production");
    assert.ok(prod.error?.startsWith(`policy ${POLICY} (pack pulumi-subscription-billing): ${MESSAGE}`), prod.error);
    assert.ok(prod.policyViolations?.some((v) => v.policyName === POLICY && v.enforcementLevel === "mandatory"));
    const sent = sims.production.requests.slice(before).map((q) => `${q.method} ${q.path}`);
    assert.ok(!sent.includes("PUT /webhooks/settings.json"), sent.join(", "));
    assert.match(r.stdout, /│ production │ production │ stopped by policy │/);
  });

  it("--policy-pack-config on the command line is over the fleet file's: the staging site is production too", async () => {
    const r = await fleet(["preview", "--policy-pack-config", "policy/production.json"]);
    assert.equal(r.code, 1, r.stderr);
    for (const name of ["staging", "production"]) {
      assert.ok(site(r.report, name).error?.startsWith(`policy ${POLICY} (pack pulumi-subscription-billing):`), name);
    }
  });

  it("credentials reach no output or report", async () => {
    const texts = await Promise.all(Array.from({ length: runs }, (_, i) => readFile(path.join(fleetDir, `report-${i}.json`), "utf8")));
    for (const key of Object.values(KEYS)) assert.ok(!texts.some((t) => t.includes(key)));
  });
});
