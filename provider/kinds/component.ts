import { z } from "zod";
import {
  COMPONENT_KINDS,
  componentInput,
  componentRule,
  componentUpdateInput,
  eventBasedComponentInput,
  meteredComponentInput,
  onOffComponentInput,
  prepaidUsageComponentInput,
  quantityBasedComponentInput,
} from "../../sdk/catalog/component-inputs";
import { sameTiers } from "../../sdk/catalog/component-price-points";
import type { ComponentInput, ComponentUpdateInput } from "../../sdk/catalog/input-types";
import type { BillingClient } from "../../sdk/client";
import { BillingApiError, CatalogOutcomeUnknownError } from "../../sdk/errors";
import { valueText } from "../../sdk/inputs";
import type { ComponentPricePoint, PriceTier, Component as ServiceComponent } from "../../sdk/results";
import { isUnknown } from "../engine";
import { shellProvider } from "../shell";
import {
  adoptedNotice,
  adoptField,
  familyWithHandle,
  findByHandle,
  freedHandle,
  handleField,
  isNotFound,
  referencedHandle,
  referenceField,
} from "./catalog";
import {
  componentFrequencyFields,
  componentPrepaidFields,
  componentPricingFields,
  componentWithHandle,
  heldTiersOutput,
} from "./component-fields";
import type { ComponentArgs, ComponentOutputs } from "./generated/component";
import { siteInput } from "./inputs";
import {
  type ArgsOf,
  type Context,
  declareKind,
  type InputsOf,
  type KindModule,
  type PreviewedInputs,
  resourceClass,
  type Verified,
} from "./kind";

/** A field optional here (the flat input) that some kinds require; its description kept for the docs. */
const opt = <S extends z.ZodType>(s: S, which = "") => s.optional().describe(`${s.description ?? ""}${which}`);
/** The kinds that take a field, for its docs (the kind rule refuses it on the others). */
const REQUIRED_BUT_ON_OFF = " Required for every kind but on_off, which does not take it.";
const only = (kinds: string, required = false) => ` ${kinds} only${required ? " (required there)" : ""}.`;
const describedFor = <S extends z.ZodType>(s: S, which: string) => s.describe(`${s.description ?? ""}${which}`);

const m = meteredComponentInput.shape;

/** What `updateComponent` changes in place (the contract's `Update Component`). */
const UPDATABLE = [
  "handle",
  "name",
  "description",
  "accountingCode",
  "taxable",
  "taxCode",
  "itemCategory",
  "displayOnHostedPage",
  "upgradeCharge",
  "downgradeCredit",
] as const satisfies readonly (keyof ComponentUpdateInput)[];

/** What only the create takes: a change makes a new component (the old one's handle freed first, then archived). */
const CREATE_ONLY = [
  "productFamily",
  "kind",
  "unitName",
  "recurring",
  "allowFractionalQuantities",
  "eventBasedBillingMetricId",
  "hideDateRangeOnInvoice",
  "overagePricing",
  "rolloverPrepaidRemainder",
  "renewPrepaidAllocation",
  "expirationInterval",
  "expirationIntervalUnit",
] as const;

/** Provider-only inputs, and the update-only ones the SDK's create refuses: not part of the create's body. */
const NOT_CREATED = ["productFamily", "adopt", "site", "accountingCode", "itemCategory"] as const;

/**
 * The kind rules, by the SDK's create schema: a field another kind does not take is refused by its
 * name, a field this kind requires is asked for, and the tier rules. The flat input's own field
 * schemas already report a bad value, so only what they cannot see is added here.
 */
function kindRule(raw: Record<string, unknown>, ctx: z.RefinementCtx): void {
  if (typeof raw !== "object" || raw === null) return;
  const which = raw.kind;
  // Without a kind (missing, unknown until apply, or bad) the rules across fields still hold, so one bad value never hides another.
  if (typeof which !== "string" || !(COMPONENT_KINDS as readonly string[]).includes(which)) {
    componentRule(raw, ctx);
    return;
  }
  const body = Object.fromEntries(
    // Keys no kind declares are the runtime's to name (unknown inputs), once.
    Object.entries(raw).filter(([k, v]) => v !== undefined && k in kind.inputs.shape && !(NOT_CREATED as readonly string[]).includes(k)),
  );
  const r = componentInput.safeParse(body);
  if (r.success) return;
  for (const issue of r.error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys)
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `must be left out: it is not taken by a "${which}" component (${takersOf(key)})`,
        });
      continue;
    }
    const top = issue.path[0];
    // A custom rule (tiers, interval with its unit), or a field this kind requires left out; other value errors the flat schema reported.
    if (issue.code === "custom" || (typeof top === "string" && raw[top] === undefined)) {
      const message =
        issue.code !== "custom" && typeof top === "string" && issue.path.length === 1
          ? `is required for a "${which}" component`
          : issue.message;
      ctx.addIssue({ code: "custom", path: issue.path as PropertyKey[] as (string | number)[], message });
    }
  }
}

const KIND_SHAPES = {
  metered: meteredComponentInput.shape,
  quantity_based: quantityBasedComponentInput.shape,
  on_off: onOffComponentInput.shape,
  prepaid_usage: prepaidUsageComponentInput.shape,
  event_based: eventBasedComponentInput.shape,
};
const takersOf = (key: string) => {
  const kinds = COMPONENT_KINDS.filter((k) => key in KIND_SHAPES[k]);
  return kinds.length > 0 ? `only ${kinds.map((k) => `"${k}"`).join(", ")} components take it` : "no component takes it";
};

const kind = declareKind({
  key: "component",
  type: "Component",
  summary:
    "A component (metered, quantity-based, on/off, prepaid usage or event-based) of a product family, and the pricing of its default price point. Descriptive fields change in place, and so do the scheme and tiers (through the default price point, for every subscription on it); a create-only field replaces it, its handle freed first. Delete archives it.",
  inputs: z
    .object({
      productFamily: referenceField("product family").describe(
        'The family: a ProductFamily\'s `familyId`, an id, or "handle:<handle>". A component cannot move to another family (a change replaces it).',
      ),
      kind: z
        .enum(COMPONENT_KINDS, {
          error: (i) => `must be one of "${COMPONENT_KINDS.join('", "')}", got ${valueText(i.input)}`,
        })
        .describe('"metered", "quantity_based", "on_off", "prepaid_usage" or "event_based". A change replaces the component.'),
      handle: handleField("component"),
      name: m.name,
      unitName: opt(m.unitName, REQUIRED_BUT_ON_OFF),
      description: m.description,
      pricingScheme: opt(componentPricingFields.pricingScheme, REQUIRED_BUT_ON_OFF),
      prices: opt(componentPricingFields.prices, REQUIRED_BUT_ON_OFF),
      unitPrice: opt(onOffComponentInput.shape.unitPrice, only("on_off", true)),
      overagePricing: opt(componentPrepaidFields.overagePricing, only("prepaid_usage", true)),
      rolloverPrepaidRemainder: describedFor(componentPrepaidFields.rolloverPrepaidRemainder, only("prepaid_usage")),
      renewPrepaidAllocation: describedFor(componentPrepaidFields.renewPrepaidAllocation, only("prepaid_usage")),
      expirationInterval: describedFor(componentPrepaidFields.expirationInterval, only("prepaid_usage")),
      expirationIntervalUnit: describedFor(componentPrepaidFields.expirationIntervalUnit, only("prepaid_usage")),
      recurring: describedFor(quantityBasedComponentInput.shape.recurring, only("quantity_based")),
      eventBasedBillingMetricId: opt(eventBasedComponentInput.shape.eventBasedBillingMetricId, only("event_based", true)),
      allowFractionalQuantities: describedFor(m.allowFractionalQuantities, " Not for on_off."),
      interval: describedFor(componentFrequencyFields.interval, " Not for prepaid_usage."),
      intervalUnit: describedFor(componentFrequencyFields.intervalUnit, " Not for prepaid_usage."),
      taxable: m.taxable,
      taxCode: m.taxCode,
      accountingCode: componentUpdateInput.shape.accountingCode,
      itemCategory: componentUpdateInput.shape.itemCategory,
      hideDateRangeOnInvoice: m.hideDateRangeOnInvoice,
      displayOnHostedPage: m.displayOnHostedPage,
      upgradeCharge: m.upgradeCharge,
      downgradeCredit: m.downgradeCredit,
      adopt: adoptField,
      site: siteInput,
    })
    .superRefine(kindRule, { when: () => true }),
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
});

type Inputs = InputsOf<typeof kind>;
type Outputs = z.output<typeof kind.outputs>;

/** The outputs and declared inputs; `pendingToken` while a create's outcome is unknown; `archive` while replaced ones are left to archive. */
const state = kind.outputs.partial().extend({
  handle: z.string(),
  args: z.record(z.string(), z.unknown()),
  pendingToken: z.string().optional(),
  archive: z.array(z.object({ componentId: z.number().int(), productFamilyId: z.number().int() })).optional(),
});
type State = z.output<typeof state>;
/** A component this one replaced, by its own family (a replacement may move to another). */
type Replaced = { componentId: number; productFamilyId: number };

const ARG_KEYS = Object.keys(kind.inputs.shape) as (keyof Inputs & string)[];
const argsOf = (inputs: Inputs) => Object.fromEntries(ARG_KEYS.filter((k) => inputs[k] !== undefined).map((k) => [k, inputs[k]]));

const label = (handle: string, id: number) => `component \`${handle}\` (id ${id})`;

/** The component and its default price point (its pricing), as the service holds them. */
interface Held {
  readonly c: ServiceComponent;
  readonly pp: ComponentPricePoint | undefined;
}

async function heldOf(client: BillingClient, c: ServiceComponent): Promise<Held> {
  const ppId = c.defaultPricePointId;
  const pp = ppId === undefined ? undefined : await findByHandle(() => client.readComponentPricePoint(c.id, ppId));
  return { c, pp };
}

function outputsOf({ c, pp }: Held, site: string | undefined): Outputs {
  return {
    componentId: c.id,
    productFamilyId: c.productFamilyId ?? null,
    handle: c.handle ?? "",
    name: c.name ?? null,
    defaultPricePointId: c.defaultPricePointId ?? null,
    archivedAt: c.archivedAt ?? null,
    pricingScheme: pp?.pricingScheme ?? c.pricingScheme ?? null,
    prices: (pp?.prices ?? c.prices).map((t) => ({ ...t, endingQuantity: t.endingQuantity ?? null })),
    ...(site !== undefined ? { site } : {}),
  };
}

const recordOf = (h: Held, inputs: Inputs, archive: readonly Replaced[]): State => ({
  ...outputsOf(h, inputs.site),
  handle: h.c.handle ?? inputs.handle,
  args: argsOf(inputs),
  ...(archive.length > 0 ? { archive: [...archive] } : {}),
});

type Tier = { startingQuantity: number; endingQuantity?: number; unitPrice: number | string };
const tiersOf = (ts: readonly PriceTier[]): Tier[] =>
  ts.map((t) => ({
    startingQuantity: t.startingQuantity,
    ...(t.endingQuantity !== undefined ? { endingQuantity: t.endingQuantity } : {}),
    unitPrice: t.unitPrice,
  }));

/** The declared value the service holds differently, by field; only declared fields are compared. */
function differences(inputs: Partial<Inputs>, { c, pp }: Held): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const service = c as unknown as Record<string, unknown>;
  for (const k of UPDATABLE) {
    const want = inputs[k];
    if (want === undefined || isUnknown(want)) continue;
    const have = service[k] ?? (k === "description" || k === "taxCode" || k === "accountingCode" ? "" : undefined);
    if (want !== have) out[k] = c[k] ?? null;
  }
  if (pp) {
    if (inputs.pricingScheme !== undefined && inputs.pricingScheme !== pp.pricingScheme) out.pricingScheme = pp.pricingScheme ?? null;
    if (Array.isArray(inputs.prices) && !sameTiers(pp.prices, inputs.prices)) out.prices = tiersOf(pp.prices);
    if (inputs.unitPrice !== undefined && Number(pp.prices[0]?.unitPrice) !== Number(inputs.unitPrice))
      out.unitPrice = pp.prices[0]?.unitPrice ?? null;
    if (inputs.interval !== undefined && inputs.interval !== pp.interval) out.interval = pp.interval ?? null;
    if (inputs.intervalUnit !== undefined && inputs.intervalUnit !== pp.intervalUnit) out.intervalUnit = pp.intervalUnit ?? null;
  }
  return out;
}

/** The create-only fields the service holds differently: converging them takes a new component. */
function createOnlyDifferences(inputs: Inputs, familyId: number, { c, pp }: Held): string[] {
  const out: string[] = [];
  if (c.productFamilyId !== undefined && c.productFamilyId !== familyId) out.push(`productFamily ${c.productFamilyId} → ${familyId}`);
  if (c.kind !== inputs.kind) out.push(`kind ${c.kind ?? "(none)"} → ${inputs.kind}`);
  const same: [string, unknown, unknown][] = [
    ["unitName", inputs.unitName, c.unitName],
    ["recurring", inputs.recurring, c.recurring],
    ["allowFractionalQuantities", inputs.allowFractionalQuantities, c.allowFractionalQuantities],
    ["eventBasedBillingMetricId", inputs.eventBasedBillingMetricId, c.eventBasedBillingMetricId],
    ["hideDateRangeOnInvoice", inputs.hideDateRangeOnInvoice, c.hideDateRangeOnInvoice],
    ["rolloverPrepaidRemainder", inputs.rolloverPrepaidRemainder, pp?.rolloverPrepaidRemainder],
    ["renewPrepaidAllocation", inputs.renewPrepaidAllocation, pp?.renewPrepaidAllocation],
    ["expirationInterval", inputs.expirationInterval, pp?.expirationInterval],
    ["expirationIntervalUnit", inputs.expirationIntervalUnit, pp?.expirationIntervalUnit],
  ];
  for (const [k, want, have] of same)
    if (want !== undefined && have !== undefined && want !== have) out.push(`${k} ${String(have)} → ${String(want)}`);
  // The component's answer carries the overage tiers where its price point's may not; an answer showing none is no evidence.
  const overage = pp?.overagePrices.length ? pp.overagePrices : c.overagePrices;
  if (inputs.overagePricing !== undefined && overage.length > 0 && !sameTiers(overage, inputs.overagePricing.prices))
    out.push("overagePricing");
  return out;
}

/** The family's id: a number as given, a handle looked up (the family must exist). */
async function familyIdOf(ctx: Context, ref: number | string, site: string | undefined): Promise<number> {
  const handle = referencedHandle(ref);
  if (handle === undefined) return ref as number;
  const family = await familyWithHandle(ctx.client(site), handle);
  if (!family)
    throw new Error(
      `productFamily: no product family has the handle \`${handle}\` at site ${ctx.siteLabel(site)}: declare a ProductFamily and pass its familyId`,
    );
  return family.id;
}

const archivedError = (c: ServiceComponent) =>
  `${label(c.handle ?? "?", c.id)} is archived at the service (since ${c.archivedAt}), an archived component keeps its handle, ` +
  "and the service has no unarchive for components: declare the component with another handle (nothing was changed)";

/**
 * Components a create adopted in this process, by site and id. A replacement whose new inputs still
 * name the same component (its family given another way: "handle:plans", then the ProductFamily's
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

/** Sends what the service holds differently: the component's fields in place, the scheme and tiers through its default price point. */
async function converge(ctx: Context, h: Held, inputs: Inputs): Promise<Held> {
  const client = ctx.client(inputs.site);
  const diff = differences(inputs, h);
  const familyId = h.c.productFamilyId as number;
  let { c, pp } = h;
  const fields = Object.fromEntries(UPDATABLE.filter((k) => k in diff).map((k) => [k, inputs[k]])) as ComponentUpdateInput;
  if (Object.keys(fields).length > 0) c = await client.updateComponent(familyId, c.id, fields);
  const pricing: Record<string, unknown> = {};
  if ("pricingScheme" in diff || "prices" in diff) Object.assign(pricing, { pricingScheme: inputs.pricingScheme, prices: inputs.prices });
  // An on/off component's price is its one open tier.
  if ("unitPrice" in diff)
    Object.assign(pricing, { pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice: inputs.unitPrice }] });
  if ("interval" in diff || "intervalUnit" in diff)
    Object.assign(pricing, { interval: inputs.interval, intervalUnit: inputs.intervalUnit });
  if (Object.keys(pricing).length > 0 && pp) {
    pp = await client.updateComponentPricePoint(c.id, pp.id, pricing);
    ctx.notice(
      `Component \`${inputs.handle}\`: pricing of its default price point (id ${pp.id}) changed in place; every subscription on it pays the new prices.`,
    );
  }
  return { c, pp };
}

/** Archives the components this one replaced; a failure keeps the rest listed, so the next `up` finishes. */
async function archiveReplaced(ctx: Context, id: string, s: State): Promise<State> {
  const client = ctx.client(s.site);
  let left = [...(s.archive ?? [])];
  try {
    while (left.length > 0) {
      const old = left[0] as Replaced;
      const live = await findByHandle(() => client.readComponent(old.productFamilyId, old.componentId));
      if (live && live.archivedAt === undefined) {
        await client.archiveComponent(old.productFamilyId, old.componentId);
        ctx.notice(`Component: archived the replaced ${label(live.handle ?? "?", old.componentId)}.`);
      }
      left = left.slice(1);
    }
  } catch (err) {
    throw ctx.partialFailure(
      `${label(s.handle, s.componentId ?? 0)} is created and recorded; archiving the replaced component(s) ${left.map((r) => r.componentId).join(", ")} failed: ${err instanceof Error ? err.message : String(err)}. The next \`pulumi up\` finishes it.`,
      id,
      { ...s, archive: left },
    );
  }
  const { archive: _, ...rest } = s;
  return rest;
}

async function createOrAdopt(
  ctx: Context,
  id: string | undefined,
  inputs: Inputs,
  token: string | undefined,
  replacing: readonly Replaced[] = [],
): Promise<{ id: string; state: State }> {
  const client = ctx.client(inputs.site);
  const familyId = await familyIdOf(ctx, inputs.productFamily, inputs.site);
  const existing = await componentWithHandle(client, inputs.handle);
  const archive = [...replacing];
  if (existing) {
    if (existing.archivedAt !== undefined) throw new Error(archivedError(existing));
    if (inputs.adopt === false && token === undefined)
      throw new Error(`${label(inputs.handle, existing.id)} already exists and adopt is false: nothing was changed`);
    const held = await heldOf(client, existing);
    const createOnly = createOnlyDifferences(inputs, familyId, held);
    if (createOnly.length === 0) {
      if (token === undefined) {
        adoptedNotice(ctx, inputs.site, "component", inputs.handle, existing.id);
        adoptedHere.set(adoptionKey(ctx, inputs.site, existing.id), canonical(argsOf(inputs)));
      }
      const newId = id ?? String(existing.id);
      let s: State;
      try {
        s = recordOf(await converge(ctx, held, inputs), inputs, archive);
      } catch (err) {
        throw ctx.partialFailure(
          `${label(inputs.handle, existing.id)} was adopted and recorded; converging it failed: ${err instanceof Error ? err.message : String(err)}. The next \`pulumi up\` sends what still differs.`,
          newId,
          recordOf(held, inputs, archive),
        );
      }
      return { id: newId, state: await archiveReplaced(ctx, newId, s) };
    }
    // What only a create sets differs (a replacement, or an adopted one declared otherwise): free the handle, make a new one.
    const taken = new Set((await client.listComponents({ includeArchived: true })).map((c) => c.handle ?? ""));
    const freed = freedHandle(inputs.handle, existing.id, taken);
    await client.updateComponent(existing.productFamilyId ?? familyId, existing.id, { handle: freed });
    ctx.notice(
      `Component: ${label(inputs.handle, existing.id)} is renamed \`${freed}\` to free its handle for its replacement (${createOnly.join(", ")}); it is archived once the new one exists.`,
    );
    archive.push({ componentId: existing.id, productFamilyId: existing.productFamilyId ?? familyId });
  }
  const body = Object.fromEntries(
    Object.entries(inputs).filter(([k, v]) => v !== undefined && !(NOT_CREATED as readonly string[]).includes(k)),
  ) as unknown as ComponentInput;
  let created: ServiceComponent;
  try {
    created = await client.createComponent(familyId, body, token ? { uniquenessToken: token } : {});
  } catch (err) {
    if (!(err instanceof CatalogOutcomeUnknownError)) throw err;
    throw ctx.partialFailure(
      `${err.message}. Recorded: the next \`pulumi up\` looks for component \`${inputs.handle}\` by its handle and only re-sends the create, with the same token, if it is not there.`,
      id ?? `pending-${err.uniquenessToken}`,
      {
        handle: inputs.handle,
        args: argsOf(inputs),
        productFamilyId: familyId,
        ...(inputs.site !== undefined ? { site: inputs.site } : {}),
        pendingToken: err.uniquenessToken,
        ...(archive.length > 0 ? { archive } : {}),
      },
    );
  }
  const newId = id ?? String(created.id);
  let held = await heldOf(client, created).catch(() => ({ c: created, pp: undefined }));
  try {
    // accountingCode and itemCategory are the update's fields only (the contract's create schemas leave them out).
    held = await converge(ctx, held, inputs);
  } catch (err) {
    throw ctx.partialFailure(
      `${label(inputs.handle, created.id)} was created and recorded; setting its update-only fields failed: ${err instanceof Error ? err.message : String(err)}. The next \`pulumi up\` sends them.`,
      newId,
      recordOf(held, inputs, archive),
    );
  }
  return { id: newId, state: await archiveReplaced(ctx, newId, recordOf(held, inputs, archive)) };
}

const componentIdOf = (id: string, s: State): number | undefined => s.componentId ?? (/^[1-9][0-9]*$/.test(id) ? Number(id) : undefined);

/** The service's value of a declared field, in the declaration's terms, for recordedInputs. */
function serviceValue(k: string, s: State): unknown {
  if (k === "prices") return s.prices?.map((t) => ({ ...t, endingQuantity: t.endingQuantity ?? undefined }));
  if (k === "pricingScheme" || k === "handle" || k === "name") return s[k] ?? undefined;
  return undefined;
}

const changed = (inputs: PreviewedInputs<typeof kind>, olds: Partial<Inputs>, k: keyof Inputs) =>
  !isUnknown(inputs[k]) && JSON.stringify(inputs[k] ?? null) !== JSON.stringify(olds[k] ?? null);

/**
 * An update's checks at preview: an in-place change of prices is announced (every subscription on the
 * default price point pays them), and a new handle another component holds is refused before anything
 * is sent (handles are unique among the site's components, archived ones included). A replacement
 * (a create-only field changed) is a create, judged there.
 */
async function updateChecks(ctx: Context, inputs: PreviewedInputs<typeof kind>, olds: Partial<Inputs>): Promise<Verified> {
  if (CREATE_ONLY.some((k) => changed(inputs, olds, k)) || changed(inputs, olds, "site") || isUnknown(inputs.site)) return { failures: [] };
  const handle = inputs.handle;
  if (["pricingScheme", "prices", "unitPrice"].some((k) => changed(inputs, olds, k as keyof Inputs)))
    ctx.notice(
      `Component \`${String(handle)}\`: its prices change in place on its default price point: every subscription on it pays the new prices.`,
    );
  if (typeof handle !== "string" || isUnknown(handle) || handle === olds.handle) return { failures: [] };
  const holder = await componentWithHandle(ctx.client(inputs.site as string | undefined), handle);
  // Renamed so already (outside the stack): its own handle, which the update then records.
  if (!holder || holder.id === (olds as Record<string, unknown>).componentId) return { failures: [] };
  return {
    failures: [
      {
        property: "handle",
        reason: `must be a handle no other component has: ${label(handle, holder.id)}${holder.archivedAt !== undefined ? " (archived)" : ""} holds it, and handles are unique among the site's components, archived ones included; choose another`,
      },
    ],
  };
}

export const component: KindModule<typeof kind, State> = {
  kind,
  operations: {
    state,
    // The service's values for the declared handle, name, scheme and tiers: a change made outside shows as a diff, and up restores it.
    recordedInputs(s) {
      const out: Record<string, unknown> = { ...s.args };
      for (const k of ["handle", "name", "pricingScheme"] as const) {
        const v = serviceValue(k, s);
        if (out[k] !== undefined && v !== undefined) out[k] = v;
      }
      const held = serviceValue("prices", s) as PriceTier[] | undefined;
      if (Array.isArray(out.prices) && held && !sameTiers(held, out.prices as Tier[])) out.prices = tiersOf(held);
      return out;
    },
    unfinished: (s) => s.pendingToken !== undefined || (s.archive?.length ?? 0) > 0 || (s.archivedAt ?? null) !== null,

    async preflight(ctx, inputs, olds) {
      if (olds !== undefined) return updateChecks(ctx, inputs, olds);
      if (isUnknown(inputs.handle) || isUnknown(inputs.site)) return { failures: [] };
      const handle = inputs.handle as string;
      const existing = await componentWithHandle(ctx.client(inputs.site as string | undefined), handle);
      if (!existing) return { failures: [] };
      if (existing.archivedAt !== undefined) return { failures: [{ property: "handle", reason: archivedError(existing) }] };
      if (inputs.adopt === false)
        return {
          failures: [
            {
              property: "handle",
              reason: `${label(handle, existing.id)} already exists at the service and adopt is false: choose another handle, or set adopt: true to manage it`,
            },
          ],
        };
      return { failures: [], preview: { adopt: { id: existing.id, handle } } };
    },

    /** Its ids, for the preview of an in-place update. */
    async stable(ctx, olds) {
      if (typeof olds.componentId === "number")
        return { componentId: olds.componentId, productFamilyId: olds.productFamilyId, defaultPricePointId: olds.defaultPricePointId };
      if (typeof olds.handle !== "string") return undefined;
      const c = await componentWithHandle(ctx.client(typeof olds.site === "string" ? olds.site : undefined), olds.handle);
      return c && { componentId: c.id, productFamilyId: c.productFamilyId ?? null, defaultPricePointId: c.defaultPricePointId ?? null };
    },

    create: (ctx, inputs) => createOrAdopt(ctx, undefined, inputs, undefined),

    /** Reads the component first, so a repeated or resumed update sends only what the service still holds differently. */
    async update(ctx, id, s, inputs) {
      if (s.pendingToken !== undefined) return (await createOrAdopt(ctx, id, inputs, s.pendingToken, s.archive ?? [])).state;
      const componentId = componentIdOf(id, s);
      if (componentId === undefined || s.productFamilyId == null) return (await createOrAdopt(ctx, id, inputs, undefined)).state;
      const client = ctx.client(inputs.site);
      let live: ServiceComponent;
      try {
        live = await client.readComponent(s.productFamilyId, componentId);
      } catch (err) {
        if (isNotFound(err))
          throw new Error(
            `${label(s.handle, componentId)} no longer exists at the service: run \`pulumi refresh\` to drop it (nothing was changed)`,
          );
        throw err;
      }
      if (live.archivedAt !== undefined)
        throw new Error(`${archivedError(live)}. To let it go, remove it from the program (its destroy changes nothing more).`);
      const current = s.archive?.length ? await archiveReplaced(ctx, id, s) : s;
      try {
        return { ...current, ...recordOf(await converge(ctx, await heldOf(client, live), inputs), inputs, []) };
      } catch (err) {
        if (err instanceof BillingApiError && err.status === 422)
          throw new Error(`Component \`${inputs.handle}\`: the service refused the update: ${err.errors.join("; ") || err.message}`);
        throw err;
      }
    },

    async read(ctx, id, s) {
      const componentId = componentIdOf(id, s);
      if (componentId === undefined || s.productFamilyId == null) return s;
      const client = ctx.client(s.site);
      const c = await findByHandle(() => client.readComponent(s.productFamilyId as number, componentId));
      if (!c) return undefined;
      return { ...s, ...outputsOf(await heldOf(client, c), s.site), handle: c.handle ?? s.handle };
    },

    async del(ctx, id, s) {
      const client = ctx.client(s.site);
      const found = s.pendingToken === undefined ? undefined : await componentWithHandle(client, s.handle);
      const componentId = s.pendingToken === undefined ? componentIdOf(id, s) : found?.id;
      const familyId = s.productFamilyId ?? found?.productFamilyId;
      if (componentId === undefined || familyId == null)
        return ctx.notice(`Component: the pending create of \`${s.handle}\` made no component; nothing to archive.`);
      // Once: the replaced resource's delete (another declaration than the adopter's); the adopter's own delete archives as usual.
      const key = adoptionKey(ctx, s.site, componentId);
      const adopter = adoptedHere.get(key);
      adoptedHere.delete(key);
      if (adopter !== undefined && adopter !== canonical(s.args))
        return ctx.notice(
          `Component: ${label(s.handle, componentId)} stays live: its replacement adopted it (the same component, its family named another way), so it is not archived.`,
        );
      const live = await findByHandle(() => client.readComponent(familyId, componentId));
      if (!live || live.archivedAt !== undefined) return;
      try {
        await client.archiveComponent(familyId, componentId);
      } catch (err) {
        if (isNotFound(err)) return;
        throw err;
      }
      ctx.notice(
        `Component: archived ${label(live.handle ?? s.handle, componentId)}; the service keeps it archived (there is no unarchive), its handle stays taken, and subscriptions on it keep it.`,
      );
    },
  },
};

/** The args' TypeScript types, from the declaration; ComponentArgs gives each its docs (generated: ./generated/component.ts). */
export type ArgTypes = ArgsOf<typeof kind>;
export type { ComponentArgs, ComponentOutputs };

/** The provider of every Component: one instance per type (each instance costs a serialization). */
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
export class Component extends resourceClass<typeof kind, ComponentArgs, ComponentOutputs>(kind, componentProvider) {}
