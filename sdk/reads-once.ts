import type { BillingClient } from "./client";

/**
 * A client whose reads are made once while it lives: the providers' check makes one per check, where the reference
 * check, the kind's preflight and its `stable` ask for the same objects (a price point's product, a coupon's family),
 * and a check sends nothing, so an answer read once holds for the rest of it. Only methods that read (by their name)
 * are remembered; the rest pass through. What outlives one check is keyed by the client underneath (`underlying`).
 */

const READS = /^(read|find|list|lookup)/;
/** The client each reading-once client reads through. */
const clients = new WeakMap<BillingClient, BillingClient>();

/** `client`, with each read (method and arguments) sent once while this object lives. */
export function readingOnce(client: BillingClient): BillingClient {
  const answers = new Map<string, unknown>();
  const once = new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      // Bound to the client itself: its private fields are not the proxy's.
      if (typeof property !== "string" || !READS.test(property)) return value.bind(target);
      return (...args: unknown[]) => {
        const key = `${property}(${JSON.stringify(args)})`;
        if (!answers.has(key)) answers.set(key, value.apply(target, args));
        return answers.get(key);
      };
    },
  });
  clients.set(once, client);
  return once;
}

/** The client a reading-once client reads through (itself for any other). */
export const underlying = (client: BillingClient): BillingClient => clients.get(client) ?? client;
