/**
 * The billing policies, to use in a policy pack of your own (this module
 * starts nothing). The pack this package ships is `pack.ts`, run by the
 * `policy/pack` launcher: see the README's "Policy pack".
 */
export type { ChargeSettings, MigrationPreview, PricingChangePreview, PricingSettings, ProductionSettings } from "./policies";
export {
  dataKeptInProduction,
  migrationChargeAcknowledged,
  migrationStatesPreservePeriod,
  migrationSubscriptionEligible,
  PRICING_FIELDS,
  policies,
  pricingChangeAcknowledgedInProduction,
  webhookEndpointHttps,
  webhooksStayEnabledInProduction,
} from "./policies";
export { billingType, TYPES } from "./resources";

/** The pack's name, as policy config files and the CLI's output name it. */
export const POLICY_PACK_NAME = "pulumi-subscription-billing";
