import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { PassThrough } from "node:stream";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import type { Simulator, SimulatorOptions } from "../../simulator";
import { main } from "../../site/cli";
import { start } from "../simulator/helpers";
import { held, seedUsedTestSite } from "./seed";

// billing-site reset against the simulator over a real socket: each scope clears what it names and waits out the
// service's asynchronous clear; every refusal leaves the site as it was; the key never appears in what it prints.

const KEY = "sk_site_reset_9c8b7a6f5e4d3c2b";
const ROOT = path.resolve(__dirname, "../..");

/** A used test site (seed.ts), for one test. */
const site = async (o: SimulatorOptions = {}): Promise<Simulator> => seedUsedTestSite(await start({ apiKey: KEY, ...o }));

async function run(argv: string[], env: NodeJS.ProcessEnv) {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = "";
  let stderr = "";
  out.on("data", (c) => (stdout += c));
  err.on("data", (c) => (stderr += c));
  const code = await main(argv, { stdout: out, stderr: err, env: { BILLING_API_KEY: KEY, ...env }, pollMs: 20 });
  expect(stdout + stderr).not.toContain(KEY);
  expect(stdout + stderr).not.toContain(Buffer.from(`${KEY}:x`).toString("base64"));
  return { code, stdout, stderr };
}

const clears = (sim: Simulator) => sim.requests.filter((r) => r.path === "/sites/clear_data.json");
const FULL = { subscriptions: 2, fieldValues: [2, 1], offers: 1, coupons: 1, components: 1, reasonCodes: 1 };

describe("billing-site reset", () => {
  it("--scope customers clears subscriptions and their fields' values, waits out the delay, and leaves the catalog", async () => {
    const sim = await site({ clearDataDelayMs: 300 });
    const r = await run(["reset", "--scope", "customers", "--site", sim.url], {});
    expect(r.code, r.stderr).toBe(0);
    expect(clears(sim).map((x) => x.query)).toEqual([{ cleanup_scope: "customers" }]);
    // Returned only once the clear had landed: the reads after it saw the data for the delay's 300 ms.
    expect(held(sim)).toEqual({ ...FULL, subscriptions: 0, fieldValues: [0, 0] });
    const clearedAt = clears(sim)[0]?.at ?? 0;
    expect(sim.requests.filter((x) => x.at > clearedAt && x.path === "/subscriptions/metafields.json").length).toBeGreaterThan(1);
    expect(r.stdout).toMatch(/^Cleared site \S+ \(scope customers\): empty after \d+\.\d s\. Before the clear it held:\n/);
    expect(r.stdout).toContain("custom field values on subscriptions  2\n");
    expect(r.stdout).toContain("custom field values on customers      1\n");
    expect(r.stdout).not.toContain("products");
  });

  it("--scope all clears the catalog too (archived objects included) and counts each collection it held", async () => {
    const sim = await site({ clearDataDelayMs: 150 });
    const r = await run(["reset", "--scope", "all"], { BILLING_BASE_URL: sim.url });
    expect(r.code, r.stderr).toBe(0);
    expect(clears(sim).map((x) => x.query)).toEqual([{ cleanup_scope: "all" }]);
    expect(held(sim)).toEqual({ subscriptions: 0, fieldValues: [0, 0], offers: 0, coupons: 0, components: 0, reasonCodes: 1 });
    const counts = Object.fromEntries([...r.stdout.matchAll(/^ {2}(.+?) +(\d+)$/gm)].map((m) => [m[1], Number(m[2])]));
    expect(counts).toEqual({
      "product families": 1,
      "products (archived included)": 2,
      "components (archived included)": 1,
      "coupons (archived included)": 1,
      "offers (archived included)": 1,
      "custom field values on subscriptions": 2,
      "custom field values on customers": 1,
    });
  });

  it("BILLING_PRODUCTION marks the site production: refused with exit 1 and not one request sent", async () => {
    const sim = await site({ clearDataDelayMs: 0 });
    for (const value of ["true", "1", "YES", "maybe"]) {
      const r = await run(["reset", "--scope", "customers", "--site", sim.url], { BILLING_PRODUCTION: value });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^billing-site: BILLING_PRODUCTION.*refusing to clear.*nothing was sent\n$/);
    }
    expect(sim.requests).toEqual([]);
    const off = await run(["reset", "--scope", "customers", "--site", sim.url], { BILLING_PRODUCTION: "false" });
    expect(off.code, off.stderr).toBe(0);
  });

  it("a site GET /site.json says is not a test site is refused before the clear is sent", async () => {
    const sim = await site({ live: true, clearDataDelayMs: 0 });
    const r = await run(["reset", "--scope", "all", "--site", sim.url], {});
    expect(r).toMatchObject({ code: 1, stdout: "" });
    expect(r.stderr).toMatch(/is not a test site \(GET \/site\.json answers "test": false\).*nothing was cleared\n$/);
    expect(sim.requests.map((x) => `${x.method} ${x.path}`)).toEqual(["GET /site.json"]);
    expect(held(sim)).toEqual(FULL);
  });

  it("a site made live after it read as a test site: the service's 403 is reported as a live site, nothing cleared", async () => {
    const sim = await site({ clearDataDelayMs: 0 });
    // The site answers test: true, and goes live while that answer is on its way.
    sim.injectFault({ kind: "delay", ms: 1_000, times: 1, applyAfterHandling: true, match: { method: "GET", path: "/site.json" } });
    const running = run(["reset", "--scope", "all", "--site", sim.url], {});
    // Logged on arrival; handled a moment later (its body read), then held back for the fault's second.
    while (sim.requests.length === 0) await new Promise((r) => setTimeout(r, 2));
    await new Promise((r) => setTimeout(r, 100));
    sim.configureSite({ live: true });
    const r = await running;
    expect(r).toMatchObject({ code: 1, stdout: "" });
    expect(r.stderr).toMatch(/is a live site \(the service answered 403 Forbidden\): nothing was cleared\n$/);
    expect(clears(sim).map((x) => x.status)).toEqual([403]);
    expect(held(sim)).toEqual(FULL);
  });

  it("still not empty when --timeout runs out: exit 3, naming what the site still holds", async () => {
    const sim = await site({ clearDataDelayMs: 60_000 });
    const started = Date.now();
    const r = await run(["reset", "--scope", "all", "--site", sim.url, "--timeout", "0.3"], {});
    expect(r).toMatchObject({ code: 3, stdout: "" });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.stderr).toMatch(
      /^billing-site: site \S+ still holds 1 product family, 2 products, 1 component, 1 coupon, 1 offer, 2 custom field values on subscriptions, 1 custom field value on customers \d+\.\d s after the clear \(--timeout 0\.3\): the service clears asynchronously and may still finish/,
    );
    expect(clears(sim)).toHaveLength(1);
  });

  it("nothing the API lists was there before: says there was nothing to wait for, not that the site reads empty", async () => {
    const sim = await start({ apiKey: KEY, clearDataDelayMs: 200 });
    sim.addProduct({ handle: "pro" });
    sim.addSubscription({ id: 1001, productHandle: "pro", state: "active" });
    const r = await run(["reset", "--scope", "customers", "--site", sim.url], {});
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^Cleared site \S+ \(scope customers\): the service accepted the clear; nothing it clears that the API lists was there, so there was nothing to wait for:\n/,
    );
    expect(r.stdout).not.toContain("empty after");
  });

  it("a read that fails during the wait: exit 2, saying the clear was accepted", async () => {
    const sim = await site({ clearDataDelayMs: 60_000 });
    const running = run(["reset", "--scope", "all", "--site", sim.url], {});
    while (clears(sim).length === 0) await new Promise((r) => setTimeout(r, 2));
    sim.injectFault({ kind: "status", status: 500, match: { method: "GET", path: "/offers.json" } });
    const r = await running;
    expect(r).toMatchObject({ code: 2, stdout: "" });
    expect(r.stderr).toMatch(/^billing-site: the clear \(scope all\) was accepted, then reading the site failed: .*500/);
  });

  it("a bad or missing --scope names the option and the accepted values, sends nothing, exits 2", async () => {
    const sim = await site({ clearDataDelayMs: 0 });
    const bad = await run(["reset", "--scope", "products", "--site", sim.url], {});
    expect(bad).toMatchObject({ code: 2, stderr: 'billing-site: --scope "products": give customers or all\n' });
    const none = await run(["reset", "--site", sim.url], {});
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^billing-site: reset: --scope is required: give customers or all\n/);
    const timeout = await run(["reset", "--scope", "all", "--site", sim.url, "--timeout", "soon"], {});
    expect(timeout).toMatchObject({ code: 2, stderr: 'billing-site: --timeout "soon": give a number of seconds above 0\n' });
    expect(sim.requests).toEqual([]);
  });

  it("a wrong key is a failed request (exit 2) whose message holds neither key; --key-env reads another variable", async () => {
    const sim = await site({ clearDataDelayMs: 0 });
    const wrong = await run(["reset", "--scope", "customers", "--site", sim.url], { BILLING_API_KEY: "sk_wrong_key_11223344" });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(
      /^billing-site: the site refused the API key in BILLING_API_KEY \(401 Unauthorized to GET \/site\.json\): set BILLING_API_KEY to the site's API key\n$/,
    );
    expect(wrong.stderr).not.toContain("sk_wrong_key_11223344");
    expect(clears(sim)).toEqual([]);
    const other = await run(["reset", "--scope", "customers", "--site", sim.url, "--key-env", "CI_SITE_KEY"], {
      BILLING_API_KEY: "",
      CI_SITE_KEY: KEY,
    });
    expect(other.code, other.stderr).toBe(0);
  });
});

describe("billing-site as installed (dist/site/bin.js)", () => {
  it.runIf(existsSync(path.join(ROOT, "dist/site/bin.js")))("prints its usage and exits 2 without a command", async () => {
    const err = await promisify(execFile)(process.execPath, [path.join(ROOT, "dist/site/bin.js")]).catch((e) => e);
    expect(err.code).toBe(2);
    expect(err.stderr).toMatch(/^billing-site: Usage:\n {2}billing-site reset --scope customers\|all/);
  });
});
