import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DATA_VERSION, DataFileError, DEMO_SITE, DUPLICATE_WINDOW_MS, startSimulator } from "../../simulator";
import { basic, call, DUPLICATE, KEY, migration, start } from "./helpers";

// `dataFile` / `billing-simulator --data FILE`: a restarted simulator still
// knows its site; a file it cannot read stops it and is left untouched.

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "sim-data-"));
  file = path.join(dir, "site.json");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** The demo site, answering the helpers' key (an explicit apiKey wins over the demo's). */
const demo = () => ({ seed: "demo" as const, apiKey: KEY, dataFile: file });

/** A clock the test moves: the 60-minute uniqueness window is measured on it across restarts. */
function clock(start = Date.parse("2026-11-01T12:00:00Z")) {
  let t = start;
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
}

const endpoint = (url: string, events: string[], extra: Record<string, unknown> = {}) => ({
  endpoint: { url, webhook_subscriptions: events },
  ...extra,
});

/** The file as a reader sees it right now: complete JSON of the current format, and nothing else in its folder but a running simulator's lock. */
async function onDisk(): Promise<any> {
  const text = await readFile(file, "utf8");
  const parsed = JSON.parse(text);
  expect(parsed).toMatchObject({ format: "billing-simulator-data", version: DATA_VERSION });
  expect((await readdir(dir)).filter((f) => f !== "site.json.lock")).toEqual(["site.json"]);
  return parsed;
}

describe("a simulator with a data file", () => {
  it("starts from its seed when the file does not exist, and writes the file at once", async () => {
    const sim = await start({ ...demo() });
    expect(sim.restored).toBe(false);
    const saved = (await onDisk()).site;
    expect(saved.products.map((p: any) => p.handle)).toEqual(["basic", "pro", "launch", null]);
    expect(saved.endpoints.map((e: any) => e.id)).toEqual([1]);
    expect(JSON.stringify(saved)).not.toContain(DEMO_SITE.apiKey);
  });

  it("keeps what requests changed across close and restart: endpoint ids, next ids, the replay log, settings, migrations, tokens", async () => {
    const c = clock();
    const first = await startSimulator({ ...demo(), now: c.now });
    const made = await call(first, "POST", "/endpoints.json", {
      body: endpoint("https://hooks.example/a", ["payment_failure"], { uniqueness_token: "ep-a" }),
    });
    expect(made.body.endpoint.id).toBe(2);
    expect((await call(first, "POST", "/webhooks/replay.json", { body: { ids: [5005, 5006] } })).status).toBe(200);
    expect(
      (await call(first, "PUT", "/webhooks/settings.json", { body: { webhooks_enabled: true, uniqueness_token: "on-1" } })).status,
    ).toBe(200);
    expect((await call(first, "POST", "/subscriptions/1001/migrations.json", { body: migration({ product_handle: "pro" }) })).status).toBe(
      200,
    );
    // A replay already queued when the simulator stops is still in the log after it starts again.
    await first.close();

    c.advance(30 * 60 * 1000);
    const second = await startSimulator({ ...demo(), now: c.now });
    try {
      expect(second.restored).toBe(true);
      const listed = await call(second, "GET", "/endpoints.json");
      expect(listed.body.map((e: any) => [e.id, e.url])).toEqual([
        [1, DEMO_SITE.endpoints[0].url],
        [2, "https://hooks.example/a"],
      ]);
      expect(second.replayLog).toEqual(["5005", "5006"]);
      expect(second.replayQueue).toEqual([5005, 5006]);
      expect(second.webhooksEnabled).toBe(true);
      expect(second.migrationsApplied(1001)).toBe(1);
      const sub = await call(second, "GET", "/subscriptions/1001.json");
      expect(sub.body.subscription.product.handle).toBe("pro");

      // Within the 60 minutes the token still answers 409, and changes nothing.
      const again = await call(second, "POST", "/endpoints.json", {
        body: endpoint("https://hooks.example/a", ["payment_failure"], { uniqueness_token: "ep-a" }),
      });
      expect(again.status).toBe(409);
      expect(again.body.errors).toEqual([DUPLICATE]);
      expect(second.tokenStatus("on-1")).toBe("applied");

      // The next id continues where the stopped simulator left off.
      const next = await call(second, "POST", "/endpoints.json", { body: endpoint("https://hooks.example/b", ["signup_success"]) });
      expect(next.body.endpoint.id).toBe(3);
      // The window was kept as a time, not restarted: past 60 minutes from the first answer the token is free.
      c.advance(DUPLICATE_WINDOW_MS - 30 * 60 * 1000 + 1000);
      expect(second.tokenStatus("ep-a")).toBeUndefined();
    } finally {
      await second.close();
    }
  });

  it("never hands out an id twice, even one whose endpoint was removed before the restart", async () => {
    const first = await startSimulator({ dataFile: file });
    for (const url of ["https://a.example/h", "https://b.example/h"])
      await call(first, "POST", "/endpoints.json", { body: endpoint(url, ["signup_success"]) });
    first.removeEndpoint(2);
    await first.close();
    const second = await start({ dataFile: file });
    const made = await call(second, "POST", "/endpoints.json", { body: endpoint("https://c.example/h", ["signup_success"]) });
    expect(made.body.endpoint.id).toBe(3);
    expect(second.endpoints().map((e) => e.id)).toEqual([1, 3]);
  });

  it("keeps a 3-D Secure link: visited after a restart, it applies the migration", async () => {
    const first = await startSimulator({ ...demo() });
    const refused = await call(first, "POST", "/subscriptions/1005/migrations.json", { body: migration({ product_handle: "pro" }) });
    expect(refused.status).toBe(422);
    const link = new URL(refused.body.action_link);
    await first.close();
    const second = await start({ dataFile: file });
    const visited = await call(second, "GET", link.pathname, { auth: null });
    expect(visited.body).toMatchObject({ authentication: "completed", subscription_id: 1005 });
    expect(second.migrationsApplied(1005)).toBe(1);
  });

  it("has every change in the file, as complete JSON, when the answer arrives, and leaves no temporary file", async () => {
    const sim = await start({ ...demo() });
    await call(sim, "POST", "/endpoints.json", { body: endpoint("https://hooks.example/a", ["payment_failure"]) });
    expect((await onDisk()).site.endpoints.map((e: any) => e.id)).toEqual([1, 2]);
    await call(sim, "PUT", "/endpoints/2.json", { body: endpoint("https://hooks.example/a2", ["refund_success"]) });
    expect((await onDisk()).site.endpoints[1]).toMatchObject({ url: "https://hooks.example/a2", events: ["refund_success"] });
    await call(sim, "POST", "/webhooks/replay.json", { body: { ids: [5008] } });
    expect((await onDisk()).site.replayLog.at(-1)).toBe("5008");
    await call(sim, "PUT", "/webhooks/settings.json", { body: { webhooks_enabled: true, uniqueness_token: "t-1" } });
    const saved = (await onDisk()).site;
    expect(saved.webhooksEnabled).toBe(true);
    expect(saved.uniquenessTokens.map((t: any) => t.token)).toEqual(["t-1"]);
    await call(sim, "POST", "/subscriptions/1002/migrations.json", { body: migration({ product_handle: "pro" }) });
    expect((await onDisk()).site.subscriptions.find((s: any) => s.id === 1002).productId).toBe(2);
    // A refused request changes nothing, and nothing is rewritten for it.
    const before = (await stat(file)).mtimeMs;
    expect((await call(sim, "POST", "/subscriptions/1004/migrations.json", { body: migration({ product_handle: "pro" }) })).status).toBe(
      422,
    );
    expect((await stat(file)).mtimeMs).toBe(before);
  });

  it("keeps a webhook id past 2^53 digit for digit", async () => {
    const first = await startSimulator({ dataFile: file });
    first.addWebhook({ id: "9223372036854775807", status: "failed" });
    await call(first, "POST", "/webhooks/replay.json", { raw: '{"ids":[9223372036854775807]}' });
    await first.close();
    const second = await start({ dataFile: file });
    expect(second.replayLog).toEqual(["9223372036854775807"]);
    expect((await call(second, "GET", "/webhooks.json")).text).toContain('"id":9223372036854775807');
  });
});

describe("a data file the simulator cannot use", () => {
  const valid = async (): Promise<any> => {
    const sim = await startSimulator({ ...demo() });
    await sim.close();
    return JSON.parse(await readFile(file, "utf8"));
  };

  it.each<{ name: string; content: (good: any) => string; message: RegExp }>([
    { name: "bad JSON", content: (g) => JSON.stringify(g).slice(0, 200), message: /is not valid JSON/ },
    { name: "an empty file", content: () => "", message: /is not valid JSON/ },
    { name: "another program's JSON", content: () => '{"sites":[]}', message: /is not a billing-simulator data file/ },
    {
      name: "a wrong shape",
      content: (g) =>
        JSON.stringify({ ...g, site: { ...g.site, products: [{ ...g.site.products[0], id: "one" }, ...g.site.products.slice(1)] } }),
      message: /does not hold a simulator's site: site\.products\[0\]\.id: /,
    },
    {
      name: "a subscription on a product that is not there",
      content: (g) => JSON.stringify({ ...g, site: { ...g.site, products: g.site.products.slice(1) } }),
      message: /site\.subscriptions\[0\]\.productId: no product has id 1/,
    },
    {
      name: "an unknown version",
      content: (g) => JSON.stringify({ ...g, version: DATA_VERSION + 1 }),
      message: new RegExp(`has format version ${DATA_VERSION + 1}; this billing-simulator reads versions 1 to ${DATA_VERSION}`),
    },
  ])("$name: an error naming the file, and the file is left untouched", async ({ content, message }) => {
    const text = content(await valid());
    await writeFile(file, text);
    const err = await startSimulator({ ...demo() }).then(
      (sim) => sim.close().then(() => undefined),
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataFileError);
    expect((err as Error).message).toContain(file);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).toMatch(/It was left as it is/);
    expect(await readFile(file, "utf8")).toBe(text);
    expect(await readdir(dir)).toEqual(["site.json"]);
  });

  it("a file another simulator uses: refused, naming that simulator's process; the file is left as that one wrote it", async () => {
    const first = await start({ ...demo() });
    const text = await readFile(file, "utf8");
    const err = await startSimulator({ ...demo() }).then(
      (sim) => sim.close().then(() => undefined),
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataFileError);
    expect((err as Error).message).toContain(
      `data file ${file} is in use by another billing-simulator (process ${process.pid}, lock ${file}.lock)`,
    );
    expect((err as Error).message).toMatch(/stop the other one, or give this one another --data file/);
    expect(await readFile(file, "utf8")).toBe(text);
    // The refused one did not take the first one's lock away: it still protects the file.
    await expect(startSimulator({ ...demo() })).rejects.toThrow(/is in use by another billing-simulator/);
    await first.close();
    expect(await readdir(dir)).toEqual(["site.json"]);
    const again = await start({ ...demo() });
    expect(again.restored).toBe(true);
  });

  it("a lock left by a simulator that is gone is taken over", async () => {
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    await writeFile(`${file}.lock`, `${JSON.stringify({ pid: dead, host: hostname() })}\n`);
    const sim = await start({ ...demo() });
    expect(JSON.parse(await readFile(`${file}.lock`, "utf8"))).toEqual({ pid: process.pid, host: hostname() });
    await sim.close();
    expect(await readdir(dir)).toEqual(["site.json"]);
  });

  it("a folder that is not there: an error naming the file", async () => {
    const missing = path.join(dir, "no-such-folder", "site.json");
    await expect(startSimulator({ dataFile: missing })).rejects.toThrow(`data file ${missing} cannot be written (ENOENT)`);
  });
});

describe("billing-simulator --data", () => {
  const root = path.resolve(__dirname, "../..");
  const bin = path.join(root, "dist/simulator/bin.js");
  // The package requires Node 22 and brings it as a dev dependency; the machine's own node may be older.
  const node22 = path.join(root, "node_modules/node/bin/node");

  const run = (args: string[]): ChildProcessWithoutNullStreams => {
    if (!existsSync(bin)) throw new Error(`${bin} is missing: run npm run build first`);
    return spawn(existsSync(node22) ? node22 : process.execPath, [bin, "--port", "0", "--data", file, ...args], { cwd: dir });
  };
  const listening = (child: ChildProcessWithoutNullStreams) =>
    new Promise<{ url: string; out: string }>((resolve, reject) => {
      let out = "";
      let err = "";
      child.stdout.on("data", (d) => {
        out += d;
        const m = /listening on (\S+)[\s\S]*changes are kept there/.exec(out);
        if (m) resolve({ url: m[1], out });
      });
      child.stderr.on("data", (d) => (err += d));
      child.on("exit", (code) => reject(new Error(`exited ${code}: ${out}${err}`)));
    });
  const exit = (child: ChildProcessWithoutNullStreams, signal?: NodeJS.Signals) =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
      child.on("exit", (code) => resolve(code));
      if (signal) child.kill(signal);
    });
  const request = (url: string, method: string, p: string, body?: unknown) =>
    fetch(url + p, {
      method,
      headers: { authorization: basic(DEMO_SITE.apiKey), "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

  it("stopped with SIGTERM and started again, still knows the endpoint it created", async () => {
    const first = run(["--seed", "demo"]);
    const { url, out } = await listening(first);
    expect(out).toContain(`site kept in ${file} (created now from the seed)`);
    const made = await request(url, "POST", "/endpoints.json", endpoint("https://hooks.example/kept", ["payment_failure"]));
    expect(made.body.endpoint.id).toBe(2);
    expect(await exit(first, "SIGTERM")).toBe(0);

    const second = run(["--seed", "demo"]);
    const again = await listening(second);
    expect(again.out).toContain(`site restored from ${file} (the file wins over --seed)`);
    const listed = await request(again.url, "GET", "/endpoints.json");
    expect(listed.body).toContainEqual(expect.objectContaining({ id: 2, url: "https://hooks.example/kept" }));
    expect(await exit(second, "SIGTERM")).toBe(0);
  }, 30_000);

  it("killed with SIGKILL right after an answer, loses nothing", async () => {
    const first = run(["--seed", "demo"]);
    const { url } = await listening(first);
    await request(
      url,
      "POST",
      "/endpoints.json",
      endpoint("https://hooks.example/abrupt", ["payment_failure"], { uniqueness_token: "k-1" }),
    );
    first.kill("SIGKILL");
    expect(await exit(first)).toBeNull();
    // No temporary file; the lock of the killed simulator stays, and the next start takes it over.
    expect(await readdir(dir)).toEqual(["site.json", "site.json.lock"]);
    const second = run(["--seed", "demo"]);
    const again = await listening(second);
    const listed = await request(again.url, "GET", "/endpoints.json");
    expect(listed.body).toContainEqual(expect.objectContaining({ id: 2, url: "https://hooks.example/abrupt" }));
    const retried = await request(
      again.url,
      "POST",
      "/endpoints.json",
      endpoint("https://hooks.example/abrupt", ["payment_failure"], { uniqueness_token: "k-1" }),
    );
    expect(retried.status).toBe(409);
    expect(await exit(second, "SIGTERM")).toBe(0);
  }, 30_000);

  it("a second one on the same file exits non-zero naming the first's pid, and the first keeps serving", async () => {
    const first = run(["--seed", "demo"]);
    const { url } = await listening(first);
    const second = run(["--seed", "demo"]);
    let err = "";
    second.stderr.on("data", (d) => (err += d));
    expect(await exit(second)).toBe(1);
    expect(err).toContain(`billing-simulator: data file ${file} is in use by another billing-simulator (process ${first.pid},`);
    const made = await request(url, "POST", "/endpoints.json", endpoint("https://hooks.example/first", ["payment_failure"]));
    expect(made.body.endpoint.id).toBe(2);
    expect(await exit(first, "SIGTERM")).toBe(0);
    expect(await readdir(dir)).toEqual(["site.json"]);
  }, 30_000);

  it("a corrupt file: exits non-zero with the file's name, and leaves the file as it was", async () => {
    await writeFile(file, "{ not json");
    const child = run(["--seed", "demo"]);
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    expect(await exit(child)).toBe(1);
    expect(err).toContain(`billing-simulator: data file ${file} is not valid JSON`);
    expect(await readFile(file, "utf8")).toBe("{ not json");
  }, 30_000);
});
