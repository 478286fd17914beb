import type {
  SubscriptionState,
  WebhookId,
  Endpoint as WireEndpoint,
  Subscription as WireSubscription,
  Webhook as WireWebhook,
} from "./wire";

/** A subscription as this SDK returns it. */
export interface Subscription {
  /** The subscription's id. */
  readonly id: number;
  /**
   * Its state, e.g. "active", "trialing", "past_due"; a state newer than this SDK's list is kept as sent,
   * so code should treat a state it does not know as not eligible for a migration.
   */
  readonly state: SubscriptionState;
  /**
   * The state the service reported before this one. The vendor documents it as
   * meaningful in webhooks only: for API reads it is usually the same as `state`.
   */
  readonly previousState: SubscriptionState | undefined;
  /** The product it is on: after a migration, the target's. */
  readonly product: {
    /** The product's id. */
    readonly id: number;
    /** The product's handle; undefined when the answer holds none (the contract allows null). */
    readonly handle: string | undefined;
  };
  /**
   * The price point, when the answer says it (most do not). After a migration
   * the SDK resolves it: the one named, or the product's default.
   */
  readonly pricePointId: number | undefined;
  /** The price point's handle, when the answer says it (the embedded product's `product_price_point_handle`). */
  readonly pricePointHandle: string | undefined;
  /** When the current billing period ends, as the service's ISO-8601 text (not parsed); undefined when not said. */
  readonly currentPeriodEndsAt: string | undefined;
  /** When the service next bills it, as the service's ISO-8601 text (not parsed); undefined when not said. */
  readonly nextAssessmentAt: string | undefined;
}

/** What a migration preview says it would charge, in cents. */
export interface MigrationPreview {
  /** The prorated adjustment for the rest of the period, in cents; negative is a credit to the customer. */
  readonly proratedAdjustmentInCents: number;
  /** What the migration would charge, in cents. */
  readonly chargeInCents: number;
  /** What the customer would owe now, in cents, after the credit applied. */
  readonly paymentDueInCents: number;
  /** The existing credit that would be applied to the charge, in cents. */
  readonly creditAppliedInCents: number;
}

/** Result of `replayWebhooks`. */
export interface ReplayResult {
  /** Distinct ids the service accepted into its delivery queue. */
  readonly queued: number;
  /** Requests sent (at most 1000 ids each). */
  readonly batches: number;
}

/** A webhook record from the list; the service sends null for what does not apply, read here as undefined. */
export interface Webhook {
  /** int64: a number below 2^53, the exact decimal text above. */
  readonly id: WebhookId;
  /** The event key it reports, e.g. "payment_success". */
  readonly event: string | undefined;
  /** Whether its last delivery succeeded; false for a failed one, which {@link BillingClient.replayWebhooks} can re-send. */
  readonly successful: boolean | undefined;
  /** When the service created it (ISO-8601 text, not parsed). */
  readonly createdAt: string | undefined;
  /** Why its last delivery failed, as the service recorded it; undefined after a success. */
  readonly lastError: string | undefined;
  /** When its last delivery failed (ISO-8601 text). */
  readonly lastErrorAt: string | undefined;
  /** When the receiving endpoint accepted it (ISO-8601 text); undefined until one did. */
  readonly acceptedAt: string | undefined;
  /** When it was last sent (ISO-8601 text); undefined if never. */
  readonly lastSentAt: string | undefined;
  /** The url it was last sent to: the endpoint's at that time, which may have changed since. */
  readonly lastSentUrl: string | undefined;
}

/** The site a client's credentials reach (`GET /site.json`). */
export interface Site {
  /** The site's id; undefined only when the answer leaves it out. */
  readonly id: number | undefined;
  /** The site's name, as shown in the service's web UI. */
  readonly name: string | undefined;
  /** The site's subdomain: the `subdomain` option that reaches it in the us and eu environments. */
  readonly subdomain: string | undefined;
  /** A test site, not a production one. */
  readonly test: boolean | undefined;
  /** The site's primary currency (ISO code, e.g. "USD"): the currency of every `…InCents` price; undefined when the answer leaves it out. */
  readonly currency: string | undefined;
  /**
   * The site's other currencies (ISO codes, e.g. ["EUR", "GBP"]): the ones a price point or a flat-amount coupon may
   * have prices in (`currencyPrices`). Empty for a site with one currency.
   */
  readonly nonPrimaryCurrencies: readonly string[];
}

/** The units of a recurring or trial interval. */
export type IntervalUnit = "day" | "month";

/**
 * A price point's or product's pricing as the service holds it (a product's is its default price
 * point's). Units are the service's text: "day" or "month", and "never" for an expiration.
 */
export interface Pricing {
  /** The price per interval, in integer cents (1000 is 10.00). */
  readonly priceInCents: number;
  /** How many `intervalUnit`s between charges. */
  readonly interval: number;
  /** "day" or "month" (kept as sent should the service answer another). */
  readonly intervalUnit: string;
  /** The trial's price, in integer cents; undefined without a trial. */
  readonly trialPriceInCents: number | undefined;
  /** The trial's length in `trialIntervalUnit`s; undefined without a trial. */
  readonly trialInterval: number | undefined;
  /** "day" or "month"; undefined without a trial. */
  readonly trialIntervalUnit: string | undefined;
  /** "no_obligation" or "payment_expected": whether a trial asks for a payment method. */
  readonly trialType: string | undefined;
  /** A one-time charge at signup, in integer cents; undefined when there is none. */
  readonly initialChargeInCents: number | undefined;
  /** Whether the initial charge is made after the trial rather than at signup. */
  readonly initialChargeAfterTrial: boolean | undefined;
  /** How many `expirationIntervalUnit`s a subscription runs before it expires; undefined when it never does. */
  readonly expirationInterval: number | undefined;
  /** "day" or "month" (with `expirationInterval`), or "never". */
  readonly expirationIntervalUnit: string | undefined;
}

/** A product family: the container of products (it has no update and no delete). */
export interface ProductFamily {
  /** The family's id: what {@link BillingClient.createProduct} takes. */
  readonly id: number;
  /** The family's API handle, unique among the site's families; {@link BillingClient.readProductFamily} finds it by this. */
  readonly handle: string | undefined;
  /** The family's name. */
  readonly name: string | undefined;
  /** The family's description; the service may hold "" or nothing for one never given. */
  readonly description: string | undefined;
  /** An internal code for accounting, when one was set outside this SDK (its create takes none). */
  readonly accountingCode: string | undefined;
  /** When the service created it (ISO-8601 text, not parsed). */
  readonly createdAt: string | undefined;
}

/**
 * A product: what resolves a migration's price point, and its catalog fields. The fields after
 * `defaultPricePointHandle` are optional in the type (older code builds products without them);
 * the SDK always fills them, with undefined for what the answer does not say.
 */
export interface Product {
  /** The product's id. */
  readonly id: number;
  /** The product's API handle, unique among the site's products, archived ones included. */
  readonly handle: string | undefined;
  /** The product's name. */
  readonly name: string | undefined;
  /** Its default price point: the one a migration that names none moves a subscription to. */
  readonly defaultPricePointId: number | undefined;
  /** The default price point's handle, when the answer says it. */
  readonly defaultPricePointHandle: string | undefined;
  /** The product's description. */
  readonly description?: string | undefined;
  /** The family it belongs to; undefined when the answer does not embed one. */
  readonly productFamilyId?: number | undefined;
  /** The handle of the family it belongs to. */
  readonly productFamilyHandle?: string | undefined;
  /** An internal id or SKU number. */
  readonly accountingCode?: string | undefined;
  /** The tax code of the product type (at most 10 characters). */
  readonly taxCode?: string | undefined;
  /** Whether signing up for it requires a credit card. */
  readonly requireCreditCard?: boolean | undefined;
  /** Whether its signup page asks for a credit card without requiring one. */
  readonly requestCreditCard?: boolean | undefined;
  /** Whether signup asks for a billing address. */
  readonly requestBillingAddress?: boolean | undefined;
  /** Whether signup requires a billing address. */
  readonly requireBillingAddress?: boolean | undefined;
  /** Whether signup requires a shipping address. */
  readonly requireShippingAddress?: boolean | undefined;
  /** When it was archived; undefined while it is not. */
  readonly archivedAt?: string | undefined;
  /** Its default price point's pricing; undefined when the answer lacks the price, interval or unit. */
  readonly pricing?: Pricing | undefined;
  /** The product's version number as the service reports it; the SDK only passes it on. */
  readonly versionNumber?: number | undefined;
}

/** One of a product's price points. The fields after `type` are optional in the type, always filled by the SDK. */
export interface PricePoint {
  /** The price point's id. */
  readonly id: number;
  /** Its API handle, unique among its product's price points. */
  readonly handle: string | undefined;
  /** Its name. */
  readonly name: string | undefined;
  /** "default", "catalog" or "custom". */
  readonly type: string | undefined;
  /** The product it belongs to; undefined when the answer does not say. */
  readonly productId?: number | undefined;
  /** When it was archived; undefined while it is not. */
  readonly archivedAt?: string | undefined;
  /** What it charges. Undefined when the answer lacks the price, interval or unit. */
  readonly pricing?: Pricing | undefined;
  /**
   * Whether its prices in the site's other currencies follow the site's exchange rate (true) or are its own
   * currency prices (false); absent when the answer does not say.
   */
  readonly useSiteExchangeRate?: boolean;
}

export function toSubscription(s: WireSubscription): Subscription {
  return {
    id: s.id,
    state: s.state,
    previousState: s.previous_state ?? undefined,
    product: { id: s.product.id, handle: s.product.handle ?? undefined },
    pricePointId: s.product_price_point_id ?? s.product.product_price_point_id ?? undefined,
    pricePointHandle: s.product.product_price_point_handle ?? undefined,
    currentPeriodEndsAt: s.current_period_ends_at ?? undefined,
    nextAssessmentAt: s.next_assessment_at ?? undefined,
  };
}

export function toWebhook(w: WireWebhook): Webhook {
  return {
    id: w.id,
    event: w.event ?? undefined,
    successful: w.successful ?? undefined,
    createdAt: w.created_at ?? undefined,
    lastError: w.last_error ?? undefined,
    lastErrorAt: w.last_error_at ?? undefined,
    acceptedAt: w.accepted_at ?? undefined,
    lastSentAt: w.last_sent_at ?? undefined,
    lastSentUrl: w.last_sent_url ?? undefined,
  };
}

/** A webhook endpoint: where the service sends the site's webhooks, and for which events. */
export interface Endpoint {
  /** The endpoint's id: what {@link BillingClient.updateEndpoint} takes. */
  readonly id: number;
  /** As the service stores it; empty in the (undocumented) case of an answer without one. */
  readonly url: string;
  /** Event keys, sorted and distinct; a key this SDK does not know (a newer one) is kept as sent. */
  readonly events: string[];
  /** "enabled" in the vendor's examples; undefined when the answer does not say. */
  readonly status: string | undefined;
  /** The site it belongs to; undefined when the answer does not say. */
  readonly siteId: number | undefined;
}

export function toEndpoint(e: WireEndpoint): Endpoint {
  return {
    id: e.id,
    url: e.url ?? "",
    events: [...new Set(e.webhook_subscriptions)].sort(),
    status: e.status ?? undefined,
    siteId: e.site_id ?? undefined,
  };
}

/** One tier of a component's or component price point's prices. */
export interface PriceTier {
  /** The first quantity the tier prices. */
  readonly startingQuantity: number;
  /** The last quantity the tier prices; undefined for the open-ended last tier. */
  readonly endingQuantity: number | undefined;
  /** The price per unit in the site's currency, as the service's decimal text ("10.0", "0.00000065"). */
  readonly unitPrice: string;
}

/** A component: a priced extra of a subscription (usage, seats, an add-on), in a product family. */
export interface Component {
  /** The component's id. */
  readonly id: number;
  /** "metered", "quantity_based", "on_off", "prepaid_usage" or "event_based"; a kind newer than this SDK kept as the service sent it. */
  readonly kind: string | undefined;
  /** Its API handle, unique among the site's components, archived ones included. */
  readonly handle: string | undefined;
  /** Its name. */
  readonly name: string | undefined;
  /** Its description. */
  readonly description: string | undefined;
  /** The family it belongs to. */
  readonly productFamilyId: number | undefined;
  /** The unit its quantity counts ("message"); undefined for on/off components. */
  readonly unitName: string | undefined;
  /** "per_unit", "volume", "tiered" or "stairstep" (its default price point's). */
  readonly pricingScheme: string | undefined;
  /** The per-unit price (decimal text) of a per_unit component or an on/off one; undefined for tiered schemes. */
  readonly unitPrice: string | undefined;
  /** The default price point's tiers; empty for per_unit (see `unitPrice`). */
  readonly prices: readonly PriceTier[];
  /** A prepaid usage component's overage tiers; empty for the other kinds. */
  readonly overagePrices: readonly PriceTier[];
  /** Its default price point's id. */
  readonly defaultPricePointId: number | undefined;
  /** Its default price point's name. */
  readonly defaultPricePointName: string | undefined;
  /** Whether it is taxable. */
  readonly taxable: boolean | undefined;
  /** The tax code of the component type. */
  readonly taxCode: string | undefined;
  /** An internal id or SKU number. */
  readonly accountingCode: string | undefined;
  /** The item category ("Business Software", …). */
  readonly itemCategory: string | undefined;
  /** Whether a quantity-based component bills its quantity every period. */
  readonly recurring: boolean | undefined;
  /** "full", "prorated" or "none": the charge on an upgrade. */
  readonly upgradeCharge: string | undefined;
  /** "full", "prorated" or "none": the credit on a downgrade. */
  readonly downgradeCredit: string | undefined;
  /** Whether invoices leave out the service date range. */
  readonly hideDateRangeOnInvoice: boolean | undefined;
  /** Whether it is shown on hosted pages, when the answer says. */
  readonly displayOnHostedPage: boolean | undefined;
  /** Whether quantities may have decimals. */
  readonly allowFractionalQuantities: boolean | undefined;
  /** An event-based component's metric. */
  readonly eventBasedBillingMetricId: number | undefined;
  /** The default price point's interval, on multifrequency sites. */
  readonly interval: number | undefined;
  /** "day" or "month", with `interval`. */
  readonly intervalUnit: string | undefined;
  /** When it was archived; undefined while it is not (an answer saying only `archived: true` gives "archived"). */
  readonly archivedAt: string | undefined;
}

/** One of a component's price points. */
export interface ComponentPricePoint {
  /** The price point's id. */
  readonly id: number;
  /** Its API handle, unique among its component's price points. */
  readonly handle: string | undefined;
  /** Its name. */
  readonly name: string | undefined;
  /** "default", "catalog" or "custom". */
  readonly type: string | undefined;
  /** The component it belongs to. */
  readonly componentId: number | undefined;
  /** "per_unit", "volume", "tiered" or "stairstep". */
  readonly pricingScheme: string | undefined;
  /** Its tiers (one for per_unit). */
  readonly prices: readonly PriceTier[];
  /** A prepaid usage component's overage tiers; empty otherwise. */
  readonly overagePrices: readonly PriceTier[];
  /** The overage tiers' scheme ("per_unit", "volume", "tiered" or "stairstep"), when the answer says (`overage_pricing_scheme`). */
  readonly overagePricingScheme?: string | undefined;
  /** The billing interval, on multifrequency sites. */
  readonly interval: number | undefined;
  /** "day" or "month", with `interval`. */
  readonly intervalUnit: string | undefined;
  /** Whether other currencies' prices follow the site's exchange rate. */
  readonly useSiteExchangeRate: boolean | undefined;
  /** Whether the prices include tax. */
  readonly taxIncluded: boolean | undefined;
  /** Whether unused prepaid units roll over (prepaid usage). */
  readonly rolloverPrepaidRemainder: boolean | undefined;
  /** Whether the prepaid quantity renews each period (prepaid usage). */
  readonly renewPrepaidAllocation: boolean | undefined;
  /** After how many units rolled-over prepaid units expire (prepaid usage). */
  readonly expirationInterval: number | undefined;
  /** "day" or "month", with `expirationInterval`. */
  readonly expirationIntervalUnit: string | undefined;
  /** When it was archived; undefined while it is not. */
  readonly archivedAt: string | undefined;
}

/** A product or component a coupon is limited to. */
export interface CouponRestriction {
  /** "Product" or "Component" (kept as sent should the service answer another). */
  readonly itemType: string | undefined;
  /** The product's or component's id on this site. */
  readonly itemId: number;
  /** Its handle, when the answer says. */
  readonly handle: string | undefined;
  /** Its name, when the answer says. */
  readonly name: string | undefined;
}

/** A coupon: a discount customers apply by its code, in a product family. */
export interface Coupon {
  /** The coupon's id. */
  readonly id: number;
  /** The code customers enter: uppercase letters, digits and % @ + - _ . */
  readonly code: string | undefined;
  /** Its name. */
  readonly name: string | undefined;
  /** Its description. */
  readonly description: string | undefined;
  /** The family it belongs to. */
  readonly productFamilyId: number | undefined;
  /** A percentage discount as the service's decimal text ("15.0"); undefined for an amount. */
  readonly percentage: string | undefined;
  /** A flat discount in integer cents; undefined for a percentage. */
  readonly amountInCents: number | undefined;
  /** Whether the discount applies every period. */
  readonly recurring: boolean | undefined;
  /** "do_not_recur", "recur_indefinitely" or "recur_with_duration". */
  readonly recurringScheme: string | undefined;
  /** For how many periods a recurring discount applies. */
  readonly durationPeriodCount: number | undefined;
  /** When it stops being accepted (ISO-8601 text, not parsed). */
  readonly endDate: string | undefined;
  /** Whether it combines with other coupons. */
  readonly stackable: boolean | undefined;
  /** "compound" or "full-price". */
  readonly compoundingStrategy: string | undefined;
  /** Whether a flat discount may exceed the charge. */
  readonly allowNegativeBalance: boolean | undefined;
  /** Whether mid-period allocations are left undiscounted. */
  readonly excludeMidPeriodAllocations: boolean | undefined;
  /** Whether it applies to the last period of a subscription canceled at its end. */
  readonly applyOnCancelAtEndOfPeriod: boolean | undefined;
  /** Whether it applies at a subscription's expiration. */
  readonly applyOnSubscriptionExpiration: boolean | undefined;
  /** The products and components it is limited to; empty when it applies to all (or the answer lists none). */
  readonly restrictions: readonly CouponRestriction[];
  /** When it was archived; undefined while it is not. */
  readonly archivedAt: string | undefined;
}
