import { z } from "zod";
import { sameTiers } from "../../sdk/catalog/component-price-points";
import type { ComponentInput } from "../../sdk/catalog/input-types";
import type { Component as ServiceComponent } from "../../sdk/results";
import { type CheckFailure, isUnknown } from "../engine";
import { shellProvider } from "../shell";
import { findByHandle, freedHandle, isNotFound } from "./catalog";
import { componentPricingChange, convergeComponent, createOnlyDifferences } from "./component-changes";
import { asTiers, componentWithHandle, declaredTiers, heldTiersOutput } from "./component-fields";
import { CREATE_ONLY, componentInputs, NOT_CREATED } from "./component-inputs";
import { knownFamilyId, type NameHolders, nameTakenReason } from "./component-names";
import { componentReader } from "./component-reader";
import { componentOutputs, type HeldComponent, withDefaultPricePoint } from "./component-service";
import type { ComponentArgs, ComponentOutputs } from "./generated/component";
import {
  type ArgsOf,
  type CatalogFacet,
  type CatalogReader,
  type Context,
  declareKind,
  type InputsOf,
  type KindModule,
  type PreviewedInputs,
  resourceClass,
  type Verified,
} from "./kind";
import { type LifecycleState, labelOf, lifecycle, type Steps } from "./lifecycle";
import { adoptionPricingNotice, updatePricingNotice } from "./pricing-text";
import { familyIdOf } from "./product-family";

/** How components appear in a site's catalog: export, import, diff, the review and the policy pack read it. */
const catalog = {
  key: "handle",
  references: { productFamily: { kind: "productFamily", output: "familyId" } },
  runtimeInputs: ["adopt", "pricingChangeAcknowledged", "site"],
  // The contract's component answers have no display_on_hosted_page (only its creates and updates take it).
  writeOnly: ["displayOnHostedPage"],
  // What the service holds for each when a create leaves it out (recurring: a quantity-based one's, the only kind taking it).
  defaults: {
    taxable: false,
    recurring: true,
    displayOnHostedPage: false,
    allowFractionalQuantities: false,
    hideDateRangeOnInvoice: false,
    rolloverPrepaidRemainder: false,
    renewPrepaidAllocation: false,
  },
  noun: "component",
  title: "Component",
  pricing: {
    fields: [
      "pricingScheme",
      "prices",
      "unitPrice",
      "overagePricing",
      "interval",
      "intervalUnit",
      "expirationInterval",
      "expirationIntervalUnit",
    ],
    onUpdate:
      "its default price point's prices change in place: subscriptions on that price point pay the new prices from their next charge",
    onAdopt:
      "the adopted component's default price point's prices change in place: subscriptions on it pay the new prices from their next charge",
    policy:
      "The service changes its default price point's prices in place: every subscription on that price point pays the new prices from its next charge.",
  },
  replaced: () => [
    "rename the old component's handle (which frees it)",
    "create the new one",
    "archive the old one (subscriptions on it keep it)",
  ],
  deleted: () => ["archived: it can no longer be added to subscriptions; subscriptions that have it keep it; its handle stays taken"],
} satisfies CatalogFacet;

const kind = declareKind({
  key: "component",
  type: "Component",
  summary:
    "A component (metered, quantity-based, on/off, prepaid usage or event-based) of a product family, and the pricing of its default price point. Descriptive fields change in place, and so do the scheme and tiers (through the default price point, for every subscription on it); a create-only field replaces it, its handle freed first (the replacement needs a name the old one, live until archived after, does not hold in the family). Delete archives it.",
  inputs: componentInputs,
  outputs: z.object({
    componentId: z.number().int().describe("The service's id of the component (it differs from site to site; the handle does not)."),
    productFamilyId: z.number().int().nullable().describe("The id of its family."),
    handle: z.string().describe("The component's handle as the service holds it."),
    name: z.string().nullable().describe("The component's name as the service holds it."),
    defaultPricePointId: z.number().int().nullable().describe("The id of its default price point, which holds its pricing."),
    archivedAt: z.string().nullable().describe("When it was archived (ISO-8601); null while it is live."),
    pricingScheme: z.string().nullable().describe("The default price point's scheme, as the service holds it."),
    prices: heldTiersOutput().describe("The default price point's tiers as the service holds them (unit prices as its decimal text)."),
    site: z.string().optional().describe("The site, when one was named."),
  }),
  replaceOn: ["site", ...CREATE_ONLY],
  refresh: true,
  onDelete:
    "archives the component (the service never deletes one and has no unarchive; its handle stays taken, and subscriptions keep it)",
  example: {
    productFamily: "handle:plans",
    kind: "metered",
    handle: "text-messages",
    name: "Text messages",
    unitName: "message",
    pricingScheme: "tiered",
    prices: [
      { startingQuantity: 1, endingQuantity: 1000, unitPrice: "0.02" },
      { startingQuantity: 1001, unitPrice: "0.01" },
    ],
  },
  catalog,
});

type Inputs = InputsOf<typeof kind>;

/** A component this one replaced, by its own family (a replacement may move to another). */
const replaced = z.object({ componentId: z.number().int(), productFamilyId: z.number().int() });
type Replaced = z.output<typeof replaced>;

/** The outputs and declared inputs; `pendingToken` while a create's outcome is unknown; `todo.archive` while replaced ones are left to archive. */
const state = kind.outputs.partial().extend({
  handle: z.string(),
  args: z.record(z.string(), z.unknown()),
  pendingToken: z.string().optional(),
  todo: z.object({ promote: z.boolean().optional(), archive: z.array(replaced).optional() }).optional(),
  /**
   * The price point the component's own pricing is on: the default its create made (or the one it adopted). While
   * another is the default (a ComponentPricePoint with `default: true`), that one's prices are its own declaration's:
   * the component's pricing is compared with and sent to this one, never to the other. Kept by a refresh; absent from
   * a state written before it was recorded: then the recorded default is taken for it.
   */
  ownDefaultId: z.number().int().nullable().optional(),
});
type State = z.output<typeof state>;

/** The component and its price points as the service holds them; after a create or an update, its own price point's id. */
type Held = HeldComponent & { readonly own?: number | null };

/** The price point the recorded component's own pricing is on (a state from before it was recorded: its recorded default). */
const ownDefaultOf = (s: Partial<State>): number | undefined =>
  s.ownDefaultId !== undefined ? (s.ownDefaultId ?? undefined) : (s.defaultPricePointId ?? undefined);

/** Where a component lives: its family, at a site. */
interface Where {
  readonly familyId: number;
  readonly site: string | undefined;
}

const label = (handle: string, id: number) => labelOf("component", handle, id);

/** Why an archived component cannot be managed: the service has no unarchive of components. */
const archivedRefusal = (c: ServiceComponent) =>
  `${label(c.handle ?? "?", c.id)} is archived at the service (since ${c.archivedAt}), an archived component keeps its handle, ` +
  "and the service has no unarchive for components: declare the component with another handle";

/**
 * Components a create adopted in this process, by site and id. A replacement whose new inputs still
 * name the same component (its family given another way: "handle:plans", then the family resource's
 * familyId) adopts its predecessor; the engine then deletes the old resource, in the same process,
 * and that delete must not archive what the new one now manages. Kept with the adopter's declaration,
 * so the adopter's own later delete (its declaration the same) archives as usual.
 */
const adoptedHere = new Map<string, string>();
const adoptionKey = (ctx: Context, site: string | undefined, componentId: number) => `${ctx.siteLabel(site)}/${componentId}`;
/** A declaration as text, keys sorted at every level (state read back from the engine need not keep their order). */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x) =>
    x !== null && typeof x === "object" && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1)))
      : x,
  );
/** The inputs of a pending create being resumed: the component found is its own, made by the first attempt, not an adoption. */
const resumed = new WeakSet<object>();

/**
 * A component's part of the lifecycle: it lives in its family; what only a create sets (its kind, family,
 * unit, prepaid terms…) replaces it, its handle freed first; the update-only fields (accountingCode,
 * itemCategory) are sent right after a create; the service has no unarchive of components.
 */
const steps: Steps<Inputs, State & LifecycleState, Held, Where> = {
  type: "Component",
  noun: "component",
  key: "handle",
  where: async (ctx, inputs) => ({ familyId: await familyIdOf(ctx, inputs.productFamily, inputs.site), site: inputs.site }),
  whereOf: async (ctx, s) => ({
    familyId: s.productFamilyId ?? (await familyIdOf(ctx, s.args.productFamily as number | string, s.site)),
    site: s.site,
  }),
  async find(ctx, handle, _, inputs) {
    const c = await componentWithHandle(ctx.client(inputs.site), handle);
    return c && { c };
  },
  id: (h) => h.c.id,
  keyOf: (h) => h.c.handle,
  archivedAt: (h) => h.c.archivedAt,
  archivedRefusal: (h) => archivedRefusal(h.c),
  async createOnly(ctx, h, inputs, where) {
    const differs = createOnlyDifferences(inputs, where.familyId, await withDefaultPricePoint(ctx.client(where.site), h));
    // Adopted (not a resumed create's own): the old resource's delete, if this replaces one, must leave it live.
    if (differs.length === 0 && !resumed.has(inputs)) adoptedHere.set(adoptionKey(ctx, where.site, h.c.id), canonical(life.argsOf(inputs)));
    return differs;
  },
  async free(ctx, { c }, where) {
    const client = ctx.client(where.site);
    const taken = new Set((await client.listComponents({ includeArchived: true })).map((x) => x.handle ?? ""));
    const freed = freedHandle(c.handle ?? String(c.id), c.id, taken);
    const familyId = c.productFamilyId ?? where.familyId;
    await client.updateComponent(familyId, c.id, { handle: freed });
    return { freed, old: { componentId: c.id, productFamilyId: familyId } satisfies Replaced };
  },
  // Its name: unique among the family's live components (component-names.ts); the one it replaces holds it until archived after.
  async conflict(ctx, inputs, where, { adopted, replaced, createOnly }) {
    const reason = await nameTakenReason(ctx.client(where.site), where.familyId, inputs.name, {
      isOwn: (c) => c.id === adopted?.c.id,
      replaced: replaced ? [{ id: replaced.c.id, changed: createOnly }] : [],
    });
    return reason && `name ${reason}`;
  },
  async create(ctx, inputs, where, token) {
    const client = ctx.client(where.site);
    const body = Object.fromEntries(
      Object.entries(inputs).filter(([k, v]) => v !== undefined && !(NOT_CREATED as readonly string[]).includes(k)),
    ) as unknown as ComponentInput;
    const c = await client.createComponent(where.familyId, body, token ? { uniquenessToken: token } : {});
    // Its pricing is its default price point's; unread, the component's own answer says it.
    return withDefaultPricePoint(client, { c }).catch(() => ({ c, pp: null }));
  },
  // Also right after a create: accountingCode and itemCategory are the update's fields only (the contract's create schemas leave them out).
  async converge(ctx, h, inputs, where, created, recorded) {
    const own = created || recorded === undefined ? undefined : ownDefaultOf(recorded);
    if (own === undefined || h.c.defaultPricePointId === undefined || h.c.defaultPricePointId === own) {
      const done = await convergeComponent(ctx, h, inputs, where);
      return { ...done, own: done.c.defaultPricePointId ?? null };
    }
    // Another price point is the default (a ComponentPricePoint's default: true): its prices are that declaration's.
    // Sending the component's there would change them in place, the price point would put its own back, and so on
    // every round; the component's pricing is its own price point's.
    const client = ctx.client(where.site);
    const held = await findByHandle(() => client.readComponentPricePoint(h.c.id, own));
    // Archived (outside the stack), it takes no prices: nothing of the component's pricing is sent.
    const pp = held && held.archivedAt === undefined ? held : null;
    const done = await convergeComponent(ctx, { c: h.c, pp }, inputs, where);
    return { c: done.c, own };
  },
  current: async (ctx, _s, id, where) => ({ c: await ctx.client(where.site).readComponent(where.familyId, id) }),
  record: (h, inputs) => ({ ...componentOutputs(h, inputs.site), ...(h.own !== undefined ? { ownDefaultId: h.own } : {}) }),
  pending: (where) => ({ productFamilyId: where.familyId }),
  async archiveReplaced(ctx, old, where) {
    const { componentId, productFamilyId } = old as Replaced;
    const client = ctx.client(where.site);
    const live = await findByHandle(() => client.readComponent(productFamilyId, componentId));
    if (!live || live.archivedAt !== undefined) return undefined;
    await client.archiveComponent(productFamilyId, componentId);
    return `archived the replaced ${label(live.handle ?? "?", componentId)}.`;
  },
  async archive(ctx, { c }, s, where) {
    // Once: the replaced resource's delete (another declaration than the adopter's); the adopter's own delete archives as usual.
    const key = adoptionKey(ctx, s.site, c.id);
    const adopter = adoptedHere.get(key);
    adoptedHere.delete(key);
    if (adopter !== undefined && adopter !== canonical(s.args))
      return `${label(s.handle, c.id)} stays live: its replacement adopted it (the same component, its family named another way), so it is not archived.`;
    try {
      await ctx.client(where.site).archiveComponent(where.familyId, c.id);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    return `archived ${label(c.handle ?? s.handle, c.id)}; the service keeps it archived (there is no unarchive), its handle stays taken, and subscriptions on it keep it.`;
  },
};

const ARG_KEYS = Object.keys(kind.inputs.shape);
const life = lifecycle(steps, { argKeys: ARG_KEYS, idField: "componentId" });

/** What an in-place change of a component's own pricing does. */
const IN_PLACE_EFFECT =
  "its default price point's prices change in place: every subscription on it pays the new prices from its next charge";

const changed = (inputs: PreviewedInputs<typeof kind>, olds: Partial<Inputs>, k: keyof Inputs) =>
  !isUnknown(inputs[k]) && JSON.stringify(inputs[k] ?? null) !== JSON.stringify(olds[k] ?? null);

/**
 * At preview, a create's name (a first deploy, or a replacement: `olds`): refused when another live component of the
 * target family holds it, other than the one the create adopts by handle; a replacement keeping its name in the same
 * family is told what is accepted. Judged once the values it needs are known (else at `up`, by the lifecycle's
 * conflict step): the name, handle, family, site and create-only fields, which say whether the component found by
 * handle is adopted or replaced.
 */
async function createNameFailures(
  ctx: Context,
  inputs: PreviewedInputs<typeof kind>,
  olds?: Partial<Inputs>,
  /** What the adoption's find by this handle already answered (a first deploy): not read again. */
  byHandle?: { readonly c: ServiceComponent | undefined },
): Promise<CheckFailure[]> {
  const { name, handle } = inputs;
  if (typeof name !== "string" || typeof handle !== "string" || isUnknown(name) || isUnknown(handle) || isUnknown(inputs.site)) return [];
  if (CREATE_ONLY.some((k) => isUnknown(inputs[k]))) return [];
  const client = ctx.client(inputs.site as string | undefined);
  const familyId = await knownFamilyId(client, inputs.productFamily);
  if (familyId === undefined) return [];
  const found = byHandle ? byHandle.c : await componentWithHandle(client, handle);
  const live = found?.archivedAt === undefined ? found : undefined;
  const createOnly = live ? createOnlyDifferences(inputs as Inputs, familyId, await withDefaultPricePoint(client, { c: live })) : [];
  const replaced: { id: number; changed: readonly string[] }[] =
    live && createOnly.length > 0 ? [{ id: live.id, changed: createOnly }] : [];
  // A replacement under a new handle: the old component, found by its own, is live until archived after the new one.
  if (olds !== undefined && typeof olds.handle === "string" && olds.handle !== handle) {
    const old = await componentWithHandle(client, olds.handle);
    if (old) replaced.push({ id: old.id, changed: CREATE_ONLY.filter((k) => changed(inputs, olds, k)) });
  }
  const holders: NameHolders = { isOwn: (c) => live !== undefined && createOnly.length === 0 && c.id === live.id, replaced };
  const reason = await nameTakenReason(client, familyId, name, holders);
  return reason ? [{ property: "name", reason }] : [];
}

/** At preview, an update's new name: refused when another live component of its family holds it. */
async function renameFailures(ctx: Context, inputs: PreviewedInputs<typeof kind>, olds: Partial<Inputs>): Promise<CheckFailure[]> {
  const name = inputs.name;
  if (typeof name !== "string" || isUnknown(name) || name === olds.name) return [];
  const client = ctx.client(inputs.site as string | undefined);
  const recorded = olds as Record<string, unknown>;
  const familyId =
    typeof recorded.productFamilyId === "number" ? recorded.productFamilyId : await knownFamilyId(client, inputs.productFamily);
  if (familyId === undefined) return [];
  // Its own component: by its recorded id, or by the handle it holds until this update renames it.
  const isOwn = (c: ServiceComponent) => c.id === recorded.componentId || (c.handle !== undefined && c.handle === olds.handle);
  const reason = await nameTakenReason(client, familyId, name, { isOwn });
  return reason ? [{ property: "name", reason }] : [];
}

/**
 * An update's checks at preview: an in-place change of prices is announced (every subscription on the
 * default price point pays them), and a new handle or name another component holds is refused before anything
 * is sent (handles are unique among the site's components, archived ones included; names among the family's live
 * ones). A replacement (a create-only field changed) is a create: its name is judged as a create's.
 */
async function updateChecks(ctx: Context, inputs: PreviewedInputs<typeof kind>, olds: Partial<Inputs>): Promise<Verified> {
  if (changed(inputs, olds, "site") || isUnknown(inputs.site)) return { failures: [] };
  if (CREATE_ONLY.some((k) => changed(inputs, olds, k))) return { failures: await createNameFailures(ctx, inputs, olds) };
  const handle = inputs.handle;
  const pricingChange = componentPricingChange(inputs, olds, `in place: ${IN_PLACE_EFFECT}`);
  // The policy pack and the review read it; the notice says it in money on a plain preview.
  if (pricingChange) ctx.notice(updatePricingNotice("Component", handle, pricingChange));
  const preview = pricingChange ? { preview: { pricingChange } } : {};
  const failures = await renameFailures(ctx, inputs, olds);
  if (typeof handle !== "string" || isUnknown(handle) || handle === olds.handle) return { failures, ...preview };
  const holder = await componentWithHandle(ctx.client(inputs.site as string | undefined), handle);
  // Renamed so already (outside the stack): its own handle, which the update then records.
  if (!holder || holder.id === (olds as Record<string, unknown>).componentId) return { failures, ...preview };
  return {
    failures: [
      {
        property: "handle",
        reason: `must be a handle no other component has: ${label(handle, holder.id)}${holder.archivedAt !== undefined ? " (archived)" : ""} holds it, and handles are unique among the site's components, archived ones included; choose another`,
      },
      ...failures,
    ],
  };
}

/** What the service holds of a component, as the inputs that declare it; the state an import records (the kind's read). */
const reader = componentReader({ fields: ARG_KEYS, catalog });

export const component: KindModule<typeof kind, State> = {
  kind,
  reader: reader as CatalogReader,
  operations: {
    state,
    // The service's values for the declared handle, name, scheme and tiers: a change made outside shows as a diff, and up restores it.
    recordedInputs(s) {
      const out: Record<string, unknown> = { ...s.args };
      for (const k of ["handle", "name"] as const) if (out[k] !== undefined && s[k] != null) out[k] = s[k];
      // While another price point is the default, the pricing the component shows is that one's declaration's, not drift.
      if (s.defaultPricePointId != null && s.defaultPricePointId !== ownDefaultOf(s)) return out;
      if (out.pricingScheme !== undefined && s.pricingScheme != null) out.pricingScheme = s.pricingScheme;
      if (Array.isArray(out.prices) && s.prices && !sameTiers(asTiers(s.prices), out.prices as Parameters<typeof sameTiers>[1]))
        out.prices = declaredTiers(s.prices);
      return out;
    },
    unfinished: (s) =>
      s.pendingToken !== undefined || s.todo?.promote === true || (s.todo?.archive?.length ?? 0) > 0 || (s.archivedAt ?? null) !== null,

    /** At preview: an update's checks; on a first deploy an existing component with this handle is adopted, refused (adopt: false), or archived. */
    async preflight(ctx, inputs, olds) {
      if (olds !== undefined) return updateChecks(ctx, inputs, olds);
      // Found by its handle alone (unique among the site's components, whatever their family): no family to resolve.
      const found = await life.adoption(ctx, inputs, undefined as unknown as Where);
      if (!found) return { failures: [] };
      if (found.failures.length > 0) return { failures: found.failures, ...(found.preview ? { preview: found.preview } : {}) };
      const named = await createNameFailures(ctx, inputs, undefined, { c: (found.existing as HeldComponent | undefined)?.c });
      if (named.length > 0) return { failures: named };
      if (!found.existing) return { failures: [], ...(found.preview ? { preview: found.preview } : {}) };
      // Adopted: converging its default price point to the declared pricing is a price change, to say in money and review.
      const existing = found.existing as HeldComponent;
      const { pp } = await withDefaultPricePoint(ctx.client(inputs.site as string | undefined), existing).catch(() => existing);
      const held = pp && {
        pricingScheme: pp.pricingScheme,
        prices: declaredTiers(pp.prices),
        unitPrice: pp.prices[0]?.unitPrice,
        interval: pp.interval,
        intervalUnit: pp.intervalUnit,
      };
      const pricingChange =
        held &&
        componentPricingChange(
          inputs.kind === "on_off" ? { unitPrice: inputs.unitPrice } : { ...inputs, unitPrice: undefined },
          held,
          "the adopted component's default price point's prices are changed in place: every subscription on it pays the new prices from its next charge",
        );
      const said = pricingChange && adoptionPricingNotice("Component", inputs.handle, pricingChange);
      if (said) ctx.notice(said);
      return { failures: [], preview: { ...found.preview, ...(pricingChange ? { pricingChange } : {}) } };
    },

    /** Its ids, for the preview of an in-place update. */
    async stable(ctx, olds) {
      if (typeof olds.componentId === "number")
        return { componentId: olds.componentId, productFamilyId: olds.productFamilyId, defaultPricePointId: olds.defaultPricePointId };
      if (typeof olds.handle !== "string") return undefined;
      const c = await componentWithHandle(ctx.client(typeof olds.site === "string" ? olds.site : undefined), olds.handle);
      return c && { componentId: c.id, productFamilyId: c.productFamilyId ?? null, defaultPricePointId: c.defaultPricePointId ?? null };
    },

    create: (ctx, inputs) => life.create(ctx, inputs),

    /** A pending create or replacement is finished first; then the component is read, so a repeated update sends only what still differs. */
    update(ctx, id, s, inputs) {
      if (s.pendingToken !== undefined) resumed.add(inputs);
      return life.update(ctx, id, s, inputs);
    },

    /** `pulumi refresh`: the component, and its default price point (its pricing). */
    async read(ctx, id, s) {
      const componentId = s.componentId ?? (s.pendingToken === undefined && /^[1-9][0-9]*$/.test(id) ? Number(id) : undefined);
      // The service reads a component only within its family: without one recorded there is nothing to read it by.
      if (componentId === undefined || s.productFamilyId == null) return s;
      const client = ctx.client(s.site);
      // The recorded default asked for with the component: it joins the reads of the component's price points (one
      // list) instead of a read alone after it (issue 43); a default promoted since is read after, as before.
      const recorded = s.defaultPricePointId;
      const early =
        typeof recorded === "number"
          ? findByHandle(() => client.readComponentPricePoint(componentId, recorded)).catch(() => undefined)
          : undefined;
      const c = await findByHandle(() => client.readComponent(s.productFamilyId as number, componentId));
      if (!c) return undefined;
      const pp = c.defaultPricePointId !== undefined && c.defaultPricePointId === recorded ? await early : undefined;
      // A state from before ownDefaultId: the default its last apply recorded is its own (not the one promoted since).
      const own = s.ownDefaultId === undefined && s.defaultPricePointId != null ? { ownDefaultId: s.defaultPricePointId } : {};
      return {
        ...s,
        ...own,
        ...componentOutputs(await withDefaultPricePoint(client, { c, ...(pp ? { pp } : {}) }), s.site),
        handle: c.handle ?? s.handle,
      };
    },

    del: (ctx, id, s) => life.del(ctx, id, s),
  },
};

/** The args' TypeScript types, from the declaration; ComponentArgs gives each its docs (generated: ./generated/component.ts). */
export type ArgTypes = ArgsOf<typeof kind>;
export type { ComponentArgs, ComponentOutputs };

/** Component's operations as a dynamic provider, to call directly (configure it first); its resources store the smaller storedProvider, which loads the same. */
export const componentProvider = shellProvider(kind);

/**
 * A component of a product family and the pricing of its default price point. Create adopts an
 * existing component with the same handle and converges it; the scheme and tiers change in place
 * through its default price point; a create-only field replaces it; delete archives it.
 *
 * @example
 * ```ts
 * import { Component } from "pulumi-subscription-billing";
 *
 * const component = new Component("component", {
 *   productFamily: "handle:plans",
 *   kind: "metered",
 *   handle: "text-messages",
 *   name: "Text messages",
 *   unitName: "message",
 *   pricingScheme: "tiered",
 *   prices: [{ startingQuantity: 1, endingQuantity: 1000, unitPrice: "0.02" }, { startingQuantity: 1001, unitPrice: "0.01" }],
 * });
 * ```
 */
export class Component extends resourceClass<typeof kind, ComponentArgs, ComponentOutputs>(kind) {}
