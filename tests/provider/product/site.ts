import { afterEach } from "vitest";
import { productFamilyProvider, productPricePointProvider, productProvider } from "../../../provider";
import { type Simulator, startSimulator } from "../../../simulator";
import { configured, configureRequest, type Edit, editingProxy, KEY, mutations, type Redirect } from "../support";

/**
 * What the Product kind's tests share: the declarations (family `rockets`, product `rocket` on it), how they read the
 * requests a step sent, the answers the contract allows and the simulator never writes (a product whose family is not
 * named, or named without its handle), and two sites, each fresh per test and closed after it:
 *
 * - `productSite`: families `rockets` and `others` at a simulator whose clock stands still, the product provider
 *   talking to it (or to a proxy in front of it) at the top level and as billing:sites entry `eu`, and to it with a
 *   key it refuses as entry `locked`;
 * - `catalogSite`: the family, product and price point providers against a simulator holding products basic (1),
 *   pro (2) and launch (3) in its default family, where a test makes `rockets` and `rocket` through the providers
 *   (`catalog`), as a program would.
 */

export const NOW = "2024-05-01T12:00:00.000Z";
export const MONTHLY = { priceInCents: 4900, interval: 1, intervalUnit: "month" } as const;
export const family = { handle: "rockets", name: "Rockets" };
export const launch = { productFamily: "handle:rockets", handle: "rocket", name: "Rocket", ...MONTHLY };
/** The rocket product's annual price point, on `catalogSite`. */
export const annual = {
  product: "handle:rocket",
  handle: "rocket-annual",
  name: "Annual",
  priceInCents: 49000,
  interval: 12,
  intervalUnit: "month",
};
export const OTHER_FAMILY_FIX = "the service cannot move a product between families; declare that family, or another handle";
export type Json = Record<string, unknown>;
export const auth = { authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}` };

/** The requests that change something, as `METHOD path`. */
export const steps = (sim: Simulator) => mutations(sim).map((r) => `${r.method} ${r.path}`);

/** Answers for `/products/...` without the family's handle in them (the contract allows null). */
export const withoutFamilyHandle = (_method: string, path: string, body: Json) => {
  const product = body.product as Json | undefined;
  if (path.startsWith("/products/") && product) product.product_family = { ...(product.product_family as Json), handle: null };
};
/** Answers for `/products/...` that name no family (the contract allows null). */
export const withoutFamily = (_method: string, path: string, body: Json) => {
  const p = body.product as Json | undefined;
  if (path.startsWith("/products/") && p) p.product_family = null;
};

/**
 * Families `rockets` and `others` per test (call at a test file's top level; `started` is given each test's simulator
 * and family `rockets`). `setup` starts it and returns the product provider, talking to `url` (the simulator unless
 * given); `made` adds a product made in the web UI; `proxy` is the editing proxy (support.ts) in front of the simulator.
 */
export function productSite(started: (site: { sim: Simulator; rockets: { id: number } }) => void) {
  let current: Simulator | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });

  async function setup(url?: () => Promise<string>) {
    const sim = await startSimulator({ apiKey: KEY, now: () => new Date(NOW) });
    current = sim;
    const rockets = sim.addProductFamily({ handle: "rockets", name: "Rockets" });
    sim.addProductFamily({ handle: "others", name: "Others" });
    started({ sim, rockets });
    const baseUrl = url ? await url() : sim.url;
    const products = { ...productProvider };
    await products.configure!(
      configureRequest({
        "billing:baseUrl": baseUrl,
        "billing:apiKey": KEY,
        "billing:sites": JSON.stringify({
          eu: { baseUrl, apiKey: KEY },
          locked: { baseUrl: sim.url, apiKey: "sk_live_NOT_THIS_SITE_0000" },
        }),
      }),
    );
    return products;
  }

  /** A product made in the web UI, in family `rockets` unless said otherwise. */
  const made = (extra: Partial<Parameters<Simulator["addProduct"]>[0]> = {}) =>
    (current as Simulator).addProduct({ handle: "rocket", familyHandle: "rockets", name: "Rocket", ...MONTHLY, ...extra });

  /** The editing proxy (support.ts) in front of this test's simulator. */
  const proxy = (edit?: Edit, to?: Redirect) => editingProxy((current as Simulator).url, edit, to);

  return { setup, made, proxy };
}

/**
 * The three catalog providers per test (call at a test file's top level; `started` is given each test's simulator).
 * `providers` starts it; `catalog` makes family `rockets`, product `rocket` and, when asked, its annual price point
 * through the providers, then empties the request log.
 */
export function catalogSite(started: (sim: Simulator) => void) {
  let current: Simulator | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });

  async function providers() {
    const c = await configured(productFamilyProvider);
    const sim = c.sim;
    current = sim;
    started(sim);
    const extra = async <P extends typeof productProvider>(exported: P) => {
      const p = { ...exported };
      await p.configure?.(configureRequest({ "billing:baseUrl": sim.url, "billing:apiKey": KEY }));
      return p;
    };
    return { families: c.provider, products: await extra(productProvider), pricePoints: await extra(productPricePointProvider) };
  }

  async function catalog(withAnnual = false) {
    const p = await providers();
    const f = await p.families.create(family);
    const prod = await p.products.create(launch);
    const pp = withAnnual ? await p.pricePoints.create(annual) : undefined;
    current?.reset();
    return { ...p, f, prod, pp };
  }

  return { providers, catalog };
}
