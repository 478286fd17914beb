import * as pulumi from "@pulumi/pulumi";
import * as billing from "pulumi-subscription-billing/billing";

/**
 * One billing site's webhooks, as an inline program the fleet runner runs for every site
 * (no language host, no project folder per site). Each stack's config says which site:
 * `billing:baseUrl` or `billing:subdomain`, the credential as secret config from the
 * environment (see fleet.yaml), and `site:*` for what the site wants.
 *
 * The resources come through the provider plugin (`pulumi-subscription-billing/billing`), which
 * billing-fleet serves from this package with nothing to install: measured cheaper per site than
 * the dynamic providers (less CPU, a quarter of the state). The dynamic classes
 * (`import { WebhookSettings } from "pulumi-subscription-billing"`) work the same; a stack made with
 * one keeps it (switching an existing stack would replace its resources). See docs/fleet.md.
 */
export function program() {
  const config = new pulumi.Config("site");
  const settings = new billing.WebhookSettings("webhooks", { webhooksEnabled: config.getBoolean("webhooksEnabled") ?? true });
  const receiver = config.getObject<{ url: string; events: string[] }>("receiver");
  const endpoint = receiver ? new billing.WebhookEndpoint("receiver", { url: receiver.url, events: receiver.events }) : undefined;
  return {
    webhooksEnabled: settings.webhooksEnabled,
    endpointId: endpoint?.endpointId,
  };
}
