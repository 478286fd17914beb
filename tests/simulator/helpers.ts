import { onTestFinished } from "vitest";
import { type Simulator, type SimulatorOptions, startSimulator } from "../../simulator";
import { contractCheck } from "../contract/validator";

export const KEY = "sim_test_key";
export const basic = (key = KEY, password = "x") => `Basic ${Buffer.from(`${key}:${password}`).toString("base64")}`;
export const DUPLICATE = "DuplicatePrevention::DuplicateSubmissionError";

export interface Answer {
  status: number;
  /** Parsed JSON, or the text when the body is not JSON. */
  body: any;
  /** The body exactly as sent (for ids past 2^53, which JSON.parse rounds). */
  text: string;
  headers: Headers;
}

/**
 * Whatever the simulator answered must be an answer the (patched) contract
 * allows. Off the contract (an unknown path or method), and for a contract
 * operation the simulator does not serve (405 with Allow), only an error list
 * is acceptable; the 3-D Secure link is the customer's page, not the API.
 */
export async function assertContract(method: string, path: string, res: { status: number; headers: Headers }, text: string): Promise<void> {
  const check = await contractCheck();
  const unserved = res.status === 405 && res.headers.get("allow") !== null;
  if (check.operationOf(method, path) === undefined || unserved) {
    if (path.startsWith("/authentications/")) return;
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const ok = res.status >= 400 && Array.isArray(body?.errors) && body.errors.every((e: unknown) => typeof e === "string");
    if (!ok) throw new Error(`${method} ${path} → ${res.status} is off the contract and not an error list: ${text.slice(0, 200)}`);
    return;
  }
  const problems = check.problems({ method, path, status: res.status, contentType: res.headers.get("content-type"), text });
  if (problems.length > 0) throw new Error(`answer breaks the contract:\n  ${problems.join("\n  ")}`);
}

/** One request over a real socket, its answer checked against the contract; `auth: null` sends no Authorization header. */
export async function call(
  sim: Simulator,
  method: string,
  path: string,
  opts: { body?: unknown; raw?: string; auth?: string | null; signal?: AbortSignal } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: "application/json" };
  const auth = opts.auth === undefined ? basic() : opts.auth;
  if (auth !== null) headers.authorization = auth;
  let payload: string | undefined = opts.raw;
  if (opts.body !== undefined) payload = JSON.stringify(opts.body);
  if (payload !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(sim.url + path, { method, headers, body: payload, signal: opts.signal });
  const text = await res.text();
  await assertContract(method, path, res, text);
  let body: unknown;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body, text, headers: res.headers };
}

/**
 * Resolves once `predicate` holds, checking every few milliseconds: waits on state, not on time. The deadline only
 * stops a hang with a message naming `what`; it sits just under vitest's 20 s test timeout, since on a loaded 2-core
 * machine a 300 ms processing fault once took more than the 5 s this used to allow.
 */
export async function until(predicate: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** A small site: basic (1; basic-default 101), pro (2; pro-monthly 201 default, pro-annual 202); subscriptions per test. */
export async function withSite(options: SimulatorOptions = {}): Promise<Simulator> {
  const sim = await startSimulator(options);
  sim.addProduct({ handle: "basic", priceInCents: 1000 });
  sim.addProduct({
    handle: "pro",
    priceInCents: 5000,
    pricePoints: [
      { id: 201, handle: "pro-monthly", default: true },
      { id: 202, handle: "pro-annual", priceInCents: 50000, intervalMonths: 12 },
    ],
  });
  return sim;
}

export const migration = (m: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ migration: m, ...extra });

/** A simulator for one test, closed when that test finishes, pass or fail. */
export async function start(o: SimulatorOptions = {}): Promise<Simulator> {
  const s = await startSimulator(o);
  onTestFinished(() => s.close());
  return s;
}
