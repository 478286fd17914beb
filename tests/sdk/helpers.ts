import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { expect, onTestFinished } from "vitest";
import { BillingClient, type BillingClientOptions, BillingValidationError, type RetryEvent } from "../../sdk";
import { type Simulator, type SimulatorOptions, startSimulator } from "../../simulator";

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

/** What a call was rejected with; a failed test when it resolves. */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: unknown) => e,
  );
}

/** The words of a call's refusal before sending (a BillingValidationError): its message and problems, to compare whole. */
export async function refusedWith(p: Promise<unknown>): Promise<{ message: string; problems: BillingValidationError["problems"] }> {
  const err = await rejection(p);
  expect(err).toBeInstanceOf(BillingValidationError);
  const v = err as BillingValidationError;
  return { message: v.message, problems: v.problems };
}

/** A product catalogue like the service's: each product with a default price point. */
export function catalogue(sim: Simulator) {
  sim.addProduct({ id: 1, handle: "basic", pricePoints: [{ id: 101, handle: "basic-default", default: true }] });
  sim.addProduct({
    id: 2,
    handle: "pro",
    pricePoints: [
      { id: 201, handle: "pro-monthly", default: true },
      { id: 202, handle: "pro-annual", intervalMonths: 12 },
    ],
  });
  sim.addProduct({ id: 3, handle: "launch", pricePoints: [{ id: 301, handle: "launch-default", default: true }] });
}

/** Time `run` takes, with its settled value or error. */
export async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const started = performance.now();
  try {
    const value = await run();
    return { ms: performance.now() - started, value };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}

/** A simulator with the {@link catalogue} and one active subscription to "basic"; its id. */
export async function migrationSite(sim = {}, client = {}) {
  const s = await site(sim, client);
  catalogue(s.sim);
  return { ...s, id: s.sim.addSubscription({ productHandle: "basic", state: "active" }).id };
}

export const posts = (sim: Simulator, path: RegExp) => sim.requests.filter((r) => r.method === "POST" && path.test(r.path));

/** What the simulator received, one line per request: `METHOD path status`. */
export const requestLog = (sim: Simulator) => sim.requests.map((r) => `${r.method} ${r.path} ${r.status}`);

/** Every way an error reaches a log: message, toString, JSON, inspect, stack, and the same for its cause chain. */
export function everything(err: unknown): string {
  const e = err as Error & { cause?: unknown };
  return [
    e.message,
    String(e),
    JSON.stringify(e),
    inspect(e, { depth: 10 }),
    inspect(e, { depth: 10, showHidden: true }),
    e.stack,
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

/** One answer of a {@link scripted} server: a status with a JSON or text body, or a connection reset. */
export type Step =
  | {
      readonly status: number;
      /** A body to serialize, or `text` sent as is (as `contentType`, default text/plain). */
      readonly json?: unknown;
      readonly text?: string;
      readonly contentType?: string;
      readonly headers?: Readonly<Record<string, string>>;
      readonly delayMs?: number;
    }
  | "reset";

export interface ScriptedRequest {
  readonly method: string;
  readonly path: string;
  readonly text: string;
  /** Arrival, epoch milliseconds. */
  readonly at: number;
}

/**
 * An HTTP server on 127.0.0.1 that answers the n-th request with `steps[n]`, whatever it asks:
 * for sequences the simulator cannot make (e.g. a reset, then a 422). A request past the script
 * gets a 599, which no operation takes for success. Closed when the test finishes.
 */
export async function scripted(steps: readonly Step[]) {
  const requests: ScriptedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = Date.now();
      const step = steps[requests.length];
      requests.push({ method: req.method ?? "", path: (req.url ?? "").split("?")[0], text: Buffer.concat(chunks).toString("utf8"), at });
      if (step === "reset") return void req.socket.resetAndDestroy();
      const answer = step ?? { status: 599, text: "scripted server: no step left" };
      const [type, body] =
        answer.json !== undefined
          ? ["application/json", JSON.stringify(answer.json)]
          : [answer.contentType ?? "text/plain", answer.text ?? ""];
      const write = () => {
        if (!res.destroyed)
          res.writeHead(answer.status, { "content-type": type, "content-length": Buffer.byteLength(body), ...answer.headers }).end(body);
      };
      if (answer.delayMs) setTimeout(write, answer.delayMs).unref();
      else write();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    }));
  onTestFinished(close);
  return { url, requests, close };
}

/** A client of `url` that closes itself when the test finishes. */
export function clientOf(url: string, options: Partial<BillingClientOptions> = {}): BillingClient {
  const billing = new BillingClient({ baseUrl: url, apiKey: KEY, retryBaseDelayMs: 1, ...options } as BillingClientOptions);
  onTestFinished(() => billing.close());
  return billing;
}

/** `onRetry` events, collected. */
export function retries() {
  const events: RetryEvent[] = [];
  return { events, onRetry: (e: RetryEvent) => void events.push(e) };
}

/** A URL where nothing listens (a port that was just free). */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
