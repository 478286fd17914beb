import * as pulumi from "@pulumi/pulumi";
import { shellProvider } from "./shell";

/** Inputs of {@link WebhookSettings}. */
export interface WebhookSettingsArgs {
  /** true turns webhook delivery on for the site, false off. */
  readonly webhooksEnabled: pulumi.Input<boolean>;
  /** An entry of the stack config `billing:sites`; without it the top-level `billing:*` keys apply. Changing it replaces. */
  readonly site?: pulumi.Input<string>;
  /** Turn webhooks off when this resource is deleted. Default false: delete leaves the site as it is. */
  readonly disableOnDelete?: pulumi.Input<boolean>;
}

/** Outputs of {@link WebhookSettings}. */
export interface WebhookSettings {
  /** The value the service confirmed. There is no GET for it, so refresh cannot detect drift. */
  readonly webhooksEnabled: pulumi.Output<boolean>;
  readonly disableOnDelete: pulumi.Output<boolean>;
  readonly site: pulumi.Output<string | undefined>;
  /** When the PUT was last applied (ISO-8601). */
  readonly appliedAt: pulumi.Output<string>;
}

/** The provider of every WebhookSettings: one instance per type (each instance costs a serialization). */
export const webhookSettingsProvider = shellProvider("webhookSettings");

/** Webhook delivery on or off for one site (declarative: create and update issue the PUT). */
export class WebhookSettings extends pulumi.dynamic.Resource {
  constructor(name: string, args: WebhookSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    super(webhookSettingsProvider, name, { appliedAt: undefined, ...args }, opts, "billing", "WebhookSettings");
  }
}
