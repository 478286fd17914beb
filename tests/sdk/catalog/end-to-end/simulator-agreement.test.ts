import { describe, expect, it, onTestFinished } from "vitest";
import { BillingApiError, CatalogOutcomeUnknownError } from "../../../../sdk";
import { recordingProxy } from "../../../contract/recorder";
import { clientOf, site } from "../../helpers";
import { contractRequestCheck } from "../request-contract";

/**
 * The catalog SDK against the simulator's catalog (written by others from the contract, never from sdk/): the two
 * readings of the contract agree on the whole surface, every request recorded on the wire validates against the
 * contract's request schemas, and the simulator's own faults (a request still processing when the client gives up,
 * an answer lost after the create applied) leave one object, found by the SDK.
 */

const MONTHLY = { priceInCents: 1000, interval: 1, intervalUnit: "month" } as const;

describe("the catalog SDK against the simulator", () => {
  it("the whole surface, every request on the wire validating against the contract", async () => {
    const s = await site();
    const proxy = await recordingProxy(s.sim.url);
    onTestFinished(() => proxy.close());
    const b = clientOf(proxy.url);

    const f = await b.createProductFamily({ handle: "saas", name: "SaaS", description: "Plans" });
    expect(await b.readProductFamily("saas")).toStrictEqual(f);
    expect(await b.readProductFamily(f.id)).toStrictEqual(f);
    expect((await b.listProductFamilies()).map((x) => x.handle)).toContain("saas");

    const p = await b.createProduct(f.id, {
      handle: "pro",
      name: "Pro",
      ...MONTHLY,
      trialPriceInCents: 0,
      trialInterval: 7,
      trialIntervalUnit: "day",
    });
    expect(p).toMatchObject({ handle: "pro", productFamilyId: f.id, pricing: { ...MONTHLY, trialInterval: 7, trialIntervalUnit: "day" } });
    expect(await b.readProduct("pro")).toStrictEqual(p);
    expect((await b.listProducts({ familyId: f.id })).map((x) => x.id)).toStrictEqual([p.id]);

    const repriced = await b.updateProduct(p.id, { priceInCents: 1200 });
    expect(repriced.pricing?.priceInCents).toBe(1200);
    expect(repriced.defaultPricePointId).not.toBe(p.defaultPricePointId);

    const pp = await b.createPricePoint(p.id, { handle: "annual", name: "Annual", ...MONTHLY, interval: 12 });
    const many = await b.createPricePoints(p.id, [
      { handle: "a1", name: "A1", ...MONTHLY, intervalUnit: "day" },
      { handle: "a2", name: "A2", ...MONTHLY, intervalUnit: "day" },
    ]);
    expect(many.map((x) => x.handle)).toStrictEqual(["a1", "a2"]);
    expect(await b.readPricePoint(p.id, pp.id)).toStrictEqual(pp);
    expect((await b.updatePricePoint(p.id, pp.id, { handle: "annual-2", priceInCents: 9000 })).handle).toBe("annual-2");
    expect((await b.archivePricePoint(p.id, pp.id)).archivedAt).toEqual(expect.any(String));
    expect((await b.listPricePoints(p.id)).map((x) => x.id)).not.toContain(pp.id);
    expect((await b.listPricePoints(p.id, { includeArchived: true })).map((x) => x.id)).toContain(pp.id);
    expect((await b.unarchivePricePoint(p.id, pp.id)).archivedAt).toBeUndefined();
    expect(await b.promotePricePoint(p.id, pp.id)).toMatchObject({ id: pp.id, type: "default" });
    expect((await b.readProduct(p.id)).defaultPricePointId).toBe(pp.id);
    await expect(b.archivePricePoint(p.id, pp.id)).rejects.toMatchObject({ status: 422 });
    await expect(b.createProduct(f.id, { handle: "pro", name: "Again", ...MONTHLY })).rejects.toMatchObject({
      status: 422,
      errors: [expect.stringMatching(/^handle: /)],
    });
    expect((await b.archiveProduct(p.id)).archivedAt).toEqual(expect.any(String));
    expect((await b.readProduct("pro")).archivedAt).toEqual(expect.any(String));
    expect((await b.listProducts()).map((x) => x.id)).not.toContain(p.id);
    expect((await b.listProducts({ includeArchived: true })).map((x) => x.id)).toContain(p.id);

    const { problems } = await contractRequestCheck(
      proxy.exchanges.map((e) => ({
        method: e.method,
        url: e.url,
        text: e.requestBody === undefined ? "" : JSON.stringify(e.requestBody),
      })),
    );
    expect(problems).toStrictEqual([]);
  });

  it.each([["product family"], ["product"], ["price point"]] as const)(
    "a %s create still processing when the client gives up: read back, re-sent with its token (409), settled, one made",
    async (kind) => {
      const { sim, billing: setup } = await site();
      const f = await setup.createProductFamily({ handle: "saas", name: "SaaS" });
      const p = await setup.createProduct(f.id, { handle: "pro", name: "Pro", ...MONTHLY });
      const b = clientOf(sim.url, { timeoutMs: 150, maxRetries: 2, migrationSettleSeconds: 5 });
      sim.injectFault({ kind: "processing", ms: 500, times: 1, match: { method: "POST" } });
      const made =
        kind === "product family"
          ? await b.createProductFamily({ handle: "addons", name: "Add-ons" })
          : kind === "product"
            ? await b.createProduct(f.id, { handle: "basic", name: "Basic", ...MONTHLY })
            : await b.createPricePoint(p.id, { handle: "annual", name: "Annual", ...MONTHLY, interval: 12 });
      expect(made.id).toBeGreaterThan(0);
      const count =
        kind === "product family"
          ? (await setup.listProductFamilies()).filter((x) => x.handle === "addons").length
          : kind === "product"
            ? (await setup.listProducts({ includeArchived: true })).filter((x) => x.handle === "basic").length
            : (await setup.listPricePoints(p.id, { includeArchived: true })).filter((x) => x.handle === "annual").length;
      expect(count).toBe(1);
      // Every POST of this create carried the one token (the setup's two creates come first).
      const posts = sim.requests.filter((r) => r.method === "POST").slice(2);
      expect(posts.length).toBeGreaterThanOrEqual(2);
      expect(new Set(posts.map((r) => r.uniquenessToken)).size).toBe(1);
      expect(posts.slice(1).every((r) => r.status === 409)).toBe(true);
    },
  );

  it("a component's taken handle and name (the contract's createPrepaidUsageComponent 422), and a rename to a taken name: refused, in the caller's words", async () => {
    const { billing } = await site();
    const f = await billing.createProductFamily({ handle: "saas", name: "SaaS" });
    const prices = [{ startingQuantity: 1, unitPrice: 1 }];
    const sms = { kind: "metered", handle: "sms", name: "SMS", unitName: "message", pricingScheme: "per_unit", prices } as const;
    const made = await billing.createComponent(f.id, sms);
    const refused = await billing.createComponent(f.id, sms).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BillingApiError);
    expect(refused).toMatchObject({
      status: 422,
      errors: ["handle: must be unique within a Site.", "name: must be unique - that value has been taken."],
    });
    const other = await billing.createComponent(f.id, { ...sms, handle: "texts", name: "Texts" });
    await expect(billing.updateComponent(f.id, other.id, { name: "SMS" })).rejects.toMatchObject({
      status: 422,
      errors: ["name: must be unique - that value has been taken."],
    });
    expect((await billing.listComponents({ familyId: f.id })).map((c) => [c.id, c.name])).toStrictEqual([
      [made.id, "SMS"],
      [other.id, "Texts"],
    ]);
  });

  it("an answer lost after the create applied (the simulator's reset after handling): found, not re-sent", async () => {
    const { sim, billing } = await site({}, { maxRetries: 2 });
    const f = await billing.createProductFamily({ handle: "saas", name: "SaaS" });
    sim.injectFault({ kind: "reset", times: 1, applyAfterHandling: true, match: { method: "POST" } });
    const p = await billing.createProduct(f.id, { handle: "pro", name: "Pro", ...MONTHLY });
    expect(p.handle).toBe("pro");
    expect(sim.requests.filter((r) => r.method === "POST" && r.path.endsWith("/products.json"))).toHaveLength(1);
  });

  it("503s on every attempt: CatalogOutcomeUnknownError, and the simulator holds nothing", async () => {
    const { sim, billing } = await site({}, { maxRetries: 1 });
    sim.injectFault({ kind: "status", status: 503, match: { method: "POST" } });
    const err = await billing.createProductFamily({ handle: "saas", name: "SaaS" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CatalogOutcomeUnknownError);
    expect((err as CatalogOutcomeUnknownError).cause).toBeInstanceOf(BillingApiError);
    sim.clearFaults();
    await expect(billing.readProductFamily("saas")).rejects.toMatchObject({ status: 404 });
  });
});
