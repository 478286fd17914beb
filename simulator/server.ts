import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { type Answer, errorList, serverFailure, usageViolation } from "./answers";
import { Capacity, Gauge, type OverCapacity } from "./capacity";
import { authorized, credentialsOf } from "./credentials";
import { dataFileText, readDataFile, writeDataFile } from "./data-file";
import { lockDataFile } from "./data-lock";
import { DuplicateGuard, type TokenStatus } from "./duplicates";
import { parseJson } from "./exact-json";
import { type FaultSpec, FaultTable } from "./faults";
import { type LatencyDistribution, latencySampler } from "./latency";
import type {
  BigIdWebhookRecord,
  ComponentInput,
  ComponentPricePointInput,
  ComponentPricePointRecord,
  ComponentRecord,
  CouponInput,
  CouponRecord,
  EndpointChange,
  EndpointInput,
  EndpointRecord,
  ProductFamilyInput,
  ProductFamilyRecord,
  ProductInput,
  ProductRecord,
  SubscriptionInput,
  SubscriptionRecord,
  WebhookInput,
  WebhookRecord,
} from "./records";
import type {
  ComponentCurrencyPriceInput,
  ComponentCurrencyPriceRecord,
  CouponCurrencyPriceInput,
  CouponCurrencyPriceRecord,
  MetafieldInput,
  MetafieldRecord,
  MetafieldResource,
  OfferInput,
  OfferRecord,
  ProductCurrencyPriceInput,
  ProductCurrencyPriceRecord,
  ReasonCodeInput,
  ReasonCodeRecord,
  SiteSettingsInput,
  SiteSettingsRecord,
} from "./records-site";
import { dispatch, isPublic, resolve, uniquenessToken } from "./routes";
import { DEMO_SITE, seedDemo } from "./seed";
import { seedCurrencyPrices } from "./seed-currency-prices";
import { Site } from "./site";
import { changedSettings, DEFAULT_SETTINGS } from "./site-settings";

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
  /**
   * A delay drawn for each admitted request (a log-normal distribution by its median and 99th
   * percentile, seeded), instead of `latencyMs`; each request's draw is in its log entry.
   */
  latency?: LatencyDistribution;
  /** Requests processed at once; further ones wait or get 429 (`overCapacity`). Default 4, the service's per-site cap. */
  maxConcurrent?: number;
  /**
   * What a request past `maxConcurrent` meets. "queue" (default): it waits,
   * first come first served, then runs, as the service says such requests are
   * "at risk of being queued". "429": it is refused at once with the service's
   * text/plain usage-violation body (no Retry-After: none is documented).
   */
  overCapacity?: OverCapacity;
  /**
   * Put `product_price_point_id` and `product_price_point_type` on subscriptions.
   * Default false: most of the vendor's published subscription examples have
   * neither, so a client must not depend on them.
   */
  reportPricePoint?: boolean;
  seed?: "demo";
  /**
   * Keep the site in this JSON file, so that a restarted simulator still knows
   * it. A file that exists is where the site starts from, and it wins over
   * `seed` (the seed is a first start's content; the file is what the site
   * became since). A file that does not exist is created from the seed (or an
   * empty site). Every change is written before its answer is sent, atomically.
   * A file that cannot be read or parsed is an error naming it (`DataFileError`);
   * the simulator never starts over it. Kept: the site's settings (currencies,
   * exchange rates, live or test), currency prices, metafields, reason codes,
   * offers, product families, products and
   * their price points (archived ones too), subscriptions and their
   * migrations, 3-D Secure links, webhooks, the replay log and queue, webhook
   * endpoints, whether webhooks are enabled, applied uniqueness tokens with
   * their times, the next ids. Not kept: credentials, options, faults, requests
   * in flight, and `requests`/`inFlight`/peaks. Default: in memory only.
   * While the simulator runs, `<dataFile>.lock` holds its pid: a second
   * simulator on the same file is refused (`DataFileError` naming the first's
   * process); a lock whose process is gone is taken over.
   */
  dataFile?: string;
  /** Seed of the PRNG behind `rate` faults. Default 1. */
  faultSeed?: number;
  /** Keep parsed request bodies in `requests`. Default true; turn off for million-id benchmarks. */
  logBodies?: boolean;
  /** Listen on TLS with this key and certificate (benchmarks against clients that only speak https). */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /** Clock for timestamps and the 60-minute duplicate window. Default: the real one. */
  now?: () => Date;
  /**
   * The site's primary currency (ISO 4217), `GET /site.json`'s `currency`. Default "USD".
   * Like `seed`, this and the next three are a first start's: a site read from `dataFile` keeps its own.
   */
  currency?: string;
  /** `GET /site.json`'s `non_primary_currencies`: the currencies currency prices may name. Default none. */
  nonPrimaryCurrencies?: readonly string[];
  /** Per non-primary currency, what one unit of the primary is worth in it (default 1): `use_site_exchange_rate` prices by it. */
  exchangeRates?: Readonly<Record<string, number>>;
  /** A live (production) site: `GET /site.json` answers `test: false` and `POST /sites/clear_data.json` is refused (403). Default false. */
  live?: boolean;
  /** How long after `POST /sites/clear_data.json` answers its data disappears (ms). Default 250. */
  clearDataDelayMs?: number;
}

export interface RequestLogEntry {
  method: string;
  /** Without the query string. */
  path: string;
  query: Record<string, string>;
  /** Parsed JSON body (integers past 2^53 as objects that serialize to their exact digits); undefined when empty, malformed, or `logBodies: false`. */
  body: unknown;
  /** Status sent; 0 when no answer was sent (reset fault, client gone) or not yet. */
  status: number;
  /** Arrival, epoch milliseconds of the real clock (not `now`: the log measures the run). */
  at: number;
  uniquenessToken?: string;
  /** The latency the simulator added before handling it (ms), when one was set. */
  latencyMs?: number;
}

export interface Simulator {
  readonly url: string;
  /** True when the site was read from an existing `dataFile` (the seed was then not applied). */
  readonly restored: boolean;
  close(): Promise<void>;
  /**
   * The service answering differently from now on, on the same port and data: what is given of the latency
   * (`latencyMs` or `latency`, as at the start; `latencyMs: 0` for none) and of the cap on requests at once replaces
   * what the start set. Requests already admitted keep the delay they drew.
   */
  serveLike(conditions: Pick<SimulatorOptions, "latencyMs" | "latency" | "maxConcurrent">): void;
  /**
   * A product family made elsewhere (the web UI): a unique handle, taken as
   * given; name the handle unless given; id the next free one unless given.
   */
  addProductFamily(f: ProductFamilyInput): ProductFamilyRecord;
  /**
   * A product made elsewhere (the web UI), in the family given by `familyId`
   * or `familyHandle`, else in the site's default family ("plans", made on
   * first use); `archived` for one archived there. Without a default price
   * point among `pricePoints`, one named "Default" with the product's terms
   * (handle `<handle>-default`) is made.
   */
  addProduct(p: ProductInput): ProductRecord;
  /**
   * A component made elsewhere (the web UI), of any kind, in the family given
   * by `familyId` or `familyHandle`: its default price point ("Original")
   * from `pricingScheme` and `prices` (or `unitPrice`), plus `pricePoints`
   * (one of which may be the default instead); `archived` for one archived
   * there. Tiers are checked as the API checks them (ascending, contiguous);
   * a bad one throws.
   */
  addComponent(c: ComponentInput): ComponentRecord;
  /** A price point made elsewhere on an existing component (by handle or id); `default: true` makes it the default. */
  addComponentPricePoint(
    component: { componentHandle?: string; componentId?: number },
    pp: ComponentPricePointInput,
  ): ComponentPricePointRecord;
  /**
   * A coupon made elsewhere (the web UI) in the family given by `familyId` or
   * `familyHandle`: a code the API would take (uppercase letters, digits,
   * `% @ + - _ .`), unique; `percentage` or `amountInCents`; restrictions by
   * this site's product and component handles (or ids); `archived` for one
   * archived there.
   */
  addCoupon(c: CouponInput): CouponRecord;
  /** What the site holds: every component (archived ones too), oldest first, as copies. */
  components(): ComponentRecord[];
  /** What the site holds: every coupon (archived ones too), oldest first, as copies. */
  coupons(): CouponRecord[];
  /** A change to the site's settings made in the web UI: its currencies, exchange rates, live or test. What is left out stays. */
  configureSite(change: SiteSettingsInput): SiteSettingsRecord;
  /** The site's settings, as a copy. */
  siteSettings(): SiteSettingsRecord;
  /**
   * Prices in other currencies defined in the web UI, checked by the API's
   * rules (a non-primary currency, the primary pricing's roles or price
   * levels mirrored, a flat-amount coupon); a price point or coupon by id.
   */
  addProductCurrencyPrices(pricePointId: number, prices: readonly ProductCurrencyPriceInput[]): ProductCurrencyPriceRecord[];
  addComponentCurrencyPrices(pricePointId: number, prices: readonly ComponentCurrencyPriceInput[]): ComponentCurrencyPriceRecord[];
  addCouponCurrencyPrices(couponId: number, prices: readonly CouponCurrencyPriceInput[]): CouponCurrencyPriceRecord[];
  /** A custom field made in the web UI, its values on `dataCount` subscriptions (or customers). */
  addMetafield(m: MetafieldInput): MetafieldRecord;
  /** How many subscriptions (or customers) hold a value for the field: what a delete of it would delete. */
  setMetafieldDataCount(resourceType: MetafieldResource, name: string, count: number): MetafieldRecord;
  /** What the site holds: every metafield of both resource types, oldest first, as copies. */
  metafields(): MetafieldRecord[];
  /** A churn reason code made in the web UI; after the last one unless a position is given. */
  addReasonCode(r: ReasonCodeInput): ReasonCodeRecord;
  /** What the site holds: every reason code, by position, as copies. */
  reasonCodes(): ReasonCodeRecord[];
  /** An offer made in the web UI, by this site's handles (or ids); it may have signup pages (the API cannot make them). */
  addOffer(o: OfferInput): OfferRecord;
  /** What the site holds: every offer (archived ones too), oldest first, as copies. */
  offers(): OfferRecord[];
  addSubscription(s: SubscriptionInput): SubscriptionRecord;
  addWebhook(w: WebhookInput & { id?: number }): WebhookRecord;
  /** An id given as a decimal string (for ids past 2^53) comes back as that string. */
  addWebhook(w: WebhookInput & { id: string }): BigIdWebhookRecord;
  addWebhook(w: WebhookInput): WebhookRecord | BigIdWebhookRecord;
  getSubscription(id: number): SubscriptionRecord | undefined;
  /**
   * An endpoint "made elsewhere" (the web UI, another tool), without the API's
   * checks: any non-empty url and event strings (repeats kept once); status
   * "enabled" unless given; id the next free one unless given (ids count from 1).
   */
  addEndpoint(e: EndpointInput): EndpointRecord;
  /** What the site holds: every webhook endpoint, oldest id first, as copies. */
  endpoints(): EndpointRecord[];
  /** A change made outside the API (the web UI): what is given replaces what was held. Throws for an unknown id. */
  updateEndpoint(id: number, change: EndpointChange): EndpointRecord;
  /** The endpoint disappears from the site (the API has no delete: the web UI, support). Throws for an unknown id. */
  removeEndpoint(id: number): void;
  /** How many migrations were actually applied to this subscription (3-D Secure completions included). */
  migrationsApplied(subscriptionId: number): number;
  webhooksEnabled: boolean;
  /** Replayed ids that are safe integers, in order. Assignable, e.g. to empty it. */
  replayQueue: number[];
  /** Every replayed id in order as exact decimal text, big ones included: the ground truth for "queued twice" or "lost". */
  readonly replayLog: readonly string[];
  /** "in_progress" while a request with this uniqueness_token runs, "applied" for 60 minutes after it applied; undefined otherwise. */
  tokenStatus(token: string): TokenStatus | undefined;
  /** Requests between arrival and answer right now, waiting ones included. */
  readonly inFlight: number;
  /** The most requests ever in flight at once (arrival to answer, waiting and refused ones included) since start or `resetPeak()`. */
  readonly peakInFlight: number;
  /**
   * The most requests at once whose client was still waiting for the answer:
   * what a client's own concurrency cap governs. A request its client gave up
   * on (a timeout) may still run here, and counts in `peakInFlight` only.
   */
  readonly peakWaitedOn: number;
  resetPeak(): void;
  readonly requests: RequestLogEntry[];
  injectFault(f: FaultSpec): void;
  clearFaults(): void;
  /** Empties `requests`; the site's state is kept. */
  reset(): void;
}

const MAX_BODY_BYTES = 1 << 20;

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  if (options.dataFile === "") throw new Error("dataFile must be a file's path, got an empty string");
  // Taken before the file is read: a second simulator on it stops here, before it reads or writes anything.
  const lock = options.dataFile === undefined ? undefined : lockDataFile(options.dataFile);
  try {
    return await started(options, () => lock?.release());
  } catch (err) {
    lock?.release();
    throw err;
  }
}

/** The simulator once its data file (if any) is locked; `unlock` is called when it closes. */
async function started(options: SimulatorOptions, unlock: () => void): Promise<Simulator> {
  const now = options.now ?? (() => new Date());
  const apiKey = options.apiKey ?? (options.seed === "demo" ? DEMO_SITE.apiKey : "sim_test_key");
  const capacity = new Capacity(options.maxConcurrent ?? 4);
  const overCapacity = options.overCapacity ?? "queue";
  if (overCapacity !== "queue" && overCapacity !== "429")
    throw new Error(`overCapacity must be "queue" or "429", got ${String(overCapacity)}`);
  const render = { reportPricePoint: options.reportPricePoint === true };
  /** The draw of each request's latency; refuses both ways of giving one, at the start and in serveLike alike. */
  const sampler = (o: Pick<SimulatorOptions, "latency" | "latencyMs">) => {
    if (o.latency !== undefined && o.latencyMs !== undefined)
      throw new Error("give latencyMs (every request) or latency (a distribution), not both");
    return o.latency !== undefined ? latencySampler(o.latency) : () => o.latencyMs ?? 0;
  };
  let drawLatency = sampler(options);
  const logBodies = options.logBodies ?? true;
  const site = new Site(now, { clearDataDelayMs: options.clearDataDelayMs, changed: () => save() });
  const guard = new DuplicateGuard(() => now().getTime());
  const faults = new FaultTable(options.faultSeed ?? 1);
  const log: RequestLogEntry[] = [];
  const clients = new Gauge();
  const closing = new AbortController();
  const credentials = credentialsOf(apiKey, options.accessToken);
  // Read before the port is taken: a file that cannot be used stops the start, and nothing is listening.
  const dataFile = options.dataFile;
  const stored = dataFile === undefined ? undefined : readDataFile(dataFile);
  // Checked before the port is taken too: a bad currency stops the start.
  const firstSettings = changedSettings(
    DEFAULT_SETTINGS,
    {
      currency: options.currency,
      nonPrimaryCurrencies: options.nonPrimaryCurrencies,
      exchangeRates: options.exchangeRates,
      live: options.live,
    },
    "startSimulator",
  );
  let written: string | undefined;
  let loading = true;
  /** Writes the site if it changed since the last write; a no-op without a data file and while the site is set up. */
  const save = () => {
    if (dataFile === undefined || loading) return;
    const text = dataFileText({ ...site.snapshot(), uniquenessTokens: guard.snapshot() });
    if (text === written) return;
    writeDataFile(dataFile, text);
    written = text;
  };
  /** A change made through the object (not a request) is in the file when the call returns. */
  const saving =
    <A extends unknown[], R>(f: (...args: A) => R) =>
    (...args: A): R => {
      const r = f(...args);
      save();
      return r;
    };
  let url = "";

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = new URL(req.url ?? "/", "http://simulator");
    const method = (req.method ?? "GET").toUpperCase();
    const entry: RequestLogEntry = {
      method,
      path: target.pathname,
      query: Object.fromEntries(target.searchParams),
      body: undefined,
      status: 0,
      at: Date.now(),
    };
    log.push(entry);
    // In flight from arrival until the answer leaves: what "concurrent" means to the client.
    capacity.arrive();
    // Waited on by its client: until answered, or until the client drops the connection (it gave up).
    clients.arrive();
    let waited = true;
    const clientGone = () => {
      if (!waited) return;
      waited = false;
      clients.leave();
    };
    // The response's "close" comes when the answer is out or the connection dropped first (never per socket:
    // a keep-alive socket carries many requests).
    res.once("close", clientGone);
    let slot = false;
    let gone = false;
    const leave = () => {
      if (gone) return;
      gone = true;
      if (slot) capacity.release();
      slot = false;
      capacity.leave();
    };
    const send = (a: Answer) => {
      leave();
      if (res.destroyed || req.socket.destroyed) return;
      entry.status = a.status;
      if ("empty" in a) {
        res.writeHead(a.status, { "content-length": 0, ...a.headers });
        res.end();
        return;
      }
      const [type, text] =
        "json" in a ? ["application/json; charset=utf-8", JSON.stringify(a.json)] : [`${a.contentType}; charset=utf-8`, a.text];
      res.writeHead(a.status, { "content-type": type, "content-length": Buffer.byteLength(text), ...a.headers });
      res.end(text);
    };
    const inject = (f: FaultSpec) => {
      if (f.kind === "reset") {
        leave();
        req.socket.resetAndDestroy();
      } else if (f.kind === "status") {
        send(f.status === 429 ? usageViolation(f.retryAfter) : serverFailure(f.status, f.retryAfter));
      }
    };

    try {
      // The site sees a request once its body is in (a proxy buffers uploads), so slots are taken after reading.
      const raw = await readBody(req);
      if (overCapacity === "429") {
        if (!capacity.tryAcquire()) return send(usageViolation());
      } else {
        // A client that gives up while its request waits does not take it back:
        // the queue cannot tell, so the request still runs when its turn comes.
        await capacity.acquire(closing.signal);
      }
      slot = true;
      if (raw === null) return send(errorList(413, `Request body over ${MAX_BODY_BYTES} bytes`));
      let body: unknown;
      try {
        body = raw === "" ? undefined : parseJson(raw);
      } catch (err) {
        return send(errorList(400, `Malformed JSON body: ${(err as Error).message}`));
      }
      if (logBodies) entry.body = body;
      const token = uniquenessToken(body);
      if (token !== undefined) entry.uniquenessToken = token;

      const fault = faults.take(method, entry.path);
      const before = fault && !fault.applyAfterHandling && fault.kind !== "processing" ? fault : undefined;
      const latencyMs = drawLatency();
      if (latencyMs > 0) entry.latencyMs = latencyMs;
      const wait = latencyMs + (before?.kind === "delay" ? before.ms : 0);
      if (wait > 0) await sleep(wait, undefined, { signal: closing.signal });
      if (before && before.kind !== "delay") return inject(before);

      const processingMs = fault?.kind === "processing" ? fault.ms : undefined;
      const running = processingMs === undefined ? undefined : () => sleep(processingMs, undefined, { signal: closing.signal });
      let answer: Answer;
      try {
        answer = await answerFor(req, method, entry.path, entry.query, body, running);
      } finally {
        // Whatever the request changed is on disk before any answer (or an injected fault after handling) goes out.
        save();
      }
      const after = fault?.applyAfterHandling ? fault : undefined;
      if (after?.kind === "delay") await sleep(after.ms, undefined, { signal: closing.signal });
      if (after && after.kind !== "delay") return inject(after);
      send(answer);
    } catch (err) {
      if (closing.signal.aborted) {
        leave();
        req.socket.destroy();
        return;
      }
      send(errorList(500, `Simulator error: ${(err as Error).message}`));
    } finally {
      leave();
    }
  }

  function answerFor(
    req: IncomingMessage,
    method: string,
    path: string,
    query: Record<string, string>,
    body: unknown,
    running?: () => Promise<void>,
  ): Promise<Answer> {
    const route = resolve(path);
    if (!isPublic(route) && !authorized(req.headers.authorization, credentials)) {
      return Promise.resolve(errorList(401, "Unauthorized: send Basic <api key>:x or a Bearer token"));
    }
    return dispatch(site, guard, route, { method, path, query, body, baseUrl: url, render }, running);
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
    restored: stored !== undefined,
    close: () => {
      closed ??= new Promise<void>((done, fail) => {
        closing.abort();
        // A clear the site answered is applied before the last write, as the service would finish it.
        site.clearing.flush();
        server.close(() => {
          // Catches what changed in place since the last write (e.g. `replayQueue.length = 0`).
          try {
            save();
            done();
          } catch (err) {
            fail(err);
          } finally {
            unlock();
          }
        });
        server.closeAllConnections();
      });
      return closed;
    },
    addProductFamily: saving((f) => site.catalog.addFamily(f)),
    addProduct: saving((p) => site.catalog.addProduct(p)),
    addComponent: saving((c) => site.components.add(c)),
    addComponentPricePoint: saving((ref, pp) => site.components.addPricePoint(ref, pp)),
    addCoupon: saving((c) => site.coupons.add(c)),
    components: () => site.components.snapshot().components,
    coupons: () => site.coupons.snapshot().coupons,
    configureSite: saving((change) => site.configure(change)),
    siteSettings: () => site.settings,
    addProductCurrencyPrices: saving((id, prices) => seedCurrencyPrices.product(site, id, prices)),
    addComponentCurrencyPrices: saving((id, prices) => seedCurrencyPrices.component(site, id, prices)),
    addCouponCurrencyPrices: saving((id, prices) => seedCurrencyPrices.coupon(site, id, prices)),
    addMetafield: saving((m) => site.metafields.add(m)),
    setMetafieldDataCount: saving((type, name, count) => site.metafields.setDataCount(type, name, count)),
    metafields: () => site.metafields.snapshot().metafields,
    addReasonCode: saving((r) => site.reasonCodes.add(r)),
    reasonCodes: () => site.reasonCodes.list().map((r) => structuredClone(r)),
    addOffer: saving((o) => site.offers.add(o)),
    offers: () => site.offers.snapshot().offers,
    addSubscription: saving((s) => site.addSubscription(s)),
    addWebhook: saving((w: WebhookInput) => site.webhooks.add(w)) as Simulator["addWebhook"],
    getSubscription: (id) => site.getSubscription(id),
    addEndpoint: saving((e) => site.endpoints.add(e)),
    endpoints: () => site.endpoints.list(),
    updateEndpoint: saving((id, change) => site.endpoints.change(id, change)),
    removeEndpoint: saving((id) => site.endpoints.remove(id)),
    migrationsApplied: (id) => site.migrationsApplied(id),
    get webhooksEnabled() {
      return site.webhooksEnabled;
    },
    set webhooksEnabled(v: boolean) {
      site.webhooksEnabled = v;
      save();
    },
    get replayQueue() {
      return site.webhooks.replayQueue;
    },
    set replayQueue(ids: number[]) {
      site.webhooks.replayQueue = ids;
      save();
    },
    get replayLog() {
      return site.webhooks.replayLog;
    },
    tokenStatus: (token) => guard.status(token),
    serveLike: (c) => {
      // Both checked before either changes: a refused call changes nothing.
      const draw = c.latency !== undefined || c.latencyMs !== undefined ? sampler(c) : drawLatency;
      if (c.maxConcurrent !== undefined) capacity.resize(c.maxConcurrent);
      drawLatency = draw;
    },
    get inFlight() {
      return capacity.inFlight;
    },
    get peakWaitedOn() {
      return clients.peak;
    },
    get peakInFlight() {
      return capacity.peak;
    },
    resetPeak: () => {
      capacity.resetPeak();
      clients.resetPeak();
    },
    requests: log,
    injectFault: (f) => faults.add(f),
    clearFaults: () => faults.clear(),
    reset: () => {
      log.length = 0;
    },
  };
  if (stored !== undefined) {
    site.restore(stored);
    guard.restore(stored.uniquenessTokens);
  } else {
    site.configure(firstSettings);
    if (options.seed === "demo") seedDemo(sim);
  }
  loading = false;
  try {
    // A new file holds the seed from the start; an existing one is rewritten only when something changes.
    if (stored === undefined) save();
    else written = dataFileText({ ...site.snapshot(), uniquenessTokens: guard.snapshot() });
  } catch (err) {
    await sim.close().catch(() => {});
    throw err;
  }
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
