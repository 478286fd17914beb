import type { ResourceValidationPolicy } from "@pulumi/policy";
import { catalogKinds } from "../provider/kinds/catalog-kinds";
import { CURRENCY_PRICES, currencyOnlyEffect, currencyPriceChanges } from "../provider/kinds/currency-text";
import { PRICING_FIELDS } from "../provider/kinds/pricing-fields";
import { CENTS_FIELDS, pricingFieldChange, pricingValueText } from "../provider/kinds/pricing-text";
import { cents } from "./money";
import { billingType, TYPES } from "./resources";
import { forType, noSettings } from "./rule";
import { NOT_KNOWN, read } from "./values";

/**
 * What a SubscriptionMigration's check() adds to its checked inputs at the
 * preview of a first deploy: the subscription as the service shows it now
 * (its current product: the migration's "from") and, when the service's
 * migration preview could be read, the money fields. Absent while inputs are
 * unknown, and once the migration is deployed.
 */
export interface MigrationPreview {
  readonly subscriptionState: string;
  readonly productId: number;
  readonly productHandle: string | null;
  readonly pricePointId: number | null;
  readonly chargeInCents?: number;
  readonly proratedAdjustmentInCents?: number;
  readonly creditAppliedInCents?: number;
  readonly paymentDueInCents?: number;
}

/** The settings of {@link migrationChargeAcknowledged}. */
export interface ChargeSettings {
  /** A previewed charge above this many cents needs `maxChargeInCents`; default 0: every charge does. */
  readonly chargeThresholdInCents: number;
}

/** The settings of {@link webhooksStayEnabledInProduction}. */
export interface ProductionSettings {
  /** Whether this stack is production; default false, and then the policy has nothing to check. */
  readonly production: boolean;
}

/** `preview.<key>` of a migration: undefined when there is no preview, NOT_KNOWN when it is not known yet. */
const previewed = (props: Readonly<Record<string, unknown>>, key: keyof MigrationPreview): unknown => read(read(props, "preview"), key);

/**
 * A migration says whether it keeps the billing period: the service's default
 * (false) resets the period to today and charges the new product's full
 * price, which a reviewer should see chosen, not defaulted.
 */
export const migrationStatesPreservePeriod: ResourceValidationPolicy = {
  name: "migration-states-preserve-period",
  description: "A SubscriptionMigration states preservePeriod (true or false) instead of leaving the service's default.",
  enforcementLevel: "mandatory",
  validateResource: forType(TYPES.subscriptionMigration, noSettings, (props, _, who) => {
    const value = read(props, "preservePeriod");
    if (value === NOT_KNOWN || typeof value === "boolean") return [];
    const stated = value === undefined ? "does not state preservePeriod" : `has preservePeriod ${JSON.stringify(value)}, not true or false`;
    return [
      `${who} ${stated}. Without it the service resets the billing period to today and charges the new product's full price; ` +
        "true keeps the period and charges a prorated amount. Add preservePeriod: true or preservePeriod: false to its inputs.",
    ];
  }),
};

/** What to do instead of migrating a subscription in each state the service should not migrate it from. */
const INELIGIBLE: Readonly<Record<string, string>> = {
  trial_ended:
    "the API accepts it only for backwards compatibility; the recommended path is to cancel the subscription, change its product, " +
    "then reactivate it. Remove this SubscriptionMigration and take that path.",
  past_due:
    "settle its balance first (collect the overdue payment, so that it is active again), then run this migration; " +
    "until then, remove this SubscriptionMigration.",
  canceled:
    "a canceled subscription is not migrated. Reactivate it first (then migrate it), or start a new subscription on the target product; " +
    "remove this SubscriptionMigration.",
};

/**
 * No migration of a subscription the service shows as trial_ended, past_due
 * or canceled at preview (the state check() read, `preview.subscriptionState`).
 */
export const migrationSubscriptionEligible: ResourceValidationPolicy = {
  name: "migration-subscription-eligible",
  description: "A SubscriptionMigration does not migrate a subscription that is trial_ended, past_due or canceled.",
  enforcementLevel: "mandatory",
  validateResource: forType(TYPES.subscriptionMigration, noSettings, (props, _, who) => {
    const state = previewed(props, "subscriptionState");
    if (typeof state !== "string" || !Object.hasOwn(INELIGIBLE, state)) return [];
    const id = read(props, "subscriptionId");
    const subscription = typeof id === "number" ? `subscription ${id}` : "its subscription";
    return [`${who} migrates ${subscription}, which is ${state}: ${INELIGIBLE[state]}`];
  }),
};

/**
 * A charge the service previews above the stack's threshold is acknowledged
 * in the program: `maxChargeInCents` at least that charge. The provider then
 * reads the charge again just before migrating and sends nothing above it,
 * so what was reviewed is what can be charged.
 */
export const migrationChargeAcknowledged: ResourceValidationPolicy = {
  name: "migration-charge-acknowledged",
  description:
    "A SubscriptionMigration whose previewed charge is above chargeThresholdInCents sets maxChargeInCents to at least that charge.",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: {
      chargeThresholdInCents: {
        type: "integer",
        minimum: 0,
        default: 0,
        description: "Previewed charges above this many cents need maxChargeInCents; 0 (the default): every charge does.",
      },
    },
  },
  validateResource: forType(
    TYPES.subscriptionMigration,
    (raw): ChargeSettings => ({
      chargeThresholdInCents: typeof raw.chargeThresholdInCents === "number" ? raw.chargeThresholdInCents : 0,
    }),
    (props, { chargeThresholdInCents: threshold }, who) => {
      const charge = previewed(props, "chargeInCents");
      // No preview (deployed, or inputs unknown) or no charge read: nothing was previewed to acknowledge.
      if (typeof charge !== "number" || charge <= threshold) return [];
      const max = read(props, "maxChargeInCents");
      if (max === NOT_KNOWN || (typeof max === "number" && max >= charge)) return [];
      const previewedCharge =
        `${who} would charge ${cents(charge)} (the service's migration preview), ` +
        `above this stack's threshold of ${cents(threshold)} for an unacknowledged charge`;
      const fix = `maxChargeInCents: ${charge}`;
      return typeof max === "number"
        ? [`${previewedCharge}, and its maxChargeInCents is ${cents(max)}. To accept this charge, set ${fix}.`]
        : [`${previewedCharge}. To accept it, add ${fix} to its inputs (the provider then refuses to charge more than that).`];
    },
  ),
};

/** The config of the policies that judge production stacks only: `{ "production": true }` turns them on. */
const PRODUCTION_CONFIG: NonNullable<ResourceValidationPolicy["configSchema"]> = {
  properties: {
    production: {
      type: "boolean",
      default: false,
      description: "Whether this stack is production; the policy checks nothing otherwise.",
    },
  },
};

/**
 * On a production stack webhook delivery stays on: no WebhookSettings turns
 * it off, and none turns it off when deleted (a destroy, or a rename without
 * an alias, would).
 */
export const webhooksStayEnabledInProduction: ResourceValidationPolicy = {
  name: "webhooks-stay-enabled-in-production",
  description: "On a production stack, a WebhookSettings keeps webhooksEnabled true and disableOnDelete false.",
  enforcementLevel: "mandatory",
  configSchema: PRODUCTION_CONFIG,
  validateResource: forType(
    TYPES.webhookSettings,
    (raw): ProductionSettings => ({ production: raw.production === true }),
    (props, { production }, who) => {
      if (!production) return [];
      const messages: string[] = [];
      if (read(props, "webhooksEnabled") === false) {
        messages.push(
          `${who} turns webhook delivery off (webhooksEnabled: false) on a production stack. Set webhooksEnabled: true; ` +
            "if delivery must stop, make that exception explicit in this stack's policy config (this policy advisory or disabled).",
        );
      }
      if (read(props, "disableOnDelete") === true) {
        messages.push(
          `${who} has disableOnDelete: true on a production stack: deleting it (a destroy, or a rename without an alias) ` +
            "would turn webhook delivery off for the site. Remove disableOnDelete or set it to false.",
        );
      }
      return messages;
    },
  ),
};

/** The pricing fields of a product and of its price points (provider/kinds/pricing-fields.ts), for policies of your own. */
export { PRICING_FIELDS };

/**
 * What the check() of a kind whose pricing is judged adds to its checked inputs (`preview.pricingChange`)
 * when the declared pricing differs from what is recorded (or, adopting, from what the service holds):
 * the fields that change, each one's value before (`from`, null when it had none) and after (`to`).
 * A resource policy sees only the new inputs, so this is how it knows the old pricing.
 */
export interface PricingChangePreview {
  readonly fields?: readonly string[];
  readonly from: Readonly<Record<string, unknown>>;
  readonly to: Readonly<Record<string, unknown>>;
  /** How the service applies it, in words (the provider's). */
  readonly effect?: string;
}

/** A pricing value in a message: amounts with their decimals, tiers' unit prices as money, absent values as "none". */
function pricingValue(field: string, value: unknown): string {
  if (value === undefined || value === null) return "none";
  if (value === NOT_KNOWN) return "not known yet";
  if (CENTS_FIELDS.has(field) && typeof value === "number") return cents(value);
  return pricingValueText(field, value);
}

/** One field's change in a message: a tier list tier by tier (the review's and the preview's words), else old → new. */
function pricingFieldText(field: string, from: unknown, to: unknown): string {
  if (field === CURRENCY_PRICES) return `${field} ${currencyPriceChanges(from, to).join("; ")}`;
  if ((field === "prices" || field === "overagePricing") && from !== NOT_KNOWN && to !== NOT_KNOWN)
    return pricingFieldChange(field, from, to);
  return `${field} ${pricingValue(field, from)} → ${pricingValue(field, to)}`;
}

/** The pricing fields `change` changes: those whose from and to differ, else (values left out) the fields it names. */
function changedPricing(change: unknown, fields: readonly string[]): { field: string; from: unknown; to: unknown }[] {
  const from = read(change, "from");
  const to = read(change, "to");
  const listed = read(change, "fields");
  const named = new Set(Array.isArray(listed) ? listed.filter((f): f is string => typeof f === "string") : []);
  const out: { field: string; from: unknown; to: unknown }[] = [];
  for (const field of fields) {
    const before = read(from, field);
    const after = read(to, field);
    // Currency prices are maps: equal amounts in another key order are no change.
    const differs =
      field === CURRENCY_PRICES
        ? currencyPriceChanges(before, after).length > 0
        : JSON.stringify(before ?? null) !== JSON.stringify(after ?? null);
    if (differs || (named.has(field) && before === undefined && after === undefined)) out.push({ field, from: before, to: after });
  }
  return out;
}

/** The provider's words as a sentence: "in place: …" → "In place: ….". */
const sentenceOf = (s: string) => `${s.charAt(0).toUpperCase()}${s.slice(1)}${s.endsWith(".") ? "" : "."}`;

/** The settings of {@link pricingChangeAcknowledgedInProduction}. */
export type PricingSettings = ProductionSettings;

/** The policy's check of one kind: `effect` is how the service applies its pricing change (the kind's words). */
function pricingCheck(type: string, fields: readonly string[], effect: string) {
  return forType(
    type,
    (raw): PricingSettings => ({ production: raw.production === true }),
    (props, { production }, who) => {
      if (!production) return [];
      const change = read(read(props, "preview"), "pricingChange");
      // No change recorded (a create, no pricing difference, or not known until up, when check runs again).
      if (change === undefined || change === null || change === NOT_KNOWN) return [];
      const acknowledged = read(props, "pricingChangeAcknowledged");
      if (acknowledged === true || acknowledged === NOT_KNOWN) return [];
      const changed = changedPricing(change, fields);
      if (changed.length === 0) return [];
      const what = changed.map((f) => pricingFieldText(f.field, f.from, f.to)).join(", ");
      // Currency amounts alone change in place, as the provider said (a replacement's effect is the kind's).
      const said = currencyOnlyEffect(
        changed.map((f) => f.field),
        change,
      );
      const applied = said !== undefined ? sentenceOf(said) : effect;
      const stated =
        acknowledged === undefined
          ? "add pricingChangeAcknowledged: true to its inputs"
          : `set pricingChangeAcknowledged: true (it is ${JSON.stringify(acknowledged)})`;
      return [
        `${who} changes its pricing on a production stack: ${what}. ${applied} ` +
          `To make this change, ${stated} (it changes nothing at the service); once it is applied, set it back to false ` +
          "so that the next pricing change is acknowledged on its own.",
      ];
    },
  );
}

/** The kinds whose pricing change the policy judges: those whose declaration says what the change does and that take the acknowledgement. */
const PRICED = catalogKinds().filter((k) => k.facet.pricing?.policy !== undefined && k.inputs.includes("pricingChangeAcknowledged"));

/**
 * On a production stack a pricing change (price, interval, trial, initial charge or expiration of a
 * product or a price point: each kind whose declaration says how the service applies one) is acknowledged
 * in the program: `pricingChangeAcknowledged: true` on the resource, so that the pull request that changes
 * what customers pay says so where it is reviewed.
 */
export const pricingChangeAcknowledgedInProduction: ResourceValidationPolicy = {
  name: "pricing-change-acknowledged-in-production",
  description: `On a production stack, a ${PRICED.map((k) => k.type).join(" or ")} whose pricing changes sets pricingChangeAcknowledged: true.`,
  enforcementLevel: "mandatory",
  configSchema: PRODUCTION_CONFIG,
  validateResource: PRICED.map((k) => pricingCheck(billingType(k.type), k.facet.pricing?.fields ?? [], k.facet.pricing?.policy ?? "")),
};

/** The kinds whose declaration names an input that lets a delete take data with it (a custom field's deleteData). */
const DATA_DELETING = catalogKinds().filter((k) => k.facet.deletesData !== undefined);

/**
 * On a production stack nothing is declared ready to be deleted with its data: a custom field with
 * `deleteData: true` would, on a destroy or a replacement, delete its values on every subscription or customer,
 * which cannot be undone. The provider already refuses such a delete until the flag was applied; this keeps the
 * flag itself out of production unless the stack's policy config makes the exception.
 */
export const dataKeptInProduction: ResourceValidationPolicy = {
  name: "data-kept-in-production",
  description: `On a production stack, no ${DATA_DELETING.map((k) => `${k.type} declares ${k.facet.deletesData?.input}: true`).join(", no ")}.`,
  enforcementLevel: "mandatory",
  configSchema: PRODUCTION_CONFIG,
  validateResource: DATA_DELETING.map((k) => {
    const guard = k.facet.deletesData as NonNullable<typeof k.facet.deletesData>;
    return forType(
      billingType(k.type),
      (raw): ProductionSettings => ({ production: raw.production === true }),
      (props, { production }, who) => {
        if (!production || read(props, guard.input) !== true) return [];
        return [
          `${who} has ${guard.input}: true on a production stack: deleting it (a destroy, or a replacement) would delete ` +
            `${guard.held((...path) => path.reduce<unknown>((v, key) => read(v, key), props))} with it, which cannot be undone. Remove ${guard.input} or set it to false; ` +
            "if the data must go, make that exception explicit in this stack's policy config (this policy advisory or disabled) for that run.",
        ];
      },
    );
  }),
};

/** Where webhooks go, shown without its path and query (they may hold a receiver's token). */
function origin(url: string): string | undefined {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return undefined;
  }
}

/** Webhook payloads carry customer and payment data: they go over https only. */
export const webhookEndpointHttps: ResourceValidationPolicy = {
  name: "webhook-endpoint-https",
  description: "A WebhookEndpoint's url is https.",
  enforcementLevel: "mandatory",
  validateResource: forType(TYPES.webhookEndpoint, noSettings, (props, _, who) => {
    const url = read(props, "url");
    if (url === NOT_KNOWN) return [];
    const at = typeof url === "string" ? origin(url) : undefined;
    if (at?.startsWith("https://")) return [];
    const where = at ? `sends webhooks to ${at}/…, which is not https` : "has no absolute url";
    return [`${who} ${where}: webhook payloads carry customer and payment data. Set its url to an https:// address of the receiver.`];
  }),
};

/** Every policy of the pack, in the order the README lists them. */
export const policies: readonly ResourceValidationPolicy[] = [
  migrationStatesPreservePeriod,
  migrationSubscriptionEligible,
  migrationChargeAcknowledged,
  webhooksStayEnabledInProduction,
  webhookEndpointHttps,
  pricingChangeAcknowledgedInProduction,
  dataKeptInProduction,
];
