import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { BillingApiError, BillingValidationError } from "../errors";
import { allPages } from "../pages";
import type { Transport } from "../transport";
import {
  componentCurrencyPricesResponse,
  componentPricePointListResponse,
  componentPricePointResponse,
  couponCurrencyPricesResponse,
  couponListResponse,
  MAX_COMPONENT_PRICE_POINTS_PER_PAGE,
  pricePointResponse,
  productCurrencyPricesResponse,
  type ComponentPricePoint as WireComponentPricePoint,
} from "../wire";
import { idProblems, type Problem, parsed, tokenProblems } from "./checks";
import { type CreateOptions, createOnce, type Sighting } from "./create";
import {
  type ComponentCurrencyPricesInput,
  type CouponCurrencyPricesInput,
  componentCurrencyPricesInput,
  couponCurrencyPricesInput,
  currencyPricesProblems,
  type PricePointCurrencyPricesInput,
  type PrimaryPricingRoles,
  pricePointCurrencyPricesInput,
} from "./currency-inputs";
import {
  type ComponentPricePointCurrencyPrice,
  type CouponCurrencyPrice,
  componentCurrencyPricesOf,
  couponCurrencyPricesOf,
  type PricePointCurrencyPrice,
  pricePointCurrencyPricesOf,
  toComponentPricePointCurrencyPrice,
  toCouponCurrencyPrice,
  toPricePointCurrencyPrice,
} from "./currency-results";
import { settledWrite } from "./settle";

/**
 * Prices in the site's other currencies: a product price point's (per role), a component price point's (per
 * tier) and a flat-amount coupon's. Creates are sent once with a uniqueness token and, after an ambiguous
 * failure, read back by currency before anything is sent again (see {@link createOnce}); updates are PUTs of
 * values, repeated like reads and checked against a read-back when their answer is lost.
 *
 * What the contract publishes and the SDK relies on: a create names currencies the price point has no price in
 * yet (a second create of one is refused: "Pricing already exists for this currency"); an update changes
 * existing records' amounts in place, by their ids; no operation removes a currency's prices (the contract has
 * no DELETE for them and no `_destroy` in `Update Currency Price`); a price point reads its currency prices
 * only with `?currency_prices=true`, and reads the exchange rate's prices instead of its own while it has
 * `use_site_exchange_rate: true`.
 */

type Opts = Omit<CreateOptions, "uniquenessToken"> & { uniquenessToken?: unknown };

const sameAmount = (a: number | string | undefined, b: number | string | undefined) =>
  a !== undefined && b !== undefined && Number(a) === Number(b);

/**
 * A refusal's messages with the indexed records they name (`[0].currency: …`, the service's
 * `currency_prices[0].currency`) named as the caller declared them: `currencyPrices.EUR: …` (`.trial` for a
 * product price point's role, `[1]` for a component price point's tier). Anything else is returned as it is.
 */
async function inCallersWords<T>(
  records: readonly { currency: string; role?: string; tier?: number }[],
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof BillingApiError) || err.status !== 422) throw err;
    const errors = err.errors.map((e) => {
      const m = /^\[(\d+)\]\.[A-Za-z_]+: (.*)$/s.exec(e);
      const r = m ? records[Number(m[1])] : undefined;
      if (!r || !m) return e;
      const at = r.tier !== undefined ? `[${r.tier}]` : r.role && r.role !== "baseline" && /role|price/i.test(e) ? `.${r.role}` : "";
      return `currencyPrices.${r.currency}${at}: ${m[2]}`;
    });
    throw new BillingApiError({ status: err.status, errors, method: err.method, path: err.path, mayHaveApplied: err.mayHaveApplied });
  }
}

/**
 * Sends a create of currency prices once (`createOnce`: a uniqueness token, and after an ambiguous failure a
 * read-back before anything is sent again). A record is found again by `holds` (its currency and its slot: a
 * role, a tier); the create is taken as made only when every record is held, each at the amount asked.
 */
function createCurrencyPricesOnce<
  R extends { currency: string; price: number },
  H extends { currency: string; price?: number | string },
  S extends z.ZodType,
>(
  t: Transport,
  opts: Opts,
  o: {
    handle: string;
    path: string;
    records: readonly R[];
    named: Parameters<typeof inCallersWords>[0];
    answer: S;
    result: (answer: z.output<S>) => H[];
    read: () => Promise<readonly H[]>;
    holds: (held: H, record: R) => boolean;
    /** A record's currency and slot in words: "EUR trial price". */
    slot: (record: R) => string;
  },
): Promise<H[]> {
  const token = (opts.uniquenessToken as string | undefined) ?? randomUUID();
  return inCallersWords(o.named, () =>
    createOnce(
      t,
      {
        kind: "currency prices",
        handle: o.handle,
        uniquenessToken: token,
        request: { method: "POST", path: o.path, repeatable: false, body: { currency_prices: o.records, uniqueness_token: token } },
        answer: o.answer,
        result: o.result,
        find: async (): Promise<Sighting<H[]>> => {
          const held = await o.read();
          const mine = held.filter((h) => o.records.some((r) => o.holds(h, r)));
          const missing = o.records.filter((r) => !mine.some((h) => o.holds(h, r)));
          if (missing.length > 0) return { seen: `no ${missing.map(o.slot).join(", ")}` };
          return { found: mine };
        },
        differs: (found) => {
          const other = o.records.find((r) => !found.some((h) => o.holds(h, r) && sameAmount(h.price, r.price)));
          if (!other) return undefined;
          return `the ${o.slot(other)} is ${found.find((h) => o.holds(h, other))?.price} where this create asked ${other.price}`;
        },
      },
      { ...opts, uniquenessToken: token },
    ),
  );
}

function ids(pairs: [unknown, string][], what: string, more: Problem[] = []): void {
  const problems = [...pairs.flatMap(([v, name]) => idProblems(v, name)), ...more];
  if (problems.length > 0) throw new BillingValidationError(what, problems);
}

// ---------------------------------------------------------------------------------------------------
// Product price points: POST/PUT /product_price_points/{id}/currency_prices.json; read with the price point.
// ---------------------------------------------------------------------------------------------------

/**
 * A product price point's currency prices (`GET /products/{id}/price_points/{id}.json?currency_prices=true`).
 * With `use_site_exchange_rate: true` the service answers the exchange rate's prices, not defined ones (the
 * contract's description of the parameter).
 */
export async function readPricePointCurrencyPrices(
  t: Transport,
  productId: unknown,
  pricePointId: unknown,
): Promise<PricePointCurrencyPrice[]> {
  ids(
    [
      [productId, "productId"],
      [pricePointId, "pricePointId"],
    ],
    "invalid price point",
  );
  const { price_point: p } = await t.call(
    {
      method: "GET",
      path: `/products/${productId}/price_points/${pricePointId}.json`,
      query: { currency_prices: "true" },
      repeatable: true,
    },
    pricePointResponse,
  );
  return (p.currency_prices ?? []).map(toPricePointCurrencyPrice);
}

/** The declared map as the create's records: one per currency and role, roles in the service's order. */
function productRecords(input: Record<string, { baseline: number; trial?: number; initial?: number }>) {
  return Object.entries(input).flatMap(([currency, a]) =>
    (["baseline", "trial", "initial"] as const).flatMap((role) => (a[role] === undefined ? [] : [{ currency, price: a[role], role }])),
  );
}

/**
 * Creates a product price point's prices in currencies it has none in yet (`POST
 * /product_price_points/{id}/currency_prices.json`), once: after an ambiguous failure they are read back by
 * currency and role, and only when none is there is the POST sent again, with the same token. `pricing` (the
 * price point's primary pricing, e.g. its `pricing` as read), when given, is checked against first: each
 * currency must have exactly its roles (see `currencyPricesProblems`).
 */
export async function createPricePointCurrencyPrices(
  t: Transport,
  productId: unknown,
  pricePointId: unknown,
  input: PricePointCurrencyPricesInput,
  opts: Opts & { pricing?: PrimaryPricingRoles },
): Promise<PricePointCurrencyPrice[]> {
  const declared = parsed(pricePointCurrencyPricesInput, input, "invalid currency prices", "currencyPrices", [
    ...idProblems(productId, "productId"),
    ...idProblems(pricePointId, "pricePointId"),
    ...tokenProblems(opts.uniquenessToken),
    ...(opts.pricing ? mirrorProblems(opts.pricing, input) : []),
  ]);
  const records = productRecords(declared);
  if (records.length === 0) return [];
  return createCurrencyPricesOnce(t, opts, {
    handle: Object.keys(declared).join(", "),
    path: `/product_price_points/${pricePointId}/currency_prices.json`,
    records,
    named: records,
    answer: productCurrencyPricesResponse,
    result: (r) => r.currency_prices.map(toPricePointCurrencyPrice),
    read: () => readPricePointCurrencyPrices(t, productId, pricePointId),
    holds: (h, r) => h.currency === r.currency && h.role === r.role,
    slot: (r) => `${r.currency} ${r.role} price`,
  });
}

/**
 * Changes the amounts of a product price point's existing currency prices (`PUT
 * /product_price_points/{id}/currency_prices.json`, records by id), in place: the declared currencies and roles
 * are read first for their ids; one the price point has no price for yet is a {@link BillingValidationError}
 * (create it: an update only changes amounts). Repeated like a read; after a failure that may have applied,
 * read back to see whether every amount holds.
 */
export async function updatePricePointCurrencyPrices(
  t: Transport,
  productId: unknown,
  pricePointId: unknown,
  input: PricePointCurrencyPricesInput,
): Promise<PricePointCurrencyPrice[]> {
  const declared = parsed(pricePointCurrencyPricesInput, input, "invalid currency prices", "currencyPrices", [
    ...idProblems(productId, "productId"),
    ...idProblems(pricePointId, "pricePointId"),
  ]);
  const records = productRecords(declared);
  if (records.length === 0) return [];
  const held = await readPricePointCurrencyPrices(t, productId, pricePointId);
  const problems: Problem[] = [];
  const body = records.flatMap((r) => {
    const h = held.find((x) => x.currency === r.currency && x.role === r.role);
    if (h?.id === undefined) {
      problems.push({
        property: `currencyPrices.${r.currency}.${r.role}`,
        message: `has no price on price point ${pricePointId} yet: create it (an update changes existing prices only)`,
      });
      return [];
    }
    return [{ id: h.id, price: r.price }];
  });
  if (problems.length > 0) throw new BillingValidationError("invalid currency prices update", problems);
  return settledWrite(
    t,
    {
      method: "PUT",
      path: `/product_price_points/${pricePointId}/currency_prices.json`,
      repeatable: true,
      body: { currency_prices: body },
    },
    productCurrencyPricesResponse,
    (r) => r.currency_prices.map(toPricePointCurrencyPrice),
    async () => {
      const back = await readPricePointCurrencyPrices(t, productId, pricePointId);
      const mine = back.filter((h) => records.some((r) => r.currency === h.currency && r.role === h.role));
      return records.every((r) => mine.some((h) => h.currency === r.currency && h.role === r.role && sameAmount(h.price, r.price)))
        ? mine
        : undefined;
    },
  );
}

/** What a declared `currencyPrices` needs done to a price point or a coupon that holds `held`. */
export interface CurrencyPricesPlan<T> {
  /** Currencies the object has no price in yet: created. */
  readonly create: Record<string, T>;
  /** Currencies whose amounts differ: updated in place. */
  readonly update: Record<string, T>;
  /** Currencies the object holds prices in that the declaration leaves out: the service has no operation that removes them. */
  readonly undeclared: readonly string[];
}

/** Splits a declared map against what is held, currency by currency (amounts compared as numbers). */
export function planCurrencyPrices<T>(
  declared: Readonly<Record<string, T>>,
  held: Readonly<Record<string, unknown>>,
  same: (a: T, h: unknown) => boolean,
): CurrencyPricesPlan<T> {
  const create: Record<string, T> = {};
  const update: Record<string, T> = {};
  for (const [code, want] of Object.entries(declared)) {
    if (!(code in held)) create[code] = want;
    else if (!same(want, held[code])) update[code] = want;
  }
  return { create, update, undeclared: Object.keys(held).filter((code) => !(code in declared)) };
}

/** Whether a product price point's held amounts of one currency equal the declared ones, role by role. */
export const samePricePointAmounts = (want: Partial<Record<string, number>>, held: unknown): boolean => {
  const h = (held ?? {}) as Record<string, number | undefined>;
  const roles = new Set([...Object.keys(want), ...Object.keys(h)]);
  return [...roles].every((r) => want[r] === h[r] || sameAmount(want[r], h[r]));
};

/**
 * Makes a product price point's currency prices those declared: creates the currencies it has none in,
 * updates the amounts that differ, and sends nothing when all hold. Currencies it holds that the declaration
 * leaves out are kept (the service publishes no way to remove them) and returned in `undeclared`, for the
 * caller to report. `pricing`, when given, is checked against first (the mirror rule).
 */
export async function setPricePointCurrencyPrices(
  t: Transport,
  productId: unknown,
  pricePointId: unknown,
  input: PricePointCurrencyPricesInput,
  opts: Opts & { pricing?: PrimaryPricingRoles },
): Promise<{ prices: PricePointCurrencyPrice[]; undeclared: readonly string[] }> {
  const declared = parsed(pricePointCurrencyPricesInput, input, "invalid currency prices", "currencyPrices", [
    ...idProblems(productId, "productId"),
    ...idProblems(pricePointId, "pricePointId"),
    ...(opts.pricing ? mirrorProblems(opts.pricing, input) : []),
  ]);
  const held = await readPricePointCurrencyPrices(t, productId, pricePointId);
  const plan = planCurrencyPrices<(typeof declared)[string]>(declared, pricePointCurrencyPricesOf(held), samePricePointAmounts);
  if (Object.keys(plan.create).length > 0) await createPricePointCurrencyPrices(t, productId, pricePointId, plan.create, opts);
  if (Object.keys(plan.update).length > 0) await updatePricePointCurrencyPrices(t, productId, pricePointId, plan.update);
  const changed = Object.keys(plan.create).length + Object.keys(plan.update).length > 0;
  return { prices: changed ? await readPricePointCurrencyPrices(t, productId, pricePointId) : held, undeclared: plan.undeclared };
}

/** The mirror rule's problems of a declaration against a product price point's pricing (its roles only). */
function mirrorProblems(pricing: PrimaryPricingRoles, input: unknown): Problem[] {
  return currencyPricesProblems({ kind: "product price point", pricing, useSiteExchangeRate: false }, input).filter(
    (p) => /\.(trial|initial)$/.test(p.property) && (p.message.startsWith("is required") || p.message.startsWith("must be left out")),
  );
}

// ---------------------------------------------------------------------------------------------------
// Component price points: POST/PUT /price_points/{id}/currency_prices.json; read through the component's list.
// ---------------------------------------------------------------------------------------------------

/**
 * A component price point's price levels' ids (what its currency prices are keyed by): its tiers ascending by
 * starting quantity, then a prepaid price point's overage tiers the same way. The service asks a currency for "a
 * matching price level" of "each price level defined on the component price point", and a prepaid point's overage
 * tiers are price levels of it (their own price ids): left out, the currency's create is refused.
 */
const tierIdsOf = (p: WireComponentPricePoint): number[] =>
  [p.prices, p.overage_prices].flatMap((levels) =>
    [...(levels ?? [])]
      .sort((a, b) => a.starting_quantity - b.starting_quantity)
      .flatMap((x) => (typeof x.id === "number" && x.id > 0 ? [x.id] : [])),
  );

/**
 * A component price point with its currency prices. The contract's read of one price point takes no
 * `currency_prices` parameter; its list does (`GET /components/{id}/price_points.json?currency_prices=true`),
 * so the list is read and the price point found in it. Not listed: a {@link BillingApiError} 404.
 */
async function readPointWithCurrencies(t: Transport, componentId: number, pricePointId: number): Promise<WireComponentPricePoint> {
  let found: WireComponentPricePoint | undefined;
  await allPages(MAX_COMPONENT_PRICE_POINTS_PER_PAGE, async (page) => {
    const { price_points } = await t.call(
      {
        method: "GET",
        path: `/components/${componentId}/price_points.json`,
        repeatable: true,
        query: { currency_prices: "true", page, per_page: MAX_COMPONENT_PRICE_POINTS_PER_PAGE },
      },
      componentPricePointListResponse,
    );
    found ??= price_points.find((p) => p.id === pricePointId) as WireComponentPricePoint | undefined;
    // Stop reading once found: a short page ends the list anyway.
    return found ? [] : price_points;
  });
  if (!found)
    throw new BillingApiError({
      status: 404,
      errors: [`price point ${pricePointId} is not among component ${componentId}'s price points`],
      method: "GET",
      path: `/components/${componentId}/price_points.json`,
    });
  return found;
}

/** A component price point's currency prices, and its tiers' ids in order (to read them per tier: `componentCurrencyPricesOf`). */
export async function readComponentPricePointCurrencyPrices(
  t: Transport,
  componentId: unknown,
  pricePointId: unknown,
): Promise<{ prices: ComponentPricePointCurrencyPrice[]; tierIds: number[] }> {
  ids(
    [
      [componentId, "componentId"],
      [pricePointId, "pricePointId"],
    ],
    "invalid component price point",
  );
  const p = await readPointWithCurrencies(t, componentId as number, pricePointId as number);
  return { prices: (p.currency_prices ?? []).map(toComponentPricePointCurrencyPrice), tierIds: tierIdsOf(p) };
}

/**
 * Creates a component price point's prices in currencies it has none in yet (`POST
 * /price_points/{id}/currency_prices.json`), one unit price per tier: the price point is read first for its
 * tiers (their ids, the mirror rule: as many prices as tiers, and no custom price point), then the POST is sent
 * once, read back by currency and tier after an ambiguous failure.
 */
export async function createComponentPricePointCurrencyPrices(
  t: Transport,
  componentId: unknown,
  pricePointId: unknown,
  input: ComponentCurrencyPricesInput,
  opts: Opts,
): Promise<ComponentPricePointCurrencyPrice[]> {
  const declared = parsed(componentCurrencyPricesInput, input, "invalid currency prices", "currencyPrices", [
    ...idProblems(componentId, "componentId"),
    ...idProblems(pricePointId, "pricePointId"),
    ...tokenProblems(opts.uniquenessToken),
  ]);
  if (Object.keys(declared).length === 0) return [];
  const cid = componentId as number;
  const ppid = pricePointId as number;
  const { price_point: point } = await t.call(
    { method: "GET", path: `/components/${cid}/price_points/${ppid}.json`, repeatable: true },
    componentPricePointResponse,
  );
  const tierIds = tierIdsOf(point);
  const mirror = currencyPricesProblems(
    { kind: "component price point", tiers: tierIds.length, type: point.type ?? undefined, useSiteExchangeRate: false },
    input,
  );
  if (mirror.length > 0) throw new BillingValidationError("invalid currency prices", mirror);
  const records = Object.entries(declared).flatMap(([currency, prices]) =>
    prices.map((price, i) => ({ currency, price: Number(price), price_id: tierIds[i] })),
  );
  return createCurrencyPricesOnce(t, opts, {
    handle: Object.keys(declared).join(", "),
    path: `/price_points/${ppid}/currency_prices.json`,
    records,
    // Each record's tier, to name a refused one as the caller declared it (`currencyPrices.EUR[1]`).
    named: Object.entries(declared).flatMap(([currency, prices]) => prices.map((_, tier) => ({ currency, tier }))),
    answer: componentCurrencyPricesResponse,
    result: (r) => r.currency_prices.map(toComponentPricePointCurrencyPrice),
    read: async () => (await readComponentPricePointCurrencyPrices(t, cid, ppid)).prices,
    holds: (h, r) => h.currency === r.currency && h.priceId === r.price_id,
    slot: (r) => `${r.currency} unit price of the tier with price id ${r.price_id}`,
  });
}

/**
 * Changes the unit prices of a component price point's existing currency prices (`PUT
 * /price_points/{id}/currency_prices.json`, records by id), in place; read first for their ids (a currency or
 * tier without a price yet is a {@link BillingValidationError}: create it). Repeated like a read; after a
 * failure that may have applied, read back to see whether every price holds.
 */
export async function updateComponentPricePointCurrencyPrices(
  t: Transport,
  componentId: unknown,
  pricePointId: unknown,
  input: ComponentCurrencyPricesInput,
): Promise<ComponentPricePointCurrencyPrice[]> {
  const declared = parsed(componentCurrencyPricesInput, input, "invalid currency prices", "currencyPrices", [
    ...idProblems(componentId, "componentId"),
    ...idProblems(pricePointId, "pricePointId"),
  ]);
  if (Object.keys(declared).length === 0) return [];
  const cid = componentId as number;
  const ppid = pricePointId as number;
  const { prices: held, tierIds } = await readComponentPricePointCurrencyPrices(t, cid, ppid);
  const mirror = currencyPricesProblems({ kind: "component price point", tiers: tierIds.length, useSiteExchangeRate: false }, input);
  const problems: Problem[] = [...mirror];
  const wanted = Object.entries(declared).flatMap(([currency, prices]) =>
    prices.map((price, i) => ({ currency, price: Number(price), priceId: tierIds[i], i })),
  );
  const body = wanted.flatMap((w) => {
    const h = held.find((x) => x.currency === w.currency && x.priceId === w.priceId);
    if (h?.id === undefined) {
      if (w.priceId !== undefined)
        problems.push({
          property: `currencyPrices.${w.currency}[${w.i}]`,
          message: `has no price on price point ${ppid} yet: create it (an update changes existing prices only)`,
        });
      return [];
    }
    return [{ id: h.id, price: w.price }];
  });
  if (problems.length > 0) throw new BillingValidationError("invalid currency prices update", problems);
  return settledWrite(
    t,
    { method: "PUT", path: `/price_points/${ppid}/currency_prices.json`, repeatable: true, body: { currency_prices: body } },
    componentCurrencyPricesResponse,
    (r) => r.currency_prices.map(toComponentPricePointCurrencyPrice),
    async () => {
      const back = (await readComponentPricePointCurrencyPrices(t, cid, ppid)).prices;
      const mine = back.filter((h) => wanted.some((w) => w.currency === h.currency && w.priceId === h.priceId));
      return wanted.every((w) => mine.some((h) => h.currency === w.currency && h.priceId === w.priceId && sameAmount(h.price, w.price)))
        ? mine
        : undefined;
    },
  );
}

/**
 * Makes a component price point's currency prices those declared (as {@link setPricePointCurrencyPrices}):
 * creates the currencies it has none in, updates those whose unit prices differ; `undeclared` names the
 * currencies it keeps that the declaration leaves out.
 */
export async function setComponentPricePointCurrencyPrices(
  t: Transport,
  componentId: unknown,
  pricePointId: unknown,
  input: ComponentCurrencyPricesInput,
  opts: Opts,
): Promise<{ prices: ComponentPricePointCurrencyPrice[]; undeclared: readonly string[] }> {
  const declared = parsed(componentCurrencyPricesInput, input, "invalid currency prices", "currencyPrices", [
    ...idProblems(componentId, "componentId"),
    ...idProblems(pricePointId, "pricePointId"),
  ]);
  const now = await readComponentPricePointCurrencyPrices(t, componentId, pricePointId);
  const held = componentCurrencyPricesOf(now.prices, now.tierIds);
  const plan = planCurrencyPrices(
    declared,
    held,
    (want, h) => Array.isArray(h) && h.length === want.length && want.every((w, i) => sameAmount(w, (h as (string | undefined)[])[i])),
  );
  if (Object.keys(plan.create).length > 0) await createComponentPricePointCurrencyPrices(t, componentId, pricePointId, plan.create, opts);
  if (Object.keys(plan.update).length > 0) await updateComponentPricePointCurrencyPrices(t, componentId, pricePointId, plan.update);
  const changed = Object.keys(plan.create).length + Object.keys(plan.update).length > 0;
  return {
    prices: changed ? (await readComponentPricePointCurrencyPrices(t, componentId, pricePointId)).prices : now.prices,
    undeclared: plan.undeclared,
  };
}

// ---------------------------------------------------------------------------------------------------
// Coupons: PUT /coupons/{id}/currency_prices.json (create or update by currency); read through the coupon list.
// ---------------------------------------------------------------------------------------------------

/**
 * A coupon with its currency prices: `GET /coupons.json?filter[ids]=…&currency_prices=true`, the read the
 * contract publishes the parameter on (its read by id publishes none). Not listed: a 404.
 */
async function readCouponWithCurrencies(t: Transport, couponId: number) {
  const rows = await t.call(
    { method: "GET", path: "/coupons.json", repeatable: true, query: { "filter[ids]": String(couponId), currency_prices: "true" } },
    couponListResponse,
  );
  const c = rows.find((r) => r.coupon.id === couponId)?.coupon;
  if (!c) throw new BillingApiError({ status: 404, errors: [`coupon ${couponId} is not listed`], method: "GET", path: "/coupons.json" });
  return c;
}

/** A coupon's currency prices. */
export async function readCouponCurrencyPrices(t: Transport, couponId: unknown): Promise<CouponCurrencyPrice[]> {
  ids([[couponId, "couponId"]], "invalid coupon");
  return ((await readCouponWithCurrencies(t, couponId as number)).currency_prices ?? []).map(toCouponCurrencyPrice);
}

/**
 * Sets a flat-amount coupon's amounts in the currencies given (`PUT /coupons/{id}/currency_prices.json`: the
 * service creates a currency's price or updates it, by currency). The coupon is read first: a percentage
 * coupon is refused before sending, with the service's reason. A PUT of values: repeated like a read; after
 * a failure that may have applied, read back to see whether every amount holds. Currencies the coupon holds
 * that `input` leaves out are kept (and returned in `undeclared`): the service publishes no way to remove them.
 */
export async function setCouponCurrencyPrices(
  t: Transport,
  couponId: unknown,
  input: CouponCurrencyPricesInput,
): Promise<{ prices: CouponCurrencyPrice[]; undeclared: readonly string[] }> {
  const declared = parsed(couponCurrencyPricesInput, input, "invalid currency prices", "currencyPrices", idProblems(couponId, "couponId"));
  const cid = couponId as number;
  const coupon = await readCouponWithCurrencies(t, cid);
  const percentage = coupon.percentage ?? undefined;
  const refused = currencyPricesProblems({ kind: "coupon", percentage: percentage === undefined ? undefined : Number(percentage) }, input);
  if (refused.length > 0) throw new BillingValidationError("invalid currency prices", refused);
  const held = (coupon.currency_prices ?? []).map(toCouponCurrencyPrice);
  const plan = planCurrencyPrices(declared, couponCurrencyPricesOf(held), (w, h) => sameAmount(w, h as number));
  const send = { ...plan.create, ...plan.update };
  if (Object.keys(send).length === 0) return { prices: held, undeclared: plan.undeclared };
  const prices = await settledWrite(
    t,
    {
      method: "PUT",
      path: `/coupons/${cid}/currency_prices.json`,
      repeatable: true,
      body: { currency_prices: Object.entries(send).map(([currency, price]) => ({ currency, price })) },
    },
    couponCurrencyPricesResponse,
    async (r) => (r.currency_prices ? r.currency_prices.map(toCouponCurrencyPrice) : await readCouponCurrencyPrices(t, cid)),
    async () => {
      const back = await readCouponCurrencyPrices(t, cid);
      return Object.entries(send).every(([c, p]) => back.some((b) => b.currency === c && sameAmount(b.price, p))) ? back : undefined;
    },
  );
  // The answer may list only the currencies sent: the coupon's whole set is what a caller compares with.
  const all = [...prices, ...held.filter((h) => !prices.some((p) => p.currency === h.currency))];
  return { prices: all, undeclared: plan.undeclared };
}
