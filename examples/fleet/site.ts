import * as pulumi from "@pulumi/pulumi";
import { WebhookEndpoint, WebhookSettings } from "pulumi-subscription-billing";

/**
 * One billing site's webhooks, as an inline program the fleet runner runs for every site
 * (no language host, no project folder per site). Each stack's config says which site:
 * `billing:baseUrl` or `billing:subdomain`, the credential as secret config from the
 * environment (see fleet.yaml), and `site:*` for what the site wants.
 */
export function program() {
  const config = new pulumi.Config("site");
  const settings = new WebhookSettings("webhooks", { webhooksEnabled: config.getBoolean("webhooksEnabled") ?? true });
  const receiver = config.getObject<{ url: string; events: string[] }>("receiver");
  const endpoint = receiver ? new WebhookEndpoint("receiver", { url: receiver.url, events: receiver.events }) : undefined;
  return {
    webhooksEnabled: settings.webhooksEnabled,
    endpointId: endpoint?.endpointId,
  };
}
