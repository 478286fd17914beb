import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FleetReport } from "../../fleet/report";
import { createWorkspace, type Workspace } from "../../scripts/lib/pulumi-cli";
import { type Simulator, startSimulator } from "../../simulator";
import { type Consumer, installedConsumer, ROOT } from "./support";

/**
 * The fleet runner as a user runs it: `billing-fleet` from the installed package, the real CLI
 * through the Automation API, a file backend, and 20 sites, each its own simulator over a real socket.
 */
const SITES = 20;
const FAILING = 7;
const keyOf = (i: number) => `sk_fleet_${i}_${(i * 7919).toString(36)}f3`;
const RECEIVER = "https://hooks.acme.example/billing";

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly report: FleetReport;
}

describe("billing-fleet: 20 sites through the Automation API", function () {
  this.timeout(900_000);
  let c: Consumer;
  let ws: Workspace;
  let dir: string;
  const sims: Simulator[] = [];
  const outputs: string[] = [];

  async function fleet(args: string[], more: NodeJS.ProcessEnv = {}): Promise<Run> {
    const reportFile = path.join(dir, `report-${outputs.length}.json`);
    const bin = path.join(c.dir, "node_modules/pulumi-subscription-billing/dist/fleet/bin.js");
    const env = { ...ws.env, ...Object.fromEntries(sims.map((_, i) => [`SITE_${i}_API_KEY`, keyOf(i)])), ...more };
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [bin, ...args, path.join(dir, "fleet.yaml"), "--json", reportFile],
        { cwd: dir, env, maxBuffer: 64 << 20 },
        (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
    outputs.push(stdout, stderr);
    const report = JSON.parse(await readFile(reportFile, "utf8")) as FleetReport;
    outputs.push(JSON.stringify(report));
    return { code, stdout, stderr, report };
  }

  const byResult = (r: FleetReport) => {
    const out: Record<string, string[]> = {};
    for (const s of r.sites) out[s.result] = [...(out[s.result] ?? []), s.name];
    return out;
  };

  before(async () => {
    c = await installedConsumer();
    ws = await createWorkspace(c.bin);
    dir = path.join(c.dir, "fleet");
    await mkdir(dir, { recursive: true });
    await cp(path.join(ROOT, "examples/fleet/site.ts"), path.join(dir, "site.ts"));
    for (let i = 0; i < SITES; i++) sims.push(await startSimulator({ apiKey: keyOf(i) }));
    const sites = sims
      .map(
        (s, i) =>
          `  - name: site-${i}\n    config:\n      billing:baseUrl: ${s.url}\n    secrets:\n      billing:apiKey: SITE_${i}_API_KEY\n`,
      )
      .join("");
    await writeFile(
      path.join(dir, "fleet.yaml"),
      `program: ./site.ts\nconfig:\n  site:receiver:\n    url: ${RECEIVER}\n    events: [payment_failure, subscription_state_change]\nsites:\n${sites}`,
    );
  });

  after(async () => {
    for (const s of sims) await s.close().catch(() => undefined);
    await ws?.dispose();
  });

  it("a stopped site fails only itself; --resume runs only it; a second up changes nothing; destroy cleans all", async () => {
    const port = new URL(sims[FAILING].url).port;
    await sims[FAILING].close();

    const first = await fleet(["up", "--plain"]);
    assert.equal(first.code, 1, first.stderr);
    assert.deepEqual(byResult(first.report).failed, [`site-${FAILING}`]);
    assert.equal(byResult(first.report).succeeded?.length, SITES - 1);
    assert.match(first.report.sites[FAILING].error ?? "", /ECONNREFUSED|connect|refused/i);
    assert.match(first.stdout, new RegExp(`site-${FAILING} .*failed`));
    assert.match(first.stdout, /up: 19 of 20 sites succeeded, 1 failed \(re-run them with --resume\)/);
    for (const [i, sim] of sims.entries()) {
      if (i === FAILING) continue;
      assert.equal(sim.webhooksEnabled, true, `site-${i}`);
      assert.deepEqual(
        sim.endpoints().map((e) => [e.url, [...e.events].sort()]),
        [[RECEIVER, ["payment_failure", "subscription_state_change"]]],
      );
    }

    sims[FAILING] = await startSimulator({ apiKey: keyOf(FAILING), port: Number(port) });
    const resumed = await fleet(["up", "--resume", "--plain"]);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.deepEqual(byResult(resumed.report).succeeded, [`site-${FAILING}`]);
    assert.equal(byResult(resumed.report).skipped?.length, SITES - 1);
    assert.equal(sims[FAILING].webhooksEnabled, true);
    assert.equal(sims[FAILING].endpoints().length, 1);

    const before = sims.map((s) => s.requests.length);
    const again = await fleet(["up", "--concurrency", "8", "--plain"]);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(
      again.report.sites.filter((s) => s.result !== "succeeded" || s.changed !== 0).map((s) => s.name),
      [],
      "a second up changes nothing",
    );
    const mutations = sims.flatMap((s, i) => s.requests.slice(before[i]).filter((r) => r.method !== "GET"));
    assert.deepEqual(mutations, []);

    const preview = await fleet(["preview", "--plain"]);
    assert.equal(preview.code, 0);
    assert.ok(
      preview.report.sites.every((s) =>
        s.preview?.steps?.some((st) => /(dynamic\/billing|billing:index):WebhookEndpoint$/.test(st.type ?? "")),
      ),
    );

    const destroyed = await fleet(["destroy", "--plain"]);
    assert.equal(destroyed.code, 0, destroyed.stderr);
    assert.ok(destroyed.report.sites.every((s) => s.result === "succeeded" && (s.changes.delete ?? 0) >= 2));
    // The endpoint is unsubscribed from every event; settings stay as they were (disableOnDelete is false).
    for (const sim of sims) assert.deepEqual(sim.endpoints()[0]?.events, []);
  });

  it("config unchanged since the last run: one CLI run per site, no stack or config call; a changed secret is applied to its site only", async () => {
    // The CLI the runner starts, behind a shim that logs each command's first two words (never its arguments: set-all's carry keys).
    const shim = await mkdtemp(path.join(tmpdir(), "pulumi-shim-"));
    const calls = path.join(shim, "calls.log");
    const real = path.join(c.bin, "pulumi");
    await writeFile(path.join(shim, "pulumi"), `#!/bin/sh\necho "$1 $2" >> "${calls}"\nexec "${real}" "$@"\n`, { mode: 0o755 });
    const env = { PATH: `${shim}${path.delimiter}${ws.env.PATH}` };
    const commands = async () => (await readFile(calls, "utf8").catch(() => "")).split("\n").filter(Boolean);

    const same = await fleet(["up", "--plain"], env);
    assert.equal(same.code, 0, same.stderr);
    const unchanged = await commands();
    assert.equal(unchanged.filter((l) => l.startsWith("up ")).length, SITES, unchanged.join("\n"));
    assert.deepEqual(
      unchanged.filter((l) => /^(stack (select|init)|config )/.test(l)),
      [],
      "a site whose config is unchanged is neither selected nor configured",
    );
    // Nor does the Automation API read outputs and history back after each up (three more CLI runs): one `version` for the run.
    assert.deepEqual(
      unchanged.filter((l) => !l.startsWith("up ")),
      ["version "],
      "an unchanged site costs one CLI run, its up",
    );

    // site-3's key is rotated: its service now refuses the old one, so only a run that applies the new key succeeds there.
    const rotated = `${keyOf(3)}_rotated`;
    const port = Number(new URL(sims[3].url).port);
    await sims[3].close();
    sims[3] = await startSimulator({ apiKey: rotated, port });
    await rm(calls, { force: true });
    const after = await fleet(["up", "--plain"], { ...env, SITE_3_API_KEY: rotated });
    assert.equal(after.code, 0, after.stderr);
    assert.ok(after.report.sites.every((st) => st.result === "succeeded"));
    const changed = await commands();
    assert.deepEqual(
      changed.filter((l) => /^(stack (select|init)|config )/.test(l)),
      ["config set-all"],
      "only site-3, whose secret changed, is configured (its stack exists: no init, no select)",
    );
    // The new site holds nothing yet, and an up changes nothing the state does not: a refresh reads it, with the stack's key.
    await rm(calls, { force: true });
    const refreshed = await fleet(["refresh", "--plain"], { ...env, SITE_3_API_KEY: rotated });
    assert.equal(refreshed.code, 0, refreshed.stderr);
    assert.deepEqual(
      (await commands()).filter((l) => /^(stack (select|init)|config )/.test(l)),
      [],
      "the rotated key was set by the up: the refresh configures nothing",
    );
    assert.ok(sims[3].requests.length > 0, "the refresh read site-3");
    assert.deepEqual(
      sims[3].requests.filter((r) => r.status === 401),
      [],
      "site-3, which takes only the rotated key, was read with it",
    );
    assert.ok(!outputs.some((t) => t.includes(rotated)), "the rotated key appeared in an output or report");
    await rm(shim, { recursive: true, force: true });
  });

  it("the example's resources come through the package's own plugin: no install, no PATH warning, no serialized provider in state", async () => {
    const logs = path.join(dir, ".billing-fleet", "logs");
    const texts = await Promise.all((await readdir(logs)).map((f) => readFile(path.join(logs, f), "utf8")));
    assert.equal(texts.length, SITES);
    assert.deepEqual(
      texts.filter((t) => /from \$PATH/.test(t)),
      [],
      "the CLI warned about a plugin found on PATH",
    );
    const state: string[] = [];
    const walk = async (d: string): Promise<void> => {
      for (const e of await readdir(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) await walk(p);
        else if (p.endsWith(".json") && p.includes(`${path.sep}stacks${path.sep}`)) state.push(await readFile(p, "utf8"));
      }
    };
    await walk(ws.dir);
    assert.ok(
      state.some((t) => t.includes("billing:index:WebhookSettings")),
      "no stack holds the plugin's WebhookSettings",
    );
    assert.ok(!state.some((t) => t.includes("__provider")), "a resource carries a serialized dynamic provider");
  });

  it("credentials reach no output, report, log, workspace or state file", async () => {
    const files: string[] = [];
    const walk = async (d: string): Promise<void> => {
      for (const e of await readdir(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) await walk(p);
        else if ((await stat(p)).size < 32 << 20) files.push(p);
      }
    };
    await walk(dir);
    await walk(ws.dir);
    assert.ok(files.some((f) => f.includes(`${path.sep}logs${path.sep}`)));
    assert.ok(files.some((f) => f.endsWith(".json") && f.includes("last-up")));
    const texts = [...outputs, ...(await Promise.all(files.map((f) => readFile(f, "utf8"))))];
    for (let i = 0; i < SITES; i++) {
      const hits = texts.filter((t) => t.includes(keyOf(i)));
      assert.equal(hits.length, 0, `the key of site-${i} was found`);
    }
  });
});
