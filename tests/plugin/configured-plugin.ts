import { providerConfig } from "../../plugin/config";
import { BillingProvider } from "../../plugin/provider";

/** How the engine marks a secret config value: the key and value of Pulumi's secret signature. */
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };

/**
 * The plugin's provider configured as the engine configures it for a stack: `billing:baseUrl`, the key as a secret,
 * and `billing:sites` (a JSON secret) when given. What the `pulumi import` tests start from.
 */
export function configuredPlugin(baseUrl: string, apiKey: string, sites?: string): BillingProvider {
  const p = new BillingProvider("0.1.0");
  p.configure(
    providerConfig([["billing:config:baseUrl", baseUrl]], {
      baseUrl,
      apiKey: { ...SECRET, value: apiKey },
      ...(sites ? { sites: { ...SECRET, value: sites } } : {}),
    }),
  );
  return p;
}
