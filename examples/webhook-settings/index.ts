import * as pulumi from "@pulumi/pulumi";
import { WebhookSettings } from "pulumi-subscription-billing";

// Several sites in one stack. Each site's host and credential is an entry of
// the secret stack config `billing:sites`; which sites get webhooks is plain
// config, reviewed like any other change:
//   pulumi config set --secret billing:sites '{"us-store":{"subdomain":"acme","apiKey":"…"},"eu-store":{…}}'
//   pulumi config set --path 'webhooks:enabled.us-store' true
const enabled = new pulumi.Config("webhooks").requireObject<Record<string, boolean>>("enabled");

const settings = Object.entries(enabled).map(
  ([site, on]) => new WebhookSettings(site, { site, webhooksEnabled: on, disableOnDelete: false }),
);

export const webhooks = pulumi
  .all(settings.map((s) => pulumi.all([s.site, s.webhooksEnabled])))
  .apply((pairs) => Object.fromEntries(pairs.map(([site, on]) => [site as string, on])));
