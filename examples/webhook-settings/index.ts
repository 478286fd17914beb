import * as pulumi from "@pulumi/pulumi";
import { WebhookEndpoint, WebhookSettings } from "pulumi-subscription-billing";

// Several sites in one stack. Each site's host and credential is an entry of
// the secret stack config `billing:sites`; which sites get webhooks, where they
// go and which events go there is plain config, reviewed like any other change:
//   pulumi config set --secret billing:sites '{"us-store":{"subdomain":"acme","apiKey":"…"},"eu-store":{…}}'
//   pulumi config set --path 'webhooks:enabled.us-store' true
//   pulumi config set --path 'webhooks:endpoints.us-store.dunning.url' https://dunning.acme.example/billing
//   pulumi config set --path 'webhooks:endpoints.us-store.dunning.events[0]' payment_failure
const config = new pulumi.Config("webhooks");
const enabled = config.requireObject<Record<string, boolean>>("enabled");
/** Per site, its receivers by a name of your choosing: each is one endpoint of the site (one per url). */
const receivers = config.getObject<Record<string, Record<string, { url: string; events: string[] }>>>("endpoints") ?? {};

const settings = Object.entries(enabled).map(
  ([site, on]) => new WebhookSettings(site, { site, webhooksEnabled: on, disableOnDelete: false }),
);

// An endpoint the site already has at that url (made in the web UI) is adopted, not duplicated.
const endpoints = Object.entries(receivers).flatMap(([site, byName]) =>
  Object.entries(byName).map(([name, { url, events }]) => {
    const endpoint = new WebhookEndpoint(`${site}-${name}`, { site, url, events });
    return [`${site}-${name}`, { id: endpoint.endpointId, url: endpoint.url, events: endpoint.events }] as const;
  }),
);

export const webhooks = pulumi
  .all(settings.map((s) => pulumi.all([s.site, s.webhooksEnabled])))
  .apply((pairs) => Object.fromEntries(pairs.map(([site, on]) => [site as string, on])));
export const webhookEndpoints = pulumi.output(Object.fromEntries(endpoints));
