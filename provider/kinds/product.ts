import { z } from "zod";
import { BillingApiError, CatalogOutcomeUnknownError } from "../../sdk/errors";
import { flag } from "../../sdk/inputs";
import type { Product as ServiceProduct } from "../../sdk/results";
import { isUnknown } from "../engine";
import { shellProvider } from "../shell";
import {
  adoptedNotice,
  adoptField,
  describeChanges,
  familyWithHandle,
  findByHandle,
  handleField,
  isNotFound,
  nameField,
  PRICING_FIELDS,
  type PricingField,
  pricingChangeOf,
  pricingChanges,
  pricingFields,
  pricingOf,
  pricingOutputShape,
  pricingOutputs,
  pricingRule,
  productWithHandle,
  referencedHandle,
  referenceField,
  refersTo,
} from "./catalog";
import type { ProductArgs, ProductOutputs } from "./generated/product";
import { siteInput } from "./inputs";
import { type ArgsOf, type Context, declareKind, type InputsOf, type KindModule, resourceClass } from "./kind";

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
      productFamily: referenceField("product family").describe(
        'The family: a ProductFamily\'s `familyId`, an id, or "handle:<handle>". A product cannot move to another family.',
      ),
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
});

type Inputs = InputsOf<typeof kind>;

/** What the service does with a product's pricing change, for the preview annotation. */
const NEW_DEFAULT = "the service creates a new default price point; existing subscriptions keep theirs";
type Outputs = z.output<typeof kind.outputs>;

/** The outputs, the inputs as declared (`args`), and while a create's outcome is unknown the token to resume it with. */
const state = kind.outputs.partial().extend({
  handle: z.string(),
  args: z.record(z.string(), z.unknown()),
  productFamilyHandle: z.string().nullable().optional(),
  pendingToken: z.string().optional(),
});
type State = z.output<typeof state>;

const ARG_KEYS = Object.keys(kind.inputs.shape) as (keyof Inputs & string)[];
const argsOf = (inputs: Inputs) => Object.fromEntries(ARG_KEYS.filter((k) => inputs[k] !== undefined).map((k) => [k, inputs[k]]));

function outputsOf(p: ServiceProduct, site: string | undefined): Outputs {
  return {
    productId: p.id,
    productFamilyId: p.productFamilyId ?? null,
    handle: p.handle ?? "",
    name: p.name ?? null,
    description: p.description ?? null,
    defaultPricePointId: p.defaultPricePointId ?? null,
    defaultPricePointHandle: p.defaultPricePointHandle ?? null,
    archivedAt: p.archivedAt ?? null,
    ...(pricingOutputs(p.pricing) as Pick<Outputs, PricingField>),
    ...(site !== undefined ? { site } : {}),
  };
}

const recordOf = (p: ServiceProduct, inputs: Inputs): State => ({
  ...outputsOf(p, inputs.site),
  handle: p.handle ?? inputs.handle,
  args: argsOf(inputs),
  productFamilyHandle: p.productFamilyHandle ?? null,
});

/** The service's view of a declared field, for comparison with the declaration. */
function held(p: ServiceProduct): Partial<Record<Descriptive | PricingField, unknown>> {
  return {
    handle: p.handle,
    name: p.name,
    description: p.description ?? "",
    accountingCode: p.accountingCode ?? "",
    taxCode: p.taxCode ?? "",
    requireCreditCard: p.requireCreditCard,
    requestCreditCard: p.requestCreditCard,
    ...pricingOutputs(p.pricing),
  };
}

/** Declared descriptive fields the service holds differently. Options it does not report are sent whenever anything is. */
function descriptiveChanges(inputs: Partial<Inputs>, p: Partial<Record<string, unknown>>): Descriptive[] {
  return DESCRIPTIVE.filter((k) => inputs[k] !== undefined && !isUnknown(inputs[k]) && k in p && p[k] !== undefined && inputs[k] !== p[k]);
}

/** The family's id: a number as given, a handle looked up (the family must exist). */
async function familyIdOf(ctx: Context, inputs: Inputs): Promise<number> {
  const handle = referencedHandle(inputs.productFamily);
  if (handle === undefined) return inputs.productFamily as number;
  const family = await familyWithHandle(ctx.client(inputs.site), handle);
  if (!family)
    throw new Error(
      `productFamily: no product family has the handle \`${handle}\` at site ${ctx.siteLabel(inputs.site)}: declare a ProductFamily and pass its familyId`,
    );
  return family.id;
}

const archivedError = (p: ServiceProduct) =>
  `product \`${p.handle}\` (id ${p.id}) is archived at the service (since ${p.archivedAt}), and an archived product keeps its handle: ` +
  "restore it in the service's web UI and run `pulumi up` again, or declare the product with another handle";

const otherFamily = (handle: string, p: ServiceProduct) =>
  `product \`${handle}\` (id ${p.id}) exists in another product family (id ${p.productFamilyId ?? "unknown"}${p.productFamilyHandle ? `, \`${p.productFamilyHandle}\`` : ""}): ` +
  "the service cannot move a product between families; declare that family, or another handle";

/** Sends the declared fields the service holds differently (pricing as a whole, so that the new default price point is complete). */
async function converge(ctx: Context, p: ServiceProduct, inputs: Inputs): Promise<ServiceProduct> {
  const view = held(p);
  const descriptive = descriptiveChanges(inputs, view);
  const pricing = pricingChanges(inputs, view);
  if (descriptive.length === 0 && pricing.length === 0) return p;
  const body: Record<string, unknown> = Object.fromEntries(descriptive.map((k) => [k, inputs[k]]));
  if (pricing.length > 0) Object.assign(body, pricingOf(inputs));
  // The SDK reads back after a failure that may have applied (with pricing: a new default price point), and says so.
  const updated = await ctx.client(inputs.site).updateProduct(p.id, body);
  if (pricing.length > 0) {
    ctx.notice(
      `Product \`${inputs.handle}\`: pricing changed (${describeChanges(pricing, view, inputs)}): the service made a new default price point` +
        `${updated.defaultPricePointId !== undefined ? ` (id ${updated.defaultPricePointId})` : ""}; existing subscriptions keep theirs.`,
    );
  }
  return updated;
}

async function createOrAdopt(
  ctx: Context,
  id: string | undefined,
  inputs: Inputs,
  token: string | undefined,
): Promise<{ id: string; state: State }> {
  const client = ctx.client(inputs.site);
  const familyId = await familyIdOf(ctx, inputs);
  const existing = await productWithHandle(client, inputs.handle);
  if (existing) {
    if (existing.archivedAt !== undefined) throw new Error(archivedError(existing));
    if (existing.productFamilyId !== undefined && existing.productFamilyId !== familyId)
      throw new Error(otherFamily(inputs.handle, existing));
    if (inputs.adopt === false && token === undefined)
      throw new Error(`product \`${inputs.handle}\` (id ${existing.id}) already exists and adopt is false: nothing was changed`);
    if (token === undefined) adoptedNotice(ctx, inputs.site, "product", inputs.handle, existing.id);
    return { id: id ?? String(existing.id), state: recordOf(await converge(ctx, existing, inputs), inputs) };
  }
  const { productFamily: _, adopt: __, pricingChangeAcknowledged: ___, site: ____, ...body } = inputs;
  try {
    const created = await client.createProduct(familyId, body, token ? { uniquenessToken: token } : {});
    return { id: id ?? String(created.id), state: recordOf(created, inputs) };
  } catch (err) {
    if (!(err instanceof CatalogOutcomeUnknownError)) throw err;
    throw ctx.partialFailure(
      `${err.message}. Recorded: the next \`pulumi up\` looks for product \`${inputs.handle}\` by its handle and only re-sends the create, with the same token, if it is not there.`,
      id ?? `pending-${err.uniquenessToken}`,
      {
        handle: inputs.handle,
        args: argsOf(inputs),
        ...(inputs.site !== undefined ? { site: inputs.site } : {}),
        pendingToken: err.uniquenessToken,
      },
    );
  }
}

const productIdOf = (id: string, s: State): number | undefined => s.productId ?? (/^[1-9][0-9]*$/.test(id) ? Number(id) : undefined);

export const product: KindModule<typeof kind, State> = {
  kind,
  operations: {
    state,
    // The service's values for what is declared: a change made in the web UI shows as a diff, and up restores it.
    recordedInputs(s) {
      const out: Record<string, unknown> = { ...s.args };
      const service: Record<string, unknown> = { ...s, description: s.description ?? "" };
      for (const k of [...DESCRIPTIVE, ...PRICING_FIELDS])
        if (out[k] !== undefined && service[k] !== undefined && service[k] !== null) out[k] = service[k];
      return out;
    },
    // Pending create, or archived outside the stack: up finishes, or says what to do.
    unfinished: (s) => s.pendingToken !== undefined || (s.archivedAt ?? null) !== null,

    async preflight(ctx, inputs, olds) {
      if (olds !== undefined) {
        const pricingChange = pricingChangeOf(inputs as Partial<Inputs>, olds as Partial<Inputs>, NEW_DEFAULT);
        if (!pricingChange) return { failures: [] };
        ctx.notice(
          `Product \`${String(inputs.handle)}\`: pricing change (${describeChanges(pricingChange.fields, olds, inputs as Partial<Inputs>)}): ` +
            "the service will create a new default price point and make it the default; existing subscriptions keep theirs.",
        );
        return { failures: [], preview: { pricingChange } };
      }
      if (isUnknown(inputs.handle) || isUnknown(inputs.site)) return { failures: [] };
      const handle = inputs.handle as string;
      const existing = await productWithHandle(ctx.client(inputs.site as string | undefined), handle);
      if (!existing) return { failures: [] };
      const fail = (property: string, reason: string) => ({ failures: [{ property, reason }] });
      if (existing.archivedAt !== undefined) return fail("handle", archivedError(existing));
      if (inputs.adopt === false)
        return fail(
          "handle",
          `product \`${handle}\` (id ${existing.id}) already exists at the service and adopt is false: choose another handle, or set adopt: true to manage it`,
        );
      const family = inputs.productFamily;
      if (
        !isUnknown(family) &&
        existing.productFamilyId !== undefined &&
        !refersTo(family, existing.productFamilyId, existing.productFamilyHandle)
      )
        if (typeof family === "number" || existing.productFamilyHandle !== undefined)
          return fail("productFamily", otherFamily(handle, existing));
      // Adopted: and when the service holds other pricing, converging it is a price change to review.
      const pricingChange = pricingChangeOf(inputs as Partial<Inputs>, pricingOutputs(existing.pricing), NEW_DEFAULT);
      return { failures: [], preview: { adopt: { id: existing.id, handle }, ...(pricingChange ? { pricingChange } : {}) } };
    },

    /** Its ids, for the preview of an update (recorded in the checked inputs once read). */
    async stable(ctx, olds) {
      if (typeof olds.productId === "number") return { productId: olds.productId, productFamilyId: olds.productFamilyId };
      if (typeof olds.handle !== "string") return undefined;
      const handle = olds.handle;
      const p = await productWithHandle(ctx.client(typeof olds.site === "string" ? olds.site : undefined), handle);
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

    create: (ctx, inputs) => createOrAdopt(ctx, undefined, inputs, undefined),

    /** Reads the product first, so a repeated or resumed update sends only what the service still holds differently. */
    async update(ctx, id, s, inputs) {
      if (s.pendingToken !== undefined) return (await createOrAdopt(ctx, id, inputs, s.pendingToken)).state;
      const productId = productIdOf(id, s);
      if (productId === undefined) return (await createOrAdopt(ctx, id, inputs, undefined)).state;
      const client = ctx.client(inputs.site);
      let live: ServiceProduct;
      try {
        live = await client.readProduct(productId);
      } catch (err) {
        if (isNotFound(err))
          throw new Error(
            `product \`${s.handle}\` (id ${productId}) no longer exists at the service: run \`pulumi refresh\` to drop it (nothing was changed)`,
          );
        throw err;
      }
      if (live.archivedAt !== undefined)
        throw new Error(
          `${archivedError(live)}. Nothing was changed; to let it go, remove it from the program (its destroy changes nothing more).`,
        );
      try {
        return recordOf(await converge(ctx, live, inputs), inputs);
      } catch (err) {
        if (err instanceof BillingApiError && err.status === 422)
          throw new Error(
            `Product \`${inputs.handle}\`: the service refused the update: ${err.errors.join("; ") || err.message} (nothing was changed)`,
          );
        throw err;
      }
    },

    async read(ctx, id, s) {
      const productId = productIdOf(id, s);
      if (productId === undefined) return s;
      const p = await findByHandle(() => ctx.client(s.site).readProduct(productId));
      return p
        ? {
            ...s,
            ...outputsOf(p, s.site),
            handle: p.handle ?? s.handle,
            productFamilyHandle: p.productFamilyHandle ?? s.productFamilyHandle ?? null,
          }
        : undefined;
    },

    async del(ctx, id, s) {
      const client = ctx.client(s.site);
      const productId = s.pendingToken === undefined ? productIdOf(id, s) : (await productWithHandle(client, s.handle))?.id;
      if (productId === undefined) return ctx.notice(`Product: the pending create of \`${s.handle}\` made no product; nothing to archive.`);
      const live = await findByHandle(() => client.readProduct(productId));
      if (!live) return;
      if (live.archivedAt === undefined) await client.archiveProduct(productId);
      ctx.notice(
        `Product: archived product \`${s.handle}\` (id ${productId}); the service keeps it (and its price points) archived, its handle stays taken, and subscriptions on it keep it.`,
      );
    },
  },
};

/** The args' TypeScript types, from the declaration; ProductArgs gives each its docs (generated: ./generated/product.ts). */
export type ArgTypes = ArgsOf<typeof kind>;
export type { ProductArgs, ProductOutputs };

/** The provider of every Product: one instance per type (each instance costs a serialization). */
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
export class Product extends resourceClass<typeof kind, ProductArgs, ProductOutputs>(kind, productProvider) {}
