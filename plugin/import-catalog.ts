import type * as plugin from "@pulumi/pulumi/provider";
import { PRICING_FIELDS, pricingOutputs } from "../provider/kinds/catalog";
import type { PricePoint, Pricing, Product, ProductFamily } from "../sdk/results";
import { clientOf } from "./import";
import { plain } from "./values";

/**
 * `pulumi import` of the catalog kinds, by handle (ids differ from site to site; handles carry a
 * catalog across them) or by id. The state is the kind's, read from the service, and the inputs are
 * what the service holds, written the way a program declares them (the family and the product as
 * `handle:…` references, pricing left out where the service holds none): the printed code then
 * previews with no changes.
 */

/** `pro`, `123`, `<site>/pro` or `<site>/123`. */
const ONE = /^(?:([^/]+)\/)?([^/]+)$/;
/** `<product>/<price point>`, optionally after `<site>/`; each a handle or an id. */
const TWO = /^(?:([^/]+)\/)?([^/]+)\/([^/]+)$/;

const isId = (s: string) => /^[1-9][0-9]{0,15}$/.test(s);
const ref = (s: string): number | string => (isId(s) ? Number(s) : s);

async function orNothing<T>(type: string, importId: string, what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof Error && "status" in err && (err as { status: unknown }).status === 404)
      throw new Error(`${type} import id "${importId}": ${what} does not exist at the site: nothing to import`);
    throw err;
  }
}

const withSite = (site: string | undefined) => (site !== undefined ? { site } : {});

/**
 * The pricing the service holds, as inputs. What it holds none of is left out, and so are the values it
 * holds when nothing was set (no expiration, no initial charge after a trial), which a declaration leaves
 * out too: printed, `initialChargeAfterTrial: false` would be noise, and deleted from the code, a diff.
 */
function pricingInputs(p: Pricing | undefined): Record<string, unknown> {
  if (!p) return {};
  const out: Record<string, unknown> = {};
  for (const k of PRICING_FIELDS) {
    const v = p[k];
    if (v === undefined || v === null) continue;
    if ((k === "expirationIntervalUnit" && v === "never") || (k === "initialChargeAfterTrial" && v === false)) continue;
    out[k] = v;
  }
  return out;
}

const nullable = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

export async function importFamily(provider: object, importId: string): Promise<plugin.ReadResult> {
  const m = ONE.exec(importId);
  if (!m)
    throw new Error(
      `ProductFamily import id "${importId}": give the family's handle or id (e.g. plans), or <site>/<handle> for an entry of billing:sites`,
    );
  const [, site, key = ""] = m;
  const f: ProductFamily = await orNothing("ProductFamily", importId, `product family ${key}`, () =>
    clientOf(provider, site, "ProductFamily", importId).readProductFamily(ref(key)),
  );
  const handle = f.handle ?? key;
  const inputs = { handle, name: f.name ?? handle, ...(f.description ? { description: f.description } : {}), ...withSite(site) };
  const state = {
    familyId: f.id,
    handle,
    name: nullable(f.name),
    description: nullable(f.description),
    createdAt: nullable(f.createdAt),
    ...withSite(site),
    args: { name: inputs.name, ...(f.description ? { description: f.description } : {}) },
  };
  return plain({ id: String(f.id), props: state, inputs });
}

export async function importProduct(provider: object, importId: string): Promise<plugin.ReadResult> {
  const m = ONE.exec(importId);
  if (!m)
    throw new Error(
      `Product import id "${importId}": give the product's handle or id (e.g. pro), or <site>/<handle> for an entry of billing:sites`,
    );
  const [, site, key = ""] = m;
  const p: Product = await orNothing("Product", importId, `product ${key}`, () =>
    clientOf(provider, site, "Product", importId).readProduct(ref(key)),
  );
  const handle = p.handle ?? key;
  const inputs: Record<string, unknown> = {
    productFamily: p.productFamilyHandle !== undefined ? `handle:${p.productFamilyHandle}` : p.productFamilyId,
    handle,
    name: p.name ?? handle,
    ...(p.description ? { description: p.description } : {}),
    ...(p.accountingCode ? { accountingCode: p.accountingCode } : {}),
    ...(p.taxCode ? { taxCode: p.taxCode } : {}),
    ...pricingInputs(p.pricing),
    ...withSite(site),
  };
  const { site: _, ...args } = inputs;
  const state = {
    productId: p.id,
    productFamilyId: nullable(p.productFamilyId),
    handle,
    name: nullable(p.name),
    description: nullable(p.description),
    defaultPricePointId: nullable(p.defaultPricePointId),
    defaultPricePointHandle: nullable(p.defaultPricePointHandle),
    archivedAt: nullable(p.archivedAt),
    ...pricingOutputs(p.pricing),
    ...withSite(site),
    args: { ...args, ...withSite(site) },
    productFamilyHandle: nullable(p.productFamilyHandle),
  };
  return plain({ id: String(p.id), props: state, inputs });
}

export async function importPricePoint(provider: object, importId: string): Promise<plugin.ReadResult> {
  const m = TWO.exec(importId);
  if (!m)
    throw new Error(
      `ProductPricePoint import id "${importId}": give <product>/<price point>, each a handle or an id (e.g. pro/pro-annual), or <site>/<product>/<price point> for an entry of billing:sites`,
    );
  const [, site, productKey = "", ppKey = ""] = m;
  const client = clientOf(provider, site, "ProductPricePoint", importId);
  const p = await orNothing("ProductPricePoint", importId, `product ${productKey}`, () => client.readProduct(ref(productKey)));
  const all: PricePoint[] = await client.listPricePoints(p.id, { includeArchived: true });
  const pp = all.find((x) => (isId(ppKey) ? x.id === Number(ppKey) : x.handle === ppKey));
  if (!pp)
    throw new Error(`ProductPricePoint import id "${importId}": product ${productKey} has no price point ${ppKey}: nothing to import`);
  const handle = pp.handle ?? ppKey;
  const inputs: Record<string, unknown> = {
    product: p.handle !== undefined ? `handle:${p.handle}` : p.id,
    handle,
    name: pp.name ?? handle,
    ...pricingInputs(pp.pricing),
    ...(pp.type === "default" ? { default: true } : {}),
    ...withSite(site),
  };
  const { site: _, ...args } = inputs;
  const state = {
    pricePointId: pp.id,
    productId: p.id,
    handle,
    name: nullable(pp.name),
    isDefault: pp.type === "default",
    archivedAt: nullable(pp.archivedAt),
    ...pricingOutputs(pp.pricing),
    ...withSite(site),
    args: { ...args, ...withSite(site) },
  };
  return plain({ id: String(pp.id), props: state, inputs });
}
