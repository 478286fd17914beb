import * as pulumi from "@pulumi/pulumi";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { type SubscriptionMigrationArgs, subscriptionMigrationProvider } from "../../provider";
import { BillingClient } from "../../sdk";
import type { Simulator, SubscriptionState } from "../../simulator";
import { captureOutput, configured, KEY, mutations, UNKNOWN } from "./support";

const MIGRATIONS = /^\/subscriptions\/\d+\/migrations\.json$/;
const postsOf = (sim: Simulator) => sim.requests.filter((r) => r.method === "POST" && MIGRATIONS.test(r.path));

describe("SubscriptionMigration provider", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  async function setup(state: SubscriptionState = "active", extra = {}) {
    const c = await configured(subscriptionMigrationProvider);
    sim = c.sim;
    const id = sim.addSubscription({ productHandle: "basic", state, ...extra }).id;
    return { p: c.provider, id };
  }

  it.each([
    [{ productHandle: "pro" }, "subscriptionId", /./],
    [{ subscriptionId: 0, productHandle: "pro" }, "subscriptionId", /positive integer id/],
    [{ subscriptionId: 1.5, productHandle: "pro" }, "subscriptionId", /positive integer id/],
    [{ subscriptionId: "SUB" }, "productId", /exactly one/],
    [{ subscriptionId: "SUB", productId: 2, productHandle: "pro" }, "productId", /exactly one/],
    [{ subscriptionId: "SUB", productHandle: "pro", pricePointId: 201, pricePointHandle: "pro-monthly" }, "pricePointId", /at most one/],
    [{ subscriptionId: "SUB", productId: -1 }, "productId", /positive integer/],
    [{ subscriptionId: "SUB", productHandle: "pro", includeCoupons: "no" }, "includeCoupons", /true or false/],
    [{ subscriptionId: "SUB", productHandle: "pro", colour: "red" }, "colour", /not an input/],
  ])("check %o fails on %s, sending nothing", async (news, property, reason) => {
    const { p, id } = await setup();
    const input = Object.fromEntries(Object.entries(news).map(([k, v]) => [k, v === "SUB" ? id : v]));
    const { failures } = await p.check!({}, input);
    const f = failures?.find((x) => x.property === property || x.property.endsWith(`.${property}`));
    expect(f, JSON.stringify(failures)).toBeDefined();
    expect(f!.reason).toMatch(reason);
    expect(sim.requests).toHaveLength(0);
  });

  it("property: both productId and productHandle always fail naming the product selector, before sending", async () => {
    const { p, id } = await setup();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1e6 }),
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.option(fc.boolean(), { nil: undefined }),
        async (productId, productHandle, includeTrial) => {
          const { failures } = await p.check!(
            {},
            { subscriptionId: id, productId, productHandle, ...(includeTrial === undefined ? {} : { includeTrial }) },
          );
          expect(failures?.some((f) => /product(Id|Handle)/.test(f.property) && /exactly one/.test(f.reason))).toBe(true);
        },
      ),
      { numRuns: 50 },
    );
    expect(sim.requests).toHaveLength(0);
  });

  it("unknown values pass check during preview (and nothing is read)", async () => {
    const { p } = await setup();
    expect((await p.check!({}, { subscriptionId: UNKNOWN, productHandle: UNKNOWN, includeTrial: UNKNOWN })).failures).toEqual([]);
    expect(sim.requests).toHaveLength(0);
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

  it("the subscription, the target product or the site unknown: nothing can be judged, nothing is read", async () => {
    const { p, id } = await setup("canceled", {});
    for (const news of [
      { subscriptionId: UNKNOWN, productHandle: "basic", pricePointId: UNKNOWN },
      { subscriptionId: id, productId: UNKNOWN, preservePeriod: true },
      { subscriptionId: id, productHandle: "pro", includeTrial: UNKNOWN, site: UNKNOWN },
    ]) {
      expect((await p.check!({}, news)).failures).toEqual([]);
    }
    expect(sim.requests).toHaveLength(0);
  });

  it("targets given as numbers, as the catalog kinds' outputs (productId, pricePointId) are, pass check", async () => {
    const { p, id } = await setup();
    const { failures, inputs } = await p.check!({}, { subscriptionId: id, productId: 2, pricePointId: 202, preservePeriod: true });
    expect(failures).toEqual([]);
    expect(inputs?.preview).toMatchObject({ subscriptionState: "active", productId: 1 });
    // And the resource's args take those outputs as they are (a type check: Output<number> where a number goes).
    const args: SubscriptionMigrationArgs = { subscriptionId: id, productId: pulumi.output(2), pricePointId: pulumi.output(202) };
    expect(Object.keys(args)).toEqual(["subscriptionId", "productId", "pricePointId"]);
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

  it("create migrates once, sends the defaults explicitly, and exposes the resulting subscription", async () => {
    const { p, id } = await setup();
    const created = await p.create({ subscriptionId: id, productHandle: "pro" });
    expect(created.id).toMatch(new RegExp(`^${id}-`));
    expect(created.outs).toMatchObject({
      subscriptionState: "active",
      previousState: "active",
      productId: 2,
      productHandle: "pro",
      pricePointId: 201,
    });
    for (const k of ["currentPeriodEndsAt", "nextAssessmentAt", "migratedAt"]) expect(Date.parse(created.outs[k])).not.toBeNaN();
    const [post] = postsOf(sim);
    expect((post.body as { migration: object }).migration).toMatchObject({
      product_handle: "pro",
      include_trial: false,
      include_initial_charge: false,
      include_coupons: true,
      preserve_period: false,
    });
    expect(created.outs.request).toMatchObject({ product_handle: "pro", include_coupons: true });
    expect(postsOf(sim)).toHaveLength(1);
  });

  it("diff: any input change replaces; a change to the product in state is refused; no change is no change", async () => {
    const { p, id } = await setup();
    const { outs } = await p.create({ subscriptionId: id, productHandle: "pro" });
    expect(await p.diff!("x", outs, { subscriptionId: id, productHandle: "pro" })).toMatchObject({ changes: false });
    expect(await p.diff!("x", outs, { subscriptionId: id, productHandle: "launch" })).toMatchObject({
      changes: true,
      replaces: ["productHandle"],
    });
    expect(await p.diff!("x", outs, { subscriptionId: id, productHandle: "launch", preservePeriod: true })).toMatchObject({
      changes: true,
      replaces: ["productHandle", "preservePeriod"],
    });
    await expect(p.diff!("x", outs, { subscriptionId: id, productId: 2, pricePointHandle: "pro-annual" })).rejects.toThrow(
      /already on product 'pro'.*price point change/s,
    );
    expect(postsOf(sim)).toHaveLength(1);
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

  it("3-D Secure: create fails with the action link as a pending partial failure; the next up adopts it without a second POST", async () => {
    const { p, id } = await setup("active", { requiresAuthentication: true });
    const err = await p.create({ subscriptionId: id, productHandle: "pro", __provider: "TEXT" }).catch((e) => e);
    expect(err.message).toMatch(/http:\/\/127\.0\.0\.1:\d+\/authentications\//);
    expect(err.id).toMatch(new RegExp(`^${id}-`));
    expect(err.properties).toMatchObject({ pending: true, pendingReason: "authentication", __provider: "TEXT" });
    expect(err.properties.actionLink).toBeTruthy();

    // Not yet authenticated: the next up says so and posts nothing.
    const early = await p.update!(err.id, err.properties, { subscriptionId: id, productHandle: "pro" }).catch((e) => e);
    expect(early.message).toMatch(/not completed yet/);
    expect(early.properties).toMatchObject({ pending: true });
    expect(await p.diff!(err.id, err.properties, { subscriptionId: id, productHandle: "pro" })).toMatchObject({
      changes: true,
      replaces: [],
    });

    expect((await fetch(err.properties.actionLink)).ok).toBe(true);
    const adopted = await p.update!(err.id, err.properties, { subscriptionId: id, productHandle: "pro" });
    expect(adopted.outs).toMatchObject({ productHandle: "pro", pending: false });
    expect(postsOf(sim)).toHaveLength(1);
  });

  it("an outcome the SDK could not learn is recorded as pending, and the next up re-sends with the same token only if needed", async () => {
    const { p, id } = await setup();
    sim.injectFault({ kind: "reset", match: { method: "POST", path: MIGRATIONS } });
    // The read before posting goes through (a harmless 0 ms delay takes it); every read-back after the reset fails.
    sim.injectFault({ kind: "delay", ms: 0, times: 1, match: { method: "GET" } });
    sim.injectFault({ kind: "reset", match: { method: "GET" } });
    const err = await p.create({ subscriptionId: id, productHandle: "pro" }).catch((e) => e);
    expect(err.properties).toMatchObject({ pending: true, pendingReason: "unknown", previousState: "active" });
    sim.clearFaults();
    const done = await p.update!(err.id, err.properties, { subscriptionId: id, productHandle: "pro" });
    expect(done.outs).toMatchObject({ productHandle: "pro" });
    const tokens = new Set(postsOf(sim).map((r) => r.uniquenessToken));
    expect(tokens.size).toBe(1);
    expect(sim.getSubscription(id)?.productId).toBe(2);
  });
});
