import { createServer, request, type Server } from "node:http";
import { inspect } from "node:util";
import { expect } from "vitest";
import { BillingClient, type BillingClientOptions } from "../../sdk";
import { startSimulator, type Simulator, type SimulatorOptions } from "../../simulator";

/** Distinctive credentials: any leak of them into an error is unmistakable. */
export const KEY = "sk_live_SECRET_4242";
export const TOKEN = "tok_live_SECRET_7777";
export const BASIC = `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}`;

/** A simulator on a real socket and a client of it; fast retries so fault tests stay quick. */
export async function site(sim: SimulatorOptions = {}, client: Partial<BillingClientOptions> = {}) {
  const s: Simulator = await startSimulator({ apiKey: KEY, accessToken: TOKEN, ...sim });
  const billing = new BillingClient({ baseUrl: s.url, apiKey: KEY, retryBaseDelayMs: 1, ...client } as BillingClientOptions);
  return {
    sim: s,
    billing,
    async close() {
      await billing.close();
      await s.close();
    },
  };
}

export type Site = Awaited<ReturnType<typeof site>>;

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

export interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  status: number;
}

/**
 * A transparent HTTP proxy in front of a target that records what crossed it
 * (method, URL, Authorization header, status) and the peak number of requests
 * in flight at once, as the service would count them.
 */
export async function meteringProxy(target: string) {
  const upstream = new URL(target);
  const seen: Seen[] = [];
  let inFlight = 0;
  let peak = 0;
  const server: Server = createServer((req, res) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    let done = false;
    const finish = () => {
      if (!done) inFlight--;
      done = true;
    };
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
        const back: Buffer[] = [];
        up.on("data", (c: Buffer) => back.push(c));
        up.on("end", () => {
          seen.push({ method: req.method ?? "GET", url: req.url ?? "/", authorization: req.headers.authorization, status: up.statusCode ?? 0 });
          finish();
          res.writeHead(up.statusCode ?? 502, up.headers);
          res.end(Buffer.concat(back));
        });
      });
      out.on("error", () => {
        finish();
        res.destroy();
      });
      out.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    get peak() {
      return peak;
    },
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
