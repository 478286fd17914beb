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
import type { ComponentUpdateInput } from "../../sdk/catalog/input-types";
import { flag, valueText } from "../../sdk/inputs";
import { adoptField, handleField } from "./catalog";
import { componentFrequencyFields, componentPrepaidFields, componentPricingFields } from "./component-fields";
import { siteInput } from "./inputs";
import { familyField } from "./product-family";

/**
 * The Component kind's inputs: one flat object (a program writes any kind's fields in one place), each
 * field the SDK's schema described for the docs, and the kind rule that holds each kind to the fields the
 * SDK's create of that kind takes. Which fields change in place and which only a new component can carry.
 */

/** A field optional here (the flat input) that some kinds require; its description kept for the docs. */
const opt = <S extends z.ZodType>(s: S, which = "") => s.optional().describe(`${s.description ?? ""}${which}`);
/** The kinds that take a field, for its docs (the kind rule refuses it on the others). */
const REQUIRED_BUT_ON_OFF = " Required for every kind but on_off, which does not take it.";
const only = (kinds: string, required = false) => ` ${kinds} only${required ? " (required there)" : ""}.`;
const describedFor = <S extends z.ZodType>(s: S, which: string) => s.describe(`${s.description ?? ""}${which}`);

const m = meteredComponentInput.shape;

/** What `updateComponent` changes in place (the contract's `Update Component`). */
export const UPDATABLE = [
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
export const CREATE_ONLY = [
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
export const NOT_CREATED = ["productFamily", "adopt", "pricingChangeAcknowledged", "site", "accountingCode", "itemCategory"] as const;

/** The SDK's create schema of each kind, by its fields. */
const KIND_SHAPES = {
  metered: meteredComponentInput.shape,
  quantity_based: quantityBasedComponentInput.shape,
  on_off: onOffComponentInput.shape,
  prepaid_usage: prepaidUsageComponentInput.shape,
  event_based: eventBasedComponentInput.shape,
};

/** Whether a component of `kind` takes the input `field`: its create does, or every kind's update does. */
export const takes = (kind: string, field: string): boolean =>
  !(kind in KIND_SHAPES) || field in KIND_SHAPES[kind as keyof typeof KIND_SHAPES] || (NOT_CREATED as readonly string[]).includes(field);

const takersOf = (key: string) => {
  const kinds = COMPONENT_KINDS.filter((k) => key in KIND_SHAPES[k]);
  return kinds.length > 0 ? `only ${kinds.map((k) => `"${k}"`).join(", ")} components take it` : "no component takes it";
};

const shape = {
  productFamily: familyField("A component cannot move to another family (a change replaces it)."),
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
  allowFractionalQuantities: describedFor(m.allowFractionalQuantities, " Not for on_off or event_based."),
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
  pricingChangeAcknowledged: flag
    .optional()
    .describe(
      "Set true to acknowledge a change of its default price point's pricing (the policy pack requires it on production stacks); it changes nothing at the service.",
    ),
  site: siteInput,
};

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
    Object.entries(raw).filter(([k, v]) => v !== undefined && k in shape && !(NOT_CREATED as readonly string[]).includes(k)),
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

/** The Component kind's inputs, with its kind rule (run even when a field failed, so a preview reports every problem). */
export const componentInputs = z.object(shape).superRefine(kindRule, { when: () => true });
