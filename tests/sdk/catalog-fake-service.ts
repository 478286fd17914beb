import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";

/**
 * A small in-memory catalog service over real HTTP on 127.0.0.1, for the SDK's catalog tests: the
 * rules of the shared plan (handles unique per kind, archiving keeps a handle, a uniqueness_token
 * repeated is a 409 that applies nothing, `include_archived`, paging), written here from the plan and
 * the contract's examples. It is not the simulator (built elsewhere): the SDK is judged against what
 * the wire carries, and faults are placed exactly (a reset after the request was applied, a 503
 * before or after applying, a delayed answer). Every request is recorded, with its body.
 */

type Json = Record<string, unknown>;

export interface SeenRequest {
  readonly method: string;
  /** Path and query, as sent. */
  readonly url: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly body: unknown;
}

/** One injected fault: for the next `times` requests matching, do `kind`. */
export interface Fault {
  readonly method?: string;
  readonly path?: RegExp;
  readonly times?: number;
  /**
   * `reset-after`: apply, then reset the connection; `reset-before`: reset without applying;
   * `503-after` / `503-before`: answer 503 after / without applying; `409`: answer the duplicate
   * submission without applying; `slow`: apply, answer after `delayMs`; `garbled`: apply, answer
   * 2xx with a body that is not the object.
   */
  readonly kind: "reset-after" | "reset-before" | "503-after" | "503-before" | "409" | "slow" | "garbled";
  readonly delayMs?: number;
}

const now = () => new Date().toISOString().replace(/\.\d+Z$/, "Z");

export async function catalogService() {
  let nextId = 100;
  const families: Json[] = [];
  const products: Json[] = [];
  const points: Json[] = [];
  const tokens = new Set<string>();
  const faults: (Fault & { left: number })[] = [];
  const requests: SeenRequest[] = [];
  /** Every request, never cleared (tests clear `requests` to look at what follows). */
  const log: SeenRequest[] = [];
  let inFlight = 0;
  let peak = 0;

  const pricing = (p: Json): Json => {
    const out: Json = {};
    for (const k of [
      "price_in_cents",
      "interval",
      "interval_unit",
      "trial_price_in_cents",
      "trial_interval",
      "trial_interval_unit",
      "trial_type",
      "initial_charge_in_cents",
      "initial_charge_after_trial",
      "expiration_interval",
      "expiration_interval_unit",
    ])
      out[k] = p[k] ?? null;
    return out;
  };
  const productView = (p: Json): Json => {
    const def = points.find((x) => x.id === p.default_id)!;
    const family = families.find((f) => f.id === p.family_id)!;
    const { default_id: _, family_id: __, ...rest } = p;
    return {
      ...rest,
      ...pricing(def),
      default_product_price_point_id: def.id,
      product_price_point_id: def.id,
      product_price_point_handle: def.handle,
      product_family: { id: family.id, name: family.name, handle: family.handle, accounting_code: null, description: family.description },
    };
  };
  const pointView = (p: Json): Json => {
    const product = products.find((x) => x.id === p.product_id)!;
    return { ...p, type: product.default_id === p.id ? "default" : "catalog" };
  };
  const unprocessable = (errors: unknown) => ({ status: 422, json: errors });
  const notFound = () => ({ status: 404, json: { errors: ["Not found"] } });
  const page = <T>(rows: T[], q: Record<string, string>, dflt: number): T[] => {
    const per = Math.min(Number(q.per_page ?? dflt), 200);
    const n = Number(q.page ?? 1);
    return rows.slice((n - 1) * per, n * per);
  };
  const newPoint = (productId: unknown, b: Json): Json => ({
    id: nextId++,
    name: b.name,
    handle: b.handle,
    ...pricing(b),
    product_id: productId,
    archived_at: null,
    created_at: now(),
    updated_at: now(),
    use_site_exchange_rate: b.use_site_exchange_rate ?? true,
  });

  /** The answer to one request; `apply` false answers without changing anything. */
  function route(method: string, path: string, q: Record<string, string>, body: Json): { status: number; json: unknown } {
    const m0 = /^\/product_families\/(handle:)?([^/]+)\.json$/.exec(path);
    const m1 = /^\/product_families\/(\d+)\/products\.json$/.exec(path);
    const m3 = /^\/products\/(?:handle\/([^/]+)|(\d+))\.json$/.exec(path);
    const m4 = /^\/products\/(\d+)\/price_points\.json$/.exec(path);
    const m5 = /^\/products\/(\d+)\/price_points\/(\d+)(\/unarchive|\/default)?\.json$/.exec(path);
    if (method === "POST" && path === "/product_families.json") {
      const b = body.product_family as Json;
      if (!b?.name) return unprocessable({ errors: ["Name: cannot be blank."] });
      if (families.some((f) => f.handle === b.handle))
        return unprocessable({ errors: ["API Handle: must be unique - that value has been taken."] });
      const f = {
        id: nextId++,
        name: b.name,
        handle: b.handle,
        description: b.description ?? null,
        accounting_code: null,
        created_at: now(),
        updated_at: now(),
      };
      families.push(f);
      return { status: 201, json: { product_family: f } };
    }
    if (method === "GET" && path === "/product_families.json") return { status: 200, json: families.map((f) => ({ product_family: f })) };
    if (method === "GET" && m0) {
      const f = families.find((x) => (m0![1] ? x.handle === m0![2] : x.id === Number(m0![2])));
      return f ? { status: 200, json: { product_family: f } } : notFound();
    }
    if (method === "POST" && m1) {
      const b = body.product as Json;
      if (!families.some((f) => f.id === Number(m1![1]))) return notFound();
      if (!b?.name) return unprocessable({ errors: ["Name: cannot be blank."] });
      if (products.some((p) => p.handle === b.handle)) return unprocessable({ errors: ["Handle must be unique within a Site."] });
      const id = nextId++;
      const def = newPoint(id, { ...b, name: "Default", handle: `${b.handle}-default` });
      points.push(def);
      const p: Json = {
        id,
        name: b.name,
        handle: b.handle,
        description: b.description ?? null,
        accounting_code: b.accounting_code ?? null,
        tax_code: b.tax_code ?? null,
        require_credit_card: b.require_credit_card ?? false,
        request_credit_card: b.request_credit_card ?? true,
        archived_at: null,
        created_at: now(),
        updated_at: now(),
        version_number: 1,
        family_id: Number(m1[1]),
        default_id: def.id,
      };
      products.push(p);
      return { status: 201, json: { product: productView(p) } };
    }
    if (method === "GET" && (path === "/products.json" || m1)) {
      const fid = path === "/products.json" ? undefined : Number(m1![1]);
      const rows = products.filter((p) => (fid === undefined || p.family_id === fid) && (q.include_archived === "true" || !p.archived_at));
      return { status: 200, json: page(rows, q, 20).map((p) => ({ product: productView(p) })) };
    }
    if (m3) {
      const p = products.find((x) => (m3![1] !== undefined ? x.handle === decodeURIComponent(m3![1]) : x.id === Number(m3![2])));
      if (!p) return notFound();
      if (method === "GET") return { status: 200, json: { product: productView(p) } };
      if (method === "DELETE") {
        p.archived_at ??= now();
        return { status: 200, json: { product: productView(p) } };
      }
      if (method === "PUT") {
        const b = (body.product ?? {}) as Json;
        const def = points.find((x) => x.id === p.default_id)!;
        const changed = Object.keys(pricing(b)).some((k) => b[k] !== undefined && b[k] !== def[k]);
        if (changed) {
          const np = newPoint(p.id, {
            ...def,
            ...Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)),
            name: "Updated",
            handle: `uuid:${nextId}`,
          });
          points.push(np);
          p.default_id = np.id;
          p.version_number = Number(p.version_number) + 1;
        }
        for (const k of ["name", "handle", "description", "accounting_code", "tax_code", "require_credit_card", "request_credit_card"])
          if (b[k] !== undefined) p[k] = b[k];
        return { status: 200, json: { product: productView(p) } };
      }
    }
    if (m4) {
      const product = products.find((x) => x.id === Number(m4![1]));
      if (!product) return notFound();
      if (method === "GET") {
        const rows = points.filter((p) => p.product_id === product.id && (q.archived === "true" || !p.archived_at));
        return { status: 200, json: { price_points: page(rows, q, 10).map(pointView) } };
      }
      if (method === "POST") {
        const b = body.price_point as Json;
        if (!b?.name) return unprocessable({ errors: { name: ["Name: cannot be blank."] } });
        if (typeof b.price_in_cents === "number" && b.price_in_cents < 0)
          return unprocessable({ errors: { price: ["Price: must be greater than or equal to 0."] } });
        if (points.some((p) => p.product_id === product.id && p.handle === b.handle))
          return unprocessable({ errors: { handle: ["Handle: must be unique within the product."] } });
        const p = newPoint(product.id, b);
        points.push(p);
        return { status: 201, json: { price_point: pointView(p) } };
      }
    }
    if (m5) {
      const product = products.find((x) => x.id === Number(m5![1]));
      const p = points.find((x) => x.id === Number(m5![2]) && x.product_id === product?.id);
      if (!product || !p) return notFound();
      if (method === "GET" && !m5[3]) return { status: 200, json: { price_point: pointView(p) } };
      if (method === "PUT" && !m5[3]) {
        const b = (body.price_point ?? {}) as Json;
        if (b.handle !== undefined) p.handle = b.handle;
        if (b.price_in_cents !== undefined) p.price_in_cents = b.price_in_cents;
        return { status: 200, json: { price_point: pointView(p) } };
      }
      if (method === "DELETE" && !m5[3]) {
        if (product.default_id === p.id) return unprocessable({ errors: ["Cannot archive the default price point."] });
        p.archived_at ??= now();
        return { status: 200, json: { price_point: pointView(p) } };
      }
      if (method === "PATCH" && m5[3] === "/unarchive") {
        p.archived_at = null;
        return { status: 200, json: { price_point: pointView(p) } };
      }
      if (method === "PATCH" && m5[3] === "/default") {
        product.default_id = p.id;
        return { status: 200, json: { product: productView(product) } };
      }
    }
    return { status: 599, json: { errors: [`fake service: no route for ${method} ${path}`] } };
  }

  const server = createServer((req, res) => {
    peak = Math.max(peak, ++inFlight);
    res.on("close", () => inFlight--);
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      const method = req.method ?? "";
      const text = Buffer.concat(chunks).toString("utf8");
      const body = text ? (JSON.parse(text) as Json) : {};
      const query = Object.fromEntries(url.searchParams);
      const seen = { method, url: req.url ?? "/", path: url.pathname, query, body: text ? body : undefined };
      requests.push(seen);
      log.push(seen);
      const fault = faults.find((f) => f.left > 0 && (!f.method || f.method === method) && (!f.path || f.path.test(url.pathname)));
      if (fault) fault.left--;
      const send = (status: number, json: unknown) => {
        const out = JSON.stringify(json);
        res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(out) }).end(out);
      };
      if (fault?.kind === "reset-before") return void req.socket.resetAndDestroy();
      if (fault?.kind === "503-before") return send(503, { errors: ["Service Unavailable"] });
      if (fault?.kind === "409") return send(409, { errors: ["DuplicatePrevention::DuplicateSubmissionError"] });
      const token = typeof body.uniqueness_token === "string" ? body.uniqueness_token : undefined;
      let answer: { status: number; json: unknown };
      if (token !== undefined && tokens.has(token))
        answer = { status: 409, json: { errors: ["DuplicatePrevention::DuplicateSubmissionError"] } };
      else {
        answer = route(method, url.pathname, query, body);
        if (token !== undefined && answer.status < 300) tokens.add(token);
      }
      if (fault?.kind === "reset-after") return void req.socket.resetAndDestroy();
      if (fault?.kind === "503-after") return send(503, { errors: ["Service Unavailable"] });
      if (fault?.kind === "garbled") return send(answer.status, { unexpected: true });
      if (fault?.kind === "slow") return void setTimeout(() => send(answer.status, answer.json), fault.delayMs ?? 50).unref();
      send(answer.status, answer.json);
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
  return {
    url,
    requests,
    log,
    families,
    products,
    points,
    /** Adds faults, each for `times` (default 1) matching requests. */
    fault(...fs: Fault[]) {
      for (const f of fs) faults.push({ ...f, left: f.times ?? 1 });
    },
    /** The most requests in flight at once, from arrival to answer. */
    get peak() {
      return peak;
    },
    /** Requests by method and path (without query). */
    seen: () => requests.map((r) => `${r.method} ${r.path}`),
    close,
  };
}

export type CatalogService = Awaited<ReturnType<typeof catalogService>>;
