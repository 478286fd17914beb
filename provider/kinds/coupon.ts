import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { couponCode, couponInput, couponRule } from "../../sdk/catalog/coupon-inputs";
import type { CouponInput } from "../../sdk/catalog/input-types";
import type { BillingClient } from "../../sdk/client";
import { BillingApiError, CatalogOutcomeUnknownError } from "../../sdk/errors";
import { valueText } from "../../sdk/inputs";
import type { Coupon as ServiceCoupon } from "../../sdk/results";
import { isUnknown } from "../engine";
import { shellProvider } from "../shell";
import {
  adoptedNotice,
  adoptField,
  familyWithHandle,
  findByHandle,
  isNotFound,
  productWithHandle,
  referencedHandle,
  referenceField,
  refersTo,
} from "./catalog";
import { Component } from "./component";
import type { CouponArgs, CouponOutputs } from "./generated/coupon";
import { accepting, siteInput } from "./inputs";
import { type ArgsOf, type Context, declareKind, type InputsOf, type KindModule, resourceClass } from "./kind";
import { Product } from "./product";

/**
 * What the contract says of a coupon's update, and so what changes in place: `PUT
 * /product_families/{family}/coupons/{id}.json` takes the create's body ("Create or Update Coupon"), code
 * included, so the code, the name, the description, the discount (a percentage coupon may become an amount
 * one: the vendor's example answers that), the options and the restrictions all change in place. The family
 * does not: the update is addressed under the coupon's family and nothing in the contract moves a coupon to
 * another one, so a new family replaces the coupon. Codes are unique within the site and an archived coupon
 * keeps its code (the contract has no unarchive and no delete), so the replacement first renames the old
 * coupon's code out of the way, then creates the new one; the engine's delete of the old one archives it.
 */
const SCALARS = [
  "code",
  "name",
  "description",
  "percentage",
  "amountInCents",
  "recurring",
  "durationPeriodCount",
  "endDate",
  "stackable",
  "compoundingStrategy",
  "allowNegativeBalance",
  "excludeMidPeriodAllocations",
  "applyOnCancelAtEndOfPeriod",
  "applyOnSubscriptionExpiration",
] as const;
type Scalar = (typeof SCALARS)[number];

const sdk = couponInput.shape;

/** A list of references: each an id or `handle:<handle>`, as a set (sorted, each once), so that order makes no diff. */
const references = (what: string, example: string) =>
  accepting<readonly (number | string)[]>({
    type: "array",
    items: {
      anyOf: [
        { type: "integer", minimum: 1 },
        { type: "string", pattern: "^handle:" },
      ],
    },
  })(
    z
      .array(referenceField(what), {
        error: (i) => `must be a list of ${what} references (each an id, e.g. ${example}, or "handle:<handle>"), got ${valueText(i.input)}`,
      })
      .transform((refs) =>
        [...new Set(refs)].sort((a, b) => (typeof a === typeof b ? (a < b ? -1 : a > b ? 1 : 0) : typeof a === "number" ? -1 : 1)),
      ),
  );

const kind = declareKind({
  key: "coupon",
  type: "Coupon",
  summary:
    "A coupon: a percentage or flat discount customers apply by its code, optionally restricted to products and components. Everything but its family changes in place (its code too); a new family replaces it, freeing the code first. Delete archives it.",
  inputs: z
    .object({
      productFamily: referenceField("product family").describe(
        'The family: a ProductFamily\'s `familyId`, an id, or "handle:<handle>". The service cannot move a coupon to another family: a new one replaces it.',
      ),
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
      restrictedProducts: references("product", "a Product's productId")
        .optional()
        .describe(
          "The products it is limited to: Product resources, their `productId`s, ids, or \"handle:<handle>\"; resolved to the site's ids at apply time. Order does not matter; [] lifts every product restriction; left out, the service's are kept.",
        ),
      restrictedComponents: references("component", "a Component's componentId")
        .optional()
        .describe(
          "The components it is limited to: Component resources, their `componentId`s, ids, or \"handle:<handle>\"; resolved to the site's ids at apply time. Order does not matter; [] lifts every component restriction; left out, the service's are kept.",
        ),
      adopt: adoptField.describe(
        "Default true: a create first looks for a coupon with this code and adopts it (then converges it to the declaration). false: an existing code is a preview error.",
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
});

type Inputs = InputsOf<typeof kind>;
type Outputs = z.output<typeof kind.outputs>;
type Restriction = "restrictedProducts" | "restrictedComponents";

/**
 * The outputs, the inputs as declared (`args`), the ids the declared restrictions resolved to at the last
 * apply (so that a restriction changed in the web UI shows as a diff), the family's handle (so that a
 * reference to the same family in another form is told apart from a move), and while a create's outcome is
 * unknown the token to resume it with.
 */
const state = kind.outputs.partial().extend({
  code: z.string(),
  args: z.record(z.string(), z.unknown()),
  productFamilyHandle: z.string().nullable().optional(),
  resolvedProductIds: z.array(z.number().int()).optional(),
  resolvedComponentIds: z.array(z.number().int()).optional(),
  pendingToken: z.string().optional(),
});
type State = z.output<typeof state>;

const ARG_KEYS = Object.keys(kind.inputs.shape) as (keyof Inputs & string)[];
const argsOf = (inputs: Inputs) => Object.fromEntries(ARG_KEYS.filter((k) => inputs[k] !== undefined).map((k) => [k, inputs[k]]));

const idsOf = (c: ServiceCoupon, type: string) =>
  [...new Set(c.restrictions.filter((r) => r.itemType === type).map((r) => r.itemId))].sort((a, b) => a - b);

const percentOf = (c: ServiceCoupon): number | null => (c.percentage === undefined || c.percentage === null ? null : Number(c.percentage));

/** The coupon as the kind's outputs (the plugin's import records them too). */
export function outputsOf(c: ServiceCoupon, site: string | undefined): Outputs {
  return {
    couponId: c.id,
    productFamilyId: c.productFamilyId ?? null,
    code: c.code ?? "",
    name: c.name ?? null,
    description: c.description ?? null,
    percentage: percentOf(c),
    amountInCents: c.amountInCents ?? null,
    recurring: c.recurring ?? null,
    durationPeriodCount: c.durationPeriodCount ?? null,
    endDate: c.endDate ?? null,
    stackable: c.stackable ?? null,
    compoundingStrategy: c.compoundingStrategy ?? null,
    allowNegativeBalance: c.allowNegativeBalance ?? null,
    excludeMidPeriodAllocations: c.excludeMidPeriodAllocations ?? null,
    applyOnCancelAtEndOfPeriod: c.applyOnCancelAtEndOfPeriod ?? null,
    applyOnSubscriptionExpiration: c.applyOnSubscriptionExpiration ?? null,
    restrictedProductIds: idsOf(c, "Product"),
    restrictedComponentIds: idsOf(c, "Component"),
    archivedAt: c.archivedAt ?? null,
    ...(site !== undefined ? { site } : {}),
  };
}

/** The ids the declared restrictions resolved to. */
interface Resolved {
  products?: number[];
  components?: number[];
}

const recordOf = (c: ServiceCoupon, inputs: Inputs, family: Family, resolved: Resolved): State => ({
  ...outputsOf(c, inputs.site),
  code: c.code ?? inputs.code,
  args: argsOf(inputs),
  productFamilyHandle: family.handle ?? null,
  ...(resolved.products !== undefined ? { resolvedProductIds: resolved.products } : {}),
  ...(resolved.components !== undefined ? { resolvedComponentIds: resolved.components } : {}),
});

const sameDate = (a: string, b: string | null | undefined) => b !== null && b !== undefined && (a === b || Date.parse(a) === Date.parse(b));
const sameSet = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const label = (code: string, id: number) => `coupon \`${code}\` (id ${id})`;

/** The service's view of a declared field, for comparison with the declaration. */
function heldValue(c: ServiceCoupon, k: Scalar): unknown {
  if (k === "percentage") return percentOf(c);
  if (k === "description") return c.description ?? "";
  return c[k] ?? null;
}

/** Declared fields (restrictions as resolved ids) the service holds differently. What a declaration leaves out is the service's choice. */
function differences(c: ServiceCoupon, inputs: Inputs, resolved: Resolved): string[] {
  const out: string[] = SCALARS.filter((k) => {
    const want = inputs[k];
    if (want === undefined) return false;
    if (k === "endDate") return !sameDate(want as string, c.endDate);
    return want !== heldValue(c, k);
  });
  if (resolved.products !== undefined && !sameSet(resolved.products, idsOf(c, "Product"))) out.push("restrictedProducts");
  if (resolved.components !== undefined && !sameSet(resolved.components, idsOf(c, "Component"))) out.push("restrictedComponents");
  return out;
}

/** The family's id and handle: a number as given (its handle read, to tell a reference in another form from a move), a handle looked up. */
interface Family {
  id: number;
  handle: string | undefined;
}

async function familyOf(ctx: Context, inputs: Inputs): Promise<Family> {
  const client = ctx.client(inputs.site);
  const handle = referencedHandle(inputs.productFamily);
  if (handle === undefined) {
    const id = inputs.productFamily as number;
    const f = await findByHandle(() => client.readProductFamily(id));
    if (!f)
      throw new Error(`productFamily: no product family has the id ${id} at site ${ctx.siteLabel(inputs.site)} (nothing was changed)`);
    return { id, handle: f.handle };
  }
  const family = await familyWithHandle(client, handle);
  if (!family)
    throw new Error(
      `productFamily: no product family has the handle \`${handle}\` at site ${ctx.siteLabel(inputs.site)}: declare a ProductFamily and pass its familyId (nothing was changed)`,
    );
  return { id: family.id, handle };
}

/**
 * The coupon holding this code anywhere on the site, archived ones included, or undefined. The find answers
 * within one family (the site's default one without `familyId`), so a code held in another family is looked
 * for in the site's list, filtered by code.
 */
export async function couponWithCode(
  client: BillingClient,
  code: string,
  familyId: number | undefined,
): Promise<ServiceCoupon | undefined> {
  if (familyId !== undefined) {
    const found = await findByHandle(() => client.findCoupon(code, { familyId }));
    // Found within the family it was asked in, whether or not the answer says so.
    if (found) return { ...found, productFamilyId: found.productFamilyId ?? familyId };
  }
  return (await client.listCoupons({ includeArchived: true, codes: [code] })).find((c) => c.code === code);
}

const WHAT = { restrictedProducts: "product", restrictedComponents: "component" } as const;

/** A handle's object on the site, or undefined. */
const lookup = (client: BillingClient, property: Restriction, handle: string): Promise<{ id: number } | undefined> =>
  property === "restrictedProducts" ? productWithHandle(client, handle) : findByHandle(() => client.findComponentByHandle(handle));

const unknownHandle = (ctx: Context, site: string | undefined, property: Restriction, handle: string) => {
  const what = WHAT[property];
  const resource = what === "product" ? "Product" : "Component";
  return (
    `no ${what} has the handle \`${handle}\` at site ${ctx.siteLabel(site)}: each entry must be an existing ${what}'s id or "handle:<handle>"; ` +
    `for a ${resource} declared in the same program, pass the ${resource} (or its ${what}Id) so that it is created first`
  );
};

/** The declared references as the site's ids (each once, sorted); a handle that names nothing is an error naming the property. */
async function resolve(ctx: Context, inputs: Inputs): Promise<Resolved> {
  const client = ctx.client(inputs.site);
  const out: Resolved = {};
  for (const property of ["restrictedProducts", "restrictedComponents"] as const) {
    const refs = inputs[property];
    if (refs === undefined) continue;
    const ids = new Set<number>();
    for (const ref of refs) {
      const handle = referencedHandle(ref);
      if (handle === undefined) {
        ids.add(ref as number);
        continue;
      }
      const found = await lookup(client, property, handle);
      if (!found) throw new Error(`${property}: ${unknownHandle(ctx, inputs.site, property, handle)} (nothing was changed)`);
      ids.add(found.id);
    }
    out[property === "restrictedProducts" ? "products" : "components"] = [...ids].sort((a, b) => a - b);
  }
  return out;
}

/** The SDK's input for a create or an update: the declared fields, restrictions as ids. */
function bodyOf(inputs: Inputs, resolved: Resolved): CouponInput {
  const { productFamily: _, adopt: __, site: ___, restrictedProducts: ____, restrictedComponents: _____, ...fields } = inputs;
  return {
    ...fields,
    ...(resolved.products !== undefined ? { restrictedProducts: resolved.products } : {}),
    ...(resolved.components !== undefined ? { restrictedComponents: resolved.components } : {}),
  } as CouponInput;
}

const archivedError = (c: ServiceCoupon) =>
  `${label(c.code ?? "?", c.id)} is archived at the service (since ${c.archivedAt}); the service cannot unarchive a coupon and keeps an archived coupon's code: ` +
  "declare the coupon with another code (or restore it in the service's web UI and run `pulumi up` again)";

const otherFamily = (c: ServiceCoupon, familyId: number) =>
  `${label(c.code ?? "?", c.id)} exists in another product family (id ${c.productFamilyId ?? "unknown"}, not ${familyId}), and codes are unique within the site: ` +
  "the service cannot move a coupon between families; declare that family, or another code";

/** A code no coupon holds: the replaced coupon's, out of the way of its replacement's. */
async function freedCode(client: BillingClient, code: string, id: number): Promise<string> {
  for (let n = 0; ; n++) {
    const suffix = `-REPLACED-${id}${n === 0 ? "" : `-${n}`}`;
    const candidate = `${code.slice(0, 255 - suffix.length)}${suffix}`;
    if ((await client.listCoupons({ includeArchived: true, codes: [candidate] })).length === 0) return candidate;
  }
}

/** Sends the declaration when the service holds any of it differently (the update takes the whole coupon). */
async function converge(ctx: Context, c: ServiceCoupon, family: Family, inputs: Inputs, resolved: Resolved): Promise<ServiceCoupon> {
  const changed = differences(c, inputs, resolved);
  if (changed.length === 0) return c;
  try {
    // The SDK reads back after a failure that may have applied, and lifts the restrictions the declaration leaves out.
    return await ctx.client(inputs.site).updateCoupon(family.id, c.id, bodyOf(inputs, resolved));
  } catch (err) {
    if (err instanceof BillingApiError && err.status === 422)
      throw new Error(
        `Coupon \`${inputs.code}\`: the service refused the update of ${changed.join(", ")}: ${err.errors.join("; ") || err.message} (nothing was changed)`,
      );
    throw err;
  }
}

async function createOrAdopt(
  ctx: Context,
  id: string | undefined,
  inputs: Inputs,
  token: string | undefined,
): Promise<{ id: string; state: State }> {
  const client = ctx.client(inputs.site);
  const family = await familyOf(ctx, inputs);
  const resolved = await resolve(ctx, inputs);
  const existing = await couponWithCode(client, inputs.code, family.id);
  if (existing && existing.archivedAt !== undefined) throw new Error(archivedError(existing));
  if (existing && existing.productFamilyId === family.id) {
    if (inputs.adopt === false && token === undefined)
      throw new Error(`${label(inputs.code, existing.id)} already exists and adopt is false: nothing was changed`);
    if (token === undefined) adoptedNotice(ctx, inputs.site, "coupon", inputs.code, existing.id);
    const held = await converge(ctx, existing, family, inputs, resolved);
    return { id: id ?? String(existing.id), state: recordOf(held, inputs, family, resolved) };
  }
  let freed: string | undefined;
  if (existing && existing.productFamilyId === undefined)
    throw new Error(
      `${label(inputs.code, existing.id)} exists, and the service's answer does not say in which family: nothing was changed`,
    );
  if (existing) {
    // Preview refused a code held in another family on a first deploy, so this is a replacement (the family changed):
    // the old coupon, archived by the engine's delete after this, gives up its code first.
    freed = await freedCode(client, inputs.code, existing.id);
    await client.updateCoupon(existing.productFamilyId ?? family.id, existing.id, { ...heldBody(existing), code: freed });
    ctx.notice(
      `Coupon: ${label(inputs.code, existing.id)} in family ${existing.productFamilyId} is renamed \`${freed}\` to free its code for its replacement in family ${family.id}; it is archived when the replaced resource is deleted.`,
    );
  }
  try {
    const created = await client.createCoupon(family.id, bodyOf(inputs, resolved), token ? { uniquenessToken: token } : {});
    return { id: id ?? String(created.id), state: recordOf(created, inputs, family, resolved) };
  } catch (err) {
    const applied = freed !== undefined ? ` The old coupon (id ${existing?.id}) holds the code \`${freed}\` now.` : "";
    if (!(err instanceof CatalogOutcomeUnknownError)) {
      if (applied === "") throw err;
      throw new Error(
        `${err instanceof Error ? err.message : String(err)}.${applied} The create was not applied; the next \`pulumi up\` creates it.`,
      );
    }
    throw ctx.partialFailure(
      `${err.message}.${applied} Recorded: the next \`pulumi up\` looks for coupon \`${inputs.code}\` by its code and only re-sends the create, with the same token, if it is not there.`,
      id ?? `pending-${err.uniquenessToken}`,
      {
        code: inputs.code,
        args: argsOf(inputs),
        ...(inputs.site !== undefined ? { site: inputs.site } : {}),
        pendingToken: err.uniquenessToken,
      },
    );
  }
}

/**
 * The coupon as the service holds it, as the update's input (the update takes the create's body, so what it
 * holds is sent back unchanged). Not its end date: a past one, which an expired coupon holds, is refused.
 */
function heldBody(c: ServiceCoupon): CouponInput {
  const body: Record<string, unknown> = { name: c.name || c.code };
  for (const k of SCALARS) {
    if (k === "endDate" || k === "name" || (k === "durationPeriodCount" && c.recurring !== true)) continue;
    const v = heldValue(c, k);
    if (v !== null && v !== undefined) body[k] = v;
  }
  return body as unknown as CouponInput;
}

const couponIdOf = (id: string, s: State): number | undefined => s.couponId ?? (/^[1-9][0-9]*$/.test(id) ? Number(id) : undefined);

/** Failures for `handle:` references the site has no object for; unknown values are left for later. */
async function restrictionFailures(ctx: Context, inputs: Record<string, unknown>) {
  const site = inputs.site as string | undefined;
  const failures: { property: string; reason: string }[] = [];
  for (const property of ["restrictedProducts", "restrictedComponents"] as const) {
    const refs = inputs[property];
    if (!Array.isArray(refs)) continue;
    for (const ref of refs) {
      if (isUnknown(ref) || typeof ref !== "string" || !ref.startsWith("handle:")) continue;
      const handle = ref.slice("handle:".length);
      if (!(await lookup(ctx.client(site), property, handle)))
        failures.push({ property, reason: unknownHandle(ctx, site, property, handle) });
    }
  }
  return failures;
}

export const coupon: KindModule<typeof kind, State> = {
  kind,
  operations: {
    state,
    // The service's values for what is declared: a change made in the web UI shows as a diff, and up restores it.
    recordedInputs(s) {
      const out: Record<string, unknown> = { ...s.args };
      // A pending create holds no service values yet: its declaration stands (no description drift from "").
      const service: Record<string, unknown> = s.couponId === undefined ? { ...s } : { ...s, description: s.description ?? "" };
      for (const k of SCALARS) {
        if (out[k] === undefined || service[k] === undefined) continue;
        if (k === "endDate") {
          if (!sameDate(out[k] as string, s.endDate)) out[k] = s.endDate ?? null;
        } else if (service[k] !== null || k === "percentage" || k === "amountInCents") out[k] = service[k];
      }
      // Restrictions are compared as the ids they resolved to: a change at the service is the held ids, which differ.
      if (
        out.restrictedProducts !== undefined &&
        s.resolvedProductIds &&
        s.restrictedProductIds &&
        !sameSet(s.resolvedProductIds, s.restrictedProductIds)
      )
        out.restrictedProducts = s.restrictedProductIds;
      if (
        out.restrictedComponents !== undefined &&
        s.resolvedComponentIds &&
        s.restrictedComponentIds &&
        !sameSet(s.resolvedComponentIds, s.restrictedComponentIds)
      )
        out.restrictedComponents = s.restrictedComponentIds;
      return out;
    },
    // Pending create, or archived outside the stack: up finishes, or says what to do.
    unfinished: (s) => s.pendingToken !== undefined || (s.archivedAt ?? null) !== null,

    async preflight(ctx, inputs, olds) {
      if (isUnknown(inputs.site)) return { failures: [] };
      const site = inputs.site as string | undefined;
      const failures = await restrictionFailures(ctx, inputs as Record<string, unknown>);
      if (failures.length > 0 || isUnknown(inputs.code)) return { failures };
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
        if (olds.code === code) return { failures: [] };
        // A new code, in place: it must be free (archived coupons keep theirs).
        const holder = await couponWithCode(client, code, familyId);
        if (holder)
          return fail(
            "code",
            `the code \`${code}\` is taken by ${label(code, holder.id)}${holder.archivedAt !== undefined ? ", which is archived (an archived coupon keeps its code)" : ""}: choose another code`,
          );
        return { failures: [] };
      }
      const existing = await couponWithCode(client, code, familyId);
      if (!existing) return { failures: [] };
      if (existing.archivedAt !== undefined) return fail("code", archivedError(existing));
      if (inputs.adopt === false)
        return fail(
          "code",
          `${label(code, existing.id)} already exists at the service and adopt is false: choose another code, or set adopt: true to manage it`,
        );
      if (familyId !== undefined && existing.productFamilyId !== undefined && existing.productFamilyId !== familyId)
        return fail("productFamily", otherFamily(existing, familyId));
      return { failures: [], preview: { adopt: { id: existing.id, code } } };
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

    create: (ctx, inputs) => createOrAdopt(ctx, undefined, inputs, undefined),

    /** Reads the coupon first, so that a repeated or resumed update sends only when the service still holds something differently. */
    async update(ctx, id, s, inputs) {
      if (s.pendingToken !== undefined) return (await createOrAdopt(ctx, id, inputs, s.pendingToken)).state;
      const couponId = couponIdOf(id, s);
      if (couponId === undefined || s.productFamilyId === undefined || s.productFamilyId === null)
        return (await createOrAdopt(ctx, id, inputs, undefined)).state;
      const client = ctx.client(inputs.site);
      let live: ServiceCoupon;
      try {
        live = await client.readCoupon(s.productFamilyId, couponId);
      } catch (err) {
        if (isNotFound(err))
          throw new Error(
            `${label(s.code, couponId)} no longer exists at the service: run \`pulumi refresh\` to drop it (nothing was changed)`,
          );
        throw err;
      }
      if (live.archivedAt !== undefined)
        throw new Error(
          `${archivedError(live)}. Nothing was changed; to let it go, remove it from the program (its destroy changes nothing more).`,
        );
      const family = { id: s.productFamilyId, handle: s.productFamilyHandle ?? undefined };
      const resolved = await resolve(ctx, inputs);
      return recordOf(await converge(ctx, live, family, inputs, resolved), inputs, family, resolved);
    },

    async read(ctx, id, s) {
      const couponId = couponIdOf(id, s);
      if (couponId === undefined || s.productFamilyId === undefined || s.productFamilyId === null) return s;
      const c = await findByHandle(() => ctx.client(s.site).readCoupon(s.productFamilyId as number, couponId));
      return c ? { ...s, ...outputsOf(c, s.site), code: c.code ?? s.code } : undefined;
    },

    async del(ctx, id, s) {
      const client = ctx.client(s.site);
      let couponId = couponIdOf(id, s);
      let familyId = s.productFamilyId ?? undefined;
      if (s.pendingToken !== undefined || familyId === undefined) {
        const found = await couponWithCode(client, s.code, familyId);
        couponId = found?.id;
        familyId = found?.productFamilyId;
      }
      if (couponId === undefined || familyId === undefined)
        return ctx.notice(`Coupon: the pending create of \`${s.code}\` made no coupon; nothing to archive.`);
      const fid = familyId;
      const live = await findByHandle(() => client.readCoupon(fid, couponId));
      if (!live || live.archivedAt !== undefined) return;
      await client.archiveCoupon(fid, couponId);
      ctx.notice(
        `Coupon: archived ${label(live.code ?? s.code, couponId)}; subscriptions using it keep it, and the service keeps its code taken.`,
      );
    },
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

/** The provider of every Coupon: one instance per type (each instance costs a serialization). */
export const couponProvider = shellProvider(kind);

const Base = resourceClass<typeof kind, KindArgs, CouponOutputs>(kind, couponProvider);

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
