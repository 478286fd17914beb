import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { pricePointCurrencyPricesInput } from "../../sdk/catalog/currency-inputs";
import { flag } from "../../sdk/inputs";
import type { PricePoint } from "../../sdk/results";
import { isUnknown } from "../engine";
import { shellProvider } from "../shell";
import {
  adoptField,
  describeChanges,
  findByHandle,
  freedHandle,
  handleField,
  isNotFound,
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
  pricingText,
  referenceField,
} from "./catalog";
import { CURRENCY_PRICES, currencyFailures, heldAsDeclared, withCurrencyChange } from "./currency-fields";
import { known, oneDefaultPerOwner } from "./declared-defaults";
import type { ProductArgs } from "./generated/product";
import type { ProductPricePointArgs, ProductPricePointOutputs } from "./generated/product-price-point";
import { siteInput } from "./inputs";
import { type ArgsOf, type CatalogReader, type Context, declareKind, type InputsOf, type KindModule, resourceClass } from "./kind";
import { type LifecycleState, labelOf, lifecycle, type Steps } from "./lifecycle";
import {
  convergeCurrencies as convergeOwnCurrencies,
  pricePointOwner,
  type WithCurrencies,
  withCurrencies,
} from "./price-point-currencies";
import { adoptionPricingNotice, updatePricingNotice } from "./pricing-text";
import { declaredProduct, Product, productIdOf } from "./product";

/** What a change of currency prices alone does: the amounts change in place. */
const CURRENCY_IN_PLACE =
  "its prices in those currencies change in place (the price point stays); a currency left out keeps its prices: the service has no delete of a currency price";

const kind = declareKind({
  key: "productPricePoint",
  type: "ProductPricePoint",
  summary:
    "A price point of a product. Its handle changes in place; any other change replaces it without ever leaving the product without a default: the old one's handle is freed, the new one created (and promoted if default), the old one archived.",
  inputs: z
    .object({
      product: referenceField("product").describe(
        'The product: a Product resource (then it is archived with it), its `productId`, an id, or "handle:<handle>".',
      ),
      handle: handleField("price point"),
      name: nameField("The price point's name (1 to 255 characters); the service cannot rename a price point, so a new name is a new one."),
      ...pricingFields,
      useSiteExchangeRate: flag
        .optional()
        .describe(
          "false: its prices in the site's other currencies are its own (`currencyPrices`); true, the service's default: they follow the site's exchange rate, and `currencyPrices` must be left out. The service's update does not take it, so a change replaces the price point.",
        ),
      currencyPrices: pricePointCurrencyPricesInput
        .optional()
        .describe(
          "Its prices in the site's other currencies (with `useSiteExchangeRate: false`), by ISO code, in the currency's own units (9.5 is 9.50, not cents): `{ EUR: { baseline: 9, trial: 1, initial: 20 } }`. They mirror the pricing: `baseline` always, `trial` exactly when it has a trial, `initial` exactly when it has an initial charge. Each currency must be one of the site's (checked at preview). Created after the price point, changed in place; a currency left out is kept (the service has no delete of a currency price).",
        ),
      default: flag
        .optional()
        .describe(
          "true: promote it to the product's default price point (new signups get it). Setting it back to false changes nothing until another is promoted.",
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
    pricePointId: z.number().int().describe("The service's id of the price point."),
    productId: z.number().int().describe("The id of its product."),
    handle: z.string().describe("The price point's handle as the service holds it."),
    name: z.string().nullable().describe("The price point's name as the service holds it."),
    isDefault: z.boolean().describe("Whether it is its product's default price point."),
    archivedAt: z.string().nullable().describe("When it was archived (ISO-8601); null while it is live."),
    ...pricingOutputShape,
    useSiteExchangeRate: z
      .boolean()
      .nullable()
      .describe("Whether its prices in other currencies follow the site's exchange rate, as the service holds it (null: not said)."),
    currencyPrices: z
      .record(z.string(), z.record(z.string(), z.number()))
      .nullable()
      .describe(
        "Its own prices in other currencies as the service holds them, by currency and role (baseline, trial, initial); null while it follows the site's exchange rate.",
      ),
    site: z.string().optional().describe("The site, when one was named."),
  }),
  replaceOn: ["site", "product", "name", "useSiteExchangeRate", ...PRICING_FIELDS],
  refresh: true,
  onDelete: "archives it; the product's default cannot be archived (promote another first), except with its product, which archives both",
  example: {
    product: "handle:pro",
    handle: "pro-biennial",
    name: "Pro, every two years",
    priceInCents: 90000,
    interval: 24,
    intervalUnit: "month",
  },
  catalog: {
    key: "handle",
    owner: { input: "product", kind: "product" },
    references: { product: { kind: "product", output: "productId" } },
    runtimeInputs: ["adopt", "pricingChangeAcknowledged", "site"],
    partOfOwner: { input: "default", as: "defaultPricePoint" },
    defaults: { initialChargeAfterTrial: false, expirationIntervalUnit: "never", useSiteExchangeRate: true },
    noun: "price point",
    title: "Price point",
    pricing: {
      fields: [...PRICING_FIELDS, CURRENCY_PRICES],
      onUpdate: CURRENCY_IN_PLACE,
      onReplace: (inputs) =>
        inputs.default === true
          ? "new signups get the new pricing (the new price point is the default); subscriptions on the old one keep theirs"
          : "subscriptions on the old price point keep theirs",
      policy:
        "It replaces the price point: the old one's handle is freed, the new one is created (and made the default if it is one), " +
        "and the old one is archived; subscriptions on the old price point keep it.",
    },
    replaced: (inputs) => [
      "rename the old price point's handle (which frees it)",
      "create the new one",
      ...(inputs.default === true
        ? ["promote it to the product's default"]
        : isUnknown(inputs.default)
          ? ["promote it to the product's default (if default: not known until up)"]
          : []),
      "archive the old one (subscriptions on it keep it)",
    ],
    deleted: (before) => [
      "archived: its subscriptions keep it; its handle stays taken",
      ...(before.default === true
        ? [
            "it is declared the product's default, which the service cannot archive: promote another price point first, or archive its product in the same update",
          ]
        : []),
    ],
  },
});

type Inputs = InputsOf<typeof kind>;
/** A price point as the service holds it, with its own currency prices when it has them (`useSiteExchangeRate: false`). */
type Held = WithCurrencies;
type Outputs = z.output<typeof kind.outputs>;

/**
 * The outputs and declared inputs (`args`); `pendingToken` while a create's outcome is unknown;
 * `todo` while a replacement's later steps (promote, archive the old one) are not done yet.
 */
const state = kind.outputs.partial().extend({
  handle: z.string(),
  args: z.record(z.string(), z.unknown()),
  pendingToken: z.string().optional(),
  todo: z.object({ promote: z.boolean().optional(), archive: z.array(z.number().int()).optional() }).optional(),
});
type State = z.output<typeof state>;

const outputsOf = (pp: Held, productId: number, site: string | undefined): Outputs => ({
  pricePointId: pp.id,
  productId: pp.productId ?? productId,
  handle: pp.handle ?? "",
  name: pp.name ?? null,
  isDefault: pp.type === "default",
  archivedAt: pp.archivedAt ?? null,
  ...(pricingOutputs(pp.pricing) as Pick<Outputs, PricingField>),
  useSiteExchangeRate: pp.useSiteExchangeRate ?? null,
  currencyPrices: pp.currencyPrices ?? null,
  ...(site !== undefined ? { site } : {}),
});

const label = (handle: string, id: number) => labelOf("price point", handle, id);

/** The pricing or name the service holds differently: only a new price point can carry it (subscriptions keep theirs). */
function differences(pp: PricePoint, inputs: Inputs): string[] {
  const held = pricingOutputs(pp.pricing);
  const differs = pricingChanges(inputs, held);
  if (differs.length > 0) return [describeChanges(differs, held, inputs)];
  if (
    inputs.useSiteExchangeRate !== undefined &&
    pp.useSiteExchangeRate !== undefined &&
    inputs.useSiteExchangeRate !== pp.useSiteExchangeRate
  )
    return [`useSiteExchangeRate ${pp.useSiteExchangeRate} → ${inputs.useSiteExchangeRate}`];
  return (pp.name ?? inputs.name) === inputs.name ? [] : ["its name differs"];
}

/** Makes the price point's currency prices the declared ones (`recorded`: the state, undefined right after a create). */
const convergeCurrencies = (ctx: Context, pp: Held, inputs: Inputs, at: Where, recorded: State | undefined): Promise<Held> =>
  convergeOwnCurrencies(ctx, pp, {
    type: "ProductPricePoint",
    label: label(pp.handle ?? inputs.handle, pp.id),
    productId: at.productId,
    site: at.site,
    declared: inputs.currencyPrices,
    pricing: pricingOf(inputs),
    recorded: recorded?.args.currencyPrices,
    created: recorded === undefined,
  });

/** Where a price point lives: its product, at its site. */
interface Where {
  readonly productId: number;
  readonly site: string | undefined;
}

/** A price point lives in its product: found by handle there, replaced when its pricing or name differs. */
const steps: Steps<Inputs, State & LifecycleState, Held, Where> = {
  type: "ProductPricePoint",
  owner: "product",
  noun: "price point",
  key: "handle",
  where: async (ctx, inputs) => ({ productId: await productIdOf(ctx, inputs.product, inputs.site), site: inputs.site }),
  whereOf: async (ctx, s) => ({
    productId: s.productId ?? (await productIdOf(ctx, s.args.product as number | string, s.site)),
    site: s.site,
  }),
  find: async (ctx, handle, at) =>
    (await ctx.client(at.site).listPricePoints(at.productId, { includeArchived: true })).find((pp) => pp.handle === handle),
  id: (pp) => pp.id,
  keyOf: (pp) => pp.handle,
  archivedAt: (pp) => pp.archivedAt,
  unarchive: (ctx, pp, at) => ctx.client(at.site).unarchivePricePoint(at.productId, pp.id),
  archivedRefusal: () => "",
  createOnly: async (_ctx, pp, inputs) => differences(pp, inputs),
  async free(ctx, pp, at) {
    const client = ctx.client(at.site);
    const taken = new Set((await client.listPricePoints(at.productId, { includeArchived: true })).map((x) => x.handle ?? ""));
    const freed = freedHandle(pp.handle ?? "", pp.id, taken);
    await client.updatePricePoint(at.productId, pp.id, { handle: freed });
    return { freed, old: pp.id };
  },
  create(ctx, inputs, at, token) {
    const { product: _, default: __, adopt: ___, pricingChangeAcknowledged: ____, site: _____, currencyPrices: ______, ...body } = inputs;
    return ctx.client(at.site).createPricePoint(at.productId, body, token ? { uniquenessToken: token } : {});
  },
  /** In place: the handle; the default stays until another is promoted (the service cannot demote one). */
  async converge(ctx, pp, inputs, at, created, recorded) {
    if (created) return convergeCurrencies(ctx, pp, inputs, at, undefined);
    let live: Held = pp;
    if (live.handle !== inputs.handle) live = await ctx.client(at.site).updatePricePoint(at.productId, pp.id, { handle: inputs.handle });
    if (inputs.default === false && live.type === "default" && recorded?.args.default === true)
      ctx.notice(
        `ProductPricePoint: ${label(inputs.handle, pp.id)} stays the product's default until another price point is promoted (the service cannot demote one).`,
      );
    return convergeCurrencies(ctx, live, inputs, at, recorded ?? ({ args: {} } as State));
  },
  current: async (ctx, s, id, at) =>
    withCurrencies(ctx.client(s.site), at.productId, await ctx.client(s.site).readPricePoint(at.productId, id)),
  record: (pp, inputs, at) => outputsOf(pp, at.productId, inputs.site),
  isDefault: (pp) => pp.type === "default",
  promote: async (ctx, pp, at) => {
    await ctx.client(at.site).promotePricePoint(at.productId, pp.id);
  },
  async archiveReplaced(ctx, old, at) {
    const client = ctx.client(at.site);
    const live = await findByHandle(() => client.readPricePoint(at.productId, old as number));
    if (!live || live.archivedAt !== undefined) return undefined;
    if (live.type === "default")
      return `${label(live.handle ?? "?", live.id)} stays live: it is still the product's default, which the service cannot archive; promote another price point, then remove it.`;
    await client.archivePricePoint(at.productId, live.id);
    return `archived the replaced ${label(live.handle ?? "?", live.id)}; subscriptions on it keep it.`;
  },
  async archive(ctx, live, s, at) {
    const client = ctx.client(at.site);
    if (live.type === "default") {
      const product = await findByHandle(() => client.readProduct(at.productId));
      if (!product || product.archivedAt !== undefined) return undefined;
      throw new Error(
        `${label(live.handle ?? s.handle, live.id)} is the default of product \`${product.handle}\`: the service cannot archive a default price point, so nothing was changed. ` +
          "Promote another price point first (declare it with default: true and run `pulumi up`), then remove this one; or remove the product in the same update (its price points are archived with it).",
      );
    }
    try {
      await client.archivePricePoint(at.productId, live.id);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    return `archived ${label(live.handle ?? s.handle, live.id)}; subscriptions on it keep it, and its handle stays taken.`;
  },
};

const ARG_KEYS = Object.keys(kind.inputs.shape);
const life = lifecycle(steps, { argKeys: ARG_KEYS, idField: "pricePointId" });

/** What the service holds of a price point, as the inputs that declare it. */
const reader: CatalogReader<Held> = {
  async list(client, owner) {
    const productId = (owner as { id: number }).id;
    const out: Held[] = [];
    // One at a time: the catalog's read bounds its requests in flight per list, not within one.
    for (const pp of await client.listPricePoints(productId, { includeArchived: true }))
      out.push(await withCurrencies(client, productId, pp));
    return out;
  },
  async find(client, key, owner) {
    const productId = (owner as { id: number }).id;
    const found = (await client.listPricePoints(productId, { includeArchived: true })).find((pp) =>
      /^[1-9][0-9]{0,15}$/.test(key) ? pp.id === Number(key) : pp.handle === key,
    );
    return found && withCurrencies(client, productId, found);
  },
  withKey: async (client, key, owner) =>
    (await client.listPricePoints(Number(owner?.id), { includeArchived: true })).find((pp) => pp.handle === key),
  id: (pp) => pp.id,
  key: (pp) => pp.handle,
  archived: (pp) => pp.archivedAt !== undefined,
  async fromService(pp, site) {
    const product = pp.productId !== undefined ? await site.keyOf("product", pp.productId) : undefined;
    return {
      product: product !== undefined ? `handle:${product}` : pp.productId,
      handle: pp.handle,
      name: pp.name || pp.handle,
      ...pricingInputs(pp.pricing),
      useSiteExchangeRate: pp.useSiteExchangeRate,
      ...(pp.currencyPrices && Object.keys(pp.currencyPrices).length > 0 ? { currencyPrices: pp.currencyPrices } : {}),
      ...(pp.type === "default" ? { default: true } : {}),
    };
  },
  async record(_client, pp, inputs) {
    const productId = pp.productId ?? 0;
    return { ...outputsOf(pp, productId, inputs.site as string | undefined), handle: pp.handle, args: life.argsOf(inputs as Inputs) };
  },
};

export const productPricePoint: KindModule<typeof kind, State> = {
  kind,
  reader: reader as CatalogReader,
  operations: {
    state,
    recordedInputs(s) {
      const out: Record<string, unknown> = { ...s.args };
      for (const k of ["handle", "name", ...PRICING_FIELDS] as const)
        if (out[k] !== undefined && s[k] !== undefined && s[k] !== null) out[k] = s[k];
      // Promoted outside: no longer declared-false vs held-true drift (the service cannot demote).
      if (s.args.default === true && s.isDefault === false) out.default = false;
      if (out.useSiteExchangeRate !== undefined && typeof s.useSiteExchangeRate === "boolean")
        out.useSiteExchangeRate = s.useSiteExchangeRate;
      // Only the declared currencies: those it keeps that the declaration leaves out, no declaration can remove.
      if (out.currencyPrices !== undefined) out.currencyPrices = heldAsDeclared(s.args.currencyPrices, s.currencyPrices);
      return out;
    },
    unfinished: life.unfinished,

    async preflight(ctx, inputs, olds) {
      const currencies = await currencyFailures(ctx, pricePointOwner(inputs), inputs.currencyPrices, inputs.site);
      if (currencies.length > 0) return { failures: currencies };
      if (olds !== undefined) {
        const pricingChange = withCurrencyChange(
          pricingChangeOf(
            inputs as Partial<Inputs>,
            olds as Partial<Inputs>,
            "replaced: the old price point's handle is freed, the new one created (and promoted if default), the old one archived; subscriptions on the old one keep it",
          ),
          olds.currencyPrices,
          inputs.currencyPrices,
          `in place: ${CURRENCY_IN_PLACE}`,
        );
        if (!pricingChange) return { failures: [] };
        ctx.notice(updatePricingNotice("Price point", inputs.handle, pricingChange));
        return { failures: [], preview: { pricingChange } };
      }
      if (isUnknown(inputs.handle) || isUnknown(inputs.product) || isUnknown(inputs.site)) return { failures: [] };
      const site = inputs.site as string | undefined;
      const productId = await productIdOf(ctx, inputs.product as number | string, site).catch(() => undefined);
      if (productId === undefined) return { failures: [] };
      const listed = await ctx
        .client(site)
        .listPricePoints(productId, { includeArchived: true })
        .catch((err: unknown) => {
          if (isNotFound(err)) return undefined;
          throw err;
        });
      if (listed === undefined)
        return {
          failures: [
            {
              property: "product",
              reason: `no product has the id ${productId} at site ${ctx.siteLabel(site)}: it must be an existing product's id (e.g. a Product's productId) or "handle:<handle>"`,
            },
          ],
        };
      const found = await life.adoption(ctx, inputs, { productId, site });
      if (!found?.existing || found.failures.length > 0) return found ?? { failures: [] };
      // Adopted: and when the service holds other pricing, converging it is a replacement, a price change to review;
      // other amounts in a declared currency are a price change too (in place, or the replacement's own prices).
      const existing = found.existing as PricePoint;
      const held =
        inputs.currencyPrices === undefined || isUnknown(inputs.currencyPrices)
          ? undefined
          : await withCurrencies(ctx.client(site), productId, existing);
      const pricingChange = withCurrencyChange(
        pricingChangeOf(
          inputs as Partial<Inputs>,
          pricingOutputs(found.existing.pricing),
          "the adopted price point is replaced: its handle freed, the new one created (and promoted if default), the old one archived; subscriptions on it keep it",
        ),
        held?.currencyPrices,
        inputs.currencyPrices,
        `in place on the adopted price point: ${CURRENCY_IN_PLACE}`,
      );
      const said = pricingChange && adoptionPricingNotice("Price point", inputs.handle, pricingChange);
      if (said) ctx.notice(said);
      return { failures: [], preview: { ...found.preview, ...(pricingChange ? { pricingChange } : {}) } };
    },

    /** Its ids, for the preview of an in-place update (recorded in the checked inputs once read). */
    async stable(ctx, olds) {
      if (typeof olds.pricePointId === "number" && typeof olds.productId === "number")
        return { pricePointId: olds.pricePointId, productId: olds.productId };
      const site = typeof olds.site === "string" ? olds.site : undefined;
      if (typeof olds.handle !== "string" || (typeof olds.product !== "number" && typeof olds.product !== "string")) return undefined;
      const productId = await productIdOf(ctx, olds.product, site).catch(() => undefined);
      if (productId === undefined) return undefined;
      const found = (await ctx.client(site).listPricePoints(productId, { includeArchived: true })).find((pp) => pp.handle === olds.handle);
      return found && { pricePointId: found.id, productId };
    },

    create: (ctx, inputs) => life.create(ctx, inputs as Inputs & Record<string, unknown>),
    update: (ctx, id, s, inputs) => life.update(ctx, id, s as State & LifecycleState, inputs as Inputs & Record<string, unknown>),
    read: (ctx, id, s) => life.read(ctx, id, s as State & LifecycleState),
    del: (ctx, id, s) => life.del(ctx, id, s as State & LifecycleState),
  },
};

/**
 * The args' TypeScript types, from the declaration, except that `product` may also be the Product resource itself;
 * ProductPricePointArgs gives each its docs (generated: ./generated/product-price-point.ts).
 */
export type ArgTypes = Omit<ArgsOf<typeof kind>, "product"> & { readonly product: Product | ArgsOf<typeof kind>["product"] };
export type { ProductPricePointArgs, ProductPricePointOutputs };

/** ProductPricePoint's operations as a dynamic provider, to call directly (configure it first); its resources store the smaller storedProvider, which loads the same. */
export const productPricePointProvider = shellProvider(kind);

const Base = resourceClass<typeof kind, ArgsOf<typeof kind>, ProductPricePointOutputs>(kind);

/** A second price point declared `default: true` for one product: refused. */
const oneDefaultPerProduct = oneDefaultPerOwner("ProductPricePoint", "product");

/** Keys sorted at every level: two currency declarations compared whatever the order they were written in. */
const sortedJson = (v: unknown): string =>
  JSON.stringify(v, (_, x) =>
    x !== null && typeof x === "object" && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1)))
      : x,
  );

/**
 * What a Product declares of its default price point that a price point declared `default: true` for it holds
 * otherwise: each would make its own the default (the product's pricing by a new default price point, the price point
 * by a promotion), one more price point on every `up --refresh`. Only values the program knows now are compared.
 */
function defaultConflicts(product: ProductArgs, pp: ProductPricePointArgs): string[] {
  const p = product as unknown as Record<string, unknown>;
  const q = pp as unknown as Record<string, unknown>;
  const serviceDefault = kind.catalog?.defaults as Record<string, unknown>;
  const out: string[] = [];
  for (const k of PRICING_FIELDS) {
    if (p[k] === undefined || !known(p[k]) || !known(q[k])) continue;
    if (p[k] !== (q[k] ?? serviceDefault[k]))
      out.push(`${k} ${pricingText(k, p[k])} on the Product, ${pricingText(k, q[k])} on the price point`);
  }
  if (p.useSiteExchangeRate !== undefined && known(p.useSiteExchangeRate) && known(q.useSiteExchangeRate))
    if (p.useSiteExchangeRate !== (q.useSiteExchangeRate ?? true))
      out.push(`useSiteExchangeRate ${p.useSiteExchangeRate} on the Product, ${q.useSiteExchangeRate ?? true} on the price point`);
  if (p.currencyPrices !== undefined && known(p.currencyPrices) && known(q.currencyPrices))
    if (sortedJson(p.currencyPrices) !== sortedJson(q.currencyPrices ?? null))
      out.push(
        `currencyPrices ${sortedJson(p.currencyPrices)} on the Product, ${q.currencyPrices === undefined ? "none" : sortedJson(q.currencyPrices)} on the price point`,
      );
  return out;
}

/**
 * One declaration of a product's default: a second price point declared `default: true` for the same Product, or a
 * Product whose pricing differs from its `default: true` price point's, is refused in the constructor (at preview),
 * naming both resources and which declaration to keep.
 */
function oneDefault(name: string, args: ProductPricePointArgs, owner: Product | undefined): void {
  if (args.default !== true) return;
  const product = owner && declaredProduct(owner);
  const productName = product?.name ?? "?";
  oneDefaultPerProduct(name, { owned: owner, ownerLabel: `Product "${productName}"`, ref: args.product, site: args.site });
  const conflicts = product ? defaultConflicts(product.args, args) : [];
  if (conflicts.length > 0)
    throw new pulumi.RunError(
      `Product "${productName}" and ProductPricePoint "${name}" (default: true) both declare the product's default price point, differently: ${conflicts.join("; ")}. ` +
        "The price point declared default: true is the default (new signups get it); the Product's pricing, sent on every `pulumi up --refresh`, " +
        "would make the service a new default price point each time, and the price point would be promoted again. " +
        `Keep one: give Product "${productName}" the price point's pricing (or leave its useSiteExchangeRate and currencyPrices out), ` +
        `or remove default: true from ProductPricePoint "${name}".`,
    );
}

/**
 * A price point of a product. Given the Product resource itself, it is archived with the product
 * (`deletedWith`): destroying both archives the product, which the service allows even while this
 * is its default.
 *
 * @example
 * ```ts
 * import { ProductPricePoint } from "pulumi-subscription-billing";
 *
 * const productPricePoint = new ProductPricePoint("product-price-point", {
 *   product: "handle:pro",
 *   handle: "pro-biennial",
 *   name: "Pro, every two years",
 *   priceInCents: 90000,
 *   interval: 24,
 *   intervalUnit: "month",
 * });
 * ```
 */
export class ProductPricePoint extends Base {
  constructor(name: string, args: ProductPricePointArgs, opts?: pulumi.CustomResourceOptions) {
    const owner = args.product instanceof Product ? args.product : undefined;
    oneDefault(name, args, owner);
    super(
      name,
      { ...args, product: owner ? owner.productId : (args.product as ArgsOf<typeof kind>["product"]) },
      owner ? { deletedWith: owner, ...opts } : opts,
    );
  }
}
