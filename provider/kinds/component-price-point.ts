import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { ComponentPricePoint as HeldPricePoint } from "../../sdk/results";
import { isUnknown } from "../engine";
import { shellProvider } from "../shell";
import { findByHandle, freedHandle, isNotFound } from "./catalog";
import { Component } from "./component";
import { convergence, createOnlyChanges, pricePointRecordedInputs, pricingChangeOf, updatePricingChange } from "./component-changes";
import { componentHeldAsDeclared, convergeComponentCurrencies, type WithCurrencies, withComponentCurrencies } from "./component-currencies";
import { declaredTiers, heldTiersOutput } from "./component-fields";
import { AFFECTS, CREATE_ONLY, componentPricePointInputs } from "./component-price-point-inputs";
import { componentPricePointReader } from "./component-reader";
import { componentIdOf, missingComponent, pricePointOutputs, pricePointWithHandle } from "./component-service";
import { CURRENCY_PRICES, currencyFailures, holdsUnknown, withCurrencyChange } from "./currency-fields";
import { oneDefaultPerOwner } from "./declared-defaults";
import type { ComponentPricePointArgs, ComponentPricePointOutputs } from "./generated/component-price-point";
import {
  type ArgsOf,
  type CatalogFacet,
  type CatalogReader,
  type Context,
  declareKind,
  type InputsOf,
  type KindModule,
  resourceClass,
} from "./kind";
import { type LifecycleState, labelOf, lifecycle, Refusal, type Steps } from "./lifecycle";
import { adoptionPricingNotice, updatePricingNotice } from "./pricing-text";

/** How component price points appear in a site's catalog (a component's default is the component's own part). */
const catalog = {
  key: "handle",
  owner: { input: "component", kind: "component" },
  references: { component: { kind: "component", output: "componentId" } },
  runtimeInputs: ["adopt", "site", "pricingChangeAcknowledged"],
  partOfOwner: { input: "default", as: "defaultPricePoint" },
  defaults: { useSiteExchangeRate: true, taxIncluded: false, rolloverPrepaidRemainder: false, renewPrepaidAllocation: false },
  noun: "component price point",
  title: "Component price point",
  pricing: {
    fields: [
      "pricingScheme",
      "prices",
      "overagePricing",
      "interval",
      "intervalUnit",
      "expirationInterval",
      "expirationIntervalUnit",
      CURRENCY_PRICES,
    ],
    onUpdate: "the price point's prices change in place: subscriptions on it pay the new prices from their next charge",
    onAdopt: "the adopted price point's prices change in place: subscriptions on it pay the new prices from their next charge",
    policy:
      "The service changes the price point's prices in place: subscriptions on it pay the new prices from their next charge " +
      "(with a change only a new price point can carry, it is replaced instead, and subscriptions on the old one keep its prices).",
  },
  replaced: (inputs) => [
    "rename the old price point's handle (which frees it)",
    "create the new one",
    ...(inputs.default === true ? ["promote it to the component's default"] : []),
    "archive the old one (subscriptions on it keep it)",
  ],
  deleted: (before) => [
    "archived: its subscriptions keep it; its handle stays taken",
    ...(before.default === true
      ? [
          "it is declared the component's default, which the service cannot archive: promote another price point first, or archive its component in the same update",
        ]
      : []),
  ],
} satisfies CatalogFacet;

const kind = declareKind({
  key: "componentPricePoint",
  type: "ComponentPricePoint",
  summary:
    "A price point of a component. Its handle, name, scheme, prices, interval and currency options change in place (new prices apply to the subscriptions on it from their next charge); a create-only field (its component, the prepaid terms) replaces it, its handle freed first and the old one archived after the new one is promoted.",
  inputs: componentPricePointInputs,
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
    currencyPrices: z
      .record(z.string(), z.array(z.string().nullable()))
      .nullable()
      .describe(
        "Its own prices in other currencies as the service holds them, one unit price per tier (null: none for that tier); null while it follows the site's exchange rate.",
      ),
    site: z.string().optional().describe("The site, when one was named."),
  }),
  replaceOn: ["site", "component", "overagePricing", ...CREATE_ONLY],
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
  catalog,
});

type Inputs = InputsOf<typeof kind>;

/** A price point a replacement leaves to archive: its id, or (it was the component's default) its id and that its replacement takes over. */
const replaced = z.union([z.number().int(), z.object({ pricePointId: z.number().int(), wasDefault: z.literal(true) })]);
type Replaced = z.output<typeof replaced>;

/**
 * The outputs and declared inputs (`args`); `pendingToken` while a create's outcome is unknown;
 * `todo` while a create's or replacement's later steps (promote, archive the old one) are not done yet.
 */
const state = kind.outputs.partial().extend({
  handle: z.string(),
  args: z.record(z.string(), z.unknown()),
  pendingToken: z.string().optional(),
  todo: z.object({ promote: z.boolean().optional(), archive: z.array(replaced).optional() }).optional(),
});
type State = z.output<typeof state>;

/**
 * Where a price point lives: its component, at a site; `handle` and `self` name the one declared (to promote
 * it over a replaced default). `replacingDefault` is set when this create replaces the component's default.
 */
interface Where {
  readonly componentId: number;
  readonly site: string | undefined;
  readonly handle: string;
  readonly self?: number;
  replacingDefault?: boolean;
}

const label = (handle: string, id: number | string) => labelOf("component price point", handle, id);

/**
 * Price points a create adopted in this process, by site, component and id. A replacement whose new
 * inputs still name the same price point (its component given in another form: a handle, then the
 * Component's id) adopts its predecessor; the engine then deletes the old resource, and that delete
 * must not archive what the new one now manages. The engine runs both in one provider process.
 */
const adoptedHere = new Set<string>();
const adoptionKey = (ctx: Context, where: Where, id: number) => `${ctx.siteLabel(where.site)}/${where.componentId}/${id}`;
/** The inputs of a pending create being resumed: the price point found is its own, made from these inputs, not an adoption. */
const resumed = new WeakSet<object>();
/** A converge that failed in an update: what it had read and meant to change, for the partial failure recorded. */
const unconverged = new WeakMap<object, { readonly held: HeldPricePoint; readonly fields: readonly string[] }>();

/**
 * A price point's part of the lifecycle: it lives in its component; the prepaid terms and the overage
 * replace it (its handle freed first); an archived one is unarchived; the default is promoted before what
 * it replaces is archived, and the component's default is never archived on its own.
 */
const steps: Steps<Inputs, State & LifecycleState, WithCurrencies, Where> = {
  type: "ComponentPricePoint",
  owner: "component",
  noun: "component price point",
  key: "handle",
  where: async (ctx, inputs) => ({
    componentId: await componentIdOf(ctx, inputs.component, inputs.site),
    site: inputs.site,
    handle: inputs.handle,
  }),
  whereOf: async (ctx, s) => ({
    componentId: s.componentId ?? (await componentIdOf(ctx, s.args.component as number | string, s.site)),
    site: s.site,
    handle: s.handle,
    self: s.pricePointId,
  }),
  find: (ctx, handle, where) => pricePointWithHandle(ctx.client(where.site), where.componentId, handle),
  id: (pp) => pp.id,
  keyOf: (pp) => pp.handle,
  archivedAt: (pp) => pp.archivedAt,
  unarchive: (ctx, pp, where) => ctx.client(where.site).unarchiveComponentPricePoint(where.componentId, pp.id),
  archivedRefusal: (pp) => `${label(pp.handle ?? "?", pp.id)} is archived`,
  async createOnly(ctx, pp, inputs, where) {
    // A pending create resumed finds its own price point: made from these inputs.
    if (resumed.has(inputs)) return [];
    const changes = createOnlyChanges(inputs, pp);
    // Adopted: the old resource's delete, if this replaces one, must leave it live.
    if (changes.length === 0) adoptedHere.add(adoptionKey(ctx, where, pp.id));
    return changes;
  },
  async free(ctx, pp, where) {
    const client = ctx.client(where.site);
    const all = await client.listComponentPricePoints(where.componentId, { includeArchived: true });
    const freed = freedHandle(pp.handle ?? where.handle, pp.id, new Set(all.map((x) => x.handle ?? "")));
    await client.updateComponentPricePoint(where.componentId, pp.id, { handle: freed });
    // The replaced one is the default: its replacement takes over, so the component keeps a live default.
    if (pp.type !== "default") return { freed, old: pp.id satisfies Replaced };
    where.replacingDefault = true;
    return { freed, old: { pricePointId: pp.id, wasDefault: true } satisfies Replaced };
  },
  create(ctx, inputs, where, token) {
    const { component: _, default: __, adopt: ___, pricingChangeAcknowledged: ____, site: _____, currencyPrices: ______, ...body } = inputs;
    return ctx.client(where.site).createComponentPricePoint(where.componentId, body, token ? { uniquenessToken: token } : {});
  },
  async converge(ctx, pp, inputs, where, created, recorded) {
    const client = ctx.client(where.site);
    if (created) {
      // The create took every field but the currency prices; and it takes over from the default it replaces (unless declared so: then promoted).
      const made: WithCurrencies =
        !where.replacingDefault || inputs.default === true
          ? pp
          : { ...(await client.setDefaultComponentPricePoint(where.componentId, pp.id)), type: "default" };
      return convergeComponentCurrencies(ctx, made, inputs.currencyPrices, where, undefined);
    }
    if (inputs.default === false && pp.type === "default" && recorded?.args.default === true)
      ctx.notice(
        `ComponentPricePoint: ${label(inputs.handle, pp.id)} stays the component's default until another price point is promoted (the service cannot demote one).`,
      );
    const change = convergence(inputs, pp);
    // After the update: its tiers (their ids) are what the currency prices price.
    const currencies = (held: WithCurrencies) => convergeComponentCurrencies(ctx, held, inputs.currencyPrices, where, recorded?.args ?? {});
    if (!change) return currencies(pp);
    let updated: HeldPricePoint;
    try {
      updated = await client.updateComponentPricePoint(where.componentId, pp.id, change);
    } catch (err) {
      if (recorded && typeof err === "object" && err !== null) unconverged.set(err, { held: pp, fields: Object.keys(change) });
      throw err;
    }
    if (change.prices !== undefined)
      ctx.notice(`ComponentPricePoint: changed the prices of ${label(inputs.handle, pp.id)} in place: ${AFFECTS}.`);
    return currencies(updated);
  },
  current: async (ctx, _s, id, where) =>
    withComponentCurrencies(
      ctx.client(where.site),
      where.componentId,
      await ctx.client(where.site).readComponentPricePoint(where.componentId, id),
    ),
  record: (pp, inputs, where) => pricePointOutputs(pp, where.componentId, inputs.site),
  pending: (where) => ({ componentId: where.componentId }),
  isDefault: (pp) => pp.type === "default",
  async promote(ctx, { id }, where) {
    await ctx.client(where.site).setDefaultComponentPricePoint(where.componentId, id);
  },
  async archiveReplaced(ctx, old, where) {
    const client = ctx.client(where.site);
    const id = typeof old === "number" ? old : (old as { pricePointId: number }).pricePointId;
    const live = await findByHandle(() => client.readComponentPricePoint(where.componentId, id));
    if (!live || live.archivedAt !== undefined) return undefined;
    if (live.type === "default") {
      // The default it replaced still: its replacement takes over first (a create that stopped before doing so).
      const self =
        typeof old === "number" ? undefined : (where.self ?? (await pricePointWithHandle(client, where.componentId, where.handle))?.id);
      if (self === undefined)
        return `${label(live.handle ?? "?", id)} stays live: it is still the component's default, which the service cannot archive; promote another price point, then remove it.`;
      await client.setDefaultComponentPricePoint(where.componentId, self);
    }
    await client.archiveComponentPricePoint(where.componentId, id);
    return `archived the replaced ${label(live.handle ?? "?", id)}; subscriptions on it keep it.`;
  },
  async archive(ctx, pp, s, where) {
    // Once: the old resource's delete; a later delete of the adopting resource archives as usual.
    if (adoptedHere.delete(adoptionKey(ctx, where, pp.id)))
      return `${label(s.handle, pp.id)} stays live: its replacement adopted it (the same price point, named another way), so it is not archived.`;
    const client = ctx.client(where.site);
    if (pp.type === "default") {
      const component = (await client.listComponents({ includeArchived: true })).find((c) => c.id === where.componentId);
      if (!component || component.archivedAt !== undefined) return undefined;
      throw new Refusal(
        `${label(pp.handle ?? s.handle, pp.id)} is the default of component \`${component.handle}\`: the service cannot archive a default price point, so nothing was changed. ` +
          "Promote another price point first (declare it with default: true and run `pulumi up`), then remove this one; or remove the component in the same update (its price points stay with it, archived).",
      );
    }
    try {
      await client.archiveComponentPricePoint(where.componentId, pp.id);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    return `archived ${label(pp.handle ?? s.handle, pp.id)}; subscriptions on it keep it, and its handle stays taken.`;
  },
};

const ARG_KEYS = Object.keys(kind.inputs.shape);
const life = lifecycle(steps, { argKeys: ARG_KEYS, idField: "pricePointId" });

/** What the service holds of a price point, as the inputs that declare it; the state an import records (the kind's read). */
const reader = componentPricePointReader({ fields: ARG_KEYS, catalog });

export const componentPricePoint: KindModule<typeof kind, State> = {
  kind,
  reader: reader as CatalogReader,
  operations: {
    state,
    // The service's values for what is declared, in the declaration's terms: a change made outside shows as a diff, and up restores it.
    recordedInputs(s) {
      const out = pricePointRecordedInputs(s);
      // Only the declared currencies: those it keeps that the declaration leaves out, no declaration can remove.
      if (out.currencyPrices !== undefined) out.currencyPrices = componentHeldAsDeclared(s.args.currencyPrices, s.currencyPrices);
      return out;
    },
    unfinished: (s) => life.unfinished(s as State & LifecycleState),

    async preflight(ctx, inputs, olds) {
      const owner =
        holdsUnknown(inputs.prices) ||
        holdsUnknown(inputs.overagePricing) ||
        holdsUnknown(inputs.useSiteExchangeRate) ||
        !Array.isArray(inputs.prices)
          ? undefined
          : {
              kind: "component price point" as const,
              // A prepaid point's overage tiers are price levels too: each currency prices them after the tiers.
              tiers: inputs.prices.length + overageTierCount(inputs.overagePricing),
              useSiteExchangeRate: inputs.useSiteExchangeRate as boolean | undefined,
            };
      const currencies = await currencyFailures(ctx, owner, inputs.currencyPrices, inputs.site);
      if (currencies.length > 0) return { failures: currencies };
      if (olds !== undefined) {
        const pricingChange = withCurrencyChange(
          updatePricingChange(inputs, olds, kind.replaceOn as readonly string[]),
          olds.currencyPrices,
          inputs.currencyPrices,
          "in place: its prices in those currencies change in place (the price point stays); a currency left out keeps its prices: the service has no delete of a currency price",
        );
        if (!pricingChange) return { failures: [] };
        ctx.notice(updatePricingNotice("Component price point", inputs.handle, pricingChange));
        return { failures: [], preview: { pricingChange } };
      }
      if (isUnknown(inputs.handle) || isUnknown(inputs.component) || isUnknown(inputs.site)) return { failures: [] };
      const site = inputs.site as string | undefined;
      const componentId = await componentIdOf(ctx, inputs.component as number | string, site).catch(() => undefined);
      if (componentId === undefined) return { failures: [] };
      const missing = await missingComponent(ctx, site, componentId);
      if (missing) return { failures: [{ property: "component", reason: missing }] };
      const found = await life.adoption(ctx, inputs, { componentId, site, handle: String(inputs.handle) });
      if (!found?.existing || found.failures.length > 0) return { failures: found?.failures ?? [] };
      // Adopted: other prices held there (its own currencies' included) are converged in place, a price change to review.
      const held =
        inputs.currencyPrices === undefined || holdsUnknown(inputs.currencyPrices)
          ? undefined
          : await withComponentCurrencies(ctx.client(site), componentId, found.existing as HeldPricePoint);
      const pricingChange = withCurrencyChange(
        pricingChangeOf(
          inputs,
          { pricingScheme: found.existing.pricingScheme, prices: declaredTiers(found.existing.prices) },
          `the adopted price point's prices are changed in place: ${AFFECTS}`,
        ),
        held?.currencyPrices,
        inputs.currencyPrices,
        `the adopted price point's prices in those currencies are changed in place: ${AFFECTS}`,
      );
      const said = pricingChange && adoptionPricingNotice("Component price point", inputs.handle, pricingChange);
      if (said) ctx.notice(said);
      return { failures: [], preview: { ...found.preview, ...(pricingChange ? { pricingChange } : {}) } };
    },

    /** Its ids, for the preview of an in-place update (recorded in the checked inputs once read). */
    async stable(ctx, olds) {
      if (typeof olds.pricePointId === "number" && typeof olds.componentId === "number")
        return { pricePointId: olds.pricePointId, componentId: olds.componentId };
      const site = typeof olds.site === "string" ? olds.site : undefined;
      if (typeof olds.handle !== "string" || (typeof olds.component !== "number" && typeof olds.component !== "string")) return undefined;
      const componentId = await componentIdOf(ctx, olds.component, site).catch(() => undefined);
      if (componentId === undefined) return undefined;
      const found = await pricePointWithHandle(ctx.client(site), componentId, olds.handle);
      return found && { pricePointId: found.id, componentId };
    },

    create: (ctx, inputs) => life.create(ctx, inputs),

    /**
     * In place: a pending create or replacement is finished first; then an archive made outside is undone, the
     * handle, name, scheme and prices, interval and currency options sent in one update, and the promotion to
     * default made. A failed update records the price point as read, with what was declared.
     */
    async update(ctx, id, s, inputs) {
      if (s.pendingToken !== undefined) resumed.add(inputs);
      let next: State;
      try {
        next = await life.update(ctx, id, s, inputs);
      } catch (err) {
        const failed = typeof err === "object" && err !== null ? unconverged.get(err) : undefined;
        if (!failed) throw err;
        const { held, fields } = failed;
        throw ctx.partialFailure(
          `${label(held.handle ?? inputs.handle, held.id)} is recorded, but converging it (${fields.join(", ")}) failed: ${(err as Error).message}. The next \`pulumi up\` tries again.`,
          id,
          {
            ...s,
            ...pricePointOutputs(held, s.componentId ?? held.componentId ?? 0, inputs.site),
            handle: held.handle ?? inputs.handle,
            args: life.argsOf(inputs),
          },
        );
      }
      // A replaced default left to archive: archiving it made this one the default first (see archiveReplaced).
      const tookOver = s.todo?.archive?.some((a) => typeof a !== "number") && !next.todo && next.isDefault === false;
      if (!tookOver || next.componentId === undefined || next.pricePointId === undefined) return next;
      const now = await findByHandle(() =>
        ctx.client(next.site).readComponentPricePoint(next.componentId as number, next.pricePointId as number),
      );
      return now ? { ...next, isDefault: now.type === "default" } : next;
    },

    /** `pulumi refresh`: the service's view; a state without its component's id stays as recorded. */
    read: async (ctx, id, s) => (s.componentId === undefined ? s : life.read(ctx, id, s)),
    del: (ctx, id, s) => life.del(ctx, id, s),
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

/** ComponentPricePoint's operations as a dynamic provider, to call directly (configure it first); its resources store the smaller storedProvider, which loads the same. */
export const componentPricePointProvider = shellProvider(kind);

const Base = resourceClass<typeof kind, ArgsOf<typeof kind>, ComponentPricePointOutputs>(kind);

/** A second price point declared `default: true` for one component: refused (issue 42). */
const oneDefaultPerComponent = oneDefaultPerOwner("ComponentPricePoint", "component");

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
    if (args.default === true)
      oneDefaultPerComponent(name, {
        owned: owner,
        ownerLabel: owner && `Component "${pulumi.resourceName(owner)}"`,
        ref: args.component,
        site: args.site,
      });
    super(
      name,
      { ...args, component: owner ? owner.componentId : (args.component as ArgsOf<typeof kind>["component"]) },
      owner ? { deletedWith: owner, ...opts } : opts,
    );
  }
}

/** How many tiers a declared `overagePricing` has (0 without one, or before its shape is checked). */
function overageTierCount(overage: unknown): number {
  const prices = (overage as { prices?: unknown } | undefined)?.prices;
  return Array.isArray(prices) ? prices.length : 0;
}
