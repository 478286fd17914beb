import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";

/**
 * An in-memory catalog service over real HTTP on 127.0.0.1, for the SDK's catalog tests: product families,
 * products and their price points; components, their price points and coupons. Written from the contract, its
 * examples and the shared plan, not from the simulator: handles unique per kind (codes among coupons, archived ones
 * too), archiving keeps them, a uniqueness_token repeated is a 409 that applies nothing, `include_archived` and
 * `archived` on the lists, paging, a component price point update in the contract's `Update Price` form (`id`,
 * `_destroy`, new tiers), DELETE of a component answering a bare component (as the contract publishes).
 *
 * Why a double beside the simulator (simulator/): its faults are placed exactly, and two of them the simulator has
 * no fault plan for: a 409 duplicate submission answered without applying, and a 2xx whose body is not the object.
 * It also shows its state raw (`families`, `products`, `pricePoints`, …), to count what a create made, and lets a
 * test rewrite it (a coupon answered in a shape the simulator never writes). Every request is recorded, with its body.
 */

type Json = Record<string, any>;

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

/** A product family the service holds from the start (made elsewhere). */
export interface SeedFamily {
  readonly id: number;
  readonly handle: string;
  readonly name: string;
}

/** Two families, 1 ("saas") and 2 ("other"), for tests that start from components and coupons. */
export const TWO_FAMILIES: readonly SeedFamily[] = [
  { id: 1, handle: "saas", name: "SaaS" },
  { id: 2, handle: "other", name: "Other" },
];

interface Answer {
  status: number;
  json: unknown;
}

/** What the service holds; the ids count up from 100, shared by every kind. */
interface Store {
  nextId: number;
  families: Json[];
  products: Json[];
  pricePoints: Json[];
  components: Json[];
  componentPricePoints: Json[];
  coupons: Json[];
}

const now = () => new Date().toISOString().replace(/\.\d+Z$/, "Z");
const unprocessable = (errors: unknown) => ({ status: 422, json: errors });
const notFound = () => ({ status: 404, json: { errors: ["Not found"] } });
const page = <T>(rows: T[], q: Record<string, string>, dflt: number): T[] => {
  const per = Math.min(Number(q.per_page ?? dflt), 200);
  const n = Number(q.page ?? 1);
  return rows.slice((n - 1) * per, n * per);
};

/** Families, products and the products' price points; undefined for a path of another kind. */
function productRoutes(store: Store) {
  const { families, products, pricePoints: points } = store;
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
  const newPoint = (productId: unknown, b: Json): Json => ({
    id: store.nextId++,
    name: b.name,
    handle: b.handle,
    ...pricing(b),
    product_id: productId,
    archived_at: null,
    created_at: now(),
    updated_at: now(),
    use_site_exchange_rate: b.use_site_exchange_rate ?? true,
  });

  return (method: string, path: string, q: Record<string, string>, body: Json): Answer | undefined => {
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
        id: store.nextId++,
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
      const id = store.nextId++;
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
            handle: `uuid:${store.nextId}`,
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
    return undefined;
  };
}

/** Components, their price points, and coupons; undefined for a path of another kind. */
function componentRoutes(store: Store) {
  const { families, components, componentPricePoints: points, coupons } = store;
  const priceOf = (p: Json, componentId: number, pointId: number): Json => ({
    id: store.nextId++,
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
  const newPoint = (componentId: number, b: Json): Json => {
    const id = store.nextId++;
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

  return (method: string, path: string, q: Record<string, string>, body: Json): Answer | undefined => {
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
      const id = store.nextId++;
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
          .map(([id]) => ({ id: store.nextId++, item_type: type, item_id: Number(id), name: `${type} ${id}`, handle: null }));
      const c: Json = {
        id: store.nextId++,
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
              c.coupon_restrictions.push({ id: store.nextId++, item_type: type, item_id: Number(id), name: `${type} ${id}`, handle: null });
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
    return undefined;
  };
}

export async function fakeService(seed: { families?: readonly SeedFamily[] } = {}) {
  const store: Store = {
    nextId: 100,
    families: (seed.families ?? []).map((f) => ({ ...f })),
    products: [],
    pricePoints: [],
    components: [],
    componentPricePoints: [],
    coupons: [],
  };
  const routes = [productRoutes(store), componentRoutes(store)];
  const route = (method: string, path: string, q: Record<string, string>, body: Json): Answer => {
    for (const r of routes) {
      const answer = r(method, path, q, body);
      if (answer) return answer;
    }
    return { status: 599, json: { errors: [`fake service: no route for ${method} ${path}`] } };
  };
  const tokens = new Set<string>();
  const faults: (Fault & { left: number })[] = [];
  const requests: SeenRequest[] = [];
  /** Every request, never cleared (tests clear `requests` to look at what follows). */
  const log: SeenRequest[] = [];
  let inFlight = 0;
  let peak = 0;

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
      let answer: Answer;
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
    families: store.families,
    products: store.products,
    /** The products' price points. */
    pricePoints: store.pricePoints,
    components: store.components,
    componentPricePoints: store.componentPricePoints,
    coupons: store.coupons,
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

export type FakeService = Awaited<ReturnType<typeof fakeService>>;
