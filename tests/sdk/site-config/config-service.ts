import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";

/**
 * A small in-memory service over real HTTP on 127.0.0.1 for the site-configuration operations the simulator has
 * no routes for yet (issue 41): currency prices of product and component price points and of coupons, custom
 * fields (metafields), reason codes, offers and clearing a test site. Written from the contract's request and
 * answer schemas, its examples and its operation descriptions, nothing more: a currency must be one of the site's
 * other currencies; a second create of a currency's prices is refused ("Pricing already exists for this
 * currency."); an update changes amounts by record id; a uniqueness_token repeated is a 409 that applies nothing;
 * metafield names, reason codes and offer handles are unique. Faults are placed exactly (`fault`), and every
 * request is recorded as sent, for the contract check.
 */

type Json = Record<string, any>;

export interface Sent {
  readonly method: string;
  /** Path and query, as sent. */
  readonly url: string;
  readonly path: string;
  /** The body as sent ("" for none). */
  readonly text: string;
}

/**
 * One injected fault for the next request matching: `reset-after` applies, then resets the connection (the
 * answer lost); `reset-before` resets without applying; `503-after` applies and answers 503.
 */
export interface Fault {
  readonly method: string;
  readonly path: RegExp;
  readonly kind: "reset-after" | "reset-before" | "503-after";
}

export interface ConfigService {
  readonly url: string;
  readonly sent: Sent[];
  readonly site: { currency: string; non_primary_currencies: string[]; test: boolean };
  readonly productPoints: Map<number, { product_id: number; type: string; pricing: Json; currency: Json[] }>;
  readonly componentPoints: Map<number, { component_id: number; type: string; tiers: Json[]; currency: Json[] }>;
  readonly coupons: Map<number, { coupon: Json; currency: Json[] }>;
  readonly metafields: Record<"subscriptions" | "customers", Json[]>;
  readonly reasonCodes: Json[];
  readonly offers: Json[];
  readonly cleared: string[];
  fault(f: Fault): void;
  seen(): string[];
}

export async function configService(): Promise<ConfigService> {
  let nextId = 1000;
  const id = () => nextId++;
  const tokens = new Set<string>();
  const faults: Fault[] = [];
  const s: Omit<ConfigService, "url" | "fault" | "seen"> = {
    sent: [],
    site: { currency: "USD", non_primary_currencies: ["EUR", "GBP"], test: true },
    productPoints: new Map(),
    componentPoints: new Map(),
    coupons: new Map(),
    metafields: { subscriptions: [], customers: [] },
    reasonCodes: [],
    offers: [],
    cleared: [],
  };
  s.productPoints.set(10, {
    product_id: 1,
    type: "catalog",
    pricing: {
      price_in_cents: 1000,
      interval: 1,
      interval_unit: "month",
      trial_price_in_cents: 100,
      trial_interval: 7,
      trial_interval_unit: "day",
    },
    currency: [],
  });
  s.productPoints.set(11, {
    product_id: 1,
    type: "custom",
    pricing: { price_in_cents: 500, interval: 1, interval_unit: "month" },
    currency: [],
  });
  s.componentPoints.set(20, {
    component_id: 2,
    type: "default",
    tiers: [
      { id: 201, starting_quantity: 1, ending_quantity: 10, unit_price: "2.0" },
      { id: 202, starting_quantity: 11, ending_quantity: null, unit_price: "1.5" },
    ],
    currency: [],
  });
  s.coupons.set(30, {
    coupon: { id: 30, code: "FLAT10", name: "Flat", amount_in_cents: 1000, percentage: null, product_family_id: 3 },
    currency: [],
  });
  s.coupons.set(31, {
    coupon: { id: 31, code: "PCT15", name: "Pct", amount_in_cents: null, percentage: "15.0", product_family_id: 3 },
    currency: [],
  });

  const refuse = (status: number, body: unknown) => ({ status, body });
  const ok = (body: unknown, status = 200) => ({ status, body });
  const refusedCurrency = (list: Json[]) => {
    const i = list.findIndex((c) => !s.site.non_primary_currencies.includes(c.currency));
    return i < 0
      ? undefined
      : refuse(422, { errors: { [`currency_prices[${i}].currency`]: ["Currency: is not one of the allowed values."] } });
  };

  function handle(method: string, path: string, q: URLSearchParams, body: Json | undefined): { status: number; body?: unknown } {
    const token = body?.uniqueness_token;
    if (typeof token === "string") {
      if (tokens.has(token)) return refuse(409, { errors: ["DuplicatePrevention::DuplicateSubmissionError"] });
    }
    const apply = <R>(r: R): R => {
      if (typeof token === "string") tokens.add(token);
      return r;
    };
    let m = [] as unknown as RegExpExecArray;
    // The path's match, kept in `m` for the route that takes it.
    const at = (re: RegExp): boolean => {
      const r = re.exec(path);
      if (r) m = r;
      return r !== null;
    };
    if (method === "GET" && path === "/site.json") return ok({ site: { id: 1, name: "Config", subdomain: "config", ...s.site } });
    if (method === "POST" && path === "/sites/clear_data.json") {
      if (!s.site.test) return { status: 403 };
      s.cleared.push(q.get("cleanup_scope") ?? "all");
      return { status: 200 };
    }
    // Product price points and their currency prices.
    if (at(/^\/products\/(\d+)\/price_points\/(\d+)\.json$/) && method === "GET") {
      const p = s.productPoints.get(Number(m[2]));
      if (!p || p.product_id !== Number(m[1])) return refuse(404, { errors: ["Not found"] });
      return ok({
        price_point: {
          id: Number(m[2]),
          product_id: p.product_id,
          type: p.type,
          use_site_exchange_rate: false,
          ...p.pricing,
          ...(q.get("currency_prices") === "true" ? { currency_prices: p.currency } : {}),
        },
      });
    }
    if (at(/^\/product_price_points\/(\d+)\/currency_prices\.json$/)) {
      const p = s.productPoints.get(Number(m[1]));
      if (!p) return refuse(404, { errors: ["Not found"] });
      const list: Json[] = body?.currency_prices ?? [];
      if (method === "POST") {
        const bad = refusedCurrency(list);
        if (bad) return bad;
        if (list.some((c) => p.currency.some((h) => h.currency === c.currency)))
          return refuse(422, { errors: { "currency_prices[0].currency": ["Pricing already exists for this currency."] } });
        const made = list.map((c) => ({
          id: id(),
          currency: c.currency,
          price: c.price,
          formatted_price: `${c.price}`,
          product_price_point_id: Number(m[1]),
          role: c.role,
        }));
        p.currency.push(...made);
        return apply(ok({ currency_prices: made }));
      }
      if (method === "PUT") {
        for (const c of list) {
          const h = p.currency.find((x) => x.id === c.id);
          if (!h) return refuse(422, { errors: { base: [`Currency price ${c.id} not found.`] } });
          h.price = c.price;
        }
        return apply(ok({ currency_prices: p.currency.filter((h) => list.some((c) => c.id === h.id)) }));
      }
    }
    // Component price points and their currency prices.
    if (at(/^\/components\/(\d+)\/price_points\/(\d+)\.json$/) && method === "GET") {
      const p = s.componentPoints.get(Number(m[2]));
      if (!p || p.component_id !== Number(m[1])) return refuse(404, { errors: ["Not found"] });
      return ok({ price_point: renderComponentPoint(Number(m[2]), p, false) });
    }
    if (at(/^\/components\/(\d+)\/price_points\.json$/) && method === "GET") {
      const cid = Number(m[1]);
      const rows = [...s.componentPoints.entries()].filter(([, p]) => p.component_id === cid);
      return ok({ price_points: rows.map(([pid, p]) => renderComponentPoint(pid, p, q.get("currency_prices") === "true")) });
    }
    if (at(/^\/price_points\/(\d+)\/currency_prices\.json$/)) {
      const p = s.componentPoints.get(Number(m[1]));
      if (!p) return refuse(404, { errors: ["Not found"] });
      const list: Json[] = body?.currency_prices ?? [];
      if (method === "POST") {
        const bad = refusedCurrency(list);
        if (bad) return bad;
        if (list.some((c) => p.currency.some((h) => h.currency === c.currency)))
          return refuse(422, { errors: { "currency_prices[0].currency": ["Pricing already exists for this currency."] } });
        const made = list.map((c) => ({
          id: id(),
          currency: c.currency,
          price: String(c.price),
          formatted_price: `${c.price}`,
          price_id: c.price_id,
          price_point_id: Number(m[1]),
        }));
        p.currency.push(...made);
        return apply(ok({ currency_prices: made }));
      }
      if (method === "PUT") {
        for (const c of list) {
          const h = p.currency.find((x) => x.id === c.id);
          if (!h) return refuse(422, { errors: { base: [`Currency price ${c.id} not found.`] } });
          h.price = String(c.price);
        }
        return apply(ok({ currency_prices: p.currency.filter((h) => list.some((c) => c.id === h.id)) }));
      }
    }
    // Coupons.
    if (method === "GET" && path === "/coupons.json") {
      const ids = (q.get("filter[ids]") ?? "").split(",").filter(Boolean).map(Number);
      const rows = [...s.coupons.values()].filter((c) => ids.length === 0 || ids.includes(c.coupon.id));
      return ok(
        rows.map((c) => ({ coupon: { ...c.coupon, ...(q.get("currency_prices") === "true" ? { currency_prices: c.currency } : {}) } })),
      );
    }
    if (at(/^\/coupons\/(\d+)\/currency_prices\.json$/) && method === "PUT") {
      const c = s.coupons.get(Number(m[1]));
      if (!c) return refuse(404, { errors: ["Not found"] });
      if (c.coupon.percentage !== null) return refuse(422, { errors: ["Coupon must be amount-based to define currency prices."] });
      const list: Json[] = body?.currency_prices ?? [];
      const bad = refusedCurrency(list);
      if (bad) return bad;
      for (const x of list) {
        const h = c.currency.find((y) => y.currency === x.currency);
        if (h) h.price = x.price;
        else c.currency.push({ id: id(), currency: x.currency, price: x.price, coupon_id: c.coupon.id });
      }
      return apply(ok({ currency_prices: c.currency.filter((h) => list.some((x) => x.currency === h.currency)) }));
    }
    // Metafields.
    if (at(/^\/(subscriptions|customers)\/metafields\.json$/)) {
      const fields = s.metafields[m[1] as "subscriptions" | "customers"];
      if (method === "GET") {
        const name = q.get("name");
        const rows = fields.filter((f) => name === null || f.name === name);
        const per = Number(q.get("per_page") ?? 20);
        const page = Number(q.get("page") ?? 1);
        return ok({
          total_count: rows.length,
          current_page: page,
          total_pages: Math.ceil(rows.length / per),
          per_page: per,
          metafields: rows.slice((page - 1) * per, page * per),
        });
      }
      if (method === "POST") {
        const f = body?.metafields;
        if (!f?.name) return refuse(422, { error: "'name' must be present to create or update metafields" });
        if (fields.some((x) => x.name === f.name)) return refuse(422, { error: "Metafield name must be unique for the Attachment Type" });
        const made = {
          id: id(),
          name: f.name,
          scope: { csv: "0", invoices: "0", statements: "0", portal: "0", public_show: "0", public_edit: "0", hosted: [], ...f.scope },
          data_count: 0,
          input_type: f.input_type ?? "text",
          enum: f.enum ?? null,
        };
        fields.push(made);
        return apply(ok([made]));
      }
      if (method === "PUT") {
        const f = body?.metafields;
        const h = fields.find((x) => x.name === f?.current_name);
        if (!h) return refuse(422, { error: "Metafield not found" });
        if (f.name && f.name !== h.name && fields.some((x) => x.name === f.name))
          return refuse(422, { error: "Metafield name must be unique for the Attachment Type" });
        Object.assign(h, {
          ...(f.name ? { name: f.name } : {}),
          ...(f.input_type ? { input_type: f.input_type } : {}),
          ...(f.enum ? { enum: f.enum } : {}),
          ...(f.scope ? { scope: { ...f.scope } } : {}),
        });
        return apply(ok([h]));
      }
      if (method === "DELETE") {
        const i = fields.findIndex((x) => x.name === q.get("name"));
        if (i < 0) return { status: 404 };
        fields.splice(i, 1);
        return { status: 200 };
      }
    }
    // Reason codes.
    if (path === "/reason_codes.json") {
      if (method === "GET") {
        const per = Number(q.get("per_page") ?? 20);
        const page = Number(q.get("page") ?? 1);
        return ok(s.reasonCodes.slice((page - 1) * per, page * per).map((r) => ({ reason_code: r })));
      }
      if (method === "POST") {
        const r = body?.reason_code ?? {};
        const errors = [
          ...(r.code ? [] : ["Code: cannot be blank."]),
          ...(s.reasonCodes.some((x) => x.code === r.code) ? ["Code: This code is already in use."] : []),
          ...(r.description ? [] : ["Description: cannot be blank."]),
        ];
        if (errors.length > 0) return refuse(422, { errors });
        const made = {
          id: id(),
          site_id: 1,
          code: r.code,
          description: r.description,
          position: r.position ?? s.reasonCodes.length + 1,
          created_at: "2026-12-02T08:00:00Z",
          updated_at: "2026-12-02T08:00:00Z",
        };
        s.reasonCodes.push(made);
        return apply(ok({ reason_code: made }));
      }
    }
    if (at(/^\/reason_codes\/(\d+)\.json$/)) {
      const i = s.reasonCodes.findIndex((x) => x.id === Number(m[1]));
      if (i < 0) return { status: 404 };
      if (method === "GET") return ok({ reason_code: s.reasonCodes[i] });
      if (method === "PUT") {
        Object.assign(s.reasonCodes[i], body?.reason_code ?? {});
        return apply(ok({ reason_code: s.reasonCodes[i] }));
      }
      if (method === "DELETE") {
        s.reasonCodes.splice(i, 1);
        return ok({ ok: "ok" });
      }
    }
    // Offers.
    if (path === "/offers.json") {
      if (method === "GET") {
        const rows = s.offers.filter((o) => q.get("include_archived") === "true" || o.archived_at === null);
        const per = Number(q.get("per_page") ?? 20);
        const page = Number(q.get("page") ?? 1);
        return ok({ offers: rows.slice((page - 1) * per, page * per) });
      }
      if (method === "POST") {
        const o = body?.offer ?? {};
        if (s.offers.some((x) => x.handle === o.handle))
          return refuse(422, { errors: { handle: ["Handle: must be unique - that value has been taken."] } });
        const made = {
          id: id(),
          site_id: 1,
          product_family_id: 3,
          product_id: o.product_id,
          product_price_point_id: o.product_price_point_id ?? 10,
          product_revisable_number: 0,
          name: o.name,
          handle: o.handle,
          description: o.description ?? null,
          created_at: "2026-12-02T08:00:00Z",
          updated_at: "2026-12-02T08:00:00Z",
          archived_at: null,
          offer_items: (o.components ?? []).map((c: Json) => ({
            component_id: c.component_id,
            price_point_id: c.price_point_id ?? 20,
            starting_quantity: `${c.starting_quantity}.0`,
            editable: false,
            currency_prices: [],
          })),
          offer_discounts: (o.coupons ?? []).map((code: string) => ({ coupon_code: code, coupon_id: 30, coupon_name: "Flat" })),
          offer_signup_pages: [],
        };
        s.offers.push(made);
        return apply(ok({ offer: made }, 201));
      }
    }
    if (at(/^\/offers\/(\d+)(\/archive|\/unarchive)?\.json$/)) {
      const o = s.offers.find((x) => x.id === Number(m[1]));
      if (!o) return refuse(404, { errors: ["Not found"] });
      if (method === "GET" && !m[2]) return ok({ offer: o });
      if (method === "PUT" && m[2] === "/archive") {
        o.archived_at = "2026-12-02T09:00:00Z";
        return { status: 200 };
      }
      if (method === "PUT" && m[2] === "/unarchive") {
        o.archived_at = null;
        return { status: 200 };
      }
    }
    return refuse(599, { errors: [`config service: no route for ${method} ${path}`] });
  }

  function renderComponentPoint(
    pid: number,
    p: { component_id: number; type: string; tiers: Json[]; currency: Json[] },
    withCurrency: boolean,
  ) {
    return {
      id: pid,
      component_id: p.component_id,
      type: p.type,
      pricing_scheme: "tiered",
      use_site_exchange_rate: false,
      prices: p.tiers.map((t) => ({ ...t, price_point_id: pid, component_id: p.component_id })),
      ...(withCurrency ? { currency_prices: p.currency } : {}),
    };
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const url = new URL(req.url ?? "/", "http://x");
      const method = req.method ?? "";
      s.sent.push({ method, url: req.url ?? "", path: url.pathname, text });
      const i = faults.findIndex((f) => f.method === method && f.path.test(url.pathname));
      const fault = i < 0 ? undefined : faults.splice(i, 1)[0];
      if (fault?.kind === "reset-before") return void req.socket.resetAndDestroy();
      const answer = handle(method, url.pathname, url.searchParams, text ? JSON.parse(text) : undefined);
      if (fault?.kind === "reset-after") return void req.socket.resetAndDestroy();
      if (fault?.kind === "503-after") return void res.writeHead(503, { "content-type": "text/plain" }).end("Service Unavailable");
      if (answer.body === undefined) return void res.writeHead(answer.status).end();
      const out = JSON.stringify(answer.body);
      res.writeHead(answer.status, { "content-type": "application/json", "content-length": Buffer.byteLength(out) }).end(out);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  onTestFinished(
    () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  );
  return {
    ...s,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    fault: (f) => void faults.push(f),
    seen: () => s.sent.map((r) => `${r.method} ${r.path}`),
  };
}
