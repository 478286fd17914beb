import { afterEach, describe, expect, it } from "vitest";
import { subscriptionMigrationProvider } from "../../../provider";
import { BillingClient } from "../../../sdk";
import { type Simulator, startSimulator } from "../../../simulator";
import { captureOutput, configureRequest, KEY } from "../support";
import { calls, migrationSite, postsOf } from "./site";

/**
 * SubscriptionMigration refresh: read re-reads the subscription, so a move made elsewhere shows as drift (update only
 * refreshes, delete sends nothing); the price point the service reports wins over the recorded one, and an unchanged
 * product keeps it, reading only the subscription; a pending migration's record is kept as it is.
 */

describe("SubscriptionMigration drift", () => {
  let sim: Simulator;
  const { setup } = migrationSite((started) => {
    sim = started;
  });

  it("update only refreshes; read re-reads so drift shows; delete sends nothing", async () => {
    const { p, id } = await setup();
    const created = await p.create({ subscriptionId: id, productHandle: "pro" });
    const updated = await p.update!(created.id, created.outs, { subscriptionId: id, productHandle: "pro" });
    expect(updated.outs).toMatchObject({ productHandle: "pro", migratedAt: created.outs.migratedAt });
    // Someone moves it elsewhere, outside the stack:
    const other = new BillingClient({ baseUrl: sim.url, apiKey: KEY });
    await other.migrateSubscription(id, { productHandle: "launch" });
    await other.close();
    const read = await p.read!(created.id, created.outs);
    expect(read.props).toMatchObject({ productId: 3, productHandle: "launch" });
    const { text } = await captureOutput(() => p.delete!(created.id, created.outs));
    expect(text).toMatch(/stays on its current product/);
    expect(postsOf(sim)).toHaveLength(2);
  });

  it("read of a pending migration returns the record as it is, reading nothing", async () => {
    const { p, id } = await setup("active", { requiresAuthentication: true });
    const err = await p.create({ subscriptionId: id, productHandle: "pro" }).catch((e) => e);
    const before = sim.requests.length;
    const read = await p.read!(err.id, err.properties);
    expect(read.props).toEqual({ ...err.properties, warnings: [] });
    expect(sim.requests.length).toBe(before);
  });

  describe("with a site that reports the subscription's price point", () => {
    // The test starts a simulator of its own.
    afterEach(async () => sim?.close());

    it("refresh: the price point the service reports wins over the recorded one", async () => {
      sim = await startSimulator({ apiKey: KEY, reportPricePoint: true });
      sim.addProduct({ id: 1, handle: "basic" });
      sim.addProduct({
        id: 2,
        handle: "pro",
        pricePoints: [
          { id: 201, handle: "pro-monthly", default: true },
          { id: 202, handle: "pro-annual" },
        ],
      });
      const p = { ...subscriptionMigrationProvider };
      await p.configure!(configureRequest({ "billing:baseUrl": sim.url, "billing:apiKey": KEY }));
      const id = sim.addSubscription({ productHandle: "basic", state: "active" }).id;
      const created = await p.create({ subscriptionId: id, productHandle: "pro" });
      expect(created.outs.pricePointId).toBe(201);
      // A record written before the price point was changed elsewhere:
      const read = await p.read!(created.id, { ...created.outs, pricePointId: 202 });
      expect(read.props.pricePointId).toBe(201);
    });
  });

  it("refresh: an unchanged product keeps the recorded price point reading only the subscription; a product moved away and back is resolved again", async () => {
    const { p, id } = await setup();
    const created = await p.create({ subscriptionId: id, productHandle: "pro" });
    const before = sim.requests.length;
    const same = await p.read!(created.id, created.outs);
    expect(same.props.pricePointId).toBe(201);
    expect(calls(sim).slice(before)).toEqual([`GET /subscriptions/${id}.json`]);

    const other = new (await import("../../../sdk")).BillingClient({ baseUrl: sim.url, apiKey: KEY });
    await other.migrateSubscription(id, { productHandle: "launch" });
    const away = await p.read!(created.id, same.props);
    expect(away.props).toMatchObject({ productId: 3, pricePointId: null });
    await other.migrateSubscription(id, { productHandle: "pro" });
    await other.close();
    const back = await p.read!(created.id, away.props);
    expect(back.props).toMatchObject({ productId: 2, pricePointId: 201 });
  });
});
