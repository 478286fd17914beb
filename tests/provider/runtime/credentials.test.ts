import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { subscriptionMigrationProvider, webhookReplayProvider, webhookSettingsProvider } from "../../../provider";
import { plainCredentialWarning } from "../../../provider/runtime/plain-credentials";
import { startSimulator } from "../../../simulator";
import { captureOutput, configureRequest, KEY } from "../support";

/**
 * The credential: never in an output, a failure, an error or anything printed, across every provider operation; and
 * the warning about one stored in plain text, which names the key, the stack's file and the command, not the value.
 */

describe("the credential", () => {
  it("plainCredentialWarning: the key, the stack's file (or a placeholder) and the command; billing:sites takes an object", () => {
    expect(plainCredentialWarning("billing:apiKey", "dev")).toBe(
      "billing:apiKey is stored in plain text in Pulumi.dev.yaml: run `pulumi config set --secret billing:apiKey <value>` to store it encrypted",
    );
    expect(plainCredentialWarning("billing:sites")).toBe(
      "billing:sites is stored in plain text in Pulumi.<stack>.yaml: run `pulumi config set --secret billing:sites '{…}'` to store it encrypted",
    );
  });

  describe("no credential in outputs, failures, errors or anything printed", () => {
    it("across every provider operation, success and failure", async () => {
      const s = await startSimulator({ apiKey: KEY });
      try {
        s.addProduct({ id: 1, handle: "basic" });
        s.addProduct({ id: 2, handle: "pro" });
        const a = s.addSubscription({ productHandle: "basic", state: "active" }).id;
        const b = s.addSubscription({ productHandle: "basic", state: "active", requiresAuthentication: true }).id;
        const config = configureRequest({ "billing:baseUrl": s.url, "billing:apiKey": KEY });
        const w = { ...webhookSettingsProvider };
        const m = { ...subscriptionMigrationProvider };
        const r = { ...webhookReplayProvider };
        for (const p of [w, m, r]) await p.configure!(config);
        const results: unknown[] = [];
        const { text } = await captureOutput(async () => {
          const run = async (f: () => Promise<unknown>) =>
            results.push(await f().catch((e) => [e, e.message, e.properties, inspect(e, { depth: 10 })]));
          await run(() => w.check!({}, { webhooksEnabled: true }));
          await run(() => w.create({ webhooksEnabled: true, disableOnDelete: true }));
          await run(() => w.delete!("x", { webhooksEnabled: true, disableOnDelete: true, appliedAt: new Date().toISOString() }));
          await run(() => m.check!({}, { subscriptionId: a, productHandle: "basic" }));
          await run(() => m.create({ subscriptionId: a, productHandle: "pro" }));
          await run(() => m.create({ subscriptionId: b, productHandle: "pro" }));
          await run(() => m.create({ subscriptionId: 9999, productHandle: "pro" }));
          await run(() => m.delete!("x", { args: { subscriptionId: a, productHandle: "pro" } }));
          s.injectFault({ kind: "status", status: 500, match: { path: "/webhooks/replay.json" } });
          await run(() => r.create({ ids: Array.from({ length: 1500 }, (_, i) => i + 1) }));
        });
        const all = text + inspect(results, { depth: 20, maxStringLength: Infinity });
        expect(all).toContain("stays on its current product"); // the capture did see the output
        expect(all).not.toContain(KEY);
        expect(all).not.toContain(Buffer.from(`${KEY}:x`).toString("base64"));
      } finally {
        await s.close();
      }
    });
  });
});
