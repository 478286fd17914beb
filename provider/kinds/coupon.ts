import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { couponCode, couponInput, couponRule } from "../../sdk/catalog/coupon-inputs";
import { couponCurrencyPricesInput } from "../../sdk/catalog/currency-inputs";
import { BillingApiError } from "../../sdk/errors";
import { flag } from "../../sdk/inputs";
import { isUnknown } from "../engine";
import { shellProvider } from "../shell";
import { adoptField, referencedHandle, refersTo } from "./catalog";
import { Component } from "./component";
import { convergeCouponCurrencies, type HeldCoupon, withCouponCurrencies } from "./coupon-currencies";
import {
  bodyOf,
  DISCOUNT,
  declaredAsHeld,
  differences,
  discountChange,
  heldBody,
  percentOf,
  type Restriction,
  recordOf,
  referenceList,
  resolve,
  SERVICE_DEFAULTS,
  type Where,
} from "./coupon-fields";
import { couponReader } from "./coupon-reader";
import { archivedError, couponWithCode, familyOf, freedCode, label, noFamily, notFound, otherFamily } from "./coupon-service";
import { CURRENCY_PRICES, currencyFailures, holdsUnknown, withCurrencyChange } from "./currency-fields";
import type { CouponArgs, CouponOutputs } from "./generated/coupon";
import { siteInput } from "./inputs";
import { type ArgsOf, type CatalogReader, declareKind, type InputsOf, type KindModule, resourceClass } from "./kind";
import { type LifecycleState, lifecycle, type Steps, unless404 } from "./lifecycle";
import { adoptionPricingNotice, updatePricingNotice } from "./pricing-text";
import { Product } from "./product";
import { familyField, familyWithHandle } from "./product-family";

export { outputsOf } from "./coupon-fields";
export { couponWithCode } from "./coupon-service";

/**
 * What the contract says of a coupon's update, and so what changes in place: `PUT
 * /product_families/{family}/coupons/{id}.json` takes the create's body ("Create or Update Coupon"), code
 * included, so the code, the name, the description, the discount (a percentage coupon may become an amount
 * one: the vendor's example answers that), the options and the restrictions all change in place. The family
 * does not: the update is addressed under the coupon's family and nothing in the contract moves a coupon to
 * another one, so a new family replaces the coupon. Codes are unique within the site and an archived coupon
 * keeps its code (the contract has no unarchive and no delete), so the replacement first renames the old
 * coupon's code out of the way, then creates the new one, then archives the old one.
 */
const sdk = couponInput.shape;

/** What a change of a coupon's discount does: the coupon is updated in place (the contract's update takes the create's body). */
const DISCOUNT_IN_PLACE = "its discount changes in place (the coupon stays): it is what the coupon takes off from now on";
/** What a change of a coupon's currency amounts does. */
const CURRENCY_IN_PLACE =
  "its discount in those currencies changes in place (the coupon stays); a currency left out keeps its amount: the service has no delete of a currency price";

const kind = declareKind({
  key: "coupon",
  type: "Coupon",
  summary:
    "A coupon: a percentage or flat discount customers apply by its code, optionally restricted to products and components. Everything but its family changes in place (its code too); a new family replaces it, freeing the code first. Delete archives it.",
  inputs: z
    .object({
      productFamily: familyField("The service cannot move a coupon to another family: a new one replaces it."),
      code: couponCode.describe(
        'The code customers enter: uppercase letters, digits and "%", "@", "+", "-", "_", "." (e.g. "SPRING25"). Unique within the site, archived coupons included; it changes in place.',
      ),
      name: sdk.name,
      description: sdk.description,
      percentage: sdk.percentage,
      amountInCents: sdk.amountInCents,
      recurring: sdk.recurring,
      durationPeriodCount: sdk.durationPeriodCount,
      endDate: sdk.endDate,
      stackable: sdk.stackable,
      compoundingStrategy: sdk.compoundingStrategy,
      allowNegativeBalance: sdk.allowNegativeBalance,
      excludeMidPeriodAllocations: sdk.excludeMidPeriodAllocations,
      applyOnCancelAtEndOfPeriod: sdk.applyOnCancelAtEndOfPeriod,
      applyOnSubscriptionExpiration: sdk.applyOnSubscriptionExpiration,
      restrictedProducts: referenceList("product", "a Product's productId")
        .optional()
        .describe(
          "The products it is limited to: Product resources, their `productId`s, ids, or \"handle:<handle>\"; resolved to the site's ids at apply time. Order does not matter; [] lifts every product restriction; left out, the service's are kept.",
        ),
      currencyPrices: couponCurrencyPricesInput
        .optional()
        .describe(
          "A flat-amount coupon's discount in the site's other currencies, by ISO code, in whole units of the currency (9 is 9.00, not cents; the service's coupon currency price is an integer): `{ EUR: 9, GBP: 8 }`. A percentage coupon takes none (the service's rule). Each currency must be one of the site's (checked at preview). Set after the coupon, changed in place; a currency left out is kept (the service has no delete of a currency price).",
        ),
      restrictedComponents: referenceList("component", "a Component's componentId")
        .optional()
        .describe(
          "The components it is limited to: Component resources, their `componentId`s, ids, or \"handle:<handle>\"; resolved to the site's ids at apply time. Order does not matter; [] lifts every component restriction; left out, the service's are kept.",
        ),
      adopt: adoptField.describe(
        "Default true: a create first looks for a coupon with this code and adopts it (then converges it to the declaration). false: an existing code is a preview error.",
      ),
      pricingChangeAcknowledged: flag
        .optional()
        .describe(
          "Set true to acknowledge a change of its discount (percentage, amountInCents or currencyPrices; the policy pack requires it on production stacks); it changes nothing at the service.",
        ),
      site: siteInput,
    })
    .superRefine(couponRule, { when: () => true }),
  outputs: z.object({
    couponId: z.number().int().describe("The service's id of the coupon (it differs from site to site; the code does not)."),
    productFamilyId: z.number().int().nullable().describe("The id of its family."),
    code: z.string().describe("The code as the service holds it."),
    name: z.string().nullable().describe("The name as the service holds it."),
    description: z.string().nullable().describe("The description as the service holds it."),
    percentage: z.number().nullable().describe("The percentage discount (15 for 15%); null for an amount coupon."),
    amountInCents: z.number().int().nullable().describe("The flat discount in cents; null for a percentage coupon."),
    recurring: z.boolean().nullable().describe("Whether the discount applies every period."),
    durationPeriodCount: z.number().int().nullable().describe("For how many periods a recurring discount applies (null: indefinitely)."),
    endDate: z.string().nullable().describe("When it stops being accepted (ISO-8601, as the service holds it); null: never."),
    stackable: z.boolean().nullable().describe("Whether it combines with other coupons."),
    compoundingStrategy: z.string().nullable().describe('"compound" or "full-price".'),
    allowNegativeBalance: z.boolean().nullable().describe("Whether a flat discount may exceed the charge."),
    excludeMidPeriodAllocations: z.boolean().nullable().describe("Whether mid-period allocations are left undiscounted."),
    applyOnCancelAtEndOfPeriod: z
      .boolean()
      .nullable()
      .describe("Whether it applies to the last period of a subscription canceled at its end."),
    applyOnSubscriptionExpiration: z.boolean().nullable().describe("Whether it applies at a subscription's expiration."),
    restrictedProductIds: z.array(z.number().int()).describe("The site's ids of the products it is limited to, sorted (empty: all)."),
    restrictedComponentIds: z.array(z.number().int()).describe("The site's ids of the components it is limited to, sorted (empty: all)."),
    currencyPrices: z
      .record(z.string(), z.number())
      .nullable()
      .describe("A flat-amount coupon's discount in other currencies as the service holds it, when read; null for a percentage coupon."),
    archivedAt: z.string().nullable().describe("When it was archived (ISO-8601); null while it is live."),
    site: z.string().optional().describe("The site, when one was named."),
  }),
  replaceOn: ["site", "productFamily"],
  refresh: true,
  onDelete: "archives the coupon (the service never deletes one; subscriptions using it keep it, and its code stays taken)",
  example: {
    productFamily: "handle:plans",
    code: "SPRING25",
    name: "Spring sale",
    percentage: 25,
    restrictedProducts: ["handle:launch-pro"],
  },
  catalog: {
    key: "code",
    references: {
      productFamily: { kind: "productFamily", output: "familyId" },
      restrictedProducts: { kind: "product", output: "productId" },
      restrictedComponents: { kind: "component", output: "componentId" },
    },
    runtimeInputs: ["adopt", "pricingChangeAcknowledged", "site"],
    defaults: SERVICE_DEFAULTS,
    noun: "coupon",
    title: "Coupon",
    pricing: {
      fields: [...DISCOUNT, CURRENCY_PRICES],
      onUpdate: DISCOUNT_IN_PLACE,
      onAdopt: DISCOUNT_IN_PLACE,
      policy: "The service changes the coupon's discount in place: it is what the coupon takes off from now on.",
    },
    replaced: () => ["create the new coupon (or adopt one with its code)", "archive the old one"],
    deleted: () => ["archived: it can no longer be applied; subscriptions that have it keep their discount"],
  },
});

type Inputs = InputsOf<typeof kind>;
type In = Inputs & Record<string, unknown>;

/**
 * The outputs, the inputs as declared (`args`), the ids the declared restrictions resolved to at the last
 * apply (so that a restriction changed in the web UI shows as a diff), the family's handle (so that a
 * reference to the same family in another form is told apart from a move), while a create's outcome is
 * unknown the token to resume it with, and what a replacement left to do (the replaced coupon to archive).
 */
const state = kind.outputs.partial().extend({
  code: z.string(),
  args: z.record(z.string(), z.unknown()),
  productFamilyHandle: z.string().nullable().optional(),
  resolvedProductIds: z.array(z.number().int()).optional(),
  resolvedComponentIds: z.array(z.number().int()).optional(),
  pendingToken: z.string().optional(),
  todo: z
    .object({
      promote: z.boolean().optional(),
      archive: z.array(z.object({ couponId: z.number().int(), productFamilyId: z.number().int() })).optional(),
    })
    .optional(),
});
type State = z.output<typeof state>;
type St = State & LifecycleState;

/** A replaced coupon, as recorded until it is archived. */
interface Replaced {
  readonly couponId: number;
  readonly productFamilyId: number;
}

/** The family a coupon's calls are addressed under (every step that needs it runs once a family is known). */
const familyIdOf = (where: Where): number => {
  if (where.family === undefined) throw new Error("Coupon: no family is known for the coupon (nothing was changed)");
  return where.family.id;
};

/** A coupon's part of the lifecycle: addressed under its family, found by its code across the site, its code freed for a replacement. */
const steps: Steps<In, St, HeldCoupon, Where> = {
  type: "Coupon",
  noun: "coupon",
  key: "code",
  // The family, then the restrictions: a reference that names nothing fails naming its input before anything is sent.
  where: async (ctx, inputs) => ({ site: inputs.site, family: await familyOf(ctx, inputs), resolved: await resolve(ctx, inputs) }),
  async whereOf(ctx, s) {
    if (s.productFamilyId !== undefined && s.productFamilyId !== null)
      return { site: s.site, family: { id: s.productFamilyId, handle: s.productFamilyHandle ?? undefined } };
    // A state that does not say the family (a pending create's): the coupon holding its code says it.
    const held = (await couponWithCode(ctx.client(s.site), s.code, undefined))?.productFamilyId;
    return { site: s.site, family: held === undefined ? undefined : { id: held, handle: undefined } };
  },
  find: (ctx, code, where) => couponWithCode(ctx.client(where.site), code, where.family?.id),
  id: (c) => c.id,
  keyOf: (c) => c.code,
  archivedAt: (c) => c.archivedAt,
  archivedRefusal: archivedError,
  foreign: (c) => (c.productFamilyId === undefined ? noFamily(c) : undefined),
  // A coupon cannot move between families: one holding the code in another family is replaced (preview refused it on a first deploy).
  createOnly: async (_ctx, c, _inputs, where) => (c.productFamilyId !== where.family?.id ? ["productFamily"] : []),
  async free(ctx, c, where) {
    const client = ctx.client(where.site);
    const old: Replaced = { couponId: c.id, productFamilyId: c.productFamilyId ?? familyIdOf(where) };
    const freed = await freedCode(client, c.code ?? "", c.id);
    await client.updateCoupon(old.productFamilyId, c.id, { ...heldBody(c), code: freed });
    return { freed, old };
  },
  create: (ctx, inputs, where, token) =>
    ctx.client(where.site).createCoupon(familyIdOf(where), bodyOf(inputs, where.resolved), token ? { uniquenessToken: token } : {}),

  /** Sends the declaration when the service holds any of it differently (the update takes the whole coupon). */
  async converge(ctx, c, inputs, where, created, recorded) {
    // The create's body carried every declared field but the currency prices, which are set once the coupon exists.
    if (created) return convergeCouponCurrencies(ctx, c, inputs.currencyPrices, where.site, undefined);
    where.resolved ??= await resolve(ctx, inputs);
    const changed = differences(c, inputs, where.resolved);
    const args = recorded?.args ?? {};
    if (changed.length === 0) return convergeCouponCurrencies(ctx, c, inputs.currencyPrices, where.site, args);
    try {
      // The SDK reads back after a failure that may have applied, and lifts the restrictions the declaration leaves out.
      const updated = await ctx.client(where.site).updateCoupon(familyIdOf(where), c.id, bodyOf(inputs, where.resolved));
      // After the update: an amount coupon that was a percentage one takes currency prices only now.
      return await convergeCouponCurrencies(ctx, updated, inputs.currencyPrices, where.site, args);
    } catch (err) {
      if (err instanceof BillingApiError && err.status === 422)
        throw new Error(
          `Coupon \`${inputs.code}\`: the service refused the update of ${changed.join(", ")}: ${err.errors.join("; ") || err.message} (nothing was changed)`,
        );
      throw err;
    }
  },
  current: async (ctx, s, id, where) => {
    if (where.family === undefined) throw notFound(s.code, id);
    const client = ctx.client(where.site);
    const c = await client.readCoupon(where.family.id, id);
    // Read only where declared: drift is of the declared currencies (those left out the service keeps anyway).
    return s.args.currencyPrices !== undefined ? withCouponCurrencies(client, c) : c;
  },
  record: (c, _inputs, where) => recordOf(c, where),
  async archiveReplaced(ctx, old, where) {
    const { couponId, productFamilyId } = old as Replaced;
    const client = ctx.client(where.site);
    const live = await unless404(() => client.readCoupon(productFamilyId, couponId));
    if (!live || live.archivedAt !== undefined) return undefined;
    await client.archiveCoupon(productFamilyId, couponId);
    return `archived the replaced ${label(live.code ?? "?", couponId)}; subscriptions using it keep it.`;
  },
  async archive(ctx, c, s, where) {
    await ctx.client(where.site).archiveCoupon(familyIdOf(where), c.id);
    return `archived ${label(c.code ?? s.code, c.id)}; subscriptions using it keep it, and the service keeps its code taken.`;
  },
};

const ARG_KEYS = Object.keys(kind.inputs.shape);
const life = lifecycle(steps, { argKeys: ARG_KEYS, idField: "couponId" });

/**
 * A create. `adopt: false` refuses a coupon already holding the code, not the one a move to another family
 * replaces (its code is freed; nothing is adopted); the lifecycle asks `adopt` before it knows which, so such a
 * create is sent without it, and recorded with it.
 */
async function create(ctx: Parameters<typeof life.create>[0], inputs: In) {
  if (inputs.adopt !== false) return life.create(ctx, inputs);
  const where = await steps.where(ctx, inputs);
  const held = await steps.find(ctx, inputs.code, where, inputs);
  if (!held || held.archivedAt !== undefined || held.productFamilyId === undefined || held.productFamilyId === where.family?.id)
    return life.create(ctx, inputs);
  const { adopt: _, ...replacing } = inputs;
  const made = await life.create(ctx, replacing as In);
  return { id: made.id, state: { ...made.state, args: life.argsOf(inputs) } };
}

export const coupon: KindModule<typeof kind, State> = {
  kind,
  reader: couponReader(life.argsOf as (inputs: Record<string, unknown>) => Record<string, unknown>) as CatalogReader,
  operations: {
    state,
    // The service's values for what is declared: a change made in the web UI shows as a diff, and up restores it.
    recordedInputs: declaredAsHeld,
    // Pending create, a replacement's archive left to do, or archived outside the stack: up finishes, or says what to do.
    unfinished: (s) => life.unfinished(s as St),

    async preflight(ctx, inputs, olds) {
      const owner = holdsUnknown(inputs.percentage) ? undefined : { kind: "coupon" as const, percentage: inputs.percentage };
      const currencies = await currencyFailures(ctx, owner, inputs.currencyPrices, inputs.site);
      if (currencies.length > 0) return { failures: currencies };
      // A new family replaces the coupon: the new one is created with the declared discount.
      const replacing = olds !== undefined && JSON.stringify(inputs.productFamily) !== JSON.stringify(olds.productFamily);
      const pricingChange =
        olds === undefined
          ? undefined
          : withCurrencyChange(
              discountChange(
                inputs,
                olds,
                replacing
                  ? "replaced: the new coupon is created with this discount, the old one archived"
                  : `in place: ${DISCOUNT_IN_PLACE}`,
              ),
              olds.currencyPrices,
              inputs.currencyPrices,
              `in place: ${CURRENCY_IN_PLACE}`,
            );
      if (pricingChange) ctx.notice(updatePricingNotice("Coupon", inputs.code, pricingChange));
      const preview = pricingChange ? { preview: { pricingChange } } : {};
      if (isUnknown(inputs.site)) return { failures: [] };
      const site = inputs.site as string | undefined;
      // Its references (the family, the restrictions) were checked at the site before this (provider/runtime/references.ts).
      if (isUnknown(inputs.code)) return { failures: [] };
      const code = inputs.code as string;
      const fail = (property: string, reason: string) => ({ failures: [{ property, reason }] });
      const client = ctx.client(site);
      const ref = inputs.productFamily;
      const familyHandle = isUnknown(ref) ? undefined : referencedHandle(ref as number | string);
      const familyId = isUnknown(ref)
        ? undefined
        : familyHandle === undefined
          ? (ref as number)
          : (await familyWithHandle(client, familyHandle))?.id;
      if (olds !== undefined) {
        if (olds.code === code) return { failures: [], ...preview };
        // A new code, in place: it must be free (archived coupons keep theirs).
        const holder = await couponWithCode(client, code, familyId);
        if (holder)
          return fail(
            "code",
            `the code \`${code}\` is taken by ${label(code, holder.id)}${holder.archivedAt !== undefined ? ", which is archived (an archived coupon keeps its code)" : ""}: choose another code`,
          );
        return { failures: [], ...preview };
      }
      // A first deploy: an existing code is adopted, or refused (archived, adopt: false, held in another family).
      const where: Where = { site, family: familyId === undefined ? undefined : { id: familyId, handle: familyHandle } };
      const found = await life.adoption(ctx, inputs, where);
      if (!found?.existing || found.failures.length > 0) return { failures: found?.failures ?? [] };
      const holder = found.existing.productFamilyId;
      if (familyId !== undefined && holder !== undefined && holder !== familyId)
        return fail("productFamily", otherFamily(found.existing, familyId));
      // Converging the adopted coupon to the declared discount changes what it takes off: said in money at preview.
      const adopted = discountChange(
        inputs,
        { percentage: percentOf(found.existing), amountInCents: found.existing.amountInCents ?? null },
        `the adopted coupon's discount is changed in place: ${DISCOUNT_IN_PLACE}`,
      );
      const said = adopted && adoptionPricingNotice("Coupon", code, adopted);
      if (said) ctx.notice(said);
      return { failures: [], preview: { ...found.preview, ...(adopted ? { pricingChange: adopted } : {}) } };
    },

    /** Its ids, for the preview of an update (recorded in the checked inputs once read). */
    async stable(ctx, olds) {
      if (typeof olds.couponId === "number") return { couponId: olds.couponId, productFamilyId: olds.productFamilyId };
      if (typeof olds.code !== "string") return undefined;
      const c = await couponWithCode(ctx.client(typeof olds.site === "string" ? olds.site : undefined), olds.code, undefined);
      return c && { couponId: c.id, productFamilyId: c.productFamilyId ?? null };
    },

    refuse(s, news) {
      const family = news.productFamily;
      if (isUnknown(family) || JSON.stringify(family) === JSON.stringify(s.args.productFamily)) return;
      // The engine compares the written values: the same family written another way would replace (and archive) the coupon.
      if (refersTo(family, s.productFamilyId ?? undefined, s.productFamilyHandle ?? undefined))
        throw new Error(
          `Coupon \`${s.code}\`: productFamily changed from ${JSON.stringify(s.args.productFamily)} to ${JSON.stringify(family)}, which is the same family (id ${s.productFamilyId}); ` +
            "a changed productFamily replaces the coupon, so nothing is planned: write it as before.",
        );
    },

    create: (ctx, inputs) => create(ctx, inputs as In),
    /** Finishes a pending create or a replacement's archive; else reads the coupon first, so that a repeated update sends only what still differs. */
    update: (ctx, id, s, inputs) => life.update(ctx, id, s as St, inputs as In),
    // A state that does not say the coupon's family has nothing to read it under: it stays as recorded.
    read: async (ctx, id, s) => (s.productFamilyId === undefined || s.productFamilyId === null ? s : life.read(ctx, id, s as St)),
    del: (ctx, id, s) => life.del(ctx, id, s as St),
  },
};

type KindArgs = ArgsOf<typeof kind>;

/**
 * The args' TypeScript types, from the declaration, except that the restrictions may also list Product and
 * Component resources; CouponArgs gives each its docs (generated: ./generated/coupon.ts).
 */
export type ArgTypes = Omit<KindArgs, Restriction> & {
  readonly restrictedProducts?: readonly (Product | pulumi.Input<number | string>)[] | KindArgs["restrictedProducts"];
  readonly restrictedComponents?: readonly (Component | pulumi.Input<number | string>)[] | KindArgs["restrictedComponents"];
};
export type { CouponArgs, CouponOutputs };

/** Coupon's operations as a dynamic provider, to call directly (configure it first); its resources store the smaller storedProvider, which loads the same. */
export const couponProvider = shellProvider(kind);

const Base = resourceClass<typeof kind, KindArgs, CouponOutputs>(kind);

/** A Product or Component in a list as its id (an output, so the engine creates it first). */
const asReference = (r: unknown) => (r instanceof Product ? r.productId : r instanceof Component ? r.componentId : r);
const idsIn = (refs: unknown) => (Array.isArray(refs) ? refs.map(asReference) : refs);

/**
 * A coupon. Create adopts an existing coupon with the same code and converges it; everything but its family
 * changes in place; delete archives it.
 *
 * @example
 * ```ts
 * import { Coupon } from "pulumi-subscription-billing";
 *
 * const coupon = new Coupon("coupon", {
 *   productFamily: "handle:plans",
 *   code: "SPRING25",
 *   name: "Spring sale",
 *   percentage: 25,
 *   restrictedProducts: ["handle:launch-pro"],
 * });
 * ```
 */
export class Coupon extends Base {
  constructor(name: string, args: CouponArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      name,
      {
        ...args,
        restrictedProducts: idsIn(args.restrictedProducts) as KindArgs["restrictedProducts"],
        restrictedComponents: idsIn(args.restrictedComponents) as KindArgs["restrictedComponents"],
      },
      opts,
    );
  }
}
