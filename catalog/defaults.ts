/**
 * What the service holds when a create leaves a field out, per kind: a generated program leaves a
 * field out when the site holds exactly that, so the code says only what someone chose, and a preview
 * against the same site still shows no change (the kinds compare only what is declared). The values
 * are the service's documented defaults, as the simulator applies them.
 */
export const SERVICE_DEFAULTS = {
  product: { requireCreditCard: true, requestCreditCard: true },
  component: {
    taxable: false,
    // Only a quantity-based component takes `recurring`; the service makes it true when left out.
    recurring: true,
    displayOnHostedPage: false,
    allowFractionalQuantities: false,
    hideDateRangeOnInvoice: false,
    useSiteExchangeRate: true,
    taxIncluded: false,
    rolloverPrepaidRemainder: false,
    renewPrepaidAllocation: false,
  },
  componentPricePoint: {
    useSiteExchangeRate: true,
    taxIncluded: false,
    rolloverPrepaidRemainder: false,
    renewPrepaidAllocation: false,
  },
  coupon: {
    recurring: false,
    stackable: false,
    compoundingStrategy: "compound",
    allowNegativeBalance: false,
    excludeMidPeriodAllocations: false,
    applyOnCancelAtEndOfPeriod: false,
    applyOnSubscriptionExpiration: false,
  },
} as const satisfies Record<string, Record<string, unknown>>;
