import { startSimulator, type Simulator, type SimulatorOptions } from "../../simulator";

export const KEY = "sim_test_key";
export const basic = (key = KEY, password = "x") => `Basic ${Buffer.from(`${key}:${password}`).toString("base64")}`;

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** One request over a real socket; `auth: null` sends no Authorization header. */
export async function call(
  sim: Simulator,
  method: string,
  path: string,
  opts: { body?: unknown; raw?: string; auth?: string | null } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: "application/json" };
  const auth = opts.auth === undefined ? basic() : opts.auth;
  if (auth !== null) headers.authorization = auth;
  let payload: string | undefined = opts.raw;
  if (opts.body !== undefined) payload = JSON.stringify(opts.body);
  if (payload !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(sim.url + path, { method, headers, body: payload });
  const text = await res.text();
  let body: unknown;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body, headers: res.headers };
}

/** A small site: basic (1; basic-default 101), pro (2; pro-monthly 201 default, pro-annual 202); subscriptions per test. */
export async function withSite(options: SimulatorOptions = {}): Promise<Simulator> {
  const sim = await startSimulator(options);
  sim.addProduct({ handle: "basic", priceInCents: 1000 });
  sim.addProduct({
    handle: "pro", priceInCents: 5000,
    pricePoints: [{ id: 201, handle: "pro-monthly", default: true }, { id: 202, handle: "pro-annual", priceInCents: 50000, intervalMonths: 12 }],
  });
  return sim;
}

export const migration = (m: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ migration: m, ...extra });
