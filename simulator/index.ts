/** A local, real-HTTP simulator of one site of the billing service, for tests, demos and benchmarks. */
export { startSimulator, type RequestLogEntry, type Simulator, type SimulatorOptions } from "./server";
export type { FaultMatch, FaultSpec } from "./faults";
export type { OverCapacity } from "./capacity";
export type {
  BigIdWebhookRecord, EndpointChange, EndpointInput, EndpointRecord, PricePointInput, PricePointRecord, ProductInput, ProductRecord, SubscriptionInput, SubscriptionRecord, WebhookInput, WebhookRecord,
} from "./records";
export { DEMO_SITE, type DemoSite } from "./seed";
export { DUPLICATE_WINDOW_MS, type TokenStatus } from "./duplicates";
export type { PricePointType, SubscriptionState, WebhookEventKey, WebhookStatus } from "./wire";
