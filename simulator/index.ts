/** A local, real-HTTP simulator of one site of the billing service, for tests, demos and benchmarks. */

export type { OverCapacity } from "./capacity";
export { DUPLICATE_WINDOW_MS, type TokenStatus } from "./duplicates";
export type { FaultMatch, FaultSpec } from "./faults";
export type {
  BigIdWebhookRecord,
  EndpointChange,
  EndpointInput,
  EndpointRecord,
  PricePointInput,
  PricePointRecord,
  ProductInput,
  ProductRecord,
  SubscriptionInput,
  SubscriptionRecord,
  WebhookInput,
  WebhookRecord,
} from "./records";
export { DEMO_SITE, type DemoSite } from "./seed";
export { type RequestLogEntry, type Simulator, type SimulatorOptions, startSimulator } from "./server";
export type { PricePointType, SubscriptionState, WebhookEventKey, WebhookStatus } from "./wire";
