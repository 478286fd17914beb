import assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FleetReport } from "../../fleet/report";
import { packInto } from "../../scripts/lib/packed-install";
import { createWorkspace, ensurePulumi, type Workspace } from "../../scripts/lib/pulumi-cli";
import { installLines } from "./readme";
import { ROOT } from "./support";

/**
 * What a newcomer does, in the README's order, in a fresh project: the Install section's lines, from
 * `npm init -y` to `npm install` (the tarball standing for the registry's package, `@pulumi/pulumi` unpinned: the
 * newest the registry serves), TypeScript at its latest, the README's fleet (examples/fleet, its
 * TypeScript program as it is), simulators as the sites, kept in `--data` files across a stop and a
 * restart, `--resume`, a policy config across the fleet, destroy. Then every file the runner and the
 * CLI wrote, and every output, is searched for the sites' keys.
 */
const SITES = ["us-store", "eu-store"] as const;
type Site = (typeof SITES)[number];
const KEYS: Record<Site, string> = {
  "us-store": `sk_us_${randomBytes(9).toString("hex")}`,
  "eu-store": `sk_eu_${randomBytes(9).toString("hex")}`,
};
const ENV_OF: Record<Site, string> = { "us-store": "US_STORE_BILLING_API_KEY", "eu-store": "EU_STORE_BILLING_API_KEY" };

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe("a newcomer follows the README from a fresh project", function () {
  this.timeout(1_500_000);
  let ws: Workspace;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const outputs: string[] = [];
  const ports = {} as Record<Site, number>;
  const running = new Map<Site, ChildProcess>();
  /** Keys planted in a refused fleet file: searched for with the sites' own. */
  const KEYS_PLANTED: string[] = [];

  function sh(cmd: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<Run> {
    return new Promise((resolve) => {
      execFile(cmd, args, { cwd: dir, env: { ...env, ...extraEnv }, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
        outputs.push(stdout, stderr);
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
  }

  /** `npx billing-fleet …` as the README shows it, with the report for the assertions. */
  async function fleet(args: string[]): Promise<Run & { report: FleetReport }> {
    const reportFile = path.join(dir, `report-${outputs.length}.json`);
    const run = await sh("npx", ["billing-fleet", ...args, "--plain", "--json", reportFile]);
    const report = JSON.parse(await readFile(reportFile, "utf8")) as FleetReport;
    return { ...run, report };
  }

  const result = (r: FleetReport, site: Site) => r.sites.find((s) => s.name === site);

  /** `npx billing-simulator --port P --api-key K --data FILE`, in the background until stopped. */
  async function startSite(site: Site): Promise<void> {
    const child = spawn(
      path.join(dir, "node_modules/.bin/billing-simulator"),
      ["--port", String(ports[site]), "--api-key", KEYS[site], "--data", path.join(dir, `${site}.data.json`)],
      { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] },
    );
    let said = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on("data", (d: Buffer) => {
        said += d;
        if (said.includes("listening on")) resolve();
      });
      child.stderr?.on("data", (d: Buffer) => {
        said += d;
      });
      child.once("exit", (code) => reject(new Error(`billing-simulator for ${site} exited ${code}: ${said}`)));
    });
    outputs.push(said);
    running.set(site, child);
  }

  async function stopSite(site: Site): Promise<void> {
    const child = running.get(site);
    if (!child) return;
    running.delete(site);
    await new Promise((resolve) => {
      child.once("exit", resolve);
      child.kill("SIGTERM");
    });
  }

  /** The site's endpoints as the service lists them (GET /endpoints.json, a bare array). */
  async function endpointsAt(site: Site): Promise<{ id: number; url: string; webhook_subscriptions: string[] }[]> {
    const res = await fetch(`http://127.0.0.1:${ports[site]}/endpoints.json`, {
      headers: { authorization: `Basic ${Buffer.from(`${KEYS[site]}:x`).toString("base64")}` },
    });
    assert.equal(res.status, 200);
    return (await res.json()) as { id: number; url: string; webhook_subscriptions: string[] }[];
  }

  async function editFleet(edit: (text: string) => string): Promise<void> {
    const file = path.join(dir, "fleet.yaml");
    await writeFile(file, edit(await readFile(file, "utf8")));
  }

  before(async () => {
    const bin = await ensurePulumi();
    ws = await createWorkspace(bin);
    dir = await mkdtemp(path.join(tmpdir(), "billing-newcomer-"));
    // A user's shell: the README's exports, no backend chosen (the runner's default, beside the fleet file).
    env = { ...ws.env, [ENV_OF["us-store"]]: KEYS["us-store"], [ENV_OF["eu-store"]]: KEYS["eu-store"] };
    delete env.PULUMI_BACKEND_URL;
    const tarball = packInto(dir);
    // Install, line by line: `npm init -y` (today's npm writes "main": "index.js" and "type": "commonjs"),
    // then `npm install pulumi-subscription-billing @pulumi/pulumi`.
    for (const line of await installLines(tarball)) {
      const run = await sh("bash", ["-c", line]);
      assert.equal(run.code, 0, `\`${line}\` failed:\n${run.stdout}\n${run.stderr}`);
    }
    assert.equal(JSON.parse(await readFile(path.join(dir, "package.json"), "utf8")).type, "commonjs", "the project npm init -y made");
    const npm = (args: string[]) => sh("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"]);
    // The policy pack's optional peer (README, Policy pack).
    const policy = await npm(["install", "-D", "@pulumi/policy"]);
    assert.equal(policy.code, 0, policy.stderr);
    // TypeScript at its latest (7.x), last: @pulumi/pulumi's optional peer range stops below 7, so npm
    // refuses it (and every install after it) unless told to; a user who wants it says so. The
    // fleet's TypeScript program must not care which TypeScript is there, or whether one is.
    const ts = await npm(["install", "-D", "typescript@latest", "--legacy-peer-deps"]);
    assert.equal(ts.code, 0, ts.stderr);
    const fleetFile = await readFile(path.join(ROOT, "examples/fleet/fleet.yaml"), "utf8");
    for (const site of SITES) ports[site] = await freePort();
    // The README's fleet, its sites pointed at the simulators instead of acme-us / acme-eu.
    await writeFile(
      path.join(dir, "fleet.yaml"),
      fleetFile
        .replace("billing:subdomain: acme-us", `billing:baseUrl: http://127.0.0.1:${ports["us-store"]}`)
        .replace("billing:subdomain: acme-eu", `billing:baseUrl: http://127.0.0.1:${ports["eu-store"]}`),
    );
    await cp(path.join(ROOT, "examples/fleet/site.ts"), path.join(dir, "site.ts"));
    for (const site of SITES) await startSite(site);
  });

  after(async () => {
    for (const site of SITES) await stopSite(site);
    await ws?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("installed the newest @pulumi/pulumi and TypeScript 7 beside the package", async () => {
    const versions = await sh("node", [
      "-p",
      'require("@pulumi/pulumi/package.json").version + " " + require("typescript/package.json").version',
    ]);
    const [pulumiVersion, tsVersion] = versions.stdout.trim().split(" ");
    const newest = await sh("npm", ["view", "@pulumi/pulumi", "version"]);
    assert.equal(pulumiVersion, newest.stdout.trim());
    assert.ok(Number(tsVersion.split(".")[0]) >= 7, `TypeScript ${tsVersion}`);
  });

  it("preview: the TypeScript fleet program runs on every site", async () => {
    const run = await fleet(["preview", "fleet.yaml"]);
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    for (const site of SITES) {
      const r = result(run.report, site);
      assert.equal(r?.result, "succeeded", site);
      assert.ok(
        // The README's program declares it through the provider plugin (billing:index:…); the dynamic type would do as well.
        r?.preview?.steps?.some((s) => /(dynamic\/billing|billing:index):WebhookEndpoint$/.test(s.type ?? "")),
        site,
      );
    }
    assert.match(run.stdout, /preview: 2 of 2 sites succeeded/);
  });

  it("up with a site down fails only it; restarted from its --data file, --resume finishes it", async () => {
    await stopSite("eu-store");
    const first = await fleet(["up", "fleet.yaml", "--concurrency", "8"]);
    assert.equal(first.code, 1, first.stdout);
    assert.equal(result(first.report, "us-store")?.result, "succeeded");
    assert.equal(result(first.report, "eu-store")?.result, "failed");
    assert.match(first.stdout, /re-run them with --resume/);
    const usEndpoints = await endpointsAt("us-store");
    assert.equal(usEndpoints.length, 1);

    // Both simulators stop and start again: what us-store was told survives in its data file.
    await stopSite("us-store");
    await startSite("us-store");
    await startSite("eu-store");
    assert.deepEqual(await endpointsAt("us-store"), usEndpoints);

    const resumed = await fleet(["up", "fleet.yaml", "--resume"]);
    assert.equal(resumed.code, 0, resumed.stdout);
    assert.equal(result(resumed.report, "eu-store")?.result, "succeeded");
    assert.equal(result(resumed.report, "us-store")?.result, "skipped");
    assert.equal((await endpointsAt("eu-store")).length, 1);
  });

  it("a change after the restart updates the endpoints the restarted sites remember", async () => {
    await stopSite("us-store");
    await startSite("us-store");
    await editFleet((t) => t.replace("events: [payment_failure, subscription_state_change]", "events: [payment_failure, payment_success]"));
    const run = await fleet(["up", "fleet.yaml"]);
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    for (const site of SITES) {
      assert.equal(result(run.report, site)?.changes.update, 1, site);
      const [endpoint] = await endpointsAt(site);
      assert.deepEqual([...endpoint.webhook_subscriptions].sort(), ["payment_failure", "payment_success"]);
    }
  });

  it("a policy config across the fleet stops the site that breaks it, naming the policy", async () => {
    await writeFile(path.join(dir, "policy.prod.json"), JSON.stringify({ "webhooks-stay-enabled-in-production": { production: true } }));
    await editFleet((t) => t.replace("site:webhooksEnabled: true", "site:webhooksEnabled: false"));
    const run = await fleet([
      "preview",
      "fleet.yaml",
      "--policy-pack",
      "node_modules/pulumi-subscription-billing/policy/pack",
      "--policy-pack-config",
      "policy.prod.json",
    ]);
    assert.equal(run.code, 1, run.stdout);
    assert.equal(result(run.report, "us-store")?.result, "succeeded", `${run.stdout}\n${run.stderr}`);
    const eu = result(run.report, "eu-store");
    assert.equal(eu?.result, "failed");
    assert.match(eu?.error ?? "", /webhooks-stay-enabled-in-production/);
    assert.match(run.stdout, /eu-store[^\n]*webhooks-stay-enabled-in-production/);
    await editFleet((t) => t.replace("site:webhooksEnabled: false", "site:webhooksEnabled: true"));
  });

  it("destroy leaves every site's stack empty", async () => {
    const run = await fleet(["destroy", "fleet.yaml"]);
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    for (const site of SITES) {
      assert.ok((result(run.report, site)?.changes.delete ?? 0) >= 2, site);
      assert.deepEqual((await endpointsAt(site))[0]?.webhook_subscriptions, []);
    }
  });

  it("a credential put in the fleet file in the README's JSON form is refused, naming site and key", async () => {
    const before = await readFile(path.join(dir, "fleet.yaml"), "utf8");
    const planted = `sk_planted_${randomBytes(8).toString("hex")}`;
    await editFleet((t) =>
      t.replace(
        "    config:\n      billing:baseUrl",
        `    config:\n      billing:sites: '{"us":{"baseUrl":"http://127.0.0.1:1","apiKey":"${planted}"}}'\n      billing:baseUrl`,
      ),
    );
    const run = await sh("npx", ["billing-fleet", "preview", "fleet.yaml", "--plain"]);
    await writeFile(path.join(dir, "fleet.yaml"), before);
    assert.equal(run.code, 2, run.stdout);
    assert.match(run.stderr, /us-store/);
    assert.match(run.stderr, /billing:sites/);
    assert.ok(!`${run.stdout}${run.stderr}`.includes(planted));
    KEYS_PLANTED.push(planted);
  });

  it("no key in any file the runner or the CLI wrote, nor in any output", async () => {
    const files: string[] = [];
    const walk = async (d: string): Promise<void> => {
      for (const e of await readdir(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) {
          if (e.name !== "node_modules") await walk(p);
        } else if ((await stat(p)).size < 32 << 20) files.push(p);
      }
    };
    await walk(dir);
    await walk(ws.dir);
    // The default backend, the per-site logs and the last reports were written, and are searched.
    assert.ok(files.some((f) => f.includes(`${path.sep}.billing-fleet${path.sep}`) && f.includes(`${path.sep}logs${path.sep}`)));
    assert.ok(files.some((f) => f.includes(`${path.sep}.pulumi${path.sep}stacks${path.sep}`)));
    // The simulators' data files too: they hold the sites' state, and no credential.
    assert.ok(files.some((f) => f.endsWith("us-store.data.json")));
    const texts = [...outputs, ...(await Promise.all(files.map((f) => readFile(f, "utf8"))))];
    for (const key of [...Object.values(KEYS), ...KEYS_PLANTED]) {
      assert.equal(texts.filter((t) => t.includes(key)).length, 0, `a key was found (${key.slice(0, 6)}…)`);
    }
  });
});
