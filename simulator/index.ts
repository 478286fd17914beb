/** A local, real-HTTP simulator of one site of the billing service, for tests, demos and benchmarks. */

export type { OverCapacity } from "./capacity";
export { DataFileError } from "./data-file";
export { DATA_VERSION } from "./data-shape";
export { DUPLICATE_WINDOW_MS, type TokenStatus } from "./duplicates";
export type { FaultMatch, FaultSpec } from "./faults";
export type { LatencyDistribution } from "./latency";
// Every record and input type of the simulator's seeding calls (records.ts's functions are internal).
export type * from "./records";
export type * from "./records-site";
export { DEMO_SITE, type DemoSite } from "./seed";
export { type RequestLogEntry, type Simulator, type SimulatorOptions, startSimulator } from "./server";
export type { PricePointType, SubscriptionState, WebhookEventKey, WebhookStatus } from "./wire";
