import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { previewSubscriptionMigration, type SubscriptionMigrationPreview } from "../../provider";
import { warnPlainCredentials } from "../../provider/credential-warning";
import { type Simulator, startSimulator } from "../../simulator";
import { captureOutput, KEY } from "./support";

// What the program itself says (the dynamic providers cannot tell a secret from plain config, and a
// migration preview runs in the program): a credential in plain text, a migration already applied.
// One stack config for the file: the program's client is configured once per process, as in a real run.

const SITES = JSON.stringify({ eu: { baseUrl: "http://127.0.0.1:9", apiKey: "sk_sites_SECRET_0303" } });

/** An Output's value, as a program's apply would see it. */
const resolved = <T>(o: pulumi.Output<T>): Promise<T> => new Promise((resolve) => o.apply(resolve));

describe("the program's messages", () => {
  let sim: Simulator;
  let basic: number;
  let migrated: number;
  let canceled: number;

  beforeAll(async () => {
    sim = await startSimulator({ apiKey: KEY });
    sim.addProduct({ id: 1, handle: "basic" });
    sim.addProduct({ id: 2, handle: "pro" });
    basic = sim.addSubscription({ productHandle: "basic", state: "active" }).id;
    migrated = sim.addSubscription({ productHandle: "pro", state: "active" }).id;
    canceled = sim.addSubscription({ productHandle: "basic", state: "canceled" }).id;
    await pulumi.runtime.setMocks(
      { newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }), call: (a) => a.inputs },
      "billing-app",
      "dev",
      true,
    );
    // billing:apiKey set without --secret, billing:sites with it: only the first is warned about.
    pulumi.runtime.setAllConfig({ "billing:baseUrl": sim.url, "billing:apiKey": KEY, "billing:sites": SITES }, ["billing:sites"]);
  });
  afterAll(async () => sim?.close());

  it("a credential set without --secret: one warning per key per run, naming the key, the file and the command, never the value", async () => {
    const { text } = await captureOutput(async () => {
      // As each billing resource's constructor calls it: the first of the run warns, the others say nothing.
      warnPlainCredentials();
      warnPlainCredentials();
      warnPlainCredentials();
    });
    const warnings = text.split("\n").filter((l) => l.startsWith("warning:"));
    expect(warnings).toEqual([
      "warning: [runtime] billing:apiKey is stored in plain text in Pulumi.dev.yaml: run `pulumi config set --secret billing:apiKey <value>` to store it encrypted",
    ]);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain("billing:sites");
  });

  it("previewSubscriptionMigration of a migration already applied says so once, as info, and resolves to alreadyApplied", async () => {
    const { result, text } = await captureOutput(() =>
      resolved(previewSubscriptionMigration({ subscriptionId: migrated, productHandle: "pro" })),
    );
    expect(result).toEqual({
      chargeInCents: 0,
      proratedAdjustmentInCents: 0,
      creditAppliedInCents: 0,
      paymentDueInCents: 0,
      alreadyApplied: true,
    } satisfies SubscriptionMigrationPreview);
    expect(text.trim().split("\n")).toEqual([`info: [runtime] subscription ${migrated} is already on pro: nothing to preview`]);
    expect(text).not.toMatch(/warning|422/);
  });

  it("previewSubscriptionMigration by product id, already applied: the same", async () => {
    const { result, text } = await captureOutput(() => resolved(previewSubscriptionMigration({ subscriptionId: migrated, productId: 2 })));
    expect(result).toMatchObject({ alreadyApplied: true, chargeInCents: 0 });
    expect(text).toContain(`subscription ${migrated} is already on product 2: nothing to preview`);
    expect(text).not.toContain("warning");
  });

  it("a migration still to apply is previewed as before: the charge, no alreadyApplied", async () => {
    const { result, text } = await captureOutput(() =>
      resolved(previewSubscriptionMigration({ subscriptionId: basic, productHandle: "pro" })),
    );
    expect(result).toBeDefined();
    expect(result).not.toHaveProperty("alreadyApplied");
    expect(text).toMatch(new RegExp(`info: \\[runtime\\] migration of subscription ${basic} to pro: charge `));
  });

  it("a refusal for another reason (a canceled subscription) is still a warning, resolving to undefined", async () => {
    const { result, text } = await captureOutput(() =>
      resolved(previewSubscriptionMigration({ subscriptionId: canceled, productHandle: "pro" })),
    );
    expect(result).toBeUndefined();
    expect(text).toMatch(
      new RegExp(`warning: \\[runtime\\] no charge preview for the migration of subscription ${canceled} to pro: .*422`),
    );
    expect(text).not.toContain("already on");
    expect(text).not.toContain(KEY);
  });
});
