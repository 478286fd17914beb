import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { BillingApiError, CatalogOutcomeUnknownError } from "../../sdk/errors";
import { flag } from "../../sdk/inputs";
import type { PricePoint } from "../../sdk/results";
import { isUnknown } from "../engine";
import { shellProvider } from "../shell";
import {
  adoptedNotice,
  adoptField,
  describeChanges,
  findByHandle,
  finishReplacement,
  freedHandle,
  handleField,
  isNotFound,
  nameField,
  PRICING_FIELDS,
  type PricingField,
  pricingChangeOf,
  pricingChanges,
  pricingFields,
  pricingOutputShape,
  pricingOutputs,
  pricingRule,
  productWithHandle,
  referencedHandle,
  referenceField,
} from "./catalog";
import type { ProductPricePointArgs, ProductPricePointOutputs } from "./generated/product-price-point";
import { siteInput } from "./inputs";
import { type ArgsOf, type Context, declareKind, type InputsOf, type KindModule, resourceClass } from "./kind";
import { Product } from "./product";

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
    site: z.string().optional().describe("The site, when one was named."),
  }),
  replaceOn: ["site", "product", "name", ...PRICING_FIELDS],
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
});

type Inputs = InputsOf<typeof kind>;
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

const ARG_KEYS = Object.keys(kind.inputs.shape) as (keyof Inputs & string)[];
const argsOf = (inputs: Inputs) => Object.fromEntries(ARG_KEYS.filter((k) => inputs[k] !== undefined).map((k) => [k, inputs[k]]));

const outputsOf = (pp: PricePoint, productId: number, site: string | undefined): Outputs => ({
  pricePointId: pp.id,
  productId: pp.productId ?? productId,
  handle: pp.handle ?? "",
  name: pp.name ?? null,
  isDefault: pp.type === "default",
  archivedAt: pp.archivedAt ?? null,
  ...(pricingOutputs(pp.pricing) as Pick<Outputs, PricingField>),
  ...(site !== undefined ? { site } : {}),
});

const label = (handle: string, id: number) => `price point \`${handle}\` (id ${id})`;

/** The product's id: a number as given, a handle looked up. */
async function productIdOf(ctx: Context, ref: number | string, site: string | undefined): Promise<number> {
  const handle = referencedHandle(ref);
  if (handle === undefined) return ref as number;
  const p = await productWithHandle(ctx.client(site), handle);
  if (!p) throw new Error(`product: no product has the handle \`${handle}\` at site ${ctx.siteLabel(site)}: declare a Product and pass it`);
  return p.id;
}

/** The steps after a create (promote, archive the replaced ones): see finishReplacement. */
const finish = (ctx: Context, id: string, s: State, productId: number): Promise<State> => {
  const client = ctx.client(s.site);
  return finishReplacement(ctx, id, s, {
    type: "ProductPricePoint",
    parent: "product",
    label,
    promote: (pp) => client.promotePricePoint(productId, pp),
    read: (pp) => client.readPricePoint(productId, pp),
    archive: (pp) => client.archivePricePoint(productId, pp),
  });
};

async function createOrAdopt(
  ctx: Context,
  id: string | undefined,
  inputs: Inputs,
  token: string | undefined,
  replacing: readonly number[] = [],
): Promise<{ id: string; state: State }> {
  const client = ctx.client(inputs.site);
  const productId = await productIdOf(ctx, inputs.product, inputs.site);
  const all = await client.listPricePoints(productId, { includeArchived: true });
  const existing = all.find((pp) => pp.handle === inputs.handle);
  const archive = [...replacing];
  if (existing) {
    if (inputs.adopt === false && token === undefined)
      throw new Error(
        `${label(inputs.handle, existing.id)} already exists on product ${productId} and adopt is false: nothing was changed`,
      );
    let found = existing;
    if (found.archivedAt !== undefined) {
      found = await client.unarchivePricePoint(productId, found.id);
      ctx.notice(`ProductPricePoint: unarchived ${label(inputs.handle, found.id)} to manage it.`);
    }
    const held = pricingOutputs(found.pricing);
    const differs = pricingChanges(inputs, held);
    if (differs.length === 0 && (found.name ?? inputs.name) === inputs.name) {
      if (token === undefined) adoptedNotice(ctx, inputs.site, "price point", inputs.handle, found.id);
      const s: State = {
        ...outputsOf(found, productId, inputs.site),
        handle: inputs.handle,
        args: argsOf(inputs),
        todo: { promote: inputs.default === true && found.type !== "default", archive },
      };
      return { id: id ?? String(found.id), state: await finish(ctx, id ?? String(found.id), s, productId) };
    }
    // Pricing or name differ, which the service cannot change without changing what its subscriptions pay: free the handle, replace it.
    const freed = freedHandle(inputs.handle, found.id, new Set(all.map((pp) => pp.handle ?? "")));
    await client.updatePricePoint(productId, found.id, { handle: freed });
    ctx.notice(
      `ProductPricePoint: ${label(inputs.handle, found.id)} is renamed \`${freed}\` to free its handle for its replacement` +
        (differs.length > 0 ? ` (${describeChanges(differs, held, inputs)})` : " (its name differs)"),
    );
    archive.push(found.id);
  }
  const { product: _, default: __, adopt: ___, pricingChangeAcknowledged: ____, site: _____, ...body } = inputs;
  let created: PricePoint;
  try {
    created = await client.createPricePoint(productId, body, token ? { uniquenessToken: token } : {});
  } catch (err) {
    if (!(err instanceof CatalogOutcomeUnknownError)) throw err;
    throw ctx.partialFailure(
      `${err.message}. Recorded: the next \`pulumi up\` looks for price point \`${inputs.handle}\` by its handle and only re-sends the create, with the same token, if it is not there.`,
      id ?? `pending-${err.uniquenessToken}`,
      {
        handle: inputs.handle,
        args: argsOf(inputs),
        ...(inputs.site !== undefined ? { site: inputs.site } : {}),
        pendingToken: err.uniquenessToken,
        todo: { archive },
      },
    );
  }
  const newId = id ?? String(created.id);
  const s: State = {
    ...outputsOf(created, productId, inputs.site),
    handle: created.handle ?? inputs.handle,
    args: argsOf(inputs),
    todo: { promote: inputs.default === true, archive },
  };
  return { id: newId, state: await finish(ctx, newId, s, productId) };
}

const pricePointIdOf = (id: string, s: State): number | undefined => s.pricePointId ?? (/^[1-9][0-9]*$/.test(id) ? Number(id) : undefined);

export const productPricePoint: KindModule<typeof kind, State> = {
  kind,
  operations: {
    state,
    recordedInputs(s) {
      const out: Record<string, unknown> = { ...s.args };
      for (const k of ["handle", "name", ...PRICING_FIELDS] as const)
        if (out[k] !== undefined && s[k] !== undefined && s[k] !== null) out[k] = s[k];
      // Promoted outside: no longer declared-false vs held-true drift (the service cannot demote).
      if (s.args.default === true && s.isDefault === false) out.default = false;
      return out;
    },
    unfinished: (s) => s.pendingToken !== undefined || s.todo !== undefined || (s.archivedAt ?? null) !== null,

    async preflight(ctx, inputs, olds) {
      if (olds !== undefined) {
        const pricingChange = pricingChangeOf(
          inputs as Partial<Inputs>,
          olds as Partial<Inputs>,
          "replaced: the old price point's handle is freed, the new one created (and promoted if default), the old one archived; subscriptions on the old one keep it",
        );
        return pricingChange ? { failures: [], preview: { pricingChange } } : { failures: [] };
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
      const found = listed.find((pp) => pp.handle === inputs.handle);
      if (!found) return { failures: [] };
      if (inputs.adopt === false)
        return {
          failures: [
            {
              property: "handle",
              reason: `${label(String(inputs.handle), found.id)} already exists on product ${productId} and adopt is false: choose another handle, or set adopt: true to manage it`,
            },
          ],
        };
      // Adopted: and when the service holds other pricing, converging it is a replacement, a price change to review.
      const pricingChange = pricingChangeOf(
        inputs as Partial<Inputs>,
        pricingOutputs(found.pricing),
        "the adopted price point is replaced: its handle freed, the new one created (and promoted if default), the old one archived; subscriptions on it keep it",
      );
      return {
        failures: [],
        preview: {
          adopt: {
            id: found.id,
            handle: found.handle ?? String(inputs.handle),
            ...(found.archivedAt !== undefined ? { unarchive: true } : {}),
          },
          ...(pricingChange ? { pricingChange } : {}),
        },
      };
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

    create: (ctx, inputs) => createOrAdopt(ctx, undefined, inputs, undefined),

    /** In place: a pending create or replacement is finished first, then the handle, the default, an archive made outside. */
    async update(ctx, id, s, inputs) {
      if (s.pendingToken !== undefined) return (await createOrAdopt(ctx, id, inputs, s.pendingToken, s.todo?.archive ?? [])).state;
      const pricePointId = pricePointIdOf(id, s);
      if (pricePointId === undefined) return (await createOrAdopt(ctx, id, inputs, undefined)).state;
      const client = ctx.client(inputs.site);
      const productId = s.productId ?? (await productIdOf(ctx, inputs.product, inputs.site));
      let current: State = { ...s, args: argsOf(inputs) };
      if (s.todo !== undefined) current = await finish(ctx, id, current, productId);
      let live: PricePoint;
      try {
        live = await client.readPricePoint(productId, pricePointId);
      } catch (err) {
        if (isNotFound(err))
          throw new Error(
            `${label(s.handle, pricePointId)} no longer exists at the service: run \`pulumi refresh\` to drop it (nothing was changed)`,
          );
        throw err;
      }
      if (live.archivedAt !== undefined) {
        live = await client.unarchivePricePoint(productId, pricePointId);
        ctx.notice(`ProductPricePoint: ${label(s.handle, pricePointId)} was archived outside the stack; unarchived it.`);
      }
      if (live.handle !== inputs.handle) live = await client.updatePricePoint(productId, pricePointId, { handle: inputs.handle });
      let next: State = { ...current, ...outputsOf(live, productId, inputs.site), handle: live.handle ?? inputs.handle };
      if (inputs.default === true && live.type !== "default") next = await finish(ctx, id, { ...next, todo: { promote: true } }, productId);
      if (inputs.default === false && live.type === "default" && s.args.default === true)
        ctx.notice(
          `ProductPricePoint: ${label(inputs.handle, pricePointId)} stays the product's default until another price point is promoted (the service cannot demote one).`,
        );
      return next;
    },

    async read(ctx, id, s) {
      const pricePointId = pricePointIdOf(id, s);
      if (pricePointId === undefined || s.productId === undefined) return s;
      const pp = await findByHandle(() => ctx.client(s.site).readPricePoint(s.productId as number, pricePointId));
      return pp ? { ...s, ...outputsOf(pp, s.productId, s.site), handle: pp.handle ?? s.handle } : undefined;
    },

    async del(ctx, id, s) {
      const client = ctx.client(s.site);
      const productId = s.productId ?? (await productIdOf(ctx, s.args.product as number | string, s.site));
      const pricePointId =
        s.pendingToken === undefined
          ? pricePointIdOf(id, s)
          : (await client.listPricePoints(productId, { includeArchived: true })).find((pp) => pp.handle === s.handle)?.id;
      if (pricePointId === undefined)
        return ctx.notice(`ProductPricePoint: the pending create of \`${s.handle}\` made no price point; nothing to archive.`);
      const live = await findByHandle(() => client.readPricePoint(productId, pricePointId));
      if (!live || live.archivedAt !== undefined) return;
      if (live.type === "default") {
        const product = await findByHandle(() => client.readProduct(productId));
        if (!product || product.archivedAt !== undefined) return;
        throw new Error(
          `${label(live.handle ?? s.handle, pricePointId)} is the default of product \`${product.handle}\`: the service cannot archive a default price point, so nothing was changed. ` +
            "Promote another price point first (declare it with default: true and run `pulumi up`), then remove this one; or remove the product in the same update (its price points are archived with it).",
        );
      }
      try {
        await client.archivePricePoint(productId, pricePointId);
      } catch (err) {
        if (err instanceof BillingApiError && err.status === 404) return;
        throw err;
      }
      ctx.notice(
        `ProductPricePoint: archived ${label(live.handle ?? s.handle, pricePointId)}; subscriptions on it keep it, and its handle stays taken.`,
      );
    },
  },
};

/**
 * The args' TypeScript types, from the declaration, except that `product` may also be the Product resource itself;
 * ProductPricePointArgs gives each its docs (generated: ./generated/product-price-point.ts).
 */
export type ArgTypes = Omit<ArgsOf<typeof kind>, "product"> & { readonly product: Product | ArgsOf<typeof kind>["product"] };
export type { ProductPricePointArgs, ProductPricePointOutputs };

/** The provider of every ProductPricePoint: one instance per type (each instance costs a serialization). */
export const productPricePointProvider = shellProvider(kind);

const Base = resourceClass<typeof kind, ArgsOf<typeof kind>, ProductPricePointOutputs>(kind, productPricePointProvider);

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
    super(
      name,
      { ...args, product: owner ? owner.productId : (args.product as ArgsOf<typeof kind>["product"]) },
      owner ? { deletedWith: owner, ...opts } : opts,
    );
  }
}
