import * as pulumi from "@pulumi/pulumi";

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

/**
 * The implementation, loaded at call time. The provider host evaluates these
 * methods with its own `require`, which cannot see a package that is only the
 * program's own (the program directory is the package, as in this repo's demo),
 * so resolve from the program directory (the host's working directory) first.
 * Declared in this file so that it is serialized by value with the methods.
 */
function runtime(): typeof import("./runtime") {
  const name = "pulumi-subscription-billing/provider/runtime";
  try {
    return require("node:module").createRequire(require("node:path").join(process.cwd(), "index.js"))(name);
  } catch {
    return require(name);
  }
}

/**
 * The serialized provider: each method loads the implementation by package
 * name at call time and delegates, capturing nothing else.
 */
export const webhookSettingsProvider: pulumi.dynamic.ResourceProvider = {
  async configure(req) {
    runtime().configure(this, req);
  },
  check(olds, news) {
    return runtime().webhookSettings.check(this, olds, news);
  },
  diff(id, olds, news) {
    return runtime().webhookSettings.diff(this, id, olds, news);
  },
  create(inputs) {
    return runtime().webhookSettings.create(this, inputs);
  },
  update(id, olds, news) {
    return runtime().webhookSettings.update(this, id, olds, news);
  },
  read(id, props) {
    return runtime().webhookSettings.read(this, id, props);
  },
  delete(id, props) {
    return runtime().webhookSettings.del(this, id, props);
  },
};

/** Webhook delivery on or off for one site (declarative: create and update issue the PUT). */
export class WebhookSettings extends pulumi.dynamic.Resource {
  constructor(name: string, args: WebhookSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    super(webhookSettingsProvider, name, { appliedAt: undefined, ...args }, opts, "billing", "WebhookSettings");
  }
}
