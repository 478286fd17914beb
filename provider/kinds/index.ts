/**
 * The registry of resource kinds: the one list the shell, the runtime, the
 * docs, the serialization tests and the benchmark read. Adding a kind is its
 * module and one line here.
 */
import { registry } from "./kind";
import { subscriptionMigration } from "./subscription-migration";
import { webhookEndpoint } from "./webhook-endpoint";
import { webhookReplay } from "./webhook-replay";
import { webhookSettings } from "./webhook-settings";

export const KINDS = registry({ webhookSettings, webhookEndpoint, subscriptionMigration, webhookReplay });

/** A kind's key, as the serialized provider stores it. */
export type ProviderKind = keyof typeof KINDS;

export * from "./subscription-migration";
export * from "./webhook-endpoint";
export * from "./webhook-replay";
export * from "./webhook-settings";
