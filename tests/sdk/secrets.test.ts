import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { BillingClient, BillingConnectionError } from "../../sdk";
import { catalogue, KEY, site, TOKEN } from "./support";

/** Every way an error reaches a log: message, toString, JSON, inspect, stack, cause chain. */
function everything(err: unknown): string {
  const e = err as Error & { cause?: unknown };
  return [e.message, String(e), JSON.stringify(e), inspect(e, { depth: 10, showHidden: true }), e.stack, e.cause ? everything(e.cause) : ""].join("\n");
}

const clean = (text: string) => {
  expect(text).not.toContain(KEY);
  expect(text).not.toContain(TOKEN);
  expect(text).not.toContain(Buffer.from(`${KEY}:x`).toString("base64"));
};

describe("no credential in any error, in any form", () => {
  it("API errors (404, 422 same product, 3-D Secure, ineligible)", async () => {
    const s = await site();
    try {
      catalogue(s.sim);
      const a = s.sim.addSubscription({ productHandle: "basic", state: "active" }).id;
      const b = s.sim.addSubscription({ productHandle: "basic", state: "active", requiresAuthentication: true }).id;
      const c = s.sim.addSubscription({ productHandle: "basic", state: "canceled" }).id;
      const errors = await Promise.all([
        s.billing.readSubscription(424242).catch((e) => e),
        s.billing.migrateSubscription(a, { productHandle: "basic" }).catch((e) => e),
        s.billing.migrateSubscription(b, { productHandle: "pro" }).catch((e) => e),
        s.billing.migrateSubscription(c, { productHandle: "pro" }).catch((e) => e),
      ]);
      expect(errors.map((e) => e.status)).toEqual([404, 422, 422, 422]);
      for (const e of errors) clean(everything(e));
    } finally {
      await s.close();
    }
  });

  it("a failed replay batch", async () => {
    const s = await site({}, { maxRetries: 0 });
    try {
      s.sim.injectFault({ kind: "status", status: 500, match: { path: "/webhooks/replay.json" } });
      const err = await s.billing.replayWebhooks([1, 2, 3]).catch((e) => e);
      // One batch, none queued: the batch's own error (a partial failure needs something queued).
      expect(err.status).toBe(500);
      clean(everything(err));
    } finally {
      await s.close();
    }
  });

  it("connection errors (nothing listening), with a bearer token", async () => {
    const s = await site();
    const url = s.sim.url;
    await s.close();
    const billing = new BillingClient({ baseUrl: url, accessToken: TOKEN, maxRetries: 1, retryBaseDelayMs: 1 });
    const err = await billing.readSubscription(1).catch((e) => e);
    await billing.close();
    expect(err).toBeInstanceOf(BillingConnectionError);
    clean(everything(err));
  });

  it("a timeout", async () => {
    // undici checks its timers about once a second, so the timeout fires within ~1 s, not at 100 ms.
    const s = await site({ latencyMs: 3000 }, { timeoutMs: 100, maxRetries: 0 });
    try {
      const err = await s.billing.setWebhooksEnabled(true).catch((e) => e);
      expect(err).toBeInstanceOf(BillingConnectionError);
      clean(everything(err));
    } finally {
      await s.close();
    }
  });

  it("the client object itself", async () => {
    const billing = new BillingClient({ subdomain: "acme", apiKey: KEY });
    clean(inspect(billing, { depth: 10, showHidden: true }) + JSON.stringify(billing) + String(billing));
    await billing.close();
  });
});
