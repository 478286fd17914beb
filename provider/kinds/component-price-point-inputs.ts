import { z } from "zod";
import { catalogHandle } from "../../sdk/catalog/inputs";
import { flag } from "../../sdk/inputs";
import { adoptField, nameField } from "./catalog";
import { currencyPricesField } from "./component-currencies";
import {
  componentFrequencyFields,
  componentPrepaidFields,
  componentPricingFields,
  componentReferenceField,
  componentTierRule,
} from "./component-fields";
import { accepting, siteInput } from "./inputs";

/**
 * The ComponentPricePoint kind's inputs, and which of them change in place: its component and the prepaid
 * terms only a new price point can carry; the rest the service's update takes.
 */

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
export const AFFECTS =
  "subscriptions on this price point pay the new prices from their next charge; charges already made stay as they were";

/** The fields the service's update takes: a change is made in place. */
export const IN_PLACE = ["name", "interval", "intervalUnit", "useSiteExchangeRate", "taxIncluded"] as const;
/** The prepaid terms the update does not take: the service holds them as created. */
export const CREATE_ONLY = ["rolloverPrepaidRemainder", "renewPrepaidAllocation", "expirationInterval", "expirationIntervalUnit"] as const;

export const componentPricePointInputs = z
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
    useSiteExchangeRate: flag
      .optional()
      .describe(
        "Whether its prices in the site's other currencies follow the site's exchange rate (true, the service's default) or are its own `currencyPrices` (false).",
      ),
    currencyPrices: currencyPricesField,
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
  .superRefine(...componentTierRule);
