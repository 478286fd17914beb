/**
 * The registry of resource kinds: the one list the shell, the runtime, the
 * docs, the serialization tests and the benchmark read, and the package's
 * exports of each kind. Adding a kind is its module and its lines here.
 */
import { component } from "./component";
import { componentPricePoint } from "./component-price-point";
import { coupon } from "./coupon";
import { customField } from "./custom-field";
import { registry } from "./kind";
import { offer } from "./offer";
import { product } from "./product";
import { productFamily } from "./product-family";
import { productPricePoint } from "./product-price-point";
import { reasonCode } from "./reason-code";
import { subscriptionMigration } from "./subscription-migration";
import { webhookEndpoint } from "./webhook-endpoint";
import { webhookReplay } from "./webhook-replay";
import { webhookSettings } from "./webhook-settings";

/** Every resource kind's declaration (inputs, outputs, docs) and operations, by the key its provider stores. */
export const KINDS = registry({
  webhookSettings,
  webhookEndpoint,
  subscriptionMigration,
  webhookReplay,
  productFamily,
  product,
  productPricePoint,
  component,
  componentPricePoint,
  coupon,
  reasonCode,
  customField,
  offer,
});

/** A kind's key, as the serialized provider stores it. */
export type ProviderKind = keyof typeof KINDS;

export { Component, type ComponentArgs, type ComponentOutputs, componentProvider } from "./component";
export {
  ComponentPricePoint,
  type ComponentPricePointArgs,
  type ComponentPricePointOutputs,
  componentPricePointProvider,
} from "./component-price-point";
export { Coupon, type CouponArgs, type CouponOutputs, couponProvider } from "./coupon";
export { CustomField, type CustomFieldArgs, type CustomFieldOutputs, customFieldProvider } from "./custom-field";
export { Offer, type OfferArgs, type OfferOutputs, offerProvider } from "./offer";
export { Product, type ProductArgs, type ProductOutputs, productProvider } from "./product";
export { ProductFamily, type ProductFamilyArgs, type ProductFamilyOutputs, productFamilyProvider } from "./product-family";
export {
  ProductPricePoint,
  type ProductPricePointArgs,
  type ProductPricePointOutputs,
  productPricePointProvider,
} from "./product-price-point";
export { ReasonCode, type ReasonCodeArgs, type ReasonCodeOutputs, reasonCodeProvider } from "./reason-code";
export {
  SubscriptionMigration,
  type SubscriptionMigrationArgs,
  type SubscriptionMigrationOutputs,
  subscriptionMigrationProvider,
} from "./subscription-migration";
export { WebhookEndpoint, type WebhookEndpointArgs, type WebhookEndpointOutputs, webhookEndpointProvider } from "./webhook-endpoint";
export {
  WebhookReplay,
  type WebhookReplayArgs,
  type WebhookReplayOutputs,
  type WebhookSelector,
  webhookReplayProvider,
} from "./webhook-replay";
export { WebhookSettings, type WebhookSettingsArgs, type WebhookSettingsOutputs, webhookSettingsProvider } from "./webhook-settings";
