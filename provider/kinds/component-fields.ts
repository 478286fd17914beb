import { z } from "zod";
import {
  componentFrequency,
  componentOveragePricing,
  componentPrepaidTerms,
  componentPrices,
  componentRule,
} from "../../sdk/catalog/component-inputs";
import { pricingScheme } from "../../sdk/catalog/tiers";
import type { BillingClient } from "../../sdk/client";
import type { Component, PriceTier } from "../../sdk/results";
import { findByHandle, referenceField } from "./catalog";
import { accepting } from "./inputs";

/**
 * What the Component and ComponentPricePoint kinds share: the pricing fields (the SDK's schemas,
 * each described for the docs), the rules across them, and the reference to a component. One
 * schema per field, so a catalog export, the kinds and the SDK agree on names and on what passes.
 */

/** The scheme and tiers, as the SDK checks them. */
export const componentPricingFields = {
  pricingScheme: pricingScheme.describe(
    'How the tiers price a quantity: "per_unit" (one tier, one price), "volume" (every unit at the price of the tier the total falls in), "tiered" (each unit at its own tier\'s price) or "stairstep" (one price per tier reached).',
  ),
  prices: componentPrices(),
};

/** The default price point's billing frequency (sites with multifrequency). */
export const componentFrequencyFields = {
  interval: componentFrequency.interval,
  intervalUnit: componentFrequency.intervalUnit,
};

/** How usage beyond the prepaid quantity is priced, as a program writes it (each field documented where it is typed). */
export interface OveragePricingArgs {
  /** The overage's scheme: "per_unit", "volume", "tiered" or "stairstep". */
  readonly pricingScheme: z.input<typeof pricingScheme>;
  /** The overage's tiers, with the same rules as `prices`: the first starts at 1, each next one where the previous ended + 1, only the last open. */
  readonly prices: z.input<ReturnType<typeof componentPrices>>;
}

/** A prepaid usage component's (or its price point's) overage pricing and rollover terms. */
export const componentPrepaidFields = {
  overagePricing: accepting<OveragePricingArgs>({})(componentOveragePricing).describe(
    "How usage beyond the prepaid quantity is priced: { pricingScheme, prices }, the same tier rules as prices.",
  ),
  rolloverPrepaidRemainder: componentPrepaidTerms.rolloverPrepaidRemainder,
  renewPrepaidAllocation: componentPrepaidTerms.renewPrepaidAllocation,
  expirationInterval: componentPrepaidTerms.expirationInterval,
  expirationIntervalUnit: componentPrepaidTerms.expirationIntervalUnit,
};

/**
 * The SDK's rules across component fields, for a kind's `superRefine`: the tier rules on `prices`
 * and `overagePricing.prices` (first at 1, ascending, contiguous, only the last open-ended) and
 * each interval with its unit. Run even when a field failed, so a preview reports every problem.
 */
export const componentTierRule = [componentRule, { when: () => true }] as const;

/** A component: a Component resource's `componentId`, an id, or "handle:<handle>". */
export const componentReferenceField = () =>
  referenceField("component").describe('The component: a Component resource, its `componentId`, an id, or "handle:<handle>".');

/**
 * The component with this handle, archived ones included, or undefined. The lookup answers archived
 * components where the service does; where it does not (a 404), the site's list with archived ones
 * is the answer, since an archived component keeps its handle.
 */
export async function componentWithHandle(client: BillingClient, handle: string): Promise<Component | undefined> {
  const found = await findByHandle(() => client.findComponentByHandle(handle));
  if (found) return found;
  return (await client.listComponents({ includeArchived: true })).find((c) => c.handle === handle);
}

/** Tiers as a kind's outputs hold them: as the service holds them (unit prices as its decimal text, an open end null). */
export const heldTiersOutput = () =>
  z.array(
    z.object({
      startingQuantity: z.number().int(),
      endingQuantity: z.number().int().nullable(),
      unitPrice: z.string(),
    }),
  );

/** A tier as a declaration or an output writes it (the open end left out, or null). */
type AnyTier = { readonly startingQuantity: number; readonly endingQuantity?: number | null; readonly unitPrice: string | number };

/** Tiers as outputs hold them: the service's decimal text, the open end null. */
export const heldTiers = (tiers: readonly PriceTier[]) =>
  tiers.map((t) => ({ startingQuantity: t.startingQuantity, endingQuantity: t.endingQuantity ?? null, unitPrice: t.unitPrice }));

/** Tiers as a declaration writes them: the open-ended last tier without an endingQuantity key. */
export const declaredTiers = (tiers: readonly AnyTier[]) =>
  tiers.map((t) => ({
    startingQuantity: t.startingQuantity,
    ...(t.endingQuantity === null || t.endingQuantity === undefined ? {} : { endingQuantity: t.endingQuantity }),
    unitPrice: t.unitPrice,
  }));

/** Tiers of either form as the SDK's results hold them, to compare as prices (sameTiers). */
export const asTiers = (tiers: readonly AnyTier[]): PriceTier[] =>
  tiers.map((t) => ({
    startingQuantity: t.startingQuantity,
    endingQuantity: t.endingQuantity ?? undefined,
    unitPrice: String(t.unitPrice),
  }));

/**
 * The overage's scheme: as the service answers it (`overage_pricing_scheme`), else read from its tiers, since
 * the contract publishes no such field and a declaration needs one: one open tier is per_unit, more tiered.
 */
export const overageSchemeOf = (answered: string | undefined, tiers: readonly PriceTier[]): string =>
  answered ?? (tiers.length === 1 && tiers[0]?.endingQuantity === undefined ? "per_unit" : "tiered");
