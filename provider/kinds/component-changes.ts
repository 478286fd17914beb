import type { z } from "zod";
import { sameTiers } from "../../sdk/catalog/component-price-points";
import type { ComponentUpdateInput } from "../../sdk/catalog/input-types";
import type { ComponentPricePoint as HeldPricePoint } from "../../sdk/results";
import { isUnknown } from "../engine";
import { asTiers, declaredTiers } from "./component-fields";
import { type componentInputs, UPDATABLE } from "./component-inputs";
import { AFFECTS, componentPricePointInputs, IN_PLACE, CREATE_ONLY as PRICE_POINT_CREATE_ONLY } from "./component-price-point-inputs";
import { type HeldComponent, type pricePointOutputs, withDefaultPricePoint } from "./component-service";
import type { Context } from "./kind";

/**
 * What differs between a declaration and what the service holds, for both kinds: what an update sends in
 * place, what only a new object can carry (a replacement), and the pricing change a preview announces.
 */

type ComponentDeclared = z.output<typeof componentInputs>;
type PricePointDeclared = z.output<typeof componentPricePointInputs>;

// ---- Component ----------------------------------------------------------

/** The declared value the service holds differently, by field; only declared fields are compared. */
function differences(inputs: Partial<ComponentDeclared>, { c, pp }: HeldComponent): Record<string, unknown> {
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
    if (Array.isArray(inputs.prices) && !sameTiers(pp.prices, inputs.prices)) out.prices = declaredTiers(pp.prices);
    if (inputs.unitPrice !== undefined && Number(pp.prices[0]?.unitPrice) !== Number(inputs.unitPrice))
      out.unitPrice = pp.prices[0]?.unitPrice ?? null;
    if (inputs.interval !== undefined && inputs.interval !== pp.interval) out.interval = pp.interval ?? null;
    if (inputs.intervalUnit !== undefined && inputs.intervalUnit !== pp.intervalUnit) out.intervalUnit = pp.intervalUnit ?? null;
  }
  return out;
}

/** The create-only fields the service holds differently: converging them takes a new component. */
export function createOnlyDifferences(inputs: ComponentDeclared, familyId: number, { c, pp }: HeldComponent): string[] {
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

/** Sends what the service holds differently: the component's fields in place, the scheme and tiers through its default price point. */
export async function convergeComponent(
  ctx: Context,
  h: HeldComponent,
  inputs: ComponentDeclared,
  where: { readonly familyId: number; readonly site: string | undefined },
): Promise<HeldComponent> {
  const client = ctx.client(where.site);
  const diff = differences(inputs, await withDefaultPricePoint(client, h));
  let { c, pp } = h;
  const fields = Object.fromEntries(UPDATABLE.filter((k) => k in diff).map((k) => [k, inputs[k]])) as ComponentUpdateInput;
  if (Object.keys(fields).length > 0) c = await client.updateComponent(c.productFamilyId ?? where.familyId, c.id, fields);
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

/** The fields of a Component's own pricing that an update changes in place, on its default price point. */
const COMPONENT_PRICING = ["pricingScheme", "prices", "unitPrice", "interval", "intervalUnit"] as const;

/**
 * The `preview.pricingChange` of a Component's own pricing (its default price point's), declared anew against the
 * earlier declaration (or, adopting, what the service holds): tiers compared as prices ("5" is 5.00), or undefined.
 */
export function componentPricingChange(to: Partial<Record<string, unknown>>, from: Partial<Record<string, unknown>>, effect: string) {
  const tiers = (v: unknown) => {
    const r = componentPricePointInputs.shape.prices.safeParse(v);
    return r.success ? r.data : undefined;
  };
  const differs = (k: (typeof COMPONENT_PRICING)[number]) => {
    const [want, had] = [to[k], from[k]];
    // Left out, or not known until apply: nothing declared to announce.
    if (want === undefined || isUnknown(want)) return false;
    if (k === "prices") {
      const [before, after] = [tiers(had), tiers(want)];
      return !(before && after && sameTiers(asTiers(before), after));
    }
    if (k === "unitPrice") return Number(want) !== Number(had);
    return want !== (had ?? undefined);
  };
  const fields = COMPONENT_PRICING.filter(differs);
  if (fields.length === 0) return undefined;
  const pick = (v: Partial<Record<string, unknown>>) => Object.fromEntries(fields.map((k) => [k, v[k] ?? null]));
  return { fields, from: pick(from), to: pick(to), effect };
}

// ---- ComponentPricePoint ------------------------------------------------

/** Whether the held scheme and tiers are the declared ones (unit prices compared as numbers: "5" and "5.00" are one price). */
const samePricing = (declared: Pick<PricePointDeclared, "pricingScheme" | "prices">, held: HeldPricePoint) =>
  held.pricingScheme === declared.pricingScheme && sameTiers(held.prices, declared.prices);

/** The in-place changes that bring `held` to the declaration, as the SDK's update takes them (undefined: none). */
export function convergence(inputs: PricePointDeclared, held: HeldPricePoint): Record<string, unknown> | undefined {
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
export function createOnlyChanges(inputs: PricePointDeclared, held: HeldPricePoint): string[] {
  const out: string[] = PRICE_POINT_CREATE_ONLY.filter((k) => inputs[k] !== undefined && inputs[k] !== held[k]);
  if (inputs.overagePricing !== undefined && !sameTiers(held.overagePrices, inputs.overagePricing.prices)) out.push("overagePricing");
  return out;
}

/** The `preview.pricingChange` annotation of a scheme or tier change (the review reads it), or undefined. */
export function pricingChangeOf(to: Partial<Record<string, unknown>>, from: Partial<Record<string, unknown>>, effect: string) {
  if (isUnknown(to.prices) || isUnknown(to.pricingScheme)) return undefined;
  // Earlier inputs passed check; any other value (a state written by hand) reads as a change, never as a crash.
  const tiers = (v: unknown) => {
    const r = componentPricePointInputs.shape.prices.safeParse(v);
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

/**
 * An update's `preview.pricingChange`, or undefined: with a create-only change (one of `replaceOn`) the new prices go to a
 * new price point, the old one keeping its subscriptions and prices; else they change in place.
 */
export function updatePricingChange(
  inputs: Readonly<Record<string, unknown>>,
  olds: Readonly<Record<string, unknown>>,
  replaceOn: readonly string[],
) {
  const replacing = replaceOn.some((k) => JSON.stringify(inputs[k] ?? null) !== JSON.stringify(olds[k] ?? null));
  return pricingChangeOf(
    inputs,
    olds,
    replacing
      ? "replaced: the old price point's handle is freed, the new one created with these prices (and promoted if default), the old one archived; subscriptions on the old one keep its prices"
      : `changed in place: ${AFFECTS}`,
  );
}

/** What a price point records: its outputs (those the service answered) and the declared inputs. */
type PricePointState = Partial<ReturnType<typeof pricePointOutputs>> & { readonly args: Record<string, unknown> };

/**
 * A price point's recorded inputs: the service's values for what is declared, in the declaration's terms (tiers
 * as declared when they price the same), so a change made outside shows as a diff and up restores it.
 */
export function pricePointRecordedInputs(s: PricePointState): Record<string, unknown> {
  const out: Record<string, unknown> = { ...s.args };
  for (const k of ["handle", "pricingScheme", ...IN_PLACE, ...PRICE_POINT_CREATE_ONLY] as const)
    if (out[k] !== undefined && s[k] !== undefined && s[k] !== null) out[k] = s[k];
  // Tiers compared as prices ("5" is 5.00): the declared form when they price the same, else the held tiers.
  const declared = s.args.prices as PricePointDeclared["prices"] | undefined;
  if (declared !== undefined && s.prices !== undefined && !sameTiers(asTiers(s.prices), declared)) out.prices = declaredTiers(s.prices);
  const overage = s.args.overagePricing as { pricingScheme: string; prices: PricePointDeclared["prices"] } | undefined;
  // No overage tiers in the answer: the service does not show them (a prepaid price point has them), so no drift either.
  const heldOverage = s.overagePrices ?? [];
  if (overage !== undefined && heldOverage.length > 0 && !sameTiers(asTiers(heldOverage), overage.prices))
    out.overagePricing = { ...overage, prices: declaredTiers(heldOverage) };
  // Promoted outside: no longer declared-false vs held-true drift (the service cannot demote).
  if (s.args.default === true && s.isDefault === false) out.default = false;
  return out;
}
