import * as pulumi from "@pulumi/pulumi";

// The billing provider plugin (pulumi-resource-billing) from TypeScript, by resource token: the program
// needs @pulumi/pulumi only, and its state holds no serialized provider. Install the plugin first:
//   pulumi plugin install resource billing 0.1.0 --file pulumi-resource-billing-v0.1.0.tar.gz
// Credentials: `pulumi config set --secret billing:apiKey …` and `billing:subdomain` (or baseUrl),
// or the BILLING_* environment variables. Which endpoints: plain config, e.g.
//   pulumi config set --path 'example:endpoints.dunning.url' https://dunning.acme.example/billing
//   pulumi config set --path 'example:endpoints.dunning.events[0]' payment_failure
// An endpoint made elsewhere is adopted with `pulumi import billing:index:WebhookEndpoint <name> <id>`,
// then declared here under that name; the settings with `pulumi import billing:index:WebhookSettings
// webhooks enabled` (the value you expect: the service cannot report it, and the next up confirms it).

/** Inputs of billing:index:WebhookEndpoint (see `pulumi package get-schema billing`). */
interface WebhookEndpointArgs {
  readonly url: pulumi.Input<string>;
  readonly events: pulumi.Input<pulumi.Input<string>[]>;
  readonly site?: pulumi.Input<string>;
}

/** Where a site's webhooks go and which events go there. */
class WebhookEndpoint extends pulumi.CustomResource {
  declare readonly endpointId: pulumi.Output<number>;
  declare readonly url: pulumi.Output<string>;
  declare readonly events: pulumi.Output<string[]>;
  declare readonly status: pulumi.Output<string | null>;
  constructor(name: string, args: WebhookEndpointArgs, opts?: pulumi.CustomResourceOptions) {
    // Outputs that are not inputs are registered as undefined, so that the engine fills them in.
    super("billing:index:WebhookEndpoint", name, { endpointId: undefined, status: undefined, ...args }, opts);
  }
}

/** Webhook delivery on or off for one site. */
class WebhookSettings extends pulumi.CustomResource {
  declare readonly webhooksEnabled: pulumi.Output<boolean>;
  /** null after `pulumi import` until an up has confirmed the value (the service cannot report it). */
  declare readonly appliedAt: pulumi.Output<string | null>;
  constructor(
    name: string,
    args: { webhooksEnabled: pulumi.Input<boolean>; site?: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ) {
    super("billing:index:WebhookSettings", name, { appliedAt: undefined, disableOnDelete: undefined, ...args }, opts);
  }
}

const config = new pulumi.Config("example");
const receivers = config.getObject<Record<string, { url: string; events: string[] }>>("endpoints") ?? {};

const settings = new WebhookSettings("webhooks", { webhooksEnabled: config.getBoolean("webhooksEnabled") ?? true });

export const webhooksEnabled = settings.webhooksEnabled;
export const endpoints = Object.fromEntries(
  Object.entries(receivers).map(([name, r]) => {
    const e = new WebhookEndpoint(name, r);
    return [name, { id: e.endpointId, url: e.url, events: e.events }];
  }),
);
