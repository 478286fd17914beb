import { createHash, timingSafeEqual } from "node:crypto";
import { createServer as createHttpsServer } from "node:https";
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { DuplicateGuard } from "./duplicates";
import { FaultTable, type FaultSpec } from "./faults";
import type { ProductInput, ProductRecord, SubscriptionInput, SubscriptionRecord, WebhookInput, WebhookRecord } from "./records";
import { dispatch, isPublic, resolve, uniquenessToken, type RouteAnswer } from "./routes";
import { DEMO_SITE, seedDemo } from "./seed";
import { Site } from "./site";

export interface SimulatorOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default "127.0.0.1". */
  host?: string;
  /** Accepted as Basic `apiKey:x`. Default "sim_test_key", or DEMO_SITE.apiKey with `seed: "demo"`. */
  apiKey?: string;
  /** Accepted as `Bearer <accessToken>`; without it every Bearer request is refused. */
  accessToken?: string;
  /** Delay before answering each admitted request. Default 0. */
  latencyMs?: number;
  /** Requests in flight at once; one more gets 429. Default 4, the service's per-site cap. */
  maxConcurrent?: number;
  seed?: "demo";
  /** Seed of the PRNG behind `rate` faults. Default 1. */
  faultSeed?: number;
  /** Keep parsed request bodies in `requests`. Default true; turn off for million-id benchmarks. */
  logBodies?: boolean;
  /** Listen on TLS with this key and certificate (benchmarks against clients that only speak https). */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /** Clock for timestamps and the 60-minute duplicate window. Default: the real one. */
  now?: () => Date;
}

export interface RequestLogEntry {
  method: string;
  /** Without the query string. */
  path: string;
  query: Record<string, string>;
  /** Parsed JSON body; undefined when empty, malformed, or `logBodies: false`. */
  body: unknown;
  /** Status sent; 0 when no answer was sent (reset fault, client gone) or not yet. */
  status: number;
  /** Arrival, epoch milliseconds of the real clock (not `now`: the log measures the run). */
  at: number;
  uniquenessToken?: string;
}

export interface Simulator {
  readonly url: string;
  close(): Promise<void>;
  addProduct(p: ProductInput): ProductRecord;
  addSubscription(s: SubscriptionInput): SubscriptionRecord;
  addWebhook(w: WebhookInput): WebhookRecord;
  getSubscription(id: number): SubscriptionRecord | undefined;
  webhooksEnabled: boolean;
  replayQueue: number[];
  readonly requests: RequestLogEntry[];
  injectFault(f: FaultSpec): void;
  clearFaults(): void;
  /** Empties `requests`; the site's state is kept. */
  reset(): void;
}

const MAX_BODY_BYTES = 1 << 20;

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const now = options.now ?? (() => new Date());
  const apiKey = options.apiKey ?? (options.seed === "demo" ? DEMO_SITE.apiKey : "sim_test_key");
  const maxConcurrent = options.maxConcurrent ?? 4;
  const latencyMs = options.latencyMs ?? 0;
  const logBodies = options.logBodies ?? true;
  const site = new Site(now);
  const guard = new DuplicateGuard(() => now().getTime());
  const faults = new FaultTable(options.faultSeed ?? 1);
  const log: RequestLogEntry[] = [];
  const closing = new AbortController();
  const credentials = { basic: digest(apiKey), bearer: options.accessToken === undefined ? undefined : digest(options.accessToken) };
  let inFlight = 0;
  let url = "";

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = new URL(req.url ?? "/", "http://simulator");
    const method = (req.method ?? "GET").toUpperCase();
    const entry: RequestLogEntry = { method, path: target.pathname, query: Object.fromEntries(target.searchParams), body: undefined, status: 0, at: Date.now() };
    log.push(entry);
    // Counted from arrival, through latency and delays, until the answer: what "in flight" means to the service.
    const admitted = inFlight < maxConcurrent;
    if (admitted) inFlight++;
    let held = admitted;
    const release = () => {
      if (held) inFlight--;
      held = false;
    };
    const send = (a: RouteAnswer, headers: Record<string, string> = {}) => {
      release();
      if (res.destroyed || req.socket.destroyed) return;
      const text = JSON.stringify(a.body);
      entry.status = a.status;
      res.writeHead(a.status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), ...headers });
      res.end(text);
    };

    try {
      const raw = await readBody(req);
      if (!admitted) {
        // The service documents no Retry-After for its cap, so none is sent.
        return send({ status: 429, body: { errors: ["Too many concurrent requests"] } });
      }
      if (raw === null) return send({ status: 413, body: { errors: [`Request body over ${MAX_BODY_BYTES} bytes`] } });
      let body: unknown;
      try {
        body = raw === "" ? undefined : JSON.parse(raw);
      } catch (err) {
        return send({ status: 400, body: { errors: [`Malformed JSON body: ${(err as Error).message}`] } });
      }
      if (logBodies) entry.body = body;
      const token = uniquenessToken(body);
      if (token !== undefined) entry.uniquenessToken = token;

      const fault = faults.take(method, entry.path);
      const before = fault && !fault.applyAfterHandling ? fault : undefined;
      const wait = latencyMs + (before?.kind === "delay" ? before.ms : 0);
      if (wait > 0) await sleep(wait, undefined, { signal: closing.signal });
      if (before && before.kind !== "delay") return injectAnswer(before);

      const answer = answerFor(req, method, entry.path, entry.query, body);
      const after = fault?.applyAfterHandling ? fault : undefined;
      if (after?.kind === "delay") await sleep(after.ms, undefined, { signal: closing.signal });
      if (after && after.kind !== "delay") return injectAnswer(after);
      send(answer, answer.allow ? { allow: answer.allow } : {});
    } catch (err) {
      if (closing.signal.aborted) {
        release();
        req.socket.destroy();
        return;
      }
      send({ status: 500, body: { errors: [`Simulator error: ${(err as Error).message}`] } });
    } finally {
      release();
    }

    function injectAnswer(f: FaultSpec): void {
      if (f.kind === "reset") {
        release();
        req.socket.resetAndDestroy();
        return;
      }
      if (f.kind === "status") {
        const text = f.status === 429 ? "Too many concurrent requests" : `${f.status} ${STATUS_CODES[f.status]}`;
        send({ status: f.status, body: { errors: [text] } });
      }
    }
  }

  function answerFor(req: IncomingMessage, method: string, path: string, query: Record<string, string>, body: unknown): RouteAnswer & { allow?: string } {
    const route = resolve(path);
    if (!isPublic(route) && !authorized(req.headers.authorization, credentials)) {
      return { status: 401, body: { errors: ["Unauthorized: send Basic <api key>:x or a Bearer token"] } };
    }
    return dispatch(site, guard, route, { method, path, query, body, baseUrl: url });
  }

  // handle() answers its own errors; this only guards against a failure while answering one.
  const handler = (req: IncomingMessage, res: ServerResponse) => void handle(req, res).catch(() => res.destroy());
  const server = options.tls ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, handler) : createServer(handler);
  await new Promise<void>((resolveListen, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolveListen());
  });
  const addr = server.address() as AddressInfo;
  url = `${options.tls ? "https" : "http"}://${addr.family === "IPv6" ? `[${addr.address}]` : addr.address}:${addr.port}`;

  let closed: Promise<void> | undefined;
  const sim: Simulator = {
    url,
    close: () => {
      closed ??= new Promise<void>((done) => {
        closing.abort();
        server.close(() => done());
        server.closeAllConnections();
      });
      return closed;
    },
    addProduct: (p) => site.addProduct(p),
    addSubscription: (s) => site.addSubscription(s),
    addWebhook: (w) => site.addWebhook(w),
    getSubscription: (id) => site.getSubscription(id),
    get webhooksEnabled() {
      return site.webhooksEnabled;
    },
    set webhooksEnabled(v: boolean) {
      site.webhooksEnabled = v;
    },
    get replayQueue() {
      return site.replayQueue;
    },
    set replayQueue(ids: number[]) {
      site.replayQueue = ids;
    },
    requests: log,
    injectFault: (f) => faults.add(f),
    clearFaults: () => faults.clear(),
    reset: () => {
      log.length = 0;
    },
  };
  if (options.seed === "demo") seedDemo(sim);
  return sim;
}

/** Whole body as text; null when over the limit (still drained, so the connection stays usable). */
async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  return size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString("utf8");
}

function digest(s: string): Buffer {
  return createHash("sha256").update(s).digest();
}

/** Basic `<key>:x` or Bearer `<token>`; compared by digest so timing says nothing about the secret. */
function authorized(header: string | undefined, creds: { basic: Buffer; bearer: Buffer | undefined }): boolean {
  if (!header) return false;
  const space = header.indexOf(" ");
  if (space < 0) return false;
  const scheme = header.slice(0, space).toLowerCase();
  const value = header.slice(space + 1).trim();
  if (scheme === "basic") {
    const decoded = Buffer.from(value, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) return false;
    return timingSafeEqual(digest(decoded.slice(0, colon)), creds.basic) && decoded.slice(colon + 1) === "x";
  }
  if (scheme === "bearer") return creds.bearer !== undefined && timingSafeEqual(digest(value), creds.bearer);
  return false;
}
