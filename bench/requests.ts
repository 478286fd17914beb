import type * as pulumi from "@pulumi/pulumi";
import {
  componentPricePointProvider,
  componentProvider,
  couponProvider,
  customFieldProvider,
  offerProvider,
  productFamilyProvider,
  productPricePointProvider,
  productProvider,
  reasonCodeProvider,
} from "../provider/kinds";
import { startSimulator } from "../simulator";
import type { Row } from "./stats";

/**
 * Requests per object of the providers' `refresh` (read) and `preview` of changed objects (check then diff) over a
 * catalog of every kind, all of a phase asked for at once as the engine asks (issue 43: reads in bulk). Each request
 * is put to the kind whose collection its path names (a product's price points to the price points, a family's
 * products to the products), so that a kind read one object per request shows 1 and a kind read by lists far less.
 */

const KEY = "bench_requests_key";

/** The catalog: 2 families, 10 products with 2 price points each, 5 components with 2 each, 5 coupons, site configuration. */
const FAMILIES = 2;
const PRODUCTS = 10;
const COMPONENTS = 5;

type Declared = Record<string, unknown>;
type Provider = pulumi.dynamic.ResourceProvider;
interface Kind {
  readonly name: string;
  readonly provider: Provider;
  readonly objects: readonly Declared[];
  /** The declaration a preview sees: one field changed, as a program's edit would (the products' price; a family, which has no update, as it was). */
  readonly changed: (d: Declared) => Declared;
}

const renamed = (d: Declared) => ({ ...d, name: `${String(d.name)} (new)` });

/** Every kind's objects, in the order they are created (an owner before what it holds). */
function catalog(): Kind[] {
  const families = Array.from({ length: FAMILIES }, (_, f) => ({ handle: `family-${f}`, name: `Family ${f}` }));
  const products = Array.from({ length: PRODUCTS }, (_, p) => ({
    productFamily: `handle:family-${p % FAMILIES}`,
    handle: `product-${p}`,
    name: `Product ${p}`,
    priceInCents: 1000 + p,
    interval: 1,
    intervalUnit: "month",
  }));
  const pricePoints = products.flatMap((p, i) =>
    [0, 1].map((n) => ({
      product: `handle:${p.handle}`,
      handle: `${p.handle}-pp-${n}`,
      name: `${p.name} plan ${n}`,
      priceInCents: 2000 + 10 * i + n,
      interval: 12,
      intervalUnit: "month",
    })),
  );
  const components = Array.from({ length: COMPONENTS }, (_, c) => ({
    productFamily: `handle:family-${c % FAMILIES}`,
    kind: "quantity_based",
    handle: `component-${c}`,
    name: `Component ${c}`,
    unitName: "seat",
    pricingScheme: "per_unit",
    prices: [{ startingQuantity: 1, unitPrice: `${c + 1}.00` }],
  }));
  const componentPricePoints = components.flatMap((c, i) =>
    [0, 1].map((n) => ({
      component: `handle:${c.handle}`,
      handle: `${c.handle}-pp-${n}`,
      name: `${c.name} plan ${n}`,
      pricingScheme: "per_unit",
      prices: [{ startingQuantity: 1, unitPrice: `${i + 2}.${n}0` }],
    })),
  );
  const coupons = Array.from({ length: 5 }, (_, c) => ({
    productFamily: `handle:family-${c % FAMILIES}`,
    code: `SAVE${c}`,
    name: `Save ${c}`,
    percentage: 5 + c,
  }));
  const reasonCodes = Array.from({ length: 3 }, (_, r) => ({ code: `reason_${r}`, description: `Reason ${r}` }));
  const customFields = Array.from({ length: 3 }, (_, f) => ({ resourceType: "subscriptions", name: `Field ${f}` }));
  const offers = Array.from({ length: 2 }, (_, o) => ({
    handle: `offer-${o}`,
    name: `Offer ${o}`,
    product: `handle:product-${o}`,
    components: [{ component: `handle:component-${o}`, startingQuantity: 1 }],
    coupons: [`SAVE${o}`],
  }));
  return [
    { name: "ProductFamily", provider: productFamilyProvider, objects: families, changed: (d) => d },
    {
      name: "Product",
      provider: productProvider,
      objects: products,
      changed: (d) => ({ ...d, priceInCents: Number(d.priceInCents) + 100 }),
    },
    { name: "ProductPricePoint", provider: productPricePointProvider, objects: pricePoints, changed: renamed },
    { name: "Component", provider: componentProvider, objects: components, changed: renamed },
    { name: "ComponentPricePoint", provider: componentPricePointProvider, objects: componentPricePoints, changed: renamed },
    { name: "Coupon", provider: couponProvider, objects: coupons, changed: renamed },
    {
      name: "ReasonCode",
      provider: reasonCodeProvider,
      objects: reasonCodes,
      changed: (d) => ({ ...d, description: `${d.description} (new)` }),
    },
    { name: "CustomField", provider: customFieldProvider, objects: customFields, changed: (d) => ({ ...d, scope: { csv: true } }) },
    { name: "Offer", provider: offerProvider, objects: offers, changed: renamed },
  ];
}

/** The kind whose collection a request's path names. */
export function kindOfPath(path: string): string {
  const rules: readonly [RegExp, string][] = [
    [/^\/products\/[^/]+\/price_points|^\/product_price_points\//, "ProductPricePoint"],
    [/^\/product_families\/[^/]+\/products\.json$|^\/products(\.json$|\/)/, "Product"],
    [/^\/components\/[^/]+\/price_points|^\/price_points\/[^/]+\/currency_prices/, "ComponentPricePoint"],
    [/^\/product_families\/[^/]+\/components|^\/components(\.json$|\/)/, "Component"],
    [/coupons/, "Coupon"],
    [/^\/product_families(\.json$|\/[^/]+\.json$)/, "ProductFamily"],
    [/^\/reason_codes/, "ReasonCode"],
    [/metafields/, "CustomField"],
    [/^\/offers/, "Offer"],
  ];
  return rules.find(([re]) => re.test(path))?.[1] ?? "other";
}

/** Requests put to one kind in one phase, and its objects. */
export interface KindRequests {
  readonly kind: string;
  readonly objects: number;
  readonly refresh: number;
  readonly preview: number;
}

/**
 * The catalog created through the providers on a fresh simulator, then its refresh (every object's `read` at once) and
 * its preview of a change to every object (every `check`, then every `diff`, each phase at once), with the providers'
 * reads batched in a window of `windowMs` (0: each read alone, as before issue 43). `latencyMs`: the service's answer time.
 */
export async function catalogRequests(windowMs: number, latencyMs = 0): Promise<KindRequests[]> {
  const before = process.env.BILLING_READ_BATCH_WINDOW_MS;
  process.env.BILLING_READ_BATCH_WINDOW_MS = String(windowMs);
  const sim = await startSimulator({
    apiKey: KEY,
    logBodies: false,
    ...(latencyMs > 0 ? { latency: { medianMs: latencyMs, p99Ms: latencyMs } } : {}),
  });
  try {
    const config = { config: { get: (k: string) => ({ "billing:baseUrl": sim.url, "billing:apiKey": KEY })[k] } };
    const kinds = catalog();
    const made: { kind: Kind; id: string; outs: Declared; inputs: Declared; declared: Declared }[] = [];
    for (const kind of kinds) {
      const provider = { ...kind.provider } as Provider;
      await provider.configure?.(config as unknown as pulumi.dynamic.ConfigureRequest);
      (kind as { provider: Provider }).provider = provider;
      for (const declared of kind.objects) {
        const checked = await (provider.check as NonNullable<Provider["check"]>)({}, declared);
        if ((checked.failures ?? []).length > 0) throw new Error(`${kind.name}: ${JSON.stringify(checked.failures)}`);
        const { id, outs } = await provider.create(checked.inputs);
        made.push({ kind, id, outs, inputs: checked.inputs, declared });
      }
    }
    const count = () => {
      const by = new Map<string, number>();
      for (const r of sim.requests) by.set(kindOfPath(r.path), (by.get(kindOfPath(r.path)) ?? 0) + 1);
      sim.reset();
      return by;
    };
    sim.reset();
    await Promise.all(made.map((m) => m.kind.provider.read?.(m.id, m.outs)));
    const refresh = count();
    const checked = await Promise.all(
      made.map((m) => (m.kind.provider.check as NonNullable<Provider["check"]>)(m.inputs, m.kind.changed(m.declared))),
    );
    await Promise.all(made.map((m, i) => m.kind.provider.diff?.(m.id, m.outs, checked[i].inputs)));
    const preview = count();
    return kinds.map((k) => ({
      kind: k.name,
      objects: k.objects.length,
      refresh: refresh.get(k.name) ?? 0,
      preview: preview.get(k.name) ?? 0,
    }));
  } finally {
    if (before === undefined) delete process.env.BILLING_READ_BATCH_WINDOW_MS;
    else process.env.BILLING_READ_BATCH_WINDOW_MS = before;
    await sim.close();
  }
}

const perObject = (n: number, objects: number) => (n / objects).toFixed(2);

/**
 * Figure 13: requests per object per kind, each read alone (window 0) beside batched (20 ms, the provider's), for a
 * refresh and a preview of changed objects of a catalog of every kind. Target: at most 0.5 per object at refresh
 * (one list per collection, each of two objects or more), where each read alone is at least 1; none for a preview,
 * whose lookups by handle have no list by owner (the same lookup is sent once).
 */
export async function requestsPerObjectFigure(): Promise<Row[]> {
  const alone = await catalogRequests(0);
  const batched = await catalogRequests(20);
  return batched.map((b, i) => {
    const a = alone[i];
    return {
      figure: "13",
      candidate: `${b.kind} (${b.objects}): refresh, preview, batched`,
      reference: "each read alone (window 0)",
      value: `refresh ${perObject(b.refresh, b.objects)} (was ${perObject(a.refresh, a.objects)}), preview ${perObject(b.preview, b.objects)} (was ${perObject(a.preview, a.objects)}) per object`,
      spread: "",
      repeats: "1",
      target: "refresh ≤ 0.5 / object",
      met: b.refresh / b.objects <= 0.5,
    };
  });
}
