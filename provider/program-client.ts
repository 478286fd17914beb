import * as pulumi from "@pulumi/pulumi";
import { BillingClient } from "../sdk";
import { warnPlainCredentials } from "./credential-warning";
import { clientOptionsFor, configure } from "./runtime/config";

/** A stand-in key under which the program's own config is registered with the runtime. */
const programScope = {};
let configured = false;
const clients = new Map<string, BillingClient>();

/**
 * A client for code that runs in the Pulumi program itself (not in the
 * provider host): the same `billing:*` config keys and fallbacks as the
 * providers, read through the program's stack config.
 */
export function programClient(site: string | undefined): BillingClient {
  warnPlainCredentials();
  if (!configured) {
    configure(programScope, { config: { get: (key: string) => pulumi.runtime.getConfig(key) } });
    configured = true;
  }
  const key = site ?? "";
  let client = clients.get(key);
  if (!client) {
    client = new BillingClient({
      ...clientOptionsFor(programScope, site),
      onRetry: (e) =>
        void pulumi.log.info(
          `billing: ${e.method} ${e.path}: ${e.reason}; waiting ${(e.delayMs / 1000).toFixed(1)} s before attempt ${e.attempt + 1}`,
        ),
    });
    clients.set(key, client);
  }
  return client;
}
