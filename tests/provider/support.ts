import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import type * as pulumi from "@pulumi/pulumi";
import { afterEach, onTestFinished, vi } from "vitest";
import { type Simulator, startSimulator } from "../../simulator";
import { configureRequest } from "../engine/support";

export const KEY = "sk_live_PROVIDER_SECRET_4242";
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export { configureRequest } from "../engine/support";

/**
 * A provider object configured against a fresh simulator. Each test gets its
 * own copy of the provider (configuration is kept per provider object), with
 * the methods of the exported one.
 */
export async function configured<P extends pulumi.dynamic.ResourceProvider>(exported: P, extra: Record<string, string> = {}) {
  const sim: Simulator = await startSimulator({ apiKey: KEY });
  sim.addProduct({ id: 1, handle: "basic" });
  sim.addProduct({
    id: 2,
    handle: "pro",
    pricePoints: [
      { id: 201, handle: "pro-monthly", default: true },
      { id: 202, handle: "pro-annual" },
    ],
  });
  sim.addProduct({ id: 3, handle: "launch" });
  const provider = { ...exported } as P;
  await provider.configure!(configureRequest({ "billing:baseUrl": sim.url, "billing:apiKey": KEY, ...extra }));
  return { sim, provider };
}

/**
 * A fresh simulator per test, closed after it, and a copy of `exported` configured for it at the top level and as the
 * billing:sites entry `eu` (call at a test file's top level). `setup` starts one, gives it to `started` (and to
 * `prepare`, which seeds it), and returns the provider; `current` is the running test's simulator.
 */
export function sitePerTest<P extends pulumi.dynamic.ResourceProvider>(exported: P, started: (sim: Simulator) => void) {
  let current: Simulator | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });

  async function setup(): Promise<P> {
    const sim = await startSimulator({ apiKey: KEY });
    current = sim;
    started(sim);
    const provider = { ...exported } as P;
    await provider.configure!(
      configureRequest({
        "billing:baseUrl": sim.url,
        "billing:apiKey": KEY,
        "billing:sites": JSON.stringify({ eu: { baseUrl: sim.url, apiKey: KEY } }),
      }),
    );
    return provider;
  }

  return { setup, current: () => current };
}

/** Everything written to stderr/stdout/console while `fn` runs. */
export async function captureOutput<T>(fn: () => Promise<T>): Promise<{ result: T | undefined; error: unknown; text: string }> {
  let text = "";
  const write = (c: string | Uint8Array) => {
    text += String(c);
    return true;
  };
  const spies = [
    vi.spyOn(process.stderr, "write").mockImplementation(write),
    vi.spyOn(process.stdout, "write").mockImplementation(write),
    ...(["log", "info", "warn", "error", "debug"] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation((...a: unknown[]) => {
        text += `${a.join(" ")}\n`;
      }),
    ),
  ];
  try {
    return { result: await fn(), error: undefined, text };
  } catch (error) {
    return { result: undefined, error, text };
  } finally {
    for (const s of spies) s.mockRestore();
  }
}

export const mutations = (sim: Simulator) => sim.requests.filter((r) => r.method !== "GET" && !r.path.endsWith("/preview.json"));

/** Where a redirecting proxy sends a request instead: another path of the same simulator, or undefined for its own. */
export type Redirect = (method: string, path: string) => string | undefined;

/**
 * A proxy in front of a simulator: a request for which `to` names another path goes there instead (the simulator
 * answers it as its own, so the answer is a real one, e.g. a 404 or a 405 for one request), every other one passes
 * through. Closed when the test ends.
 */
export async function redirectingProxy(simulatorUrl: string, to: Redirect): Promise<string> {
  const target = new URL(simulatorUrl);
  const server = createServer((req, res) => {
    const [path = "", query] = (req.url ?? "").split("?");
    const other = to(req.method ?? "", path);
    const url = other === undefined ? req.url : `${other}${query ? `?${query}` : ""}`;
    const out = request({ host: target.hostname, port: target.port, method: req.method, path: url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(out);
  });
  onTestFinished(() => new Promise<void>((closed) => server.close(() => closed())));
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Changes a JSON answer in place: `path` is the path asked (before any redirect). */
export type Edit = (method: string, path: string, body: Record<string, unknown>) => void;

/**
 * A socket in front of the simulator whose `edit` may change a JSON answer that succeeded: an answer the contract
 * allows and the simulator never writes (a product whose family is not named). `to` may send a request to another
 * path, as redirectingProxy does. Closed when the test ends.
 */
export async function editingProxy(simulatorUrl: string, edit: Edit = () => {}, to: Redirect = () => undefined): Promise<string> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const url = new URL(req.url ?? "/", simulatorUrl);
        const method = req.method ?? "GET";
        const path = to(method, url.pathname) ?? url.pathname;
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers))
          if (typeof v === "string" && k !== "host" && k !== "content-length" && k !== "connection") headers[k] = v;
        const upstream = await fetch(`${simulatorUrl}${path}${url.search}`, {
          method,
          headers,
          ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
        });
        let text = await upstream.text();
        if (upstream.ok && text.startsWith("{")) {
          const body = JSON.parse(text) as Record<string, unknown>;
          edit(method, url.pathname, body);
          text = JSON.stringify(body);
        }
        res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" });
        res.end(text);
      })();
    });
  });
  onTestFinished(() => new Promise<void>((closed) => server.close(() => closed())));
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * A product price point's baseline price in the first currency it has changed outside the stack, as the web UI
 * would: its record's id read (`?currency_prices=true`), then a PUT of the new price.
 */
export async function changeBaselineOutside(sim: Simulator, productId: number | string, pricePointId: number | string, price: number) {
  const headers = { authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}` };
  const answer = await fetch(`${sim.url}/products/${productId}/price_points/${pricePointId}.json?currency_prices=true`, { headers });
  const { price_point } = (await answer.json()) as { price_point: { currency_prices: { id: number; role: string }[] } };
  const baseline = price_point.currency_prices.find((p) => p.role === "baseline");
  await fetch(`${sim.url}/product_price_points/${pricePointId}/currency_prices.json`, {
    method: "PUT",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ currency_prices: [{ id: baseline?.id, price }] }),
  });
}

/** The error `f` throws, or undefined when it returns (a constructor's refusal, read as a value). */
export function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (err) {
    return err;
  }
  return undefined;
}

type Failures = readonly { readonly property: string; readonly reason: string }[] | undefined;

/**
 * check()'s failures with each nested one at its own path again: check reports a failure on a nested property
 * (`prices.1.startingQuantity`) on its top-level input (`prices`), the path leading the reason
 * ("prices[1].startingQuantity: …"), as the engine prints no value for a nested property.
 */
export function unnested(failures: Failures): { property: string; reason: string }[] {
  return (failures ?? []).map(({ property, reason }) => {
    const led = leadingPath(reason, property);
    return led ? { property: led.segments.join("."), reason: reason.slice(led.length) } : { property, reason };
  });
}

/** The path that leads a reason (`prices[1].startingQuantity: `, `selector["ids[0]"]: `) under `top`: its segments and length. */
function leadingPath(reason: string, top: string): { segments: string[]; length: number } | undefined {
  if (!reason.startsWith(top)) return undefined;
  const segments = [top];
  let at = top.length;
  for (;;) {
    const rest = reason.slice(at);
    const m = /^\.([A-Za-z_$][\w$]*)/.exec(rest) ?? /^\[(\d+)\]/.exec(rest) ?? /^\[("(?:[^"\\]|\\.)*")\]/.exec(rest);
    if (!m) break;
    segments.push(m[1].startsWith('"') ? (JSON.parse(m[1]) as string) : m[1]);
    at += m[0].length;
  }
  if (segments.length === 1 || !reason.startsWith(": ", at)) return undefined;
  return { segments, length: at + 2 };
}

/** The paths check() failed on, nested ones at their own path (see {@link unnested}). */
export const pathsOf = (failures: Failures): string[] => unnested(failures).map((f) => f.property);

/** The reason of the failure on `path` (nested or not), without the path that leads it; undefined if none. */
export const reasonAt = (failures: Failures, path: string): string | undefined =>
  unnested(failures).find((f) => f.property === path)?.reason;
