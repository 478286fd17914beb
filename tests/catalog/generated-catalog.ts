import fc from "fast-check";
import { PRICING_FIELDS } from "../../provider/kinds/pricing-fields";
import { CURRENCY_PRICE_ROLES, rolesOf } from "../../sdk/catalog/currency-inputs";
import type { Simulator } from "../../simulator";

/**
 * Random catalogs over every field the catalog kinds declare, as the kinds' own inputs (so a field
 * is named once, as a program writes it), and their seeding into a simulator site by the
 * simulator's seeding calls, as a web UI would have made them. Used by the round-trip property.
 */

type Inputs = Record<string, unknown>;

/** One generated object: its kind's type, its inputs as a program declares it, and whether the site archived it. */
export interface GeneratedObject {
  readonly type: string;
  readonly inputs: Inputs;
  readonly archived: boolean;
  /** For a custom field: how many subscriptions or customers the site says hold data in it (never part of a declaration). */
  readonly dataCount?: number;
  /** For an offer: how many signup pages the web UI made for it (no request makes one, so none travels). */
  readonly signupPages?: number;
}

/** A generated catalog, objects in seeding order (an owner before what it holds or what refers to it). */
export interface GeneratedCatalog {
  readonly objects: readonly GeneratedObject[];
}

const handle = (prefix: string) => fc.stringMatching(/^[a-z0-9]{1,6}$/).map((s) => `${prefix}${s}`);
const name = fc.stringMatching(/^[A-Z][a-z]{0,7}( [a-z]{1,5})?$/);
const text = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ,.]{0,20}$/);
const cents = fc.integer({ min: 0, max: 250_000 });
const unit = fc.constantFrom("month", "day");
const flag = fc.boolean();
const optional = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 2 });
const price = fc.oneof(
  fc.integer({ min: 0, max: 500 }).map(String),
  fc.tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 1, max: 99 })).map(([a, b]) => `${a}.${String(b).padStart(2, "0")}`),
);
/** True once in `n` draws: an archived object now and then. */
const rarely = (n: number) => fc.integer({ min: 1, max: n }).map((x) => x === 1);
/** Drops undefined fields, so each object holds only what was chosen. */
const defined = (o: Inputs): Inputs => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** The other currencies of every generated site (its primary one is USD): currency prices name some of them. */
export const SITE_CURRENCIES = ["EUR", "GBP", "CAD", "JPY"] as const;
/** An amount in a currency's own units, at most 2 decimals. */
const currencyAmount = fc.integer({ min: 0, max: 1_000_000 }).map((n) => n / 100);
/** Prices in the site's other currencies, drawn before the pricing they mirror is known: which currencies, and amounts enough for every role. */
const currencyDraw = optional(
  fc.record({
    codes: fc.subarray([...SITE_CURRENCIES]),
    amounts: fc.array(currencyAmount, { minLength: SITE_CURRENCIES.length * 3, maxLength: SITE_CURRENCIES.length * 3 }),
  }),
);
type CurrencyDraw = { codes: string[]; amounts: number[] } | undefined;
/**
 * A price point's own prices in other currencies (`useSiteExchangeRate: false`), mirroring its pricing's roles; none
 * drawn: it follows the exchange rate (the service's default, left out).
 */
function ownCurrencyPrices(draw: CurrencyDraw, pricing: Inputs): Inputs {
  if (!draw) return {};
  const roles = rolesOf(pricing);
  const currencyPrices = Object.fromEntries(
    draw.codes.map((code, i) => [
      code,
      Object.fromEntries(roles.map((role) => [role, draw.amounts[i * 3 + CURRENCY_PRICE_ROLES.indexOf(role)] as number])),
    ]),
  );
  return { useSiteExchangeRate: false, ...(draw.codes.length > 0 ? { currencyPrices } : {}) };
}

/** A product's or price point's pricing: each trial type, with or without a trial, an initial charge and an expiration. */
const pricing = fc
  .record({
    priceInCents: cents,
    interval: fc.integer({ min: 1, max: 24 }),
    intervalUnit: unit,
    trial: optional(
      fc.record({
        trialPriceInCents: cents,
        trialInterval: fc.integer({ min: 1, max: 60 }),
        trialIntervalUnit: unit,
        trialType: optional(fc.constantFrom("no_obligation", "payment_expected")),
      }),
    ),
    initial: optional(fc.record({ initialChargeInCents: fc.integer({ min: 1, max: 100_000 }), initialChargeAfterTrial: optional(flag) })),
    expiration: optional(fc.record({ expirationInterval: fc.integer({ min: 1, max: 36 }), expirationIntervalUnit: unit })),
  })
  .map(({ trial, initial, expiration, ...base }) =>
    defined({
      ...base,
      ...trial,
      ...(initial && { initialChargeInCents: initial.initialChargeInCents }),
      // Only with a trial does the initial charge have a later moment to wait for.
      ...(initial && trial && initial.initialChargeAfterTrial === true && { initialChargeAfterTrial: true }),
      ...expiration,
    }),
  );

/** Tiers for a scheme: per_unit one open tier from 1; the others one to three, ascending and contiguous. */
const tiersFor = (scheme: string) =>
  scheme === "per_unit"
    ? price.map((unitPrice) => [{ startingQuantity: 1, unitPrice }])
    : // A bounded tier ends after it starts (the service's bracket rule): two quantities at least.
      fc.array(fc.tuple(fc.integer({ min: 2, max: 500 }), price), { minLength: 0, maxLength: 2 }).chain((bounded) =>
        price.map((last) => {
          const tiers: Inputs[] = [];
          let start = 1;
          for (const [width, unitPrice] of bounded) {
            tiers.push({ startingQuantity: start, endingQuantity: start + width - 1, unitPrice });
            start += width;
          }
          tiers.push({ startingQuantity: start, unitPrice: last });
          return tiers;
        }),
      );
const schemeAndTiers = fc
  .constantFrom("per_unit", "volume", "tiered", "stairstep")
  .chain((pricingScheme) => tiersFor(pricingScheme).map((prices) => ({ pricingScheme, prices })));

const charge = fc.constantFrom("full", "prorated", "none");
const frequency = optional(fc.record({ interval: fc.integer({ min: 1, max: 12 }), intervalUnit: unit }));
const prepaidTerms = fc.record({
  overagePricing: schemeAndTiers,
  rolloverPrepaidRemainder: optional(flag),
  renewPrepaidAllocation: optional(flag),
  expiration: optional(fc.record({ expirationInterval: fc.integer({ min: 1, max: 12 }), expirationIntervalUnit: unit })),
});

/** The fields every component kind takes, each left out or chosen. */
const componentCommon = fc.record({
  name,
  description: optional(text),
  taxable: optional(flag),
  taxCode: optional(fc.stringMatching(/^[A-Z][A-Z0-9]{0,7}$/)),
  accountingCode: optional(fc.stringMatching(/^[A-Z]{2}-[0-9]{1,4}$/)),
  itemCategory: optional(fc.constantFrom("Business Software", "Consumer Software", "Digital Services", "Physical Goods", "Other")),
  hideDateRangeOnInvoice: optional(flag),
  // Write-only at the service (its answers have no such field): not generated, as no site could show it (the facet says so).
  upgradeCharge: optional(charge),
  downgradeCredit: optional(charge),
});

/** A component of each kind, with the fields that kind takes. */
const componentBody = fc
  .oneof(
    fc.record({ kind: fc.constant("metered"), unitName: name, t: schemeAndTiers, frac: optional(flag), f: frequency }),
    fc.record({
      kind: fc.constant("quantity_based"),
      unitName: name,
      t: schemeAndTiers,
      frac: optional(flag),
      f: frequency,
      recurring: optional(flag),
    }),
    fc.record({ kind: fc.constant("on_off"), unitPrice: price, f: frequency }),
    fc.record({ kind: fc.constant("prepaid_usage"), unitName: name, t: schemeAndTiers, frac: optional(flag), p: prepaidTerms }),
    fc.record({
      kind: fc.constant("event_based"),
      unitName: name,
      t: schemeAndTiers,
      // An event-based component takes no fractional quantities (the contract's create has no such field).
      f: frequency,
      metric: fc.integer({ min: 1, max: 99 }),
    }),
  )
  .map((c) => {
    const { t, frac, f, p, metric, ...rest } = c as Inputs & {
      t?: Inputs;
      frac?: boolean;
      f?: Inputs;
      p?: Inputs & { expiration?: Inputs };
      metric?: number;
    };
    const { expiration, ...terms } = p ?? {};
    return defined({
      ...rest,
      ...t,
      allowFractionalQuantities: frac,
      ...f,
      ...(p && { ...terms, ...(expiration as Inputs | undefined) }),
      eventBasedBillingMetricId: metric,
    });
  });

/** A component's further price point, with the terms its component's kind takes. */
const componentPricePointBody = (kind: string) =>
  fc
    .record({
      name,
      t:
        kind === "on_off"
          ? price.map((unitPrice) => ({ pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice }] }))
          : schemeAndTiers,
      f: kind === "prepaid_usage" ? fc.constant(undefined) : frequency,
      useSiteExchangeRate: optional(flag),
      taxIncluded: optional(flag),
      p: kind === "prepaid_usage" ? prepaidTerms : fc.constant(undefined),
      // Its own prices in some of the site's other currencies, one per tier, then (prepaid) one per overage tier (at most
      // three of each): then not the exchange rate's.
      currencies: optional(
        fc.record({ codes: fc.subarray([...SITE_CURRENCIES]), prices: fc.array(price, { minLength: 6, maxLength: 6 }) }),
      ),
    })
    .map(({ t, f, p, currencies, ...rest }) => {
      const { expiration, ...terms } = (p ?? {}) as Inputs & { expiration?: Inputs };
      const overage = (terms as { overagePricing?: { prices: unknown[] } }).overagePricing;
      const tiers = (t as { prices: unknown[] }).prices.length + (overage?.prices.length ?? 0);
      const own =
        currencies && currencies.codes.length > 0
          ? {
              useSiteExchangeRate: false,
              currencyPrices: Object.fromEntries(currencies.codes.map((code) => [code, currencies.prices.slice(0, tiers)])),
            }
          : {};
      return defined({ ...rest, ...t, ...f, ...(p && { ...terms, ...expiration }), ...own });
    });

const couponBody = fc
  .record({
    name,
    description: optional(text),
    discount: fc.oneof(
      fc.integer({ min: 1, max: 100 }).map((percentage) => ({ percentage })),
      // A flat-amount coupon may have its discount in some of the site's other currencies (whole amounts: the simulator
      // takes the contract's integer `price`).
      fc
        .record({
          amountInCents: fc.integer({ min: 1, max: 50_000 }),
          currencies: fc.subarray([...SITE_CURRENCIES]),
          amounts: fc.array(fc.integer({ min: 0, max: 500 }), { minLength: SITE_CURRENCIES.length, maxLength: SITE_CURRENCIES.length }),
        })
        .map(({ amountInCents, currencies, amounts }) => ({
          amountInCents,
          ...(currencies.length > 0 && { currencyPrices: Object.fromEntries(currencies.map((code, i) => [code, amounts[i] as number])) }),
        })),
    ),
    recurrence: optional(fc.record({ durationPeriodCount: optional(fc.integer({ min: 1, max: 12 })) })),
    // As the service holds an end date (an instant), whether a web UI or the API set it.
    endDate: optional(fc.constantFrom("2031-06-30T00:00:00Z", "2032-01-15T00:00:00Z")),
    stackable: optional(flag),
    compoundingStrategy: optional(fc.constantFrom("compound", "full-price")),
    allowNegativeBalance: optional(flag),
    excludeMidPeriodAllocations: optional(flag),
    applyOnCancelAtEndOfPeriod: optional(flag),
    applyOnSubscriptionExpiration: optional(flag),
  })
  .map(({ discount, recurrence, ...rest }) =>
    defined({ ...rest, ...discount, ...(recurrence && { recurring: true, durationPeriodCount: recurrence.durationPeriodCount }) }),
  );

const uniqueBy = <T>(a: fc.Arbitrary<T>, key: (t: T) => string, max: number, min = 0) =>
  fc.uniqueArray(a, { selector: key, minLength: min, maxLength: max });

/**
 * A whole catalog: one or two families, products with price points, components with price points, coupons with
 * restrictions, and the site's reason codes and custom fields.
 */
export const catalogArbitrary: fc.Arbitrary<GeneratedCatalog> = fc
  .record({
    families: uniqueBy(fc.record({ handle: handle("f-"), name, description: optional(text) }), (f) => f.handle, 2, 1),
    products: uniqueBy(
      fc.record({
        handle: handle("p-"),
        family: fc.nat(),
        name,
        description: optional(text),
        accountingCode: optional(fc.stringMatching(/^[A-Z]{2}-[0-9]{1,4}$/)),
        taxCode: optional(fc.stringMatching(/^[A-Z][A-Z0-9]{0,7}$/)),
        requireCreditCard: optional(flag),
        requestCreditCard: optional(flag),
        requestBillingAddress: optional(flag),
        requireBillingAddress: optional(flag),
        requireShippingAddress: optional(flag),
        pricing,
        archived: rarely(6),
        pricePoints: uniqueBy(
          fc.record({ handle: handle("pp-"), name, pricing, archived: rarely(4), currencies: currencyDraw }),
          (p) => p.handle,
          2,
        ),
        /** Which price point, if any, the web UI made the default (then its pricing is the product's). */
        defaultPoint: optional(fc.nat()),
      }),
      (p) => p.handle,
      3,
    ),
    // Names distinct too: the service holds a family's live components to distinct names (across families too, here).
    components: fc.uniqueArray(
      fc.record({
        handle: handle("c-"),
        family: fc.nat(),
        common: componentCommon,
        body: componentBody,
        archived: rarely(6),
        pricePoints: fc.array(fc.record({ handle: handle("cpp-"), archived: rarely(4), seed: fc.nat() }), { maxLength: 2 }),
        /** Which price point, if any, the web UI made the default (then its prices are the component's). */
        defaultPoint: optional(fc.nat()),
      }),
      { comparator: (a, b) => a.handle === b.handle || a.common.name === b.common.name, maxLength: 3 },
    ),
    coupons: uniqueBy(
      fc.record({
        code: fc.stringMatching(/^[A-Z][A-Z0-9]{2,7}$/),
        family: fc.nat(),
        body: couponBody,
        archived: rarely(6),
        products: fc.array(fc.nat(), { maxLength: 2 }),
        components: fc.array(fc.nat(), { maxLength: 2 }),
      }),
      (c) => c.code,
      3,
    ),
    // Codes of any characters the import id takes (no "/"), digits alone too: a code is its key, never read as an id.
    reasonCodes: uniqueBy(
      fc.record({
        code: fc.oneof(fc.stringMatching(/^[a-z][a-z_ ]{0,10}$/), fc.stringMatching(/^[0-9]{1,4}$/)),
        description: text,
        position: fc.integer({ min: 1, max: 40 }),
      }),
      (r) => r.code,
      3,
    ),
    // Names are unique within a resource type: the same name under both is two fields.
    customFields: uniqueBy(
      fc.record({
        resourceType: fc.constantFrom("subscriptions", "customers"),
        name,
        choices: optional(
          fc.record({
            inputType: fc.constantFrom("radio", "dropdown"),
            enum: fc.uniqueArray(fc.stringMatching(/^[A-Z][a-z]{0,5}$/), { minLength: 1, maxLength: 3 }),
          }),
        ),
        scope: optional(
          fc.record(
            {
              csv: flag,
              invoices: flag,
              statements: flag,
              portal: flag,
              publicShow: flag,
              publicEdit: flag,
              hosted: fc.uniqueArray(fc.stringMatching(/^[1-9][0-9]{0,3}$/), { minLength: 1, maxLength: 2 }),
            },
            { requiredKeys: [] },
          ),
        ),
        dataCount: fc.nat({ max: 50 }),
      }),
      (f) => `${f.resourceType}:${f.name}`,
      3,
    ),
    // What each offer names is picked among the live objects once they are known; signup pages only the web UI makes.
    offers: uniqueBy(
      fc.record({
        handle: handle("o-"),
        name,
        description: optional(text),
        product: fc.nat(),
        pricePoint: optional(fc.nat()),
        components: fc.array(fc.record({ pick: fc.nat(), pricePoint: optional(fc.nat()), quantity: fc.nat({ max: 20 }) }), {
          maxLength: 2,
        }),
        coupons: fc.array(fc.nat(), { maxLength: 2 }),
        signupPages: fc.nat({ max: 2 }),
        archived: rarely(6),
      }),
      (o) => o.handle,
      2,
    ),
  })
  .chain((g) =>
    // A component price point's terms depend on its component's kind: drawn once the kinds are known.
    fc
      .tuple(...g.components.map((c) => fc.tuple(...c.pricePoints.map(() => componentPricePointBody(String((c.body as Inputs).kind))))))
      .map((cppBodies) => ({ ...g, cppBodies: cppBodies as Inputs[][] })),
  )
  .map((g) => {
    const objects: GeneratedObject[] = [];
    const familyOf = (n: number) => (g.families[n % g.families.length] as { handle: string }).handle;
    for (const f of g.families) objects.push({ type: "ProductFamily", inputs: defined({ ...f }), archived: false });
    for (const p of g.products) {
      const { family, pricing: own, archived, pricePoints, defaultPoint, ...fields } = p;
      const def = defaultPoint !== undefined && pricePoints.length > 0 ? defaultPoint % pricePoints.length : undefined;
      // A product's pricing is its default price point's, and so are its currency prices: those of a default the web UI
      // made of a price point with its own; the one made with the product follows the exchange rate.
      const pr = def !== undefined ? (pricePoints[def] as { pricing: Inputs }).pricing : own;
      const defCurrencies = def !== undefined ? ownCurrencyPrices((pricePoints[def] as { currencies: CurrencyDraw }).currencies, pr) : {};
      objects.push({
        type: "Product",
        inputs: defined({ productFamily: `handle:${familyOf(family)}`, ...fields, ...pr, ...defCurrencies }),
        archived,
      });
      pricePoints.forEach((pp, i) => {
        // A price point's handle is unique within its product: made so by its prefix.
        const ppHandle = `${p.handle}-${pp.handle}`;
        objects.push({
          type: "ProductPricePoint",
          inputs: defined({
            product: `handle:${p.handle}`,
            handle: ppHandle,
            name: pp.name,
            ...pp.pricing,
            // The site's seeding gives a price point the product's terms it does not set itself: its roles are theirs too.
            ...(i === def ? defCurrencies : ownCurrencyPrices(pp.currencies as CurrencyDraw, { ...pr, ...pp.pricing })),
            default: i === def || undefined,
          }),
          // The default cannot be archived (but with its product).
          archived: (pp.archived && i !== def) || archived,
        });
      });
    }
    g.components.forEach((c, i) => {
      const body = c.body as Inputs;
      const unique = c.pricePoints.filter((pp, j) => c.pricePoints.findIndex((x) => x.handle === pp.handle) === j);
      const def = c.defaultPoint !== undefined && unique.length > 0 ? c.defaultPoint % unique.length : undefined;
      const termsOf = (pp: (typeof unique)[number]) => (g.cppBodies[i] as Inputs[])[c.pricePoints.indexOf(pp)] as Inputs;
      // A component's prices are its default price point's: on/off's one price, else the scheme and tiers, and with them
      // what the price point holds that the component declares (frequency, prepaid terms); what it cannot declare is left out.
      const PRICE_TERMS = [
        "pricingScheme",
        "prices",
        "unitPrice",
        "overagePricing",
        "interval",
        "intervalUnit",
        "rolloverPrepaidRemainder",
        "renewPrepaidAllocation",
        "expirationInterval",
        "expirationIntervalUnit",
      ];
      const d = def !== undefined ? termsOf(unique[def] as (typeof unique)[number]) : undefined;
      const own = d === undefined ? body : Object.fromEntries(Object.entries(body).filter(([k]) => !PRICE_TERMS.includes(k)));
      const pricing =
        d === undefined
          ? {}
          : body.kind === "on_off"
            ? { unitPrice: (d.prices as Inputs[])[0]?.unitPrice, interval: d.interval, intervalUnit: d.intervalUnit }
            : Object.fromEntries(Object.entries(d).filter(([k]) => PRICE_TERMS.includes(k)));
      objects.push({
        type: "Component",
        inputs: defined({ productFamily: `handle:${familyOf(c.family)}`, handle: c.handle, ...c.common, ...own, ...pricing }),
        archived: c.archived,
      });
      unique.forEach((pp, j) => {
        objects.push({
          type: "ComponentPricePoint",
          inputs: defined({
            component: `handle:${c.handle}`,
            handle: `${c.handle}-${pp.handle}`,
            ...termsOf(pp),
            // The default's currency and tax options are its component's, which declares none: left as the service makes them.
            ...(j === def ? { useSiteExchangeRate: undefined, taxIncluded: undefined, currencyPrices: undefined, default: true } : {}),
            // An on/off component's default is its one price, a bracket from 0 as the service makes it from a unit price
            // (the vendor's on/off examples): what a declaration of the component can say.
            ...(j === def && body.kind === "on_off"
              ? { prices: (termsOf(pp).prices as Inputs[]).map((t) => ({ ...t, startingQuantity: 0 })) }
              : {}),
          }),
          archived: (pp.archived && j !== def) || c.archived,
        });
      });
    });
    const liveProducts = g.products.filter((p) => !p.archived).map((p) => p.handle);
    const liveComponents = g.components.filter((c) => !c.archived).map((c) => c.handle);
    const pick = (from: readonly string[], picks: readonly number[]) =>
      from.length === 0 ? [] : [...new Set(picks.map((n) => from[n % from.length] as string))].sort();
    for (const c of g.coupons) {
      const restrictedProducts = pick(liveProducts, c.products).map((h) => `handle:${h}`);
      const restrictedComponents = pick(liveComponents, c.components).map((h) => `handle:${h}`);
      objects.push({
        type: "Coupon",
        inputs: defined({
          productFamily: `handle:${familyOf(c.family)}`,
          code: c.code,
          ...c.body,
          restrictedProducts: restrictedProducts.length > 0 ? restrictedProducts : undefined,
          restrictedComponents: restrictedComponents.length > 0 ? restrictedComponents : undefined,
        }),
        archived: c.archived,
      });
    }
    for (const r of g.reasonCodes) objects.push({ type: "ReasonCode", inputs: { ...r }, archived: false });
    for (const f of g.customFields) {
      // A scope is written as a program writes it: the flags that are on, the pages when there are any.
      const scope = f.scope && defined(Object.fromEntries(Object.entries(f.scope).filter(([, v]) => v !== false)));
      objects.push({
        type: "CustomField",
        inputs: defined({
          resourceType: f.resourceType,
          name: f.name,
          ...f.choices,
          scope: scope && Object.keys(scope).length > 0 ? scope : undefined,
        }),
        // Data on subscriptions or customers is no part of the declaration: seeded to show it never travels.
        archived: false,
        dataCount: f.dataCount,
      });
    }
    objects.push(...offersOf(g.offers, objects));
    return { objects };
  });

type DrawnOffer = {
  handle: string;
  name: string;
  description?: string;
  product: number;
  pricePoint?: number;
  components: { pick: number; pricePoint?: number; quantity: number }[];
  coupons: number[];
  signupPages: number;
  archived: boolean;
};

/**
 * Offers over the live catalog drawn before them: a live product at one of its live price points other than its
 * default (or the default, left out), live components (each once, sorted by handle, as the service keeps them in
 * the order sent) at a live price point or their default, an on/off one starting at 0 or 1, live coupons. Signup
 * pages only the web UI makes: seeded to show they never travel.
 */
function offersOf(drawn: readonly DrawnOffer[], objects: readonly GeneratedObject[]): GeneratedObject[] {
  const live = (type: string) => objects.filter((o) => o.type === type && !o.archived);
  const products = live("Product");
  const components = live("Component");
  const coupons = live("Coupon").map((c) => String(c.inputs.code));
  if (products.length === 0) return [];
  const at = <T>(from: readonly T[], n: number | undefined) => (n === undefined || from.length === 0 ? undefined : from[n % from.length]);
  const pointsOf = (type: string, owner: string, input: string) =>
    live(type).filter((pp) => pp.inputs[input] === `handle:${owner}` && pp.inputs.default !== true);
  return drawn.map((d) => {
    const product = at(products, d.product) as GeneratedObject;
    const pricePoint = at(pointsOf("ProductPricePoint", String(product.inputs.handle), "product"), d.pricePoint);
    const items = new Map<string, Inputs>();
    for (const c of d.components) {
      const component = at(components, c.pick) as GeneratedObject | undefined;
      if (!component || items.has(String(component.inputs.handle))) continue;
      const pp = at(pointsOf("ComponentPricePoint", String(component.inputs.handle), "component"), c.pricePoint);
      items.set(
        String(component.inputs.handle),
        defined({
          component: `handle:${component.inputs.handle}`,
          pricePoint: pp && `handle:${pp.inputs.handle}`,
          startingQuantity: component.inputs.kind === "on_off" ? c.quantity % 2 : c.quantity,
        }),
      );
    }
    const codes = [...new Set(d.coupons.map((n) => at(coupons, n)).filter((c): c is string => c !== undefined))].sort();
    return {
      type: "Offer",
      inputs: defined({
        handle: d.handle,
        name: d.name,
        description: d.description,
        product: `handle:${product.inputs.handle}`,
        productPricePoint: pricePoint && `handle:${pricePoint.inputs.handle}`,
        components: items.size > 0 ? [...items.keys()].sort().map((h) => items.get(h) as Inputs) : undefined,
        coupons: codes.length > 0 ? codes.map((c) => `handle:${c}`) : undefined,
      }),
      archived: d.archived,
      signupPages: d.signupPages,
    };
  });
}

const ref = (v: unknown) => String(v).replace(/^handle:/, "");

/**
 * Seeds a generated catalog into a simulator site with its own seeding calls (what a web UI made):
 * each kind's inputs in the simulator's words.
 */
export function seedCatalog(sim: Simulator, c: GeneratedCatalog): void {
  const of = (type: string) => c.objects.filter((o) => o.type === type);
  for (const { inputs } of of("ProductFamily"))
    sim.addProductFamily({
      handle: String(inputs.handle),
      name: String(inputs.name),
      description: inputs.description as string | undefined,
    });
  for (const { inputs, archived } of of("Product")) {
    // Its currency prices are its default price point's, seeded with that one.
    const { productFamily, useSiteExchangeRate: _, currencyPrices: __, ...fields } = inputs;
    const points = of("ProductPricePoint").filter((pp) => ref(pp.inputs.product) === inputs.handle);
    const pricePoints = points.map(({ inputs: { product: _, currencyPrices: __, ...pp }, archived: ppArchived }) => ({
      ...pp,
      archived: ppArchived && !archived,
    }));
    const made = sim.addProduct({ ...(fields as object), familyHandle: ref(productFamily), archived, pricePoints } as Parameters<
      Simulator["addProduct"]
    >[0]);
    for (const { inputs: pp } of points) {
      const id = made.pricePoints.find((x) => x.handle === pp.handle)?.id;
      const declared = (pp.currencyPrices ?? {}) as Record<string, Record<string, number>>;
      const records = Object.entries(declared).flatMap(([currency, amounts]) =>
        Object.entries(amounts).map(([role, price]) => ({ currency, role: role as (typeof CURRENCY_PRICE_ROLES)[number], price })),
      );
      if (id !== undefined && records.length > 0) sim.addProductCurrencyPrices(id, records);
    }
  }
  for (const { inputs, archived } of of("Component")) {
    const { productFamily, ...fields } = inputs;
    const points = of("ComponentPricePoint").filter((pp) => ref(pp.inputs.component) === inputs.handle);
    const pricePoints = points.map(({ inputs: { component: _, currencyPrices: __, ...pp }, archived: ppArchived }) => ({
      ...pp,
      archived: ppArchived && !archived,
    }));
    const made = sim.addComponent({ ...(fields as object), familyHandle: ref(productFamily), archived, pricePoints } as Parameters<
      Simulator["addComponent"]
    >[0]);
    for (const { inputs: pp } of points) {
      const point = made.pricePoints.find((x) => x.handle === pp.handle);
      // Its price levels as the service keys currency prices: the tiers, then a prepaid point's overage tiers.
      const ids = [point?.prices, point?.overagePricing?.prices].flatMap((levels) =>
        [...(levels ?? [])].sort((a, b) => a.startingQuantity - b.startingQuantity).map((x) => x.id),
      );
      const records = Object.entries((pp.currencyPrices ?? {}) as Record<string, string[]>).flatMap(([currency, prices]) =>
        prices.map((price, i) => ({ currency, priceId: ids[i] as number, price })),
      );
      if (point && records.length > 0) sim.addComponentCurrencyPrices(point.id, records);
    }
  }
  for (const { inputs, archived } of of("Coupon")) {
    const { productFamily, restrictedProducts, restrictedComponents, currencyPrices, ...fields } = inputs;
    const made = sim.addCoupon({
      ...(fields as object),
      familyHandle: ref(productFamily),
      restrictedProducts: ((restrictedProducts as string[] | undefined) ?? []).map(ref),
      restrictedComponents: ((restrictedComponents as string[] | undefined) ?? []).map(ref),
      archived,
    } as Parameters<Simulator["addCoupon"]>[0]);
    const prices = Object.entries((currencyPrices ?? {}) as Record<string, number>).map(([currency, price]) => ({ currency, price }));
    if (prices.length > 0) sim.addCouponCurrencyPrices(made.id, prices);
  }
  for (const o of of("CustomField")) {
    const {
      resourceType,
      name: fieldName,
      inputType,
      enum: choices,
      scope,
    } = o.inputs as {
      resourceType: "subscriptions" | "customers";
      name: string;
      inputType?: "radio" | "dropdown";
      enum?: string[];
      scope?: Record<string, unknown>;
    };
    const flagOf = (k: string) => (scope?.[k] === true ? "1" : "0");
    sim.addMetafield({
      resourceType,
      name: fieldName,
      inputType,
      enum: choices,
      scope: {
        csv: flagOf("csv"),
        invoices: flagOf("invoices"),
        statements: flagOf("statements"),
        portal: flagOf("portal"),
        publicShow: flagOf("publicShow"),
        publicEdit: flagOf("publicEdit"),
        hosted: (scope?.hosted as string[] | undefined) ?? [],
      },
      dataCount: o.dataCount,
    });
  }
  for (const { inputs } of of("ReasonCode"))
    sim.addReasonCode({ code: String(inputs.code), description: String(inputs.description), position: inputs.position as number });
  for (const { inputs, archived, signupPages } of of("Offer"))
    sim.addOffer({
      handle: String(inputs.handle),
      name: String(inputs.name),
      description: inputs.description as string | undefined,
      productHandle: ref(inputs.product),
      pricePointHandle: inputs.productPricePoint === undefined ? undefined : ref(inputs.productPricePoint),
      components: ((inputs.components ?? []) as Inputs[]).map((c) => ({
        componentHandle: ref(c.component),
        pricePointHandle: c.pricePoint === undefined ? undefined : ref(c.pricePoint),
        startingQuantity: c.startingQuantity as number,
      })),
      couponCodes: ((inputs.coupons ?? []) as string[]).map(ref),
      signupPages: Array.from({ length: signupPages ?? 0 }, (_, i) => ({ nickname: `page ${i + 1}` })),
      archived,
    });
}

/** What an owner's default price point holds for it: its pricing and tiers, and the terms that go with them. */
const PRICES = new Set([
  ...PRICING_FIELDS,
  "useSiteExchangeRate",
  "currencyPrices",
  "pricingScheme",
  "prices",
  "unitPrice",
  "overagePricing",
  "rolloverPrepaidRemainder",
  "renewPrepaidAllocation",
]);

/** Inputs that name an object or another one: changing them is another object, not a changed field. */
const IDENTITY = new Set([
  "handle",
  "code",
  "resourceType",
  "productFamily",
  "product",
  "component",
  "restrictedProducts",
  "restrictedComponents",
  "productPricePoint",
  "components",
  "coupons",
  "kind",
  "pricingScheme",
]);
const CYCLES: Readonly<Record<string, readonly string[]>> = {
  month: ["day"],
  day: ["month"],
  no_obligation: ["payment_expected"],
  payment_expected: ["no_obligation"],
  full: ["prorated"],
  prorated: ["none"],
  none: ["full"],
  compound: ["full-price"],
  radio: ["dropdown"],
  dropdown: ["radio"],
  "full-price": ["compound"],
  "2031-06-30T00:00:00Z": ["2032-01-15T00:00:00Z"],
  "2032-01-15T00:00:00Z": ["2031-06-30T00:00:00Z"],
  "Business Software": ["Other"],
  "Consumer Software": ["Other"],
  "Digital Services": ["Other"],
  "Physical Goods": ["Other"],
  Other: ["Physical Goods"],
};
// One more, without a binary fraction's tail ("63.99" + 1 is "64.99000000000001", which no site takes as a price).
const moreMoney = (v: unknown) => String(Number((Number(v) + 1).toFixed(8)));
const lastTierDearer = (tiers: readonly Inputs[]) =>
  tiers.map((t, i) => (i === tiers.length - 1 ? { ...t, unitPrice: moreMoney(t.unitPrice) } : t));

/** Another valid value of a field, or undefined for one this test does not change. */
function changedValue(field: string, v: unknown): unknown {
  if (IDENTITY.has(field)) return undefined;
  if (typeof v === "boolean") return !v;
  if (field === "percentage") return v === 100 ? 99 : (v as number) + 1;
  if (typeof v === "number") return v + 1;
  if (field === "unitPrice") return moreMoney(v);
  if (field === "prices") return lastTierDearer(v as Inputs[]);
  if (field === "enum") return [...(v as string[]), "other"];
  if (field === "currencyPrices") {
    // The first currency's first amount one more: a changed currency price, which the diff names under currencyPrices.
    const [code, amounts] = Object.entries(v as Record<string, number | Record<string, number>>)[0] ?? [];
    if (code === undefined || amounts === undefined) return undefined;
    // A coupon's is an amount; a component price point's a unit price per tier; a price point's amounts by role.
    if (typeof amounts === "number") return { ...(v as Inputs), [code]: amounts + 1 };
    // One more, without a binary fraction's tail ("1.03" + 1 is "2.03").
    if (Array.isArray(amounts))
      return { ...(v as Inputs), [code]: [String(Number((Number(amounts[0]) + 1).toFixed(8))), ...amounts.slice(1)] };
    const [role, amount] = Object.entries(amounts)[0] as [string, number];
    return { ...(v as Inputs), [code]: { ...amounts, [role]: amount + 1 } };
  }
  if (field === "overagePricing") return { ...(v as Inputs), prices: lastTierDearer((v as { prices: Inputs[] }).prices) };
  if (typeof v === "string") return CYCLES[v]?.[0] ?? `${v}x`;
  return undefined;
}

/** The key a snapshot and a diff name an object by: its handle or code, a price point's after its owner's. */
export function keyOf(o: GeneratedObject): string {
  if (o.type === "CustomField") return `${o.inputs.resourceType}:${o.inputs.name}`;
  // An offer names a product, but is no price point of it.
  if (o.type === "Offer") return String(o.inputs.handle);
  const owner = o.inputs.product ?? o.inputs.component;
  const own = String(o.inputs.handle ?? o.inputs.code);
  return owner === undefined ? own : `${ref(owner)}/${own}`;
}

/** A catalog, the same catalog with one field of one live object changed, and which object (`Type key`) and field. */
export const mutatedArbitrary = (catalogs: fc.Arbitrary<GeneratedCatalog>) =>
  catalogs
    .map((catalog) => {
      const candidates: [number, string][] = [];
      // An owner whose default is one of its price points holds that one's prices: a change to them is the price point's.
      const ownedDefault = new Set(
        catalog.objects.filter((o) => o.inputs.default === true).map((o) => ref(o.inputs.product ?? o.inputs.component)),
      );
      catalog.objects.forEach((o, i) => {
        // A default price point is its owner's pricing, and changing either alone makes a catalog no site holds.
        if (o.archived || o.inputs.default === true) return;
        const hasDefault = (o.type === "Product" || o.type === "Component") && ownedDefault.has(String(o.inputs.handle));
        // A custom field's name is its key: another name is another field.
        for (const [k, v] of Object.entries(o.inputs))
          if (changedValue(k, v) !== undefined && !(hasDefault && PRICES.has(k)) && !(o.type === "CustomField" && k === "name"))
            candidates.push([i, k]);
      });
      return { catalog, candidates };
    })
    .filter(({ candidates }) => candidates.length > 0)
    .chain(({ catalog, candidates }) =>
      fc.constantFrom(...candidates).map(([i, field]) => {
        const o = catalog.objects[i] as GeneratedObject;
        const changed: GeneratedObject = { ...o, inputs: { ...o.inputs, [field]: changedValue(field, o.inputs[field]) } };
        return {
          catalog,
          changed: { objects: catalog.objects.map((x, j) => (j === i ? changed : x)) },
          object: `${o.type} ${keyOf(o)}`,
          field,
        };
      }),
    );
