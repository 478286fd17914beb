import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";
import type { Fault, SeenRequest } from "./catalog-fake-service";

/**
 * An in-memory service of components, their price points and coupons over real HTTP on 127.0.0.1,
 * for the SDK's tests, beside catalog-fake-service.ts and built like it (faults placed exactly, every
 * request recorded). Written from the contract and the shared plan, not from the simulator: handles
 * unique among components and codes among coupons (archived ones too), archiving keeps them, a
 * uniqueness_token repeated is a 409 that applies nothing, `include_archived` on component lists,
 * a price point update in the contract's `Update Price` form (`id`, `_destroy`, new tiers), DELETE
 * of a component answering a bare component (as the contract publishes).
 */

type Json = Record<string, any>;

const now = () => new Date().toISOString().replace(/\.\d+Z$/, "Z");

export async function componentsService() {
  let nextId = 1000;
  const families = [
    { id: 1, handle: "saas", name: "SaaS" },
    { id: 2, handle: "other", name: "Other" },
  ];
  const components: Json[] = [];
  const points: Json[] = [];
  const coupons: Json[] = [];
  const tokens = new Set<string>();
  const faults: (Fault & { left: number })[] = [];
  const requests: SeenRequest[] = [];
  const log: SeenRequest[] = [];

  const priceOf = (p: Json, componentId: number, pointId: number): Json => ({
    id: nextId++,
    component_id: componentId,
    price_point_id: pointId,
    starting_quantity: Number(p.starting_quantity),
    ending_quantity: p.ending_quantity == null ? null : Number(p.ending_quantity),
    unit_price: String(p.unit_price),
    formatted_unit_price: `$${p.unit_price}`,
    segment_id: null,
  });
  const pointView = (p: Json): Json => {
    const c = components.find((x) => x.id === p.component_id)!;
    return { ...p, type: c.default_id === p.id ? "default" : "catalog", default: c.default_id === p.id };
  };
  const componentView = (c: Json): Json => {
    const def = points.find((p) => p.id === c.default_id)!;
    const { default_id: _, ...rest } = c;
    const perUnit = def.pricing_scheme === "per_unit";
    return {
      ...rest,
      pricing_scheme: def.pricing_scheme,
      unit_price: perUnit || c.kind === "on_off_component" ? (def.prices[0]?.unit_price ?? null) : null,
      prices: perUnit ? [] : def.prices,
      default_price_point_id: def.id,
      default_price_point_name: def.name,
      price_point_count: points.filter((p) => p.component_id === c.id).length,
      archived: c.archived_at !== null,
    };
  };
  const unprocessable = (errors: unknown) => ({ status: 422, json: errors });
  const notFound = () => ({ status: 404, json: { errors: ["Not found"] } });
  const page = <T>(rows: T[], q: Record<string, string>, dflt: number): T[] => {
    const per = Math.min(Number(q.per_page ?? dflt), 200);
    const n = Number(q.page ?? 1);
    return rows.slice((n - 1) * per, n * per);
  };
  const newPoint = (componentId: number, b: Json): Json => {
    const id = nextId++;
    const prices = (b.prices ?? (b.unit_price !== undefined ? [{ starting_quantity: 1, unit_price: b.unit_price }] : [])) as Json[];
    return {
      id,
      name: b.name ?? "Original",
      handle: b.handle ?? null,
      pricing_scheme: b.pricing_scheme ?? "per_unit",
      component_id: componentId,
      archived_at: null,
      created_at: now(),
      updated_at: now(),
      prices: prices.map((p) => priceOf(p, componentId, id)),
      use_site_exchange_rate: b.use_site_exchange_rate ?? true,
      tax_included: b.tax_included ?? false,
      interval: b.interval ?? null,
      interval_unit: b.interval_unit ?? null,
    };
  };
  const couponView = (c: Json): Json => ({ ...c });

  function route(method: string, path: string, q: Record<string, string>, body: Json): { status: number; json: unknown } {
    const create = /^\/product_families\/(\d+)\/(metered|quantity_based|on_off|prepaid_usage|event_based)_components\.json$/.exec(path);
    const famComponent = /^\/product_families\/(\d+)\/components\/(\d+)\.json$/.exec(path);
    const famComponents = /^\/product_families\/(\d+)\/components\.json$/.exec(path);
    const putComponent = /^\/components\/(\d+)\.json$/.exec(path);
    const pointsPath = /^\/components\/(\d+)\/price_points\.json$/.exec(path);
    const pointPath = /^\/components\/(\d+)\/price_points\/(\d+)(\/unarchive|\/default)?\.json$/.exec(path);
    const famCoupons = /^\/product_families\/(\d+)\/coupons\.json$/.exec(path);
    const famCoupon = /^\/product_families\/(\d+)\/coupons\/(\d+)\.json$/.exec(path);

    if (method === "POST" && create) {
      const fid = Number(create[1]);
      if (!families.some((f) => f.id === fid)) return notFound();
      const key = `${create[2]}_component`;
      const b = body[key] as Json | undefined;
      if (!b?.name) return unprocessable({ errors: ["Name: cannot be blank."] });
      if (b.handle && components.some((c) => c.handle === b.handle)) return unprocessable({ errors: ["Handle: must be unique."] });
      const id = nextId++;
      const def = newPoint(id, { ...b, name: "Original", handle: null });
      points.push(def);
      const c: Json = {
        id,
        name: b.name,
        handle: b.handle ?? null,
        kind: key,
        unit_name: b.unit_name ?? null,
        product_family_id: fid,
        product_family_name: families.find((f) => f.id === fid)!.name,
        description: b.description ?? null,
        taxable: b.taxable ?? false,
        tax_code: b.tax_code ?? null,
        accounting_code: null,
        item_category: null,
        recurring: b.recurring ?? create[2] === "quantity_based",
        upgrade_charge: b.upgrade_charge ?? null,
        downgrade_credit: b.downgrade_credit ?? null,
        allow_fractional_quantities: b.allow_fractional_quantities ?? false,
        hide_date_range_on_invoice: b.hide_date_range_on_invoice ?? false,
        event_based_billing_metric_id: b.event_based_billing_metric_id,
        archived_at: null,
        created_at: now(),
        updated_at: now(),
        default_id: def.id,
      };
      components.push(c);
      return { status: 201, json: { component: componentView(c) } };
    }
    if (method === "GET" && path === "/components/lookup.json") {
      const c = components.find((x) => x.handle === q.handle);
      return c ? { status: 200, json: { component: componentView(c) } } : notFound();
    }
    if (famComponent) {
      const c = components.find((x) => x.id === Number(famComponent[2]) && x.product_family_id === Number(famComponent[1]));
      if (!c) return notFound();
      if (method === "GET") return { status: 200, json: { component: componentView(c) } };
      if (method === "DELETE") {
        // The vendor's published refusals of a second archive.
        if (c.archived_at)
          return unprocessable({ errors: ["Component cannot be archived. Please make sure it hasn't already been archived."] });
        c.archived_at = now();
        return { status: 200, json: componentView(c) };
      }
    }
    if (method === "PUT" && putComponent) {
      const c = components.find((x) => x.id === Number(putComponent[1]));
      if (!c) return notFound();
      const b = (body.component ?? {}) as Json;
      if (b.handle !== undefined && components.some((x) => x !== c && x.handle === b.handle))
        return unprocessable({ errors: ["Handle: must be unique."] });
      for (const k of [
        "handle",
        "name",
        "description",
        "accounting_code",
        "taxable",
        "tax_code",
        "item_category",
        "upgrade_charge",
        "downgrade_credit",
      ])
        if (b[k] !== undefined) c[k] = b[k];
      return { status: 200, json: { component: componentView(c) } };
    }
    if (method === "GET" && (path === "/components.json" || famComponents)) {
      const fid = famComponents ? Number(famComponents[1]) : undefined;
      const rows = components.filter(
        (c) => (fid === undefined || c.product_family_id === fid) && (q.include_archived === "true" || !c.archived_at),
      );
      return { status: 200, json: page(rows, q, 20).map((c) => ({ component: componentView(c) })) };
    }
    if (pointsPath) {
      const c = components.find((x) => x.id === Number(pointsPath[1]));
      if (!c) return notFound();
      if (method === "GET") {
        const rows = points.filter((p) => p.component_id === c.id);
        const per = Math.min(Number(q.per_page ?? 20), 200);
        return {
          status: 200,
          json: {
            price_points: page(rows, q, 20).map(pointView),
            meta: { total_count: rows.length, current_page: Number(q.page ?? 1), total_pages: Math.ceil(rows.length / per), per_page: per },
          },
        };
      }
      if (method === "POST") {
        const b = body.price_point as Json | undefined;
        if (!b?.name) return unprocessable({ errors: { name: ["Name: cannot be blank."] } });
        if (points.some((p) => p.component_id === c.id && p.handle === b.handle))
          return unprocessable({ errors: { handle: ["Handle: must be unique within the component."] } });
        const p = newPoint(c.id, b);
        points.push(p);
        return { status: 200, json: { price_point: pointView(p) } };
      }
    }
    if (pointPath) {
      const c = components.find((x) => x.id === Number(pointPath[1]));
      const p = points.find((x) => x.id === Number(pointPath[2]) && x.component_id === c?.id);
      if (!c || !p) return notFound();
      if (method === "GET" && !pointPath[3]) return { status: 200, json: { price_point: pointView(p) } };
      if (method === "PUT" && !pointPath[3]) {
        const b = (body.price_point ?? {}) as Json;
        for (const k of ["name", "handle", "pricing_scheme", "interval", "interval_unit", "use_site_exchange_rate", "tax_included"])
          if (b[k] !== undefined) p[k] = b[k];
        if (Array.isArray(b.prices)) {
          const next = p.prices.map((x: Json) => ({ ...x }));
          for (const u of b.prices as Json[]) {
            if (u.id !== undefined) {
              const i = next.findIndex((x: Json) => x.id === u.id);
              if (i < 0) return unprocessable({ errors: { prices: [`Price ${u.id} not found.`] } });
              if (u._destroy) next.splice(i, 1);
              else
                next[i] = {
                  ...next[i],
                  ...(u.starting_quantity !== undefined ? { starting_quantity: Number(u.starting_quantity) } : {}),
                  ...(u.ending_quantity !== undefined ? { ending_quantity: Number(u.ending_quantity) } : {}),
                  ...(u.unit_price !== undefined ? { unit_price: String(u.unit_price) } : {}),
                };
            } else next.push(priceOf(u, c.id, p.id));
          }
          p.prices = next.sort((a: Json, b2: Json) => a.starting_quantity - b2.starting_quantity);
        }
        return { status: 200, json: { price_point: pointView(p) } };
      }
      if (method === "DELETE" && !pointPath[3]) {
        if (c.default_id === p.id) return unprocessable({ errors: ["Cannot archive the default price point."] });
        if (p.archived_at) return unprocessable({ errors: ["Price point is already archived."] });
        p.archived_at = now();
        return { status: 200, json: { price_point: pointView(p) } };
      }
      if (method === "PUT" && pointPath[3] === "/unarchive") {
        p.archived_at = null;
        return { status: 200, json: { price_point: pointView(p) } };
      }
      if (method === "PUT" && pointPath[3] === "/default") {
        c.default_id = p.id;
        return { status: 200, json: { component: componentView(c) } };
      }
    }
    if (famCoupons && method === "POST") {
      const fid = Number(famCoupons[1]);
      const b = body.coupon as Json | undefined;
      if (!b?.name) return unprocessable({ errors: ["Name: cannot be blank."] });
      if (coupons.some((c) => c.code === b.code)) return unprocessable({ errors: ["Code: must be unique."] });
      const restrictions = (type: string, m: Json | undefined) =>
        Object.entries(m ?? {})
          .filter(([, on]) => on)
          .map(([id]) => ({ id: nextId++, item_type: type, item_id: Number(id), name: `${type} ${id}`, handle: null }));
      const c: Json = {
        id: nextId++,
        name: b.name,
        code: b.code,
        description: b.description ?? "",
        amount: b.amount_in_cents != null ? b.amount_in_cents / 100 : null,
        amount_in_cents: b.amount_in_cents ?? null,
        percentage: b.percentage != null ? String(b.percentage) : null,
        product_family_id: fid,
        product_family_name: families.find((f) => f.id === fid)?.name ?? null,
        start_date: now(),
        end_date: b.end_date ?? null,
        recurring: b.recurring ?? false,
        recurring_scheme: b.recurring ? (b.duration_period_count ? "recur_with_duration" : "recur_indefinitely") : "do_not_recur",
        duration_period_count: b.duration_period_count ?? null,
        stackable: b.stackable ?? false,
        compounding_strategy: b.compounding_strategy ?? null,
        allow_negative_balance: b.allow_negative_balance ?? false,
        archived_at: null,
        discount_type: b.percentage != null ? "percent" : "amount",
        coupon_restrictions: [
          ...restrictions("Product", body.restricted_products),
          ...restrictions("Component", body.restricted_components),
        ],
        created_at: now(),
        updated_at: now(),
      };
      coupons.push(c);
      return { status: 201, json: { coupon: couponView(c) } };
    }
    if (method === "GET" && path === "/coupons/find.json") {
      const c = coupons.find(
        (x) => x.code === q.code && (q.product_family_id === undefined || x.product_family_id === Number(q.product_family_id)),
      );
      return c ? { status: 200, json: { coupon: couponView(c) } } : notFound();
    }
    if (famCoupon) {
      const c = coupons.find((x) => x.id === Number(famCoupon[2]) && x.product_family_id === Number(famCoupon[1]));
      if (!c) return notFound();
      if (method === "GET") return { status: 200, json: { coupon: couponView(c) } };
      if (method === "DELETE") {
        c.archived_at ??= now();
        return { status: 200, json: { coupon: couponView(c) } };
      }
      if (method === "PUT") {
        const b = (body.coupon ?? {}) as Json;
        for (const k of ["name", "code", "description", "recurring", "stackable", "end_date", "duration_period_count"])
          if (b[k] !== undefined) c[k] = b[k];
        if (b.percentage !== undefined)
          Object.assign(c, { percentage: String(b.percentage), amount_in_cents: null, amount: null, discount_type: "percent" });
        if (b.amount_in_cents !== undefined)
          Object.assign(c, {
            amount_in_cents: b.amount_in_cents,
            amount: b.amount_in_cents / 100,
            percentage: null,
            discount_type: "amount",
          });
        for (const [type, m] of [
          ["Product", body.restricted_products],
          ["Component", body.restricted_components],
        ] as const) {
          for (const [id, on] of Object.entries((m ?? {}) as Json)) {
            const has = c.coupon_restrictions.some((r: Json) => r.item_type === type && r.item_id === Number(id));
            if (on && !has)
              c.coupon_restrictions.push({ id: nextId++, item_type: type, item_id: Number(id), name: `${type} ${id}`, handle: null });
            if (!on) c.coupon_restrictions = c.coupon_restrictions.filter((r: Json) => !(r.item_type === type && r.item_id === Number(id)));
          }
        }
        return { status: 200, json: { coupon: couponView(c) } };
      }
    }
    if (method === "GET" && (path === "/coupons.json" || famCoupons)) {
      const fid = famCoupons ? Number(famCoupons[1]) : undefined;
      const rows = coupons.filter((c) => fid === undefined || c.product_family_id === fid);
      return { status: 200, json: page(rows, q, 30).map((c) => ({ coupon: couponView(c) })) };
    }
    return { status: 599, json: { errors: [`fake service: no route for ${method} ${path}`] } };
  }

  const server = createServer((req, res) => {
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
    components,
    points,
    coupons,
    /** Adds faults, each for `times` (default 1) matching requests. */
    fault(...fs: Fault[]) {
      for (const f of fs) faults.push({ ...f, left: f.times ?? 1 });
    },
    /** Requests by method and path (without query). */
    seen: () => requests.map((r) => `${r.method} ${r.path}`),
    close,
  };
}

export type ComponentsService = Awaited<ReturnType<typeof componentsService>>;
