import { describe, expect, it } from "vitest";
import { BillingClient } from "../../../sdk";
import type { Simulator } from "../../../simulator";
import { captureOutput, KEY, mutations, UNKNOWN } from "../support";
import { calls, migrationSite, postsOf } from "./site";

/**
 * SubscriptionMigration's charge: a first deploy's check adds what the service says now (state, current product,
 * previewed charge) as `preview`, reading the subscription and the preview once each (the preview only once the
 * target is whole); maxChargeInCents fails a charge above it at check, naming both amounts and the value to set,
 * and create reads the charge again, sending nothing above it; a preview that cannot be read is a warning, and a
 * maximum fails for want of it; changing the maximum alone migrates nothing again.
 */

describe("SubscriptionMigration charge", () => {
  let sim: Simulator;
  const { setup, proxied } = migrationSite((started) => {
    sim = started;
  });

  it("first deploy: check adds what the service says now (state, current product, previewed charge) as `preview`, sending nothing", async () => {
    const { p, id } = await setup();
    const news = { subscriptionId: id, productHandle: "pro", preservePeriod: false };
    const { inputs, failures } = await p.check!({}, news);
    expect(failures).toEqual([]);
    const direct = new BillingClient({ baseUrl: sim.url, apiKey: KEY });
    const charge = await direct.previewMigration(id, { productHandle: "pro", preservePeriod: false });
    const now = await direct.readSubscription(id);
    await direct.close();
    expect(charge.chargeInCents).toBeGreaterThan(0);
    expect(inputs).toEqual({
      ...news,
      preview: { subscriptionState: "active", productId: 1, productHandle: "basic", pricePointId: now.pricePointId ?? null, ...charge },
    });
    expect(mutations(sim)).toHaveLength(0);
    // Not on a later deploy of the same migration: the record is there, nothing is read.
    const reads = sim.requests.length;
    const later = await p.check!({ ...news, maxChargeInCents: 5, preview: { chargeInCents: 1 } }, news);
    expect(later.inputs).toEqual(news);
    expect(sim.requests.length).toBe(reads);
    // A replacement is a new migration: verified and previewed anew (so policies see its charge).
    const replacing = await p.check!({ subscriptionId: id, productHandle: "launch", preview: { chargeInCents: 1 } }, news);
    expect(replacing.inputs).toEqual(inputs);
    // Nor is `preview` an input a program may set.
    const set = await p.check!({}, { ...news, preview: { chargeInCents: 0 } });
    expect(set.failures?.map((f) => f.property)).toEqual(["preview"]);
  });

  it("a check with everything known reads the subscription and the preview once each, and warns of nothing", async () => {
    const { p, id } = await setup();
    const { result, text } = await captureOutput(() => p.check!({}, { subscriptionId: id, productHandle: "pro", maxChargeInCents: 2000 }));
    expect(result!.failures).toEqual([]);
    expect(text).toBe("");
    expect(calls(sim)).toEqual([`GET /subscriptions/${id}.json`, `POST /subscriptions/${id}/migrations/preview.json`]);
  });

  it("a check whose target is not whole yet reads only the subscription, and warns of nothing", async () => {
    const { p, id } = await setup();
    const { result, text } = await captureOutput(() =>
      p.check!({}, { subscriptionId: id, productHandle: "pro", pricePointHandle: UNKNOWN, maxChargeInCents: 2000 }),
    );
    expect(result!.failures).toEqual([]);
    expect(text).toBe("");
    expect(calls(sim)).toEqual([`GET /subscriptions/${id}.json`]);
  });

  it("a preview that cannot be read: check warns with the reason, and a maximum fails for want of it", async () => {
    const { id } = await setup();
    const p = await proxied((method, path) => (method === "POST" && path.endsWith("/preview.json") ? "/no-such-preview.json" : undefined));
    const unread = await captureOutput(() => p.check!({}, { subscriptionId: id, productHandle: "pro" }));
    expect(unread.result!.failures).toEqual([]);
    const reason =
      /^warning: subscription (\d+): (the service's migration preview could not be read, so its charge is not known: .+)\n$/s.exec(
        unread.text,
      );
    expect(reason?.[1]).toBe(String(id));
    const capped = await captureOutput(() => p.check!({}, { subscriptionId: id, productHandle: "pro", maxChargeInCents: 5000 }));
    expect(capped.text).toBe(unread.text);
    expect(capped.result!.failures).toEqual([
      { property: "maxChargeInCents", reason: `${reason?.[2]}; a maximum cannot be checked without it` },
    ]);
    expect(postsOf(sim)).toEqual([]);
  });

  it("maxChargeInCents: a previewed charge above it fails at check naming the value to set; at or above the charge passes", async () => {
    const { p, id } = await setup();
    const { inputs } = await p.check!({}, { subscriptionId: id, productHandle: "pro" });
    const charge = (inputs!.preview as { chargeInCents: number }).chargeInCents;
    const below = await p.check!({}, { subscriptionId: id, productHandle: "pro", maxChargeInCents: charge - 1 });
    expect(below.failures).toHaveLength(1);
    expect(below.failures![0].property).toBe("maxChargeInCents");
    expect(below.failures![0].reason).toContain(`above maxChargeInCents ${charge - 1}`);
    expect(below.failures![0].reason).toContain(`set maxChargeInCents: ${charge}`);
    for (const max of [charge, charge + 100]) {
      expect((await p.check!({}, { subscriptionId: id, productHandle: "pro", maxChargeInCents: max })).failures).toEqual([]);
    }
    const bad = await p.check!({}, { subscriptionId: id, productHandle: "pro", maxChargeInCents: -1 });
    expect(bad.failures?.map((f) => f.property)).toEqual(["maxChargeInCents"]);
    expect(mutations(sim)).toHaveLength(0);
  });

  it("a charge above maxChargeInCents 0 is refused naming both amounts in cents and as money", async () => {
    const { p, id } = await setup();
    const { failures } = await p.check!({}, { subscriptionId: id, productHandle: "pro", maxChargeInCents: 0 });
    // The simulator's pro costs 2000 cents; a migration from basic charges it in full.
    expect(failures).toEqual([
      {
        property: "maxChargeInCents",
        reason: `the service previews a charge of 2000 cents (20.00) for subscription ${id}, above maxChargeInCents 0 (0.00); to accept it, set maxChargeInCents: 2000`,
      },
    ]);
  });

  it("maxChargeInCents: create reads the charge again and sends nothing above it", async () => {
    const { p, id } = await setup();
    await expect(p.create({ subscriptionId: id, productHandle: "pro", maxChargeInCents: 1 })).rejects.toThrow(
      /maxChargeInCents: the service previews a charge of \d+ cents .* \(nothing was sent\)/,
    );
    expect(postsOf(sim)).toHaveLength(0);
    const created = await p.create({ subscriptionId: id, productHandle: "pro", maxChargeInCents: 1_000_000 });
    expect(created.outs).toMatchObject({ productHandle: "pro" });
    expect(postsOf(sim)).toHaveLength(1);
  });

  it("create without maxChargeInCents reads the subscription and posts the migration, previewing nothing", async () => {
    const { p, id } = await setup();
    await p.create({ subscriptionId: id, productHandle: "pro" });
    expect(calls(sim)).toEqual([`GET /subscriptions/${id}.json`, `POST /subscriptions/${id}/migrations.json`, "GET /products/2.json"]);
  });

  it("maxChargeInCents: changing it alone is an update that records it and migrates nothing again", async () => {
    const { p, id } = await setup();
    const created = await p.create({ subscriptionId: id, productHandle: "pro", maxChargeInCents: 1_000_000 });
    const news = { subscriptionId: id, productHandle: "pro", maxChargeInCents: 2_000_000 };
    expect(await p.diff!(created.id, created.outs, news)).toMatchObject({ changes: true, replaces: [] });
    const updated = await p.update!(created.id, created.outs, news);
    expect(updated.outs.args).toMatchObject({ maxChargeInCents: 2_000_000 });
    expect(await p.diff!(created.id, updated.outs, news)).toMatchObject({ changes: false });
    expect(postsOf(sim)).toHaveLength(1);
  });
});
