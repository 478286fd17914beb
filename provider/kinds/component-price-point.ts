import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { sameTiers } from "../../sdk/catalog/component-price-points";
import { catalogHandle } from "../../sdk/catalog/inputs";
import { BillingApiError, CatalogOutcomeUnknownError } from "../../sdk/errors";
import { flag } from "../../sdk/inputs";
import type { ComponentPricePoint as HeldPricePoint, PriceTier } from "../../sdk/results";
import { isUnknown } from "../engine";
import { shellProvider } from "../shell";
import {
  adoptedNotice,
  adoptField,
  findByHandle,
  finishReplacement,
  freedHandle,
  isNotFound,
  nameField,
  referencedHandle,
} from "./catalog";
import { Component } from "./component";
import {
  componentFrequencyFields,
  componentPrepaidFields,
  componentPricingFields,
  componentReferenceField,
  componentTierRule,
  componentWithHandle,
  heldTiersOutput,
} from "./component-fields";
import type { ComponentPricePointArgs, ComponentPricePointOutputs } from "./generated/component-price-point";
import { accepting, siteInput } from "./inputs";
import { type ArgsOf, type Context, declareKind, type InputsOf, type KindModule, resourceClass } from "./kind";

/**
 * Whom an in-place price change affects. The contract's `Update Component Price Point`: "When
 * updating a price point, it's prices can be updated as well by creating new prices or editing /
 * removing existing ones" (the price point itself changes: no new one is made, unlike a product's
 * pricing change); its `Archive Component Price Point`: "Subscriptions using a price point that has
 * been archived will continue using it until they're moved to another price point"; its `Promote
 * Price Point to Default`: "existing subscriptions will remain on their current price point". So the
 * subscriptions on this price point, and only they, pay its new prices. When is not published: "from
 * their next charge" is the SDK's reading (BillingClient.updateComponentPricePoint), charges already
 * made being invoices the service does not rewrite.
 */
const AFFECTS = "subscriptions on this price point pay the new prices from their next charge; charges already made stay as they were";

const kind = declareKind({
  key: "componentPricePoint",
  type: "ComponentPricePoint",
  summary:
    "A price point of a component. Its handle, name, scheme, prices, interval and currency options change in place (new prices apply to the subscriptions on it from their next charge); a create-only field (its component, the prepaid terms) replaces it, its handle freed first and the old one archived after the new one is promoted.",
  inputs: z
    .object({
      component: componentReferenceField().describe(
        'The component: a Component resource (then it goes with the component: destroying both archives the component and leaves this price point to it, even while it is the default), its `componentId`, an id, or "handle:<handle>".',
      ),
      handle: accepting<string>({ type: "string", pattern: "^[a-z0-9][a-z0-9.:_-]*$", maxLength: 255 })(catalogHandle).describe(
        "The price point's handle: its identity across sites (ids differ per site). Lowercase letters, numbers, '.', ':', '-', '_', starting with a letter or number. Unique among its component's price points, archived ones included.",
      ),
      name: nameField("The price point's name (1 to 255 characters)."),
      pricingScheme: componentPricingFields.pricingScheme,
      prices: componentPricingFields.prices.describe(
        `The tiers, ascending and contiguous: the first starts at 1, each next one at the previous endingQuantity + 1, the last has no endingQuantity; per_unit takes exactly one. A change is made in place: ${AFFECTS}.`,
      ),
      ...componentFrequencyFields,
      useSiteExchangeRate: flag.optional().describe("Whether its prices in the site's other currencies follow the site's exchange rate."),
      taxIncluded: flag.optional().describe("Whether its prices include tax."),
      overagePricing: componentPrepaidFields.overagePricing
        .optional()
        .describe(
          "A prepaid usage component's price point only (required there): how usage beyond the prepaid quantity is priced, { pricingScheme, prices }, the same tier rules as prices. The service cannot change it: a change replaces the price point.",
        ),
      rolloverPrepaidRemainder: componentPrepaidFields.rolloverPrepaidRemainder,
      renewPrepaidAllocation: componentPrepaidFields.renewPrepaidAllocation,
      expirationInterval: componentPrepaidFields.expirationInterval,
      expirationIntervalUnit: componentPrepaidFields.expirationIntervalUnit,
      default: flag
        .optional()
        .describe(
          "true: promote it to the component's default price point (new subscriptions get it; existing ones keep theirs), before any price point it replaces is archived. Setting it back to false changes nothing until another is promoted.",
        ),
      adopt: adoptField,
      pricingChangeAcknowledged: flag
        .optional()
        .describe("Set true to acknowledge a pricing change (a review or policy may require it); it changes nothing at the service."),
      site: siteInput,
    })
    .superRefine(...componentTierRule),
  outputs: z.object({
    pricePointId: z.number().int().describe("The service's id of the price point."),
    componentId: z.number().int().describe("The id of its component."),
    handle: z.string().describe("The price point's handle as the service holds it."),
    name: z.string().nullable().describe("The price point's name as the service holds it."),
    isDefault: z.boolean().describe("Whether it is its component's default price point."),
    archivedAt: z.string().nullable().describe("When it was archived (ISO-8601); null while it is live."),
    pricingScheme: z.string().nullable().describe("The pricing scheme, as the service holds it."),
    prices: heldTiersOutput().describe(
      "The tiers as the service holds them (unit prices as its decimal text, the open-ended last tier's endingQuantity null).",
    ),
    overagePrices: heldTiersOutput().describe(
      "A prepaid usage price point's overage tiers as the service holds them; empty for other kinds.",
    ),
    interval: z.number().int().nullable().describe("The billing interval, as the service holds it (sites with multifrequency)."),
    intervalUnit: z.string().nullable().describe("The interval's unit, as the service holds it."),
    useSiteExchangeRate: z.boolean().nullable().describe("Whether other currencies' prices follow the site's exchange rate."),
    taxIncluded: z.boolean().nullable().describe("Whether the prices include tax."),
    rolloverPrepaidRemainder: z.boolean().nullable().describe("Whether unused prepaid units roll over (prepaid usage)."),
    renewPrepaidAllocation: z.boolean().nullable().describe("Whether the prepaid quantity renews each period (prepaid usage)."),
    expirationInterval: z.number().int().nullable().describe("After how many units rolled-over prepaid units expire (prepaid usage)."),
    expirationIntervalUnit: z.string().nullable().describe("The expiration's unit (prepaid usage)."),
    site: z.string().optional().describe("The site, when one was named."),
  }),
  replaceOn: [
    "site",
    "component",
    "overagePricing",
    "rolloverPrepaidRemainder",
    "renewPrepaidAllocation",
    "expirationInterval",
    "expirationIntervalUnit",
  ],
  refresh: true,
  onDelete:
    "archives it; the component's default cannot be archived (promote another first), except with its component, which archives both",
  example: {
    component: "handle:text-messages",
    handle: "text-messages-volume",
    name: "Volume pricing",
    pricingScheme: "volume",
    prices: [
      { startingQuantity: 1, endingQuantity: 1000, unitPrice: "0.05" },
      { startingQuantity: 1001, unitPrice: "0.03" },
    ],
  },
});

type Inputs = InputsOf<typeof kind>;
type Outputs = z.output<typeof kind.outputs>;
type Tier = Inputs["prices"][number];

/**
 * The outputs and declared inputs (`args`); `pendingToken` while a create's outcome is unknown;
 * `todo` while a create's or replacement's later steps (promote, archive the old one) are not done yet.
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

/** The fields the service's update takes: a change is made in place. */
const IN_PLACE = ["name", "interval", "intervalUnit", "useSiteExchangeRate", "taxIncluded"] as const;
/** The prepaid terms the update does not take: the service holds them as created. */
const CREATE_ONLY = ["rolloverPrepaidRemainder", "renewPrepaidAllocation", "expirationInterval", "expirationIntervalUnit"] as const;

const heldTiers = (tiers: readonly PriceTier[]) =>
  tiers.map((t) => ({ startingQuantity: t.startingQuantity, endingQuantity: t.endingQuantity ?? null, unitPrice: t.unitPrice }));
/** Held tiers as a declaration writes them (the open-ended last tier without endingQuantity). */
const declaredTiers = (tiers: readonly { startingQuantity: number; endingQuantity?: number | null; unitPrice: string | number }[]) =>
  tiers.map((t) => ({
    startingQuantity: t.startingQuantity,
    ...(t.endingQuantity === null || t.endingQuantity === undefined ? {} : { endingQuantity: t.endingQuantity }),
    unitPrice: t.unitPrice,
  }));
const asTiers = (tiers: readonly { startingQuantity: number; endingQuantity?: number | null; unitPrice: string | number }[]): PriceTier[] =>
  tiers.map((t) => ({
    startingQuantity: t.startingQuantity,
    endingQuantity: t.endingQuantity ?? undefined,
    unitPrice: String(t.unitPrice),
  }));

const outputsOf = (pp: HeldPricePoint, componentId: number, site: string | undefined): Outputs => ({
  pricePointId: pp.id,
  componentId: pp.componentId ?? componentId,
  handle: pp.handle ?? "",
  name: pp.name ?? null,
  isDefault: pp.type === "default",
  archivedAt: pp.archivedAt ?? null,
  pricingScheme: pp.pricingScheme ?? null,
  prices: heldTiers(pp.prices),
  overagePrices: heldTiers(pp.overagePrices),
  interval: pp.interval ?? null,
  intervalUnit: pp.intervalUnit ?? null,
  useSiteExchangeRate: pp.useSiteExchangeRate ?? null,
  taxIncluded: pp.taxIncluded ?? null,
  rolloverPrepaidRemainder: pp.rolloverPrepaidRemainder ?? null,
  renewPrepaidAllocation: pp.renewPrepaidAllocation ?? null,
  expirationInterval: pp.expirationInterval ?? null,
  expirationIntervalUnit: pp.expirationIntervalUnit ?? null,
  ...(site !== undefined ? { site } : {}),
});

const label = (handle: string, id: number) => `component price point \`${handle}\` (id ${id})`;

/** Whether the held scheme and tiers are the declared ones (unit prices compared as numbers: "5" and "5.00" are one price). */
const samePricing = (declared: Pick<Inputs, "pricingScheme" | "prices">, held: HeldPricePoint) =>
  held.pricingScheme === declared.pricingScheme && sameTiers(held.prices, declared.prices);

/** The in-place changes that bring `held` to the declaration, as the SDK's update takes them (undefined: none). */
function convergence(inputs: Inputs, held: HeldPricePoint): Record<string, unknown> | undefined {
  const change: Record<string, unknown> = {};
  if (held.handle !== inputs.handle) change.handle = inputs.handle;
  for (const k of IN_PLACE) if (inputs[k] !== undefined && inputs[k] !== held[k]) change[k] = inputs[k];
  // Scheme and tiers together: the service checks the tiers against the scheme they are sent with.
  if (!samePricing(inputs, held)) Object.assign(change, { pricingScheme: inputs.pricingScheme, prices: inputs.prices });
  return Object.keys(change).length > 0 ? change : undefined;
}

/**
 * The create-only fields declared and not confirmed held: held otherwise, or not in the service's answer
 * (the overage's scheme never is, so its tiers are compared; a prepaid price point always has overage
 * tiers, so none in the answer means the answer does not show them). Adopting a price point whose terms
 * cannot be confirmed replaces it rather than claim it: a replacement's create adopting its own
 * predecessor would then have it archived by the engine's delete of the old resource.
 */
function createOnlyChanges(inputs: Inputs, held: HeldPricePoint): string[] {
  const out: string[] = CREATE_ONLY.filter((k) => inputs[k] !== undefined && inputs[k] !== held[k]);
  if (inputs.overagePricing !== undefined && !sameTiers(held.overagePrices, inputs.overagePricing.prices)) out.push("overagePricing");
  return out;
}

/** The component's id: a number as given, a handle looked up. */
async function componentIdOf(ctx: Context, ref: number | string, site: string | undefined): Promise<number> {
  const handle = referencedHandle(ref);
  if (handle === undefined) return ref as number;
  const c = await componentWithHandle(ctx.client(site), handle);
  if (!c)
    throw new Error(`component: no component has the handle \`${handle}\` at site ${ctx.siteLabel(site)}: declare a Component and pass it`);
  return c.id;
}

/**
 * The component's price point with this handle, archived ones included, or undefined. Read by
 * `handle:<handle>` (the contract's Read takes it) rather than found in the list, which the contract
 * gives no archived filter: a service may leave archived ones out of it (the simulator does). The
 * SDK reads the `handle:` form; BillingClient's signature names only numeric ids.
 */
const pricePointWithHandle = (ctx: Context, site: string | undefined, componentId: number, handle: string) =>
  findByHandle(() => ctx.client(site).readComponentPricePoint(componentId, `handle:${handle}` as unknown as number));

/**
 * Price points a create adopted in this process, by site, component and id. A replacement whose new
 * inputs still name the same price point (its component given in another form: a handle, then the
 * Component's id) adopts its predecessor; the engine then deletes the old resource, and that delete
 * must not archive what the new one now manages. The engine runs both in one provider process.
 */
const adoptedHere = new Set<string>();
const adoptionKey = (ctx: Context, site: string | undefined, componentId: number, id: number) =>
  `${ctx.siteLabel(site)}/${componentId}/${id}`;

/** The steps after a create (promote, archive the replaced ones): see finishReplacement. */
const finish = (ctx: Context, id: string, s: State, componentId: number): Promise<State> => {
  const client = ctx.client(s.site);
  return finishReplacement(ctx, id, s, {
    type: "ComponentPricePoint",
    parent: "component",
    label,
    promote: (pp) => client.setDefaultComponentPricePoint(componentId, pp),
    read: (pp) => client.readComponentPricePoint(componentId, pp),
    archive: (pp) => client.archiveComponentPricePoint(componentId, pp),
  });
};

/** The SDK's create body: the declared price point, without the provider's own inputs. */
function createBody(inputs: Inputs) {
  const { component: _, default: __, adopt: ___, pricingChangeAcknowledged: ____, site: _____, ...body } = inputs;
  return body;
}

/** Brings an adopted (or finished-pending) price point to the declaration in place; a failure says what was applied. */
async function converge(
  ctx: Context,
  id: string,
  componentId: number,
  found: HeldPricePoint,
  inputs: Inputs,
  base: State,
): Promise<HeldPricePoint> {
  const change = convergence(inputs, found);
  if (!change) return found;
  try {
    const updated = await ctx.client(inputs.site).updateComponentPricePoint(componentId, found.id, change);
    if (change.prices !== undefined)
      ctx.notice(`ComponentPricePoint: changed the prices of ${label(inputs.handle, found.id)} in place: ${AFFECTS}.`);
    return updated;
  } catch (err) {
    throw ctx.partialFailure(
      `${label(found.handle ?? inputs.handle, found.id)} is recorded, but converging it (${Object.keys(change).join(", ")}) failed: ${err instanceof Error ? err.message : String(err)}. The next \`pulumi up\` tries again.`,
      id,
      { ...base, ...outputsOf(found, componentId, inputs.site), handle: found.handle ?? inputs.handle },
    );
  }
}

async function createOrAdopt(
  ctx: Context,
  id: string | undefined,
  inputs: Inputs,
  token: string | undefined,
  replacing: readonly number[] = [],
): Promise<{ id: string; state: State }> {
  const client = ctx.client(inputs.site);
  const componentId = await componentIdOf(ctx, inputs.component, inputs.site);
  const existing = await pricePointWithHandle(ctx, inputs.site, componentId, inputs.handle);
  const archive = [...replacing];
  let promote = inputs.default === true;
  if (existing) {
    if (inputs.adopt === false && token === undefined)
      throw new Error(
        `${label(inputs.handle, existing.id)} already exists on component ${componentId} and adopt is false: nothing was changed`,
      );
    let found = existing;
    if (found.archivedAt !== undefined) {
      found = await client.unarchiveComponentPricePoint(componentId, found.id);
      ctx.notice(`ComponentPricePoint: unarchived ${label(inputs.handle, found.id)} to manage it.`);
    }
    // A pending create resumed finds its own price point: made from these inputs.
    const fixed = token === undefined ? createOnlyChanges(inputs, found) : [];
    if (fixed.length === 0) {
      if (token === undefined) {
        adoptedNotice(ctx, inputs.site, "component price point", inputs.handle, found.id);
        adoptedHere.add(adoptionKey(ctx, inputs.site, componentId, found.id));
      }
      const newId = id ?? String(found.id);
      const base: State = { handle: inputs.handle, args: argsOf(inputs), ...(inputs.site !== undefined ? { site: inputs.site } : {}) };
      found = await converge(ctx, newId, componentId, found, inputs, base);
      const s: State = {
        ...outputsOf(found, componentId, inputs.site),
        handle: found.handle ?? inputs.handle,
        args: argsOf(inputs),
        todo: { promote: promote && found.type !== "default", archive },
      };
      return { id: newId, state: await finish(ctx, newId, s, componentId) };
    }
    // Fields the service cannot change differ: free the handle, create the replacement, archive the old one after.
    const all = await client.listComponentPricePoints(componentId, { includeArchived: true });
    const freed = freedHandle(inputs.handle, found.id, new Set(all.map((pp) => pp.handle ?? "")));
    await client.updateComponentPricePoint(componentId, found.id, { handle: freed });
    ctx.notice(
      `ComponentPricePoint: ${label(inputs.handle, found.id)} is renamed \`${freed}\` to free its handle for its replacement (${fixed.join(", ")} cannot be changed in place).`,
    );
    // The replaced one was the default: its replacement takes over, so the component keeps a live default.
    if (found.type === "default") promote = true;
    archive.push(found.id);
  }
  let created: HeldPricePoint;
  try {
    created = await client.createComponentPricePoint(componentId, createBody(inputs), token ? { uniquenessToken: token } : {});
  } catch (err) {
    if (!(err instanceof CatalogOutcomeUnknownError)) throw err;
    throw ctx.partialFailure(
      `${err.message}. Recorded: the next \`pulumi up\` looks for component price point \`${inputs.handle}\` by its handle and only re-sends the create, with the same token, if it is not there.`,
      id ?? `pending-${err.uniquenessToken}`,
      {
        handle: inputs.handle,
        args: argsOf(inputs),
        componentId,
        ...(inputs.site !== undefined ? { site: inputs.site } : {}),
        pendingToken: err.uniquenessToken,
        todo: { promote, archive },
      },
    );
  }
  const newId = id ?? String(created.id);
  const s: State = {
    ...outputsOf(created, componentId, inputs.site),
    handle: created.handle ?? inputs.handle,
    args: argsOf(inputs),
    todo: { promote, archive },
  };
  return { id: newId, state: await finish(ctx, newId, s, componentId) };
}

const pricePointIdOf = (id: string, s: State): number | undefined => s.pricePointId ?? (/^[1-9][0-9]*$/.test(id) ? Number(id) : undefined);

/** The `preview.pricingChange` annotation of a scheme or tier change (the review reads it), or undefined. */
function pricingChangeOf(to: Partial<Record<string, unknown>>, from: Partial<Record<string, unknown>>, effect: string) {
  if (isUnknown(to.prices) || isUnknown(to.pricingScheme)) return undefined;
  // Earlier inputs passed check; any other value (a state written by hand) reads as a change, never as a crash.
  const tiers = (v: unknown) => {
    const r = kind.inputs.shape.prices.safeParse(v);
    return r.success ? r.data : undefined;
  };
  const [before, after] = [tiers(from.prices), tiers(to.prices)];
  const fields = (["pricingScheme", "prices"] as const).filter((k) =>
    k === "prices" ? !(before && after && sameTiers(asTiers(before), after)) : to[k] !== from[k],
  );
  if (fields.length === 0) return undefined;
  const pick = (v: Partial<Record<string, unknown>>) => Object.fromEntries(fields.map((k) => [k, v[k] ?? null]));
  return { fields, from: pick(from), to: pick(to), effect };
}

export const componentPricePoint: KindModule<typeof kind, State> = {
  kind,
  operations: {
    state,
    recordedInputs(s) {
      const out: Record<string, unknown> = { ...s.args };
      for (const k of ["handle", "pricingScheme", ...IN_PLACE, ...CREATE_ONLY] as const)
        if (out[k] !== undefined && s[k] !== undefined && s[k] !== null) out[k] = s[k];
      // Tiers compared as prices ("5" is 5.00): the declared form when they price the same, else the held tiers.
      const declared = s.args.prices as Tier[] | undefined;
      if (declared !== undefined && s.prices !== undefined && !sameTiers(asTiers(s.prices), declared)) out.prices = declaredTiers(s.prices);
      const overage = s.args.overagePricing as { pricingScheme: string; prices: Tier[] } | undefined;
      // No overage tiers in the answer: the service does not show them (a prepaid price point has them), so no drift either.
      const heldOverage = s.overagePrices ?? [];
      if (overage !== undefined && heldOverage.length > 0 && !sameTiers(asTiers(heldOverage), overage.prices))
        out.overagePricing = { ...overage, prices: declaredTiers(heldOverage) };
      // Promoted outside: no longer declared-false vs held-true drift (the service cannot demote).
      if (s.args.default === true && s.isDefault === false) out.default = false;
      return out;
    },
    unfinished: (s) => s.pendingToken !== undefined || s.todo !== undefined || (s.archivedAt ?? null) !== null,

    async preflight(ctx, inputs, olds) {
      if (olds !== undefined) {
        // With a create-only change the new prices go to a new price point; the old one keeps its subscriptions and prices.
        const replacing = (kind.replaceOn as readonly string[]).some(
          (k) =>
            JSON.stringify((inputs as Record<string, unknown>)[k] ?? null) !== JSON.stringify((olds as Record<string, unknown>)[k] ?? null),
        );
        const pricingChange = pricingChangeOf(
          inputs,
          olds,
          replacing
            ? "replaced: the old price point's handle is freed, the new one created with these prices (and promoted if default), the old one archived; subscriptions on the old one keep its prices"
            : `changed in place: ${AFFECTS}`,
        );
        return pricingChange ? { failures: [], preview: { pricingChange } } : { failures: [] };
      }
      if (isUnknown(inputs.handle) || isUnknown(inputs.component) || isUnknown(inputs.site)) return { failures: [] };
      const site = inputs.site as string | undefined;
      const componentId = await componentIdOf(ctx, inputs.component as number | string, site).catch(() => undefined);
      if (componentId === undefined) return { failures: [] };
      const listed = await ctx
        .client(site)
        .listComponentPricePoints(componentId)
        .catch((err: unknown) => {
          if (isNotFound(err)) return undefined;
          throw err;
        });
      if (listed === undefined)
        return {
          failures: [
            {
              property: "component",
              reason: `no component has the id ${componentId} at site ${ctx.siteLabel(site)}: it must be an existing component's id (e.g. a Component's componentId) or "handle:<handle>"`,
            },
          ],
        };
      const found = await pricePointWithHandle(ctx, site, componentId, String(inputs.handle));
      if (!found) return { failures: [] };
      if (inputs.adopt === false)
        return {
          failures: [
            {
              property: "handle",
              reason: `${label(String(inputs.handle), found.id)} already exists on component ${componentId} and adopt is false: choose another handle, or set adopt: true to manage it`,
            },
          ],
        };
      // Adopted: other prices held there are converged in place, a price change to review.
      const pricingChange = pricingChangeOf(
        inputs,
        { pricingScheme: found.pricingScheme, prices: declaredTiers(found.prices) },
        `the adopted price point's prices are changed in place: ${AFFECTS}`,
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
      if (typeof olds.pricePointId === "number" && typeof olds.componentId === "number")
        return { pricePointId: olds.pricePointId, componentId: olds.componentId };
      const site = typeof olds.site === "string" ? olds.site : undefined;
      if (typeof olds.handle !== "string" || (typeof olds.component !== "number" && typeof olds.component !== "string")) return undefined;
      const componentId = await componentIdOf(ctx, olds.component, site).catch(() => undefined);
      if (componentId === undefined) return undefined;
      const found = await pricePointWithHandle(ctx, site, componentId, olds.handle);
      return found && { pricePointId: found.id, componentId };
    },

    create: (ctx, inputs) => createOrAdopt(ctx, undefined, inputs, undefined),

    /**
     * In place: a pending create or replacement is finished first; then an archive made outside is
     * undone, the handle, name, scheme and prices, interval and currency options sent in one update,
     * and the promotion to default made.
     */
    async update(ctx, id, s, inputs) {
      if (s.pendingToken !== undefined) return (await createOrAdopt(ctx, id, inputs, s.pendingToken, s.todo?.archive ?? [])).state;
      const pricePointId = pricePointIdOf(id, s);
      if (pricePointId === undefined) return (await createOrAdopt(ctx, id, inputs, undefined)).state;
      const client = ctx.client(inputs.site);
      const componentId = s.componentId ?? (await componentIdOf(ctx, inputs.component, inputs.site));
      let current: State = { ...s, args: argsOf(inputs) };
      if (s.todo !== undefined) current = await finish(ctx, id, current, componentId);
      let live: HeldPricePoint;
      try {
        live = await client.readComponentPricePoint(componentId, pricePointId);
      } catch (err) {
        if (isNotFound(err))
          throw new Error(
            `${label(s.handle, pricePointId)} no longer exists at the service: run \`pulumi refresh\` to drop it (nothing was changed)`,
          );
        throw err;
      }
      if (live.archivedAt !== undefined) {
        live = await client.unarchiveComponentPricePoint(componentId, pricePointId);
        ctx.notice(`ComponentPricePoint: ${label(s.handle, pricePointId)} was archived outside the stack; unarchived it.`);
      }
      live = await converge(ctx, id, componentId, live, inputs, current);
      let next: State = { ...current, ...outputsOf(live, componentId, inputs.site), handle: live.handle ?? inputs.handle };
      if (inputs.default === true && live.type !== "default")
        next = await finish(ctx, id, { ...next, todo: { promote: true } }, componentId);
      if (inputs.default === false && live.type === "default" && s.args.default === true)
        ctx.notice(
          `ComponentPricePoint: ${label(inputs.handle, pricePointId)} stays the component's default until another price point is promoted (the service cannot demote one).`,
        );
      return next;
    },

    async read(ctx, id, s) {
      const pricePointId = pricePointIdOf(id, s);
      if (pricePointId === undefined || s.componentId === undefined || s.pendingToken !== undefined) return s;
      const pp = await findByHandle(() => ctx.client(s.site).readComponentPricePoint(s.componentId as number, pricePointId));
      return pp ? { ...s, ...outputsOf(pp, s.componentId, s.site), handle: pp.handle ?? s.handle } : undefined;
    },

    async del(ctx, id, s) {
      const client = ctx.client(s.site);
      const componentId = s.componentId ?? (await componentIdOf(ctx, s.args.component as number | string, s.site));
      const pricePointId =
        s.pendingToken === undefined ? pricePointIdOf(id, s) : (await pricePointWithHandle(ctx, s.site, componentId, s.handle))?.id;
      if (pricePointId === undefined)
        return ctx.notice(`ComponentPricePoint: the pending create of \`${s.handle}\` made no price point; nothing to archive.`);
      // Once: the old resource's delete; a later delete of the adopting resource archives as usual.
      if (adoptedHere.delete(adoptionKey(ctx, s.site, componentId, pricePointId)))
        return ctx.notice(
          `ComponentPricePoint: ${label(s.handle, pricePointId)} stays live: its replacement adopted it (the same price point, named another way), so it is not archived.`,
        );
      const live = await findByHandle(() => client.readComponentPricePoint(componentId, pricePointId));
      if (!live || live.archivedAt !== undefined) return;
      if (live.type === "default") {
        const component = (await client.listComponents({ includeArchived: true })).find((c) => c.id === componentId);
        if (!component || component.archivedAt !== undefined) return;
        throw new Error(
          `${label(live.handle ?? s.handle, pricePointId)} is the default of component \`${component.handle}\`: the service cannot archive a default price point, so nothing was changed. ` +
            "Promote another price point first (declare it with default: true and run `pulumi up`), then remove this one; or remove the component in the same update (its price points stay with it, archived).",
        );
      }
      try {
        await client.archiveComponentPricePoint(componentId, pricePointId);
      } catch (err) {
        if (err instanceof BillingApiError && err.status === 404) return;
        throw err;
      }
      ctx.notice(
        `ComponentPricePoint: archived ${label(live.handle ?? s.handle, pricePointId)}; subscriptions on it keep it, and its handle stays taken.`,
      );
    },
  },
};

/**
 * The args' TypeScript types, from the declaration, except that `component` may also be the Component resource itself;
 * ComponentPricePointArgs gives each its docs (generated: ./generated/component-price-point.ts).
 */
export type ArgTypes = Omit<ArgsOf<typeof kind>, "component"> & {
  readonly component: Component | ArgsOf<typeof kind>["component"];
};
export type { ComponentPricePointArgs, ComponentPricePointOutputs };

/** The provider of every ComponentPricePoint: one instance per type (each instance costs a serialization). */
export const componentPricePointProvider = shellProvider(kind);

const Base = resourceClass<typeof kind, ArgsOf<typeof kind>, ComponentPricePointOutputs>(kind, componentPricePointProvider);

/**
 * A price point of a component. Given the Component resource itself, it goes with the component
 * (`deletedWith`): destroying both archives the component, which the service allows even while this
 * is its default (whose own archive it refuses).
 *
 * @example
 * ```ts
 * import { ComponentPricePoint } from "pulumi-subscription-billing";
 *
 * const componentPricePoint = new ComponentPricePoint("component-price-point", {
 *   component: "handle:text-messages",
 *   handle: "text-messages-volume",
 *   name: "Volume pricing",
 *   pricingScheme: "volume",
 *   prices: [{ startingQuantity: 1, endingQuantity: 1000, unitPrice: "0.05" }, { startingQuantity: 1001, unitPrice: "0.03" }],
 * });
 * ```
 */
export class ComponentPricePoint extends Base {
  constructor(name: string, args: ComponentPricePointArgs, opts?: pulumi.CustomResourceOptions) {
    const owner = args.component instanceof Component ? args.component : undefined;
    super(
      name,
      { ...args, component: owner ? owner.componentId : (args.component as ArgsOf<typeof kind>["component"]) },
      owner ? { deletedWith: owner, ...opts } : opts,
    );
  }
}
