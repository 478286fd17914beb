/**
 * A site's catalog as its raw answers say it, read with plain HTTP (not the SDK, whose reading is
 * what the round trip tests): every family, product, price point, component, component price point
 * coupon, reason code, custom field and offer, keyed across sites by handle or code, with what only this site says left out (ids,
 * timestamps, links, and the names the service gives a default price point itself).
 */

type Json = Record<string, unknown>;

/** What differs from site to site for the same catalog: ids, times, links, counts of what else is there. */
const SITE_OWN = new Set([
  "id",
  "created_at",
  "updated_at",
  "start_date",
  "product_id",
  "component_id",
  "price_point_id",
  "product_family_id",
  "product_family_name",
  "product_family",
  "default_product_price_point_id",
  "product_price_point_id",
  "product_price_point_handle",
  "product_price_point_name",
  "default_price_point_id",
  "default_price_point_name",
  "price_points_url",
  "price_point_count",
  "formatted_unit_price",
  "segment_id",
  "subscription_id",
  "version_number",
  "public_signup_pages",
  "coupon_restrictions",
  // How many subscriptions or customers hold data in a custom field: the site's data, not its configuration.
  "data_count",
  "coupon_id",
  // An offer's signup pages: the web UI makes them (no request does), each at its own address.
  "offer_signup_pages",
]);

const decimal = /^-?\d+(\.\d+)?$/;

/** An answer's object without what only this site says; decimal text as numbers ("2.0" is 2); archived_at as a flag. */
function normalized(o: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(o)) {
    if (SITE_OWN.has(k)) continue;
    if (k === "archived_at") out.archived = v !== null && v !== undefined;
    else if (Array.isArray(v)) out[k] = v.map((x) => (x !== null && typeof x === "object" ? normalized(x as Json) : x));
    else if (k.endsWith("unit_price") && typeof v === "string" && decimal.test(v)) out[k] = Number(v);
    else out[k] = v;
  }
  return out;
}

/** A site's catalog, raw: type → key → the object as answered (normalized). */
export type RawCatalog = Record<string, Record<string, Json>>;

export async function rawCatalog(url: string, key: string): Promise<RawCatalog> {
  const headers = { authorization: `Basic ${Buffer.from(`${key}:x`).toString("base64")}` };
  const get = async (path: string): Promise<unknown> => {
    const r = await fetch(`${url}${path}`, { headers });
    if (!r.ok) throw new Error(`GET ${path}: ${r.status} ${await r.text()}`);
    return r.json();
  };
  const rows = (body: unknown, wrap: string): Json[] =>
    (Array.isArray(body) ? body : ((body as Json).price_points as unknown[])).map((x) => ((x as Json)[wrap] ?? x) as Json);
  const out: RawCatalog = {
    ProductFamily: {},
    Product: {},
    ProductPricePoint: {},
    Component: {},
    ComponentPricePoint: {},
    Coupon: {},
    ReasonCode: {},
    CustomField: {},
    Offer: {},
  };
  const families = rows(await get("/product_families.json?per_page=200"), "product_family");
  for (const f of families) out.ProductFamily[String(f.handle)] = normalized(f);
  const familyHandle = new Map(families.map((f) => [f.id, f.handle]));
  const products = rows(await get("/products.json?include_archived=true&per_page=200"), "product");
  for (const p of products) {
    const family = (p.product_family as Json | undefined)?.handle;
    out.Product[String(p.handle)] = { ...normalized(p), family };
    const points = rows(await get(`/products/${p.id}/price_points.json?archived=true&per_page=200`), "price_point");
    for (const pp of points) {
      const isDefault = pp.id === p.default_product_price_point_id;
      const { handle, name, ...rest } = normalized(pp);
      // The default's handle and name are the service's own choice when a product is made through the API.
      out.ProductPricePoint[`${p.handle}/${isDefault ? "(default)" : handle}`] = isDefault ? rest : { handle, name, ...rest };
    }
  }
  const components = rows(await get("/components.json?include_archived=true&filter[include_archived]=true&per_page=200"), "component");
  for (const c of components) {
    out.Component[String(c.handle)] = { ...normalized(c), family: familyHandle.get(c.product_family_id) };
    const points = rows(await get(`/components/${c.id}/price_points.json?include_archived=true&per_page=200`), "price_point");
    for (const pp of points) {
      const isDefault = pp.id === c.default_price_point_id;
      const { handle, name, ...rest } = normalized(pp);
      out.ComponentPricePoint[`${c.handle}/${isDefault ? "(default)" : handle}`] = isDefault ? rest : { handle, name, ...rest };
    }
  }
  const coupons = rows(await get("/coupons.json?filter[archived_at]=include&include_archived=true&per_page=200"), "coupon");
  for (const c of coupons) {
    const restrictions = ((c.coupon_restrictions as Json[] | undefined) ?? []).map((r) => `${r.item_type}:${r.handle}`).sort();
    out.Coupon[String(c.code)] = { ...normalized(c), family: familyHandle.get(c.product_family_id), restrictions };
  }
  for (const r of rows(await get("/reason_codes.json?per_page=200"), "reason_code")) out.ReasonCode[String(r.code)] = normalized(r);
  for (const rt of ["subscriptions", "customers"])
    for (const f of ((await get(`/${rt}/metafields.json?per_page=200`)) as { metafields: Json[] }).metafields)
      out.CustomField[`${rt}:${f.name}`] = normalized(f);
  // An item's price point name is its price point's, compared there (a default's is the one the service gave it).
  for (const o of ((await get("/offers.json?per_page=200&include_archived=true")) as { offers: Json[] }).offers) {
    const items = ((o.offer_items as Json[] | undefined) ?? []).map(({ price_point_name: _, ...i }) => i);
    out.Offer[String(o.handle)] = normalized({ ...o, offer_items: items });
  }
  return out;
}

/** The live objects only: what a program declares (archived ones are listed in its closing comment, not declared). */
export function liveOnly(raw: RawCatalog): RawCatalog {
  const out: RawCatalog = {};
  for (const [type, objects] of Object.entries(raw)) {
    const owners = type === "ProductPricePoint" ? raw.Product : type === "ComponentPricePoint" ? raw.Component : undefined;
    out[type] = Object.fromEntries(
      Object.entries(objects).filter(
        ([k, o]) => o.archived !== true && (owners === undefined || owners[k.split("/")[0] as string]?.archived !== true),
      ),
    );
  }
  return out;
}

/** Each field that differs between two raw catalogs: `Type key field: a → b`, sorted. */
export function rawDifferences(a: RawCatalog, b: RawCatalog): string[] {
  const out: string[] = [];
  for (const type of Object.keys({ ...a, ...b })) {
    const x = a[type] ?? {};
    const y = b[type] ?? {};
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
      const p = x[k];
      const q = y[k];
      if (!p || !q) {
        out.push(`${type} ${k}: ${p ? "only in A" : "only in B"}`);
        continue;
      }
      for (const f of new Set([...Object.keys(p), ...Object.keys(q)]))
        if (JSON.stringify(p[f]) !== JSON.stringify(q[f])) out.push(`${type} ${k} ${f}: ${JSON.stringify(p[f])} → ${JSON.stringify(q[f])}`);
    }
  }
  return out.sort();
}
