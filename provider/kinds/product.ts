import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { pricePointCurrencyPricesInput } from "../../sdk/catalog/currency-inputs";
import type { BillingClient } from "../../sdk/client";
import { flag, type PricePointInput } from "../../sdk/inputs";
import type { PricePoint, Pricing, Product as ServiceProduct } from "../../sdk/results";
import { isUnknown } from "../engine";
import { shellProvider } from "../shell";
import {
  adoptField,
  describeChanges,
  findByHandle,
  handleField,
  nameField,
  PRICING_FIELDS,
  type PricingField,
  pricingChangeOf,
  pricingChanges,
  pricingFields,
  pricingInputs,
  pricingOf,
  pricingOutputShape,
  pricingOutputs,
  pricingRule,
  referencedHandle,
  refersTo,
} from "./catalog";
import { CURRENCY_PRICES, currencyFailures, heldAsDeclared, withCurrencyChange } from "./currency-fields";
import type { ProductArgs, ProductOutputs } from "./generated/product";
import { siteInput } from "./inputs";
import { type ArgsOf, type CatalogReader, type Context, declareKind, type InputsOf, type KindModule, resourceClass } from "./kind";
import { type LifecycleState, lifecycle, type Steps } from "./lifecycle";
import { convergeCurrencies, pricePointOwner, type WithCurrencies, withCurrencies } from "./price-point-currencies";
import { adoptionPricingNotice, rememberPricingNotice } from "./pricing-text";
import { familyField, familyIdOf } from "./product-family";

/** Descriptive fields the service changes in place with `PUT /products/{id}.json`. */
const DESCRIPTIVE = [
  "handle",
  "name",
  "description",
  "accountingCode",
  "taxCode",
  "requireCreditCard",
  "requestCreditCard",
  "requestBillingAddress",
  "requireBillingAddress",
  "requireShippingAddress",
] as const;
type Descriptive = (typeof DESCRIPTIVE)[number];

const kind = declareKind({
  key: "product",
  type: "Product",
  summary:
    "A product and the pricing of its default price point. Descriptive fields change in place; a pricing change makes the service create a new default price point (existing subscriptions keep theirs). Delete archives it.",
  inputs: z
    .object({
      productFamily: familyField("A product cannot move to another family."),
      handle: handleField("product"),
      name: nameField("The product's name (1 to 255 characters)."),
      description: z.string().max(4096).optional().describe("The product's description."),
      accountingCode: z.string().max(255).optional().describe("The product's accounting code."),
      taxCode: z.string().max(10).optional().describe("The product's tax code (at most 10 characters)."),
      requireCreditCard: flag.optional().describe("Whether signup requires a credit card."),
      requestCreditCard: flag.optional().describe("Whether signup asks for a credit card."),
      requestBillingAddress: flag.optional().describe("Whether signup asks for a billing address."),
      requireBillingAddress: flag.optional().describe("Whether signup requires a billing address."),
      requireShippingAddress: flag.optional().describe("Whether signup requires a shipping address."),
      ...pricingFields,
      useSiteExchangeRate: flag
        .optional()
        .describe(
          "Its default price point's: false, its prices in the site's other currencies are its own (`currencyPrices`); true, the service's default: they follow the site's exchange rate, and `currencyPrices` must be left out. " +
            "The service's product create and update take no such flag, and the default price point they make follows the exchange rate: " +
            "so when the default holds otherwise, the provider gives the product a new default price point with the same pricing and this flag " +
            "(handle `<handle>-default-<id of the one it replaces>`), promotes it and archives the one it replaces (subscriptions on it keep it). " +
            "The product stays: a change is in place. A pricing change, whose new default the service makes following the exchange rate, is followed the same way.",
        ),
      currencyPrices: pricePointCurrencyPricesInput
        .optional()
        .describe(
          "Its default price point's prices in the site's other currencies (with `useSiteExchangeRate: false`), by ISO code, in the currency's own units (9.5 is 9.50, not cents): `{ EUR: { baseline: 9, trial: 1, initial: 20 } }`. " +
            "They mirror the pricing: `baseline` always, `trial` exactly when it has a trial, `initial` exactly when it has an initial charge. Each currency must be one of the site's (checked at preview). " +
            "Set after the product, changed in place; a pricing change's new default price point gets them too; a currency left out is kept (the service has no delete of a currency price).",
        ),
      adopt: adoptField,
      pricingChangeAcknowledged: flag
        .optional()
        .describe(
          "Set true to acknowledge a pricing change (the policy pack requires it on production stacks); it changes nothing at the service.",
        ),
      site: siteInput,
    })
    .superRefine(...pricingRule),
  outputs: z.object({
    productId: z.number().int().describe("The service's id of the product (it differs from site to site; the handle does not)."),
    productFamilyId: z.number().int().nullable().describe("The id of its family."),
    handle: z.string().describe("The product's handle as the service holds it."),
    name: z.string().nullable().describe("The product's name as the service holds it."),
    description: z.string().nullable().describe("The product's description as the service holds it."),
    defaultPricePointId: z.number().int().nullable().describe("The id of its default price point (a pricing change makes a new one)."),
    defaultPricePointHandle: z.string().nullable().describe("The handle of its default price point."),
    archivedAt: z.string().nullable().describe("When it was archived (ISO-8601); null while it is live."),
    ...pricingOutputShape,
    useSiteExchangeRate: z
      .boolean()
      .nullable()
      .describe(
        "Whether its default price point's prices in other currencies follow the site's exchange rate, as the service holds it (null: not said).",
      ),
    currencyPrices: z
      .record(z.string(), z.record(z.string(), z.number()))
      .nullable()
      .describe(
        "Its default price point's own prices in other currencies as the service holds them, by currency and role (baseline, trial, initial); null while it follows the site's exchange rate.",
      ),
    site: z.string().optional().describe("The site, when one was named."),
  }),
  replaceOn: ["site"],
  refresh: true,
  onDelete: "archives the product (the service never deletes one; its handle stays taken, and its subscriptions keep it)",
  example: {
    productFamily: "handle:plans",
    handle: "launch-pro",
    name: "Launch Pro",
    priceInCents: 4900,
    interval: 1,
    intervalUnit: "month",
  },
  catalog: {
    key: "handle",
    references: { productFamily: { kind: "productFamily", output: "familyId" } },
    runtimeInputs: ["adopt", "pricingChangeAcknowledged", "site"],
    // What the service holds when a create leaves these out (the contract's defaults, as the simulator applies them).
    defaults: {
      requireCreditCard: true,
      requestCreditCard: true,
      requestBillingAddress: false,
      requireBillingAddress: false,
      requireShippingAddress: false,
      initialChargeAfterTrial: false,
      expirationIntervalUnit: "never",
      useSiteExchangeRate: true,
    },
    noun: "product",
    title: "Product",
    pricing: {
      fields: [...PRICING_FIELDS, CURRENCY_PRICES],
      onUpdate: "a new default price point; existing subscriptions keep theirs",
      onAdopt: "a new default price point; existing subscriptions keep theirs",
      policy:
        "The service applies it as a new default price point of the product: new signups get the new pricing, existing subscriptions keep theirs.",
    },
    replaced: () => ["create the new product (or adopt one with its handle)", "archive the old one (subscriptions on it keep it)"],
    deleted: () => ["archived: new signups can no longer choose it; its subscriptions keep it; its handle stays taken"],
  },
});

type Inputs = InputsOf<typeof kind>;

/*
 * How the kinds that take a product (a price point's owner, a coupon's restrictions) find one by its handle, and what
 * a handle no product has says: the product's knowledge, written here once.
 */

/**
 * The product with this handle, or undefined. The SDK reads a string of digits as an id, and a
 * handle may be digits only ("2024"): such a handle is looked for in the list instead.
 */
export async function productWithHandle(client: BillingClient, handle: string): Promise<ServiceProduct | undefined> {
  if (/^[0-9]+$/.test(handle)) return (await client.listProducts({ includeArchived: true })).find((p) => p.handle === handle);
  return findByHandle(() => client.readProduct(handle));
}

/** The failure of a product handle no product has at the site: what to declare instead. */
export const noProductWithHandle = (property: string, handle: string, siteLabel: string) =>
  `${property}: no product has the handle \`${handle}\` at site ${siteLabel}: declare a Product and pass it`;

/** The product's id: a number as given, a handle looked up (the product must exist). */
export async function productIdOf(ctx: Context, ref: number | string, site: string | undefined): Promise<number> {
  const handle = referencedHandle(ref);
  if (handle === undefined) return ref as number;
  const p = await productWithHandle(ctx.client(site), handle);
  if (!p) throw new Error(noProductWithHandle("product", handle, ctx.siteLabel(site)));
  return p.id;
}

/** What the service does with a product's pricing change, for the preview annotation. */
const NEW_DEFAULT = "the service creates a new default price point; existing subscriptions keep theirs";
/** What a change of currency prices alone does: the amounts change in place. */
const CURRENCY_IN_PLACE =
  "its default price point's prices in those currencies change in place (the product and its default stay); a currency left out keeps its prices: the service has no delete of a currency price";
type Outputs = z.output<typeof kind.outputs>;

/** The outputs, the inputs as declared (`args`), and while a create's outcome is unknown the token to resume it with. */
const state = kind.outputs.partial().extend({
  handle: z.string(),
  args: z.record(z.string(), z.unknown()),
  productFamilyHandle: z.string().nullable().optional(),
  pendingToken: z.string().optional(),
  /**
   * The default price point the product's own pricing is on: the one its create, its last pricing change or the
   * provider's replacement of it (`useSiteExchangeRate`) made. While another price point is the default (a
   * ProductPricePoint with `default: true`, or one promoted outside), that one says what new signups pay, and the
   * product's pricing is neither drift nor sent again until its declaration changes. Left out by a refresh, which
   * keeps it; absent from a state written before it was recorded: then the recorded default is taken for it.
   */
  ownDefaultId: z.number().int().nullable().optional(),
});
type State = z.output<typeof state> & LifecycleState;

/**
 * A product as the service holds it, with its default price point: the product's answer has no trial
 * type, which only the price point holds (and with it the pricing new signups get).
 */
interface Held {
  readonly p: ServiceProduct;
  readonly pp: WithCurrencies | undefined;
  /** After a create or an update: the default price point its own pricing is on (recorded as `ownDefaultId`). */
  readonly own?: number | null;
}

/**
 * The product and its default price point, read (with its own currency prices, when it has them). `early`: the
 * default a state recorded, asked for with the product (see {@link readHeld}), used when it is still the default.
 */
async function held(
  client: BillingClient,
  p: ServiceProduct,
  early?: { id: number; read: Promise<PricePoint | undefined> },
): Promise<Held> {
  const ppId = p.defaultPricePointId;
  const pp =
    ppId === undefined
      ? undefined
      : ((early?.id === ppId ? await early.read : undefined) ?? (await findByHandle(() => client.readPricePoint(p.id, ppId))));
  return { p, pp: pp && (await withCurrencies(client, p.id, pp)) };
}

/**
 * A recorded product and its default, read together: the default the state recorded is asked for beside the product,
 * so that a refresh's reads of one product's price points (the ProductPricePoints' and this one) are one list, and the
 * family's products another (issue 43), instead of a read of the default alone after each product. Asked for at the
 * same moment as the product, it is as fresh as the product's read; when the product names another default (promoted
 * since), that one is read after it, as before. A failed early read is not the answer: the default is read again alone.
 */
async function readHeld(client: BillingClient, id: number, recorded: { productFamilyId?: unknown; defaultPricePointId?: unknown }) {
  const familyId = typeof recorded.productFamilyId === "number" ? recorded.productFamilyId : undefined;
  const ppId = typeof recorded.defaultPricePointId === "number" ? recorded.defaultPricePointId : undefined;
  const early =
    ppId === undefined
      ? undefined
      : { id: ppId, read: findByHandle(() => client.readPricePoint(id, ppId)).catch((): PricePoint | undefined => undefined) };
  return held(client, await client.readProduct(id, { familyId }), early);
}

/**
 * A read that follows a change the service applied: its failure says what was applied, so that nobody repeats it by
 * hand; the next `pulumi up` reads the product again and finds nothing left to do.
 */
async function readAfterApplied<T>(applied: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(
      `${applied}; reading the result back failed: ${reason}. Nothing else was sent; the next \`pulumi up\` reads it again and does not repeat the change.`,
      { cause: err },
    );
  }
}

/**
 * The pricing new signups get: the default price point's, over the product's own answer (which lacks the trial
 * type, and where the price point's answer leaves a value out, says what it holds, e.g. an expiration "never").
 */
function pricingOfHeld({ p, pp }: Held): Pricing | undefined {
  if (!pp?.pricing) return p.pricing;
  const own = Object.fromEntries(Object.entries(pp.pricing).filter(([, v]) => v !== undefined));
  return { ...p.pricing, ...own } as Pricing;
}

function outputsOf(h: Held, site: string | undefined): Outputs {
  const { p } = h;
  return {
    productId: p.id,
    productFamilyId: p.productFamilyId ?? null,
    handle: p.handle ?? "",
    name: p.name ?? null,
    description: p.description ?? null,
    defaultPricePointId: p.defaultPricePointId ?? null,
    defaultPricePointHandle: p.defaultPricePointHandle ?? null,
    archivedAt: p.archivedAt ?? null,
    ...(pricingOutputs(pricingOfHeld(h)) as Pick<Outputs, PricingField>),
    useSiteExchangeRate: h.pp?.useSiteExchangeRate ?? null,
    currencyPrices: h.pp?.currencyPrices ?? null,
    ...(site !== undefined ? { site } : {}),
  };
}

/** The service's view of a declared field, for comparison with the declaration. */
function view(h: Held): Partial<Record<Descriptive | PricingField, unknown>> {
  const { p } = h;
  return {
    handle: p.handle,
    name: p.name,
    description: p.description ?? "",
    accountingCode: p.accountingCode ?? "",
    taxCode: p.taxCode ?? "",
    requireCreditCard: p.requireCreditCard,
    requestCreditCard: p.requestCreditCard,
    requestBillingAddress: p.requestBillingAddress,
    requireBillingAddress: p.requireBillingAddress,
    requireShippingAddress: p.requireShippingAddress,
    ...pricingOutputs(pricingOfHeld(h)),
  };
}

/** Declared descriptive fields the service holds differently. Options it does not report are sent whenever anything is. */
function descriptiveChanges(inputs: Partial<Inputs>, p: Partial<Record<string, unknown>>): Descriptive[] {
  return DESCRIPTIVE.filter((k) => inputs[k] !== undefined && !isUnknown(inputs[k]) && k in p && p[k] !== undefined && inputs[k] !== p[k]);
}

const archivedError = (p: ServiceProduct) =>
  `product \`${p.handle}\` (id ${p.id}) is archived at the service (since ${p.archivedAt}), and an archived product keeps its handle: ` +
  "restore it in the service's web UI and run `pulumi up` again, or declare the product with another handle";

const otherFamily = (handle: string, p: ServiceProduct) =>
  `product \`${handle}\` (id ${p.id}) exists in another product family (id ${p.productFamilyId ?? "unknown"}${p.productFamilyHandle ? `, \`${p.productFamilyHandle}\`` : ""}): ` +
  "the service cannot move a product between families; declare that family, or another handle";

/** Sends the declared fields the service holds differently (pricing as a whole, so that the new default price point is complete). */
async function converge(ctx: Context, h: Held, inputs: Inputs, withPricing = true): Promise<Held> {
  const v = view(h);
  const descriptive = descriptiveChanges(inputs, v);
  const pricing = withPricing ? pricingChanges(inputs, v) : [];
  if (descriptive.length === 0 && pricing.length === 0) return h;
  const body: Record<string, unknown> = Object.fromEntries(descriptive.map((k) => [k, inputs[k]]));
  if (pricing.length > 0) Object.assign(body, pricingOf(inputs));
  const client = ctx.client(inputs.site);
  // The SDK reads back after a failure that may have applied (with pricing: a new default price point), and says so.
  const answer = await client.updateProduct(h.p.id, body);
  const changed =
    pricing.length > 0 ? `its pricing (${describeChanges(pricing, v, inputs)}), so the service made a new default price point` : "";
  const updated = await readAfterApplied(
    `Product \`${inputs.handle}\`: the update was applied at the service (${[descriptive.length > 0 ? `${descriptive.join(", ")} changed` : "", changed].filter(Boolean).join("; ")})`,
    () => held(client, answer),
  );
  if (pricing.length > 0) {
    ctx.notice(
      `Product \`${inputs.handle}\`: pricing changed (${describeChanges(pricing, v, inputs)}): the service made a new default price point` +
        `${updated.p.defaultPricePointId !== undefined ? ` (id ${updated.p.defaultPricePointId})` : ""}; existing subscriptions keep theirs.`,
    );
  }
  return updated;
}

/** The handle of a default price point the provider makes in place of one that follows the exchange rate otherwise than declared. */
const replacingHandle = (productHandle: string, replaced: number) => `${productHandle}-default-${replaced}`;
/** The id of the price point a default made by the provider replaced, from its handle. */
const REPLACED = /-default-([1-9][0-9]{0,15})$/;
const defaultLabel = (handle: string, id: number) => `product \`${handle}\`'s default price point (id ${id})`;

/**
 * The default price point with the declared `useSiteExchangeRate`. Neither the product's create nor its update takes
 * the flag, and the default they make follows the exchange rate; no update of a price point changes it. So a default
 * that holds otherwise is replaced by a price point made with the same pricing and the flag (its handle names the one
 * it replaces, so that an `up` after a failure finds it instead of making another), promoted, and the replaced one
 * archived (subscriptions on it keep it). A replaced one left live by a failure is archived by the next `up`.
 */
async function defaultAsDeclared(ctx: Context, h: Held, inputs: Inputs): Promise<Held> {
  const want = inputs.useSiteExchangeRate;
  const { p, pp } = h;
  if (want === undefined || pp === undefined) return h;
  const client = ctx.client(inputs.site);
  const handle = p.handle ?? inputs.handle;
  if ((pp.useSiteExchangeRate ?? true) === want) {
    const replaced = REPLACED.exec(pp.handle ?? "")?.[1];
    const old = replaced === undefined ? undefined : await findByHandle(() => client.readPricePoint(p.id, Number(replaced)));
    if (old && old.archivedAt === undefined && old.type !== "default") await client.archivePricePoint(p.id, old.id);
    return h;
  }
  const own = replacingHandle(handle, pp.id);
  const found = (await client.listPricePoints(p.id, { includeArchived: true })).find((x) => x.handle === own);
  const made =
    found === undefined
      ? await client.createPricePoint(p.id, {
          handle: own,
          name: pp.name ?? "Default",
          ...pricingOf(inputs),
          useSiteExchangeRate: want,
        } as PricePointInput)
      : found.archivedAt !== undefined
        ? await client.unarchivePricePoint(p.id, found.id)
        : found;
  await client.promotePricePoint(p.id, made.id);
  await client.archivePricePoint(p.id, pp.id);
  ctx.notice(
    `Product \`${handle}\`: its default price point ${want ? "follows the site's exchange rate" : "has prices of its own in other currencies"} ` +
      `as declared (useSiteExchangeRate: ${want}), which the service's product create and update cannot set: ${defaultLabel(handle, made.id)} ` +
      `replaced ${defaultLabel(handle, pp.id)}, with the same pricing; the replaced one is archived, and subscriptions on it keep it.`,
  );
  return readAfterApplied(
    `Product \`${handle}\`: the replacement of its default price point was applied at the service (${defaultLabel(handle, made.id)} is the default, id ${pp.id} is archived)`,
    async () => held(client, await client.readProduct(p.id)),
  );
}

/**
 * What the service's create and update cannot carry, once the product holds the rest: the default price point's
 * `useSiteExchangeRate`, then its currency prices (after a pricing change, set on the new default as on the old).
 */
async function convergeDefault(ctx: Context, h: Held, inputs: Inputs, recorded: State | undefined): Promise<Held> {
  const own = await defaultAsDeclared(ctx, h, inputs);
  if (!own.pp) return own;
  const pp = await convergeCurrencies(ctx, own.pp, {
    type: "Product",
    label: defaultLabel(own.p.handle ?? inputs.handle, own.pp.id),
    productId: own.p.id,
    site: inputs.site,
    declared: inputs.currencyPrices,
    pricing: pricingOf(inputs),
    recorded: recorded?.args.currencyPrices,
    created: recorded === undefined,
  });
  return { ...own, pp };
}

/**
 * At preview, the pricing the product's default holds at the service (what up compares a declaration with); undefined
 * when it cannot be read (the site not known yet, no such product, the service not answering: the declaration before
 * is compared instead).
 */
async function heldPricing(
  ctx: Context,
  olds: Readonly<Record<string, unknown>>,
  site: unknown,
): Promise<Partial<Record<PricingField, unknown>> | undefined> {
  const handle = olds.handle;
  if (typeof handle !== "string" || isUnknown(site)) return undefined;
  try {
    const client = ctx.client(site as string | undefined);
    // Its ids as the last check carried them: read by id, with the other products of its family (issue 43); by handle before any.
    if (typeof olds.productId === "number") return pricingOutputs(pricingOfHeld(await readHeld(client, olds.productId, olds)));
    const p = await productWithHandle(client, handle);
    return p && pricingOutputs(pricingOfHeld(await held(client, p)));
  } catch {
    return undefined;
  }
}

/** At preview: the default price point is replaced when its `useSiteExchangeRate` is to change (the service cannot change it). */
function defaultReplacedNotice(ctx: Context, handle: string, held: unknown, declared: unknown): void {
  if (typeof declared !== "boolean" || typeof held !== "boolean" || declared === held) return;
  ctx.notice(
    `Product \`${handle}\`: useSiteExchangeRate ${held} → ${declared}: the service cannot change it on the default price point, ` +
      "so a new default price point with the same pricing and this setting replaces it (promoted; the replaced one archived, subscriptions on it keep it); the product stays.",
  );
}

/** The default price point the recorded product's own pricing is on (a state from before it was recorded: its recorded default). */
const ownDefaultOf = (s: Partial<State>): number | undefined =>
  s.ownDefaultId !== undefined ? (s.ownDefaultId ?? undefined) : (s.defaultPricePointId ?? undefined);

/**
 * Whether the product's default is another price point than the one its own pricing is on. The one the provider made
 * in place of its own (`useSiteExchangeRate`, its handle naming the one it replaced) is its own too: a failure after
 * it was made records the product before its own default is known.
 */
function otherDefault(s: Partial<State>, id: number | null | undefined, handle: string | null | undefined): boolean {
  const own = ownDefaultOf(s);
  if (own === undefined || id === undefined || id === null || id === own) return false;
  return handle !== replacingHandle(s.handle ?? "", own);
}

/** Whether the declared pricing differs from the recorded declaration's (a change the user made, to be sent). */
const pricingDeclaredAnew = (inputs: Inputs, s: Partial<State>) =>
  PRICING_FIELDS.some((k) => JSON.stringify(inputs[k] ?? null) !== JSON.stringify(s.args?.[k] ?? null));

/** A product lives in its family: found by handle, created there, never moved. */
const steps: Steps<Inputs, State, Held, number | undefined> = {
  type: "Product",
  noun: "product",
  key: "handle",
  where: (ctx, inputs) => familyIdOf(ctx, inputs.productFamily, inputs.site),
  whereOf: async (_ctx, s) => s.productFamilyId ?? undefined,
  async find(ctx, handle, _, inputs) {
    const client = ctx.client(inputs.site);
    const p = await productWithHandle(client, handle);
    return p && held(client, p);
  },
  id: (h) => h.p.id,
  keyOf: (h) => h.p.handle,
  archivedAt: (h) => h.p.archivedAt,
  archivedRefusal: (h) => archivedError(h.p),
  // An id is compared; at preview a family not created yet is judged by the reference as written.
  foreign: ({ p }, inputs, familyId) =>
    p.productFamilyId === undefined
      ? undefined
      : familyId !== undefined
        ? p.productFamilyId !== familyId
          ? otherFamily(inputs.handle, p)
          : undefined
        : !isUnknown(inputs.productFamily) &&
            !refersTo(inputs.productFamily, p.productFamilyId, p.productFamilyHandle) &&
            (typeof inputs.productFamily === "number" || p.productFamilyHandle !== undefined)
          ? otherFamily(inputs.handle, p)
          : undefined,
  async create(ctx, inputs, familyId, token) {
    const {
      productFamily: _,
      adopt: __,
      pricingChangeAcknowledged: ___,
      site: ____,
      useSiteExchangeRate: _____,
      currencyPrices: ______,
      ...body
    } = inputs;
    const client = ctx.client(inputs.site);
    const made = await client.createProduct(familyId as number, body, token ? { uniquenessToken: token } : {});
    // Created: a read of its default that fails (a 504 after its retries) must not make the create a plain failure,
    // which records nothing while the product exists. It is recorded from the create's answer (which holds the
    // default's pricing), and the next refresh or up reads the default.
    return held(client, made).catch((): Held => ({ p: made, pp: undefined }));
  },
  async converge(ctx, h, inputs, _, created, recorded) {
    const before = created ? undefined : (recorded ?? ({ args: {} } as State));
    // Another price point is the default (a ProductPricePoint's default: true): sending the product's pricing again would
    // make the service a new default that takes it back, and the price point would be promoted again by the next
    // `up --refresh`, one more live price point each round. Only a new declaration of the pricing is sent.
    if (
      before !== undefined &&
      otherDefault(before, h.p.defaultPricePointId, h.p.defaultPricePointHandle) &&
      !pricingDeclaredAnew(inputs, before)
    ) {
      const unsent = (["useSiteExchangeRate", "currencyPrices"] as const).filter(
        (k) => JSON.stringify(inputs[k] ?? null) !== JSON.stringify(before.args[k] ?? null),
      );
      if (unsent.length > 0)
        ctx.notice(
          `Product \`${inputs.handle}\`: ${unsent.join(" and ")} changed, but its default is ${defaultLabel(inputs.handle, h.p.defaultPricePointId as number)}` +
            `${h.p.defaultPricePointHandle ? ` (\`${h.p.defaultPricePointHandle}\`)` : ""}, another price point than its own: nothing was sent. ` +
            "Declare them on the ProductPricePoint declared default: true.",
        );
      return { ...(await converge(ctx, h, inputs, false)), own: ownDefaultOf(before) ?? null };
    }
    const done = await convergeDefault(ctx, created ? h : await converge(ctx, h, inputs), inputs, before);
    return { ...done, own: done.p.defaultPricePointId ?? null };
  },
  current: (ctx, s, id) => readHeld(ctx.client(s.site), id, s),
  record: (h, inputs) => ({
    ...outputsOf(h, inputs.site),
    productFamilyHandle: h.p.productFamilyHandle ?? null,
    ...(h.own !== undefined ? { ownDefaultId: h.own } : {}),
  }),
  async archive(ctx, { p }, s) {
    await ctx.client(s.site).archiveProduct(p.id);
    return `archived product \`${s.handle}\` (id ${p.id}); the service keeps it (and its price points) archived, its handle stays taken, and subscriptions on it keep it.`;
  },
};

const ARG_KEYS = Object.keys(kind.inputs.shape);
const life = lifecycle(steps, { argKeys: ARG_KEYS, idField: "productId" });

/** What the service holds of a product, as the inputs that declare it: its pricing is its default price point's. */
const reader: CatalogReader<ServiceProduct> = {
  list: (client) => client.listProducts({ includeArchived: true }),
  find: (client, key) =>
    /^[1-9][0-9]{0,15}$/.test(key) ? findByHandle(() => client.readProduct(Number(key))) : productWithHandle(client, key),
  withKey: productWithHandle,
  id: (p) => p.id,
  key: (p) => p.handle,
  archived: (p) => p.archivedAt !== undefined,
  async fromService(p, site) {
    const points = (await site.children("productPricePoint", p)) as readonly WithCurrencies[];
    const def = points.find((pp) => pp.id === p.defaultPricePointId) ?? points.find((pp) => pp.type === "default");
    const family =
      p.productFamilyHandle ?? (p.productFamilyId !== undefined ? await site.keyOf("productFamily", p.productFamilyId) : undefined);
    return {
      productFamily: family !== undefined ? `handle:${family}` : p.productFamilyId,
      handle: p.handle,
      name: p.name || p.handle,
      description: p.description || undefined,
      accountingCode: p.accountingCode || undefined,
      taxCode: p.taxCode || undefined,
      requireCreditCard: p.requireCreditCard,
      requestCreditCard: p.requestCreditCard,
      requestBillingAddress: p.requestBillingAddress,
      requireBillingAddress: p.requireBillingAddress,
      requireShippingAddress: p.requireShippingAddress,
      ...pricingInputs(pricingOfHeld({ p, pp: def })),
      useSiteExchangeRate: def?.useSiteExchangeRate,
      ...(def?.currencyPrices && Object.keys(def.currencyPrices).length > 0 ? { currencyPrices: def.currencyPrices } : {}),
    };
  },
  async record(client, p, inputs) {
    const h = await held(client, p);
    return { ...steps.record(h, inputs as Inputs, p.productFamilyId), handle: p.handle, args: life.argsOf(inputs as Inputs) };
  },
};

export const product: KindModule<typeof kind, State> = {
  kind,
  reader: reader as CatalogReader,
  operations: {
    state,
    // The service's values for what is declared: a change made in the web UI shows as a diff, and up restores it.
    recordedInputs(s) {
      const out: Record<string, unknown> = { ...s.args };
      const service: Record<string, unknown> = { ...s, description: s.description ?? "" };
      for (const k of DESCRIPTIVE) if (out[k] !== undefined && service[k] !== undefined && service[k] !== null) out[k] = service[k];
      // While another price point is the default, what it holds is its own declaration's, not the product's drift.
      if (otherDefault(s, s.defaultPricePointId, s.defaultPricePointHandle)) return out;
      for (const k of [...PRICING_FIELDS, "useSiteExchangeRate"] as const)
        if (out[k] !== undefined && service[k] !== undefined && service[k] !== null) out[k] = service[k];
      // Only the declared currencies: those it keeps that the declaration leaves out, no declaration can remove.
      if (out.currencyPrices !== undefined) out.currencyPrices = heldAsDeclared(s.args.currencyPrices, s.currencyPrices);
      return out;
    },
    // Pending create, or archived outside the stack: up finishes, or says what to do.
    unfinished: life.unfinished,

    async preflight(ctx, inputs, olds) {
      const currencies = await currencyFailures(ctx, pricePointOwner(inputs), inputs.currencyPrices, inputs.site);
      if (currencies.length > 0) return { failures: currencies };
      if (olds !== undefined) {
        // A declared change is announced against what the service holds, which is what up compares and sends: after a
        // refresh it may hold the new pricing already (another price point promoted to the default), and up sends nothing.
        const declared = pricingChangeOf(inputs as Partial<Inputs>, olds as Partial<Inputs>, NEW_DEFAULT);
        const service = declared && (await heldPricing(ctx, olds, inputs.site));
        const from: Partial<Record<PricingField, unknown>> = service ?? (olds as Partial<Inputs>);
        const pricing = service ? pricingChangeOf(inputs as Partial<Inputs>, service, NEW_DEFAULT) : declared;
        const pricingChange = withCurrencyChange(pricing, olds.currencyPrices, inputs.currencyPrices, `in place: ${CURRENCY_IN_PLACE}`);
        const handle = String(inputs.handle);
        const own = inputs.useSiteExchangeRate;
        defaultReplacedNotice(ctx, handle, olds.useSiteExchangeRate, own);
        if (!pricingChange) return { failures: [] };
        rememberPricingNotice("Product", handle, pricingChange);
        if (pricing)
          ctx.notice(
            `Product \`${handle}\`: pricing change (${describeChanges(pricing.fields, from, inputs as Partial<Inputs>)}): ` +
              "the service will create a new default price point and make it the default" +
              `${own === false ? " (following the exchange rate: then replaced by one of the same pricing with prices of its own)" : ""}` +
              `${inputs.currencyPrices !== undefined ? ", and its currency prices are set on it" : ""}; existing subscriptions keep theirs.`,
          );
        if (pricingChange.currencies)
          ctx.notice(
            `Product \`${handle}\`: currency prices of its default price point: ${pricingChange.currencies.join("; ")}` +
              `${pricing ? " (on the new default price point)" : " (in place)"}.`,
          );
        return { failures: [], preview: { pricingChange } };
      }
      const found = await life.adoption(ctx, inputs, undefined);
      if (!found?.existing || found.failures.length > 0) return found ?? { failures: [] };
      // Adopted: and when the service holds other pricing or currency prices, converging it is a price change to review.
      const pp = found.existing.pp;
      defaultReplacedNotice(ctx, String(inputs.handle), pp?.useSiteExchangeRate ?? true, inputs.useSiteExchangeRate);
      const pricingChange = withCurrencyChange(
        pricingChangeOf(inputs as Partial<Inputs>, pricingOutputs(pricingOfHeld(found.existing)), NEW_DEFAULT),
        pp?.currencyPrices,
        inputs.currencyPrices,
        `in place: ${CURRENCY_IN_PLACE}`,
      );
      // Converging the adopted product changes what new signups pay: said in money at preview, as an update's change is.
      const said = pricingChange && adoptionPricingNotice("Product", inputs.handle, pricingChange);
      if (said) ctx.notice(said);
      return { failures: [], preview: { ...found.preview, ...(pricingChange ? { pricingChange } : {}) } };
    },

    /** Its ids, for the preview of an update (recorded in the checked inputs once read). */
    async stable(ctx, olds) {
      if (typeof olds.productId === "number") return { productId: olds.productId, productFamilyId: olds.productFamilyId };
      if (typeof olds.handle !== "string") return undefined;
      const p = await productWithHandle(ctx.client(typeof olds.site === "string" ? olds.site : undefined), olds.handle);
      return p && { productId: p.id, productFamilyId: p.productFamilyId ?? null };
    },

    refuse(s, news) {
      const family = news.productFamily;
      if (isUnknown(family) || refersTo(family, s.productFamilyId ?? undefined, s.productFamilyHandle ?? undefined)) return;
      if (JSON.stringify(family) === JSON.stringify(s.args.productFamily)) return;
      throw new Error(
        `Product \`${s.handle}\`: productFamily changed to ${JSON.stringify(family)}, but the service cannot move a product between families ` +
          `(it is in family ${s.productFamilyId ?? "?"}). Keep its family, or declare a new product with a new handle in the other family.`,
      );
    },

    create: (ctx, inputs) => life.create(ctx, inputs as Inputs & Record<string, unknown>),
    update: (ctx, id, s, inputs) => life.update(ctx, id, s, inputs as Inputs & Record<string, unknown>),
    async read(ctx, id, s) {
      const read = await life.read(ctx, id, s);
      // A state from before ownDefaultId: the default its last apply recorded is its own (not the one promoted since).
      if (read && s.ownDefaultId === undefined && s.defaultPricePointId != null) return { ...read, ownDefaultId: s.defaultPricePointId };
      return read;
    },
    del: (ctx, id, s) => life.del(ctx, id, s),
  },
};

/** The args' TypeScript types, from the declaration; ProductArgs gives each its docs (generated: ./generated/product.ts). */
export type ArgTypes = ArgsOf<typeof kind>;
export type { ProductArgs, ProductOutputs };

/** Product's operations as a dynamic provider, to call directly (configure it first); its resources store the smaller storedProvider, which loads the same. */
export const productProvider = shellProvider(kind);

/**
 * A product and the pricing of its default price point. Create adopts an existing product with the
 * same handle and converges it; a pricing change makes the service create a new default price point
 * (existing subscriptions keep theirs); delete archives it.
 *
 * @example
 * ```ts
 * import { Product } from "pulumi-subscription-billing";
 *
 * const product = new Product("product", {
 *   productFamily: "handle:plans",
 *   handle: "launch-pro",
 *   name: "Launch Pro",
 *   priceInCents: 4900,
 *   interval: 1,
 *   intervalUnit: "month",
 * });
 * ```
 */
export class Product extends resourceClass<typeof kind, ProductArgs, ProductOutputs>(kind) {
  constructor(name: string, args: ProductArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
    declared.set(this, { name, args });
  }
}

/** What each Product of this program declares, for the price points given it (a default: true one must agree with it). */
const declared = new WeakMap<Product, { readonly name: string; readonly args: ProductArgs }>();

/** The name and args a Product of this program was declared with. */
export const declaredProduct = (p: Product) => declared.get(p);
