// What the mutation run (provider kinds, 06:05) found unchecked. SubscriptionMigration: the exact messages of a pending
// migration and of a charge above maxChargeInCents (or one that cannot be previewed), which reads a check and a create
// make (and do not make twice), when a diff refuses a same-product change, and the price point a refresh records.
// Each test drives the provider object against the simulator over a real socket.
import type * as pulumi from "@pulumi/pulumi";
import { afterEach, describe, expect, it } from "vitest";
import { subscriptionMigrationProvider } from "../../provider";
import { type Simulator, type SubscriptionState, startSimulator } from "../../simulator";
import { captureOutput, configured, configureRequest, KEY, type Redirect, redirectingProxy, UNKNOWN } from "./support";

const MIGRATIONS = /^\/subscriptions\/\d+\/migrations\.json$/;
const postsOf = (sim: Simulator) => sim.requests.filter((r) => r.method === "POST" && MIGRATIONS.test(r.path));
const calls = (sim: Simulator) => sim.requests.map((r) => `${r.method} ${r.path}`);

/** A copy of `exported` configured against a proxy in front of `sim` that sends some requests elsewhere on it. */
async function through<P extends pulumi.dynamic.ResourceProvider>(exported: P, sim: Simulator, to: Redirect): Promise<P> {
  const p = { ...exported } as P;
  await p.configure!(configureRequest({ "billing:baseUrl": await redirectingProxy(sim.url, to), "billing:apiKey": KEY }));
  return p;
}

describe("SubscriptionMigration: what the mutation run left unchecked", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  async function setup(state: SubscriptionState = "active", extra = {}) {
    const c = await configured(subscriptionMigrationProvider);
    sim = c.sim;
    const id = sim.addSubscription({ productHandle: "basic", state, ...extra }).id;
    return { p: c.provider, id };
  }

  const proxied = (to: Redirect) => through(subscriptionMigrationProvider, sim, to);

  it("pending outcomes carry their exact messages, and adopting or re-sending one records no warnings", async () => {
    const { p, id } = await setup("active", { requiresAuthentication: true });
    const auth = await p.create({ subscriptionId: id, productHandle: "pro" }).catch((e) => e);
    const link = auth.properties.actionLink as string;
    expect(auth.message).toBe(
      `subscription ${id}: the migration needs 3-D Secure authentication by the customer. Send them to ${link}; after they ` +
        "complete it, run `pulumi up` again to record the migrated subscription (nothing is posted again).",
    );
    expect((await fetch(link)).ok).toBe(true);
    const adopted = await p.update!(auth.id, auth.properties, { subscriptionId: id, productHandle: "pro" });
    expect(adopted.outs.warnings).toEqual([]);

    const other = sim.addSubscription({ productHandle: "basic", state: "trial_ended" }).id;
    sim.injectFault({ kind: "reset", match: { method: "POST", path: MIGRATIONS } });
    sim.injectFault({ kind: "delay", ms: 0, times: 1, match: { method: "GET" } });
    sim.injectFault({ kind: "reset", match: { method: "GET" } });
    const lost = await captureOutput(() => p.create({ subscriptionId: other, productHandle: "pro" }));
    const err = lost.error as Error & { properties: { uniquenessToken: string } };
    const token = err.properties.uniquenessToken;
    expect(err.message).toBe(
      `migration of subscription ${other} may or may not have been applied: the request failed (GET /subscriptions/${other}.json: ` +
        `read ECONNRESET (ECONNRESET)) and the subscription could not be read back; resume it with the same uniqueness_token ` +
        `(${token}), never with a new one. It is recorded as pending: the next \`pulumi up\` reads the subscription and only ` +
        "re-sends with the same uniqueness token if it was not applied.",
    );
    sim.clearFaults();
    // Re-sent: a trial_ended subscription's advice was given at create, and is not recorded for the re-send.
    const resent = await p.update!((err as unknown as { id: string }).id, err.properties, { subscriptionId: other, productHandle: "pro" });
    expect(resent.outs).toMatchObject({ productHandle: "pro", pending: false, warnings: [] });
    expect(
      postsOf(sim)
        .filter((r) => r.path === `/subscriptions/${other}/migrations.json`)
        .map((r) => r.uniquenessToken),
    ).toEqual([token, token]);
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

  it("create without maxChargeInCents reads the subscription and posts the migration, previewing nothing", async () => {
    const { p, id } = await setup();
    await p.create({ subscriptionId: id, productHandle: "pro" });
    expect(calls(sim)).toEqual([`GET /subscriptions/${id}.json`, `POST /subscriptions/${id}/migrations.json`, "GET /products/2.json"]);
  });

  it.each([
    ["the same product by another selector, with maxChargeInCents changed too", { productId: 2, maxChargeInCents: 5 }, undefined],
    ["the same product on another subscription", { subscriptionId: 4242, productHandle: "pro" }, ["subscriptionId"]],
    ["the same product on another site", { productHandle: "pro", site: "eu" }, ["site"]],
    ["the same product by id while the handle is not known yet", { productId: 2, productHandle: UNKNOWN }, ["productId", "productHandle"]],
  ] as const)("diff: %s", async (_, change, replaces) => {
    const { p, id } = await setup();
    const { outs } = await p.create({ subscriptionId: id, productHandle: "pro" });
    const diff = p.diff!("x", outs, { subscriptionId: id, ...change });
    if (replaces === undefined) {
      await expect(diff).rejects.toThrow(
        `subscription ${id} is already on product 'pro' (id 2): the service refuses a migration to the product a subscription already has.`,
      );
    } else {
      expect(await diff).toMatchObject({ changes: true, replaces });
    }
  });

  it("update: a maximum dropped leaves no key for it, and a record without the body sent gets the body", async () => {
    const { p, id } = await setup();
    const created = await p.create({ subscriptionId: id, productHandle: "pro", maxChargeInCents: 1_000_000 });
    const { request, ...withoutBody } = created.outs;
    const updated = await p.update!(created.id, withoutBody, { subscriptionId: id, productHandle: "pro" });
    expect(Object.keys(updated.outs.args)).toEqual(["subscriptionId", "productHandle"]);
    expect(updated.outs.request).toEqual(request);
  });

  it("read of a pending migration returns the record as it is, reading nothing", async () => {
    const { p, id } = await setup("active", { requiresAuthentication: true });
    const err = await p.create({ subscriptionId: id, productHandle: "pro" }).catch((e) => e);
    const before = sim.requests.length;
    const read = await p.read!(err.id, err.properties);
    expect(read.props).toEqual({ ...err.properties, warnings: [] });
    expect(sim.requests.length).toBe(before);
  });

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

  it("refresh: an unchanged product keeps the recorded price point reading only the subscription; a product moved away and back is resolved again", async () => {
    const { p, id } = await setup();
    const created = await p.create({ subscriptionId: id, productHandle: "pro" });
    const before = sim.requests.length;
    const same = await p.read!(created.id, created.outs);
    expect(same.props.pricePointId).toBe(201);
    expect(calls(sim).slice(before)).toEqual([`GET /subscriptions/${id}.json`]);

    const other = new (await import("../../sdk")).BillingClient({ baseUrl: sim.url, apiKey: KEY });
    await other.migrateSubscription(id, { productHandle: "launch" });
    const away = await p.read!(created.id, same.props);
    expect(away.props).toMatchObject({ productId: 3, pricePointId: null });
    await other.migrateSubscription(id, { productHandle: "pro" });
    await other.close();
    const back = await p.read!(created.id, away.props);
    expect(back.props).toMatchObject({ productId: 2, pricePointId: 201 });
  });
});
