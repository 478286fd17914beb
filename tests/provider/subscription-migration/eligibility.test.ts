import { describe, expect, it } from "vitest";
import { subscriptionMigrationProvider } from "../../../provider";
import type { Simulator } from "../../../simulator";
import { captureOutput, configureRequest, KEY, mutations, UNKNOWN } from "../support";
import { migrationSite } from "./site";

/**
 * SubscriptionMigration's preview of the subscription: a subscription in a state the service does not migrate, or
 * already on the target product (named by id when it has no handle), fails at check with the fix, judged whenever
 * the subscription, the target product and the site are known, whatever else is unknown; trial_ended passes with a
 * warning; an unknown subscription fails; a read refused on a named site names that site's credentials.
 */

describe("SubscriptionMigration eligibility", () => {
  let sim: Simulator;
  const { setup, proxied, migrationPosts } = migrationSite((started) => {
    sim = started;
  });

  it.each([
    [{ productHandle: "basic" }, "productHandle"],
    [{ productId: 1 }, "productId"],
  ])("first deploy: a same-product target %o fails at check with the fix, and no POST is sent", async (target, property) => {
    const { p, id } = await setup();
    const { failures } = await p.check!({}, { subscriptionId: id, ...target });
    expect(failures).toHaveLength(1);
    expect(failures![0].property).toBe(property);
    expect(failures![0].reason).toMatch(/already on product 'basic'/);
    expect(failures![0].reason).toMatch(/price point change/);
    expect(mutations(sim)).toHaveLength(0);
  });

  it.each(["canceled"] as const)("a %s subscription fails at check", async (state) => {
    const { p, id } = await setup(state);
    const { failures } = await p.check!({}, { subscriptionId: id, productHandle: "pro" });
    expect(failures![0]).toMatchObject({ property: "subscriptionId" });
    expect(failures![0].reason).toMatch(/is canceled; only active or trialing/);
  });

  // A target built in the same program (a Product's or ProductPricePoint's output) is unknown at preview until
  // created; the rules that need only the subscription and the target product are judged all the same.
  it.each([
    [
      "a canceled subscription, the price point unknown",
      "canceled",
      { productHandle: "pro", pricePointId: UNKNOWN },
      "subscriptionId",
      /is canceled; only active or trialing/,
    ],
    ["a canceled subscription, an option unknown", "canceled", { productId: 2, preservePeriod: UNKNOWN }, "subscriptionId", /is canceled/],
    [
      "a past_due subscription, maxChargeInCents unknown",
      "past_due",
      { productId: 2, maxChargeInCents: UNKNOWN },
      "subscriptionId",
      /is past_due/,
    ],
    [
      "the same product by handle, the price point unknown",
      "active",
      { productHandle: "basic", pricePointHandle: UNKNOWN },
      "productHandle",
      /already on product 'basic'/,
    ],
    [
      "the same product by id, every option unknown",
      "active",
      { productId: 1, includeTrial: UNKNOWN, includeCoupons: UNKNOWN, pricePointId: UNKNOWN },
      "productId",
      /already on product 'basic'/,
    ],
  ] as const)("first deploy, other inputs unknown: %s fails at check", async (_, state, target, property, reason) => {
    const { p, id } = await setup(state);
    const { failures } = await p.check!({}, { subscriptionId: id, ...target });
    expect(failures).toHaveLength(1);
    expect(failures![0].property).toBe(property);
    expect(failures![0].reason).toMatch(reason);
    expect(mutations(sim)).toHaveLength(0);
  });

  it("other inputs unknown: an eligible migration passes with the subscription as `preview` and no charge (the target is not whole yet)", async () => {
    const { p, id } = await setup();
    const news = { subscriptionId: id, productId: 2, pricePointId: UNKNOWN, preservePeriod: true };
    const { inputs, failures } = await p.check!({}, news);
    expect(failures).toEqual([]);
    const { preview, ...rest } = inputs as { preview: Record<string, unknown> };
    expect(rest).toEqual(news);
    expect(preview).toMatchObject({ subscriptionState: "active", productId: 1, productHandle: "basic" });
    expect(preview).not.toHaveProperty("chargeInCents");
    // Only the subscription is read: the service's migration preview needs the whole target.
    expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /subscriptions/${id}.json`]);
  });

  it("other inputs unknown: a replacement is judged too; an update that is no new migration reads nothing", async () => {
    const { p, id } = await setup("canceled");
    const replacing = await p.check!(
      { subscriptionId: id, productHandle: "launch" },
      { subscriptionId: id, productHandle: "pro", pricePointId: UNKNOWN },
    );
    expect(replacing.failures?.map((f) => f.property)).toEqual(["subscriptionId"]);
    const reads = sim.requests.length;
    const update = await p.check!(
      { subscriptionId: id, productHandle: "pro", maxChargeInCents: 5 },
      { subscriptionId: id, productHandle: "pro", maxChargeInCents: UNKNOWN },
    );
    expect(update.failures).toEqual([]);
    expect(sim.requests.length).toBe(reads);
  });

  it("trial_ended passes with a warning naming the recommended path", async () => {
    const { p, id } = await setup("trial_ended");
    const { result, text } = await captureOutput(() => p.check!({}, { subscriptionId: id, productHandle: "pro" }));
    expect(result!.failures).toEqual([]);
    expect(text).toMatch(/cancel it, change its product, then reactivate it/);
  });

  it("an unknown subscription fails at check", async () => {
    const { p } = await setup();
    const { failures } = await p.check!({}, { subscriptionId: 777_777, productHandle: "pro" });
    expect(failures![0]).toMatchObject({ property: "subscriptionId" });
    expect(failures![0].reason).toMatch(/does not exist/);
  });

  it("a subscription already on a product without a handle: the refusal names the product by its id", async () => {
    const { p } = await setup();
    // A product without a handle, reachable by id only.
    sim.addProduct({ id: 4, handle: null });
    const id = sim.addSubscription({ productId: 4, state: "active" }).id;
    const { failures } = await p.check!({}, { subscriptionId: id, productId: 4 });
    expect(failures).toEqual([
      {
        property: "productId",
        reason:
          `subscription ${id} is already on product id 4: the service refuses a migration to the product a subscription already has. ` +
          "Target a different product; to move to another price point of the same product, that is a price point change, " +
          "a different operation than a product migration; if nothing should change, remove this SubscriptionMigration.",
      },
    ]);
    expect(migrationPosts()).toEqual([]);
  });

  it("a subscription read refused on a named site fails check naming that site's credentials; another error is thrown", async () => {
    const { id } = await setup();
    const p = { ...subscriptionMigrationProvider };
    await p.configure!(
      configureRequest({
        "billing:baseUrl": sim.url,
        "billing:apiKey": KEY,
        "billing:sites": JSON.stringify({ eu: { baseUrl: sim.url, apiKey: "sk_live_NOT_THE_KEY" } }),
      }),
    );
    const { failures } = await p.check!({}, { subscriptionId: id, productHandle: "pro", site: "eu" });
    expect(failures).toEqual([
      { property: "site", reason: 'the service refused the configured credentials (401); check billing:sites["eu"].apiKey / .accessToken' },
    ]);
    const q = await proxied((method, path) =>
      method === "GET" && path === `/subscriptions/${id}.json` ? `/subscriptions/${id}/migrations.json` : undefined,
    );
    await expect(q.check!({}, { subscriptionId: id, productHandle: "pro" })).rejects.toThrow(
      `GET /subscriptions/${id}.json failed with 405: Method GET not allowed on /subscriptions/${id}/migrations.json; allowed: POST`,
    );
  });
});
