import { inspect } from "node:util";
import { expect, onTestFinished } from "vitest";
import { BillingClient, BillingValidationError, type BillingClientOptions } from "../../sdk";
import { startSimulator, type Simulator, type SimulatorOptions } from "../../simulator";

/** Distinctive credentials: any leak of them into an error is unmistakable. */
export const KEY = "sk_live_SECRET_4242";
export const TOKEN = "tok_live_SECRET_7777";
export const BASIC = `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}`;

/**
 * A simulator on a real socket and a client of it; fast retries so fault tests stay quick.
 * Both are closed when the test that opened them finishes, pass or fail.
 */
export async function site(sim: SimulatorOptions = {}, client: Partial<BillingClientOptions> = {}) {
  const s: Simulator = await startSimulator({ apiKey: KEY, accessToken: TOKEN, ...sim });
  const billing = new BillingClient({ baseUrl: s.url, apiKey: KEY, retryBaseDelayMs: 1, ...client } as BillingClientOptions);
  let closed: Promise<void> | undefined;
  const close = () => (closed ??= billing.close().then(() => s.close()));
  onTestFinished(close);
  return { sim: s, billing, close };
}

export type Site = Awaited<ReturnType<typeof site>>;

/** The validation error a constructor throws, or a failed expectation when it does not throw one. */
export function refusal(options: unknown): BillingValidationError {
  let err: unknown;
  try {
    new BillingClient(options as BillingClientOptions);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(BillingValidationError);
  return err as BillingValidationError;
}

/** A product catalogue like the service's: each product with a default price point. */
export function catalogue(sim: Simulator) {
  sim.addProduct({ id: 1, handle: "basic", pricePoints: [{ id: 101, handle: "basic-default", default: true }] });
  sim.addProduct({ id: 2, handle: "pro", pricePoints: [{ id: 201, handle: "pro-monthly", default: true }, { id: 202, handle: "pro-annual", intervalMonths: 12 }] });
  sim.addProduct({ id: 3, handle: "launch", pricePoints: [{ id: 301, handle: "launch-default", default: true }] });
}

export const posts = (sim: Simulator, path: RegExp) => sim.requests.filter((r) => r.method === "POST" && path.test(r.path));

/** Every way an error reaches a log: message, toString, JSON, inspect, stack, and the same for its cause chain. */
export function everything(err: unknown): string {
  const e = err as Error & { cause?: unknown };
  return [
    e.message, String(e), JSON.stringify(e), inspect(e, { depth: 10 }), inspect(e, { depth: 10, showHidden: true }), e.stack,
    e.cause ? everything(e.cause) : "",
  ].join("\n");
}

/** Asserts that no form of the credentials appears in `text`. */
export function expectNoSecret(text: string): void {
  expect(text).not.toContain(KEY);
  expect(text).not.toContain(TOKEN);
  expect(text).not.toContain(BASIC.slice("Basic ".length));
  expect(text).not.toContain("SECRET");
}
