import { afterEach, describe, expect, it } from "vitest";
import { couponProvider, productFamilyProvider } from "../../provider";
import { coupon, outputsOf } from "../../provider/kinds/coupon";
import { BillingClient } from "../../sdk/client";
import { BillingApiError } from "../../sdk/errors";
import type { Simulator } from "../../simulator";
import { captureOutput, configured, configureRequest, KEY, mutations } from "./support";

/**
 * Coupon paths the main test file (coupon.test.ts) never takes, which the mutation run found unchecked: a
 * family or restriction that names nothing, adopt: false (and a resumed create, which adopts all the same),
 * the service refusing an update and its other failures, a coupon gone at update, an end date declared as
 * a date while the service holds a date-time, the count added to a freed code, a replacement whose create
 * fails after the rename, a pending create's delete, the ids carried by check and read from the resource
 * id, and the recorded inputs that show drift. Against the simulator over a real socket; messages are exact.
 */

const spring = { productFamily: "handle:plans", code: "SPRING25", name: "Spring sale", percentage: 25 };
const steps = (sim: Simulator) => mutations(sim).map((r) => `${r.method} ${r.path}`);
const label = (code: string, id: number | string) => `coupon \`${code}\` (id ${id})`;
type Props = Record<string, unknown>;

describe("Coupon, its less travelled paths", () => {
  let sim: Simulator;
  let client: BillingClient | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
    await sim?.close();
  });

  /** The coupon provider against a site with products basic (1), pro (2), launch (3) in family "plans"; the site's host. */
  async function setup(extra: (url: string) => Record<string, string> = () => ({})) {
    const c = await configured(couponProvider);
    sim = c.sim;
    await c.provider.configure!(configureRequest({ "billing:baseUrl": sim.url, "billing:apiKey": KEY, ...extra(sim.url) }));
    return { coupons: c.provider, host: new URL(sim.url).host };
  }
  const held = (code: string) => sim.coupons().filter((c) => c.code === code);
  /** A second family, "addons", made through its own provider (as a program would). */
  async function addons() {
    const families = { ...productFamilyProvider };
    await families.configure!(configureRequest({ "billing:baseUrl": sim.url, "billing:apiKey": KEY }));
    return Number((await families.create({ handle: "addons", name: "Add-ons" })).id);
  }

  describe("a create refuses what names nothing, before anything is sent", () => {
    it.each([
      [
        "a family id the site does not have",
        { ...spring, productFamily: 999 },
        (host: string) => `productFamily: no product family has the id 999 at site ${host} (nothing was changed)`,
      ],
      [
        "a family handle the site does not have",
        { ...spring, productFamily: "handle:nosuch" },
        (host: string) =>
          `productFamily: no product family has the handle \`nosuch\` at site ${host}: declare a ProductFamily and pass its familyId (nothing was changed)`,
      ],
      [
        "a restricted component handle the site does not have",
        { ...spring, restrictedComponents: ["handle:nosuch"] },
        (host: string) =>
          `restrictedComponents: no component has the handle \`nosuch\` at site ${host}: each entry must be an existing component's id or "handle:<handle>"; for a Component declared in the same program, pass the Component (or its componentId) so that it is created first (nothing was changed)`,
      ],
    ])("%s", async (_, inputs, message) => {
      const { coupons, host } = await setup();
      await expect(coupons.create(inputs)).rejects.toThrow(new Error(message(host)));
      expect(mutations(sim)).toEqual([]);
      expect(sim.coupons()).toEqual([]);
    });
  });

  it("the kind's outputs of a coupon whose answer carries no code: the code is empty", async () => {
    await setup();
    const web = sim.addCoupon({ familyHandle: "plans", code: "WEB5", name: "Web", percentage: 5 });
    client = new BillingClient({ baseUrl: sim.url, apiKey: KEY, maxRetries: 0 });
    const read = await client.readCoupon(web.familyId, web.id);
    expect(outputsOf({ ...read, code: undefined }, undefined)).toEqual({ ...outputsOf(read, undefined), code: "" });
    expect(outputsOf(read, undefined).code).toBe("WEB5");
  });

  describe("adopt: false", () => {
    it("a create finding the code held in its family refuses, naming the coupon, and changes nothing", async () => {
      const { coupons } = await setup();
      const web = sim.addCoupon({ familyHandle: "plans", code: "SPRING25", name: "Made in the UI", percentage: 10 });
      sim.reset();
      await expect(coupons.create({ ...spring, adopt: false })).rejects.toThrow(
        new Error(`${label("SPRING25", web.id)} already exists and adopt is false: nothing was changed`),
      );
      expect(mutations(sim)).toEqual([]);
      expect(held("SPRING25")[0]).toMatchObject({ name: "Made in the UI", percentage: "10" });
    });

    it("a resumed pending create finding its coupon takes it, quietly: it is the one the earlier create made", async () => {
      const { coupons } = await setup();
      const inputs = { ...spring, adopt: false };
      // The earlier create's request landed after its read-back had found nothing, so the state is pending.
      const landed = sim.addCoupon({ familyHandle: "plans", code: "SPRING25", name: "Spring sale", percentage: 25 });
      const pending = { code: "SPRING25", args: inputs, pendingToken: "token-1" };
      sim.reset();
      const { result, error, text } = await captureOutput(() => coupons.update!("pending-token-1", pending, inputs));
      expect(error).toBeUndefined();
      expect(text).toBe("");
      expect(result?.outs).toMatchObject({ couponId: landed.id, code: "SPRING25", productFamilyId: landed.familyId });
      expect(result?.outs.pendingToken).toBeUndefined();
      expect(mutations(sim)).toEqual([]);
      expect(held("SPRING25")).toHaveLength(1);
    });
  });

  describe("update: the service's refusal, its other failures, a coupon gone", () => {
    it("a refusal names the declared fields that differ and each of the service's reasons; nothing changes", async () => {
      const { coupons } = await setup();
      const made = await coupons.create(spring);
      sim.addCoupon({ familyHandle: "plans", code: "LIVE10", name: "Live", percentage: 10 });
      sim.reset();
      const news = { ...spring, code: "LIVE10", name: "Renamed", endDate: "2000-01-01" };
      await expect(coupons.update!(made.id, made.outs, news)).rejects.toThrow(
        new Error(
          "Coupon `LIVE10`: the service refused the update of code, name, endDate: code: must be unique - that value has been taken.; Expiration Date cannot be in the past (nothing was changed)",
        ),
      );
      expect(steps(sim)).toEqual([`PUT /product_families/${made.outs.productFamilyId}/coupons/${made.id}.json`]);
      expect(held("SPRING25")[0]).toMatchObject({ id: Number(made.id), name: "Spring sale", endDate: null });
    });

    it("a failure other than a refusal is the SDK's own, as it was thrown", async () => {
      const { coupons } = await setup();
      const made = await coupons.create(spring);
      const path = `/product_families/${made.outs.productFamilyId}/coupons/${made.id}.json`;
      sim.injectFault({ kind: "status", status: 500, rate: 1, match: { method: "PUT" } });
      const { error } = await captureOutput(() => coupons.update!(made.id, made.outs, { ...spring, name: "Renamed" }));
      expect(error).toBeInstanceOf(BillingApiError);
      expect((error as BillingApiError).status).toBe(500);
      expect((error as Error).message).toBe(
        `PUT ${path} failed with 500: Internal Server Error; it may or may not have been applied (the read-back could not confirm it), so read it back before relying on either`,
      );
      sim.clearFaults();
      expect(held("SPRING25")[0]?.name).toBe("Spring sale");
    });

    it("a coupon the site no longer has: says to refresh, sends nothing", async () => {
      const { coupons } = await setup();
      const made = await coupons.create(spring);
      const gone = Number(made.id) + 1000;
      sim.reset();
      await expect(coupons.update!(String(gone), { ...made.outs, couponId: gone }, { ...spring, name: "Renamed" })).rejects.toThrow(
        new Error(`${label("SPRING25", gone)} no longer exists at the service: run \`pulumi refresh\` to drop it (nothing was changed)`),
      );
      expect(mutations(sim)).toEqual([]);
    });

    it("a read that fails otherwise is not taken for a coupon gone: the failure is the SDK's own", async () => {
      const { coupons } = await setup();
      const made = await coupons.create(spring);
      const path = `/product_families/${made.outs.productFamilyId}/coupons/${made.id}.json`;
      sim.injectFault({ kind: "status", status: 500, rate: 1, match: { method: "GET", path } });
      const { error } = await captureOutput(() => coupons.update!(made.id, made.outs, { ...spring, name: "Renamed" }));
      expect(error).toBeInstanceOf(BillingApiError);
      expect((error as Error).message).toBe(`GET ${path} failed with 500: Internal Server Error`);
      sim.clearFaults();
      expect(mutations(sim).filter((r) => r.method === "PUT")).toEqual([]);
    });
  });

  describe("an end date declared as a date, held as a date-time", () => {
    const tenoff = { productFamily: "handle:plans", code: "TENOFF", name: "Ten off", amountInCents: 1000, endDate: "2099-12-31" };

    it("is the same date: an update sends nothing, and no drift is recorded", async () => {
      const { coupons } = await setup();
      const made = await coupons.create(tenoff);
      expect(made.outs.endDate).toBe("2099-12-31T00:00:00Z");
      sim.reset();
      const { outs } = await coupons.update!(made.id, made.outs, tenoff);
      expect(mutations(sim)).toEqual([]);
      expect(outs.endDate).toBe("2099-12-31T00:00:00Z");
      expect(coupon.operations.recordedInputs(made.outs as never).endDate).toBe("2099-12-31");
      expect(await coupons.diff!(made.id, made.outs, tenoff)).toMatchObject({ changes: false });
    });

    it("another date is a change: the update sends it", async () => {
      const { coupons } = await setup();
      const made = await coupons.create(tenoff);
      sim.reset();
      const { outs } = await coupons.update!(made.id, made.outs, { ...tenoff, endDate: "2099-12-30" });
      expect(steps(sim)).toEqual([`PUT /product_families/${made.outs.productFamilyId}/coupons/${made.id}.json`]);
      expect(outs.endDate).toBe("2099-12-30T00:00:00Z");
      expect(held("TENOFF")[0]?.endDate).toBe("2099-12-30T00:00:00Z");
    });
  });

  describe("recorded inputs: the service's values for what is declared", () => {
    async function made() {
      const { coupons } = await setup();
      const { outs } = await coupons.create({ ...spring, stackable: true, endDate: "2099-12-31" });
      return outs as Props;
    }
    const recorded = (s: Props) => coupon.operations.recordedInputs(s as never) as Props;

    it("as created: the declaration", async () => {
      const s = await made();
      expect(recorded(s)).toEqual({ ...spring, stackable: true, endDate: "2099-12-31" });
    });

    it.each([
      ["a name changed at the service", { name: "Renamed in the UI" }, { name: "Renamed in the UI" }],
      ["another end date", { endDate: "2099-12-30T00:00:00Z" }, { endDate: "2099-12-30T00:00:00Z" }],
      ["a percentage coupon turned into an amount one", { percentage: null, amountInCents: 500 }, { percentage: null }],
      // A flag the service does not say (null) is not drift: the declaration stands.
      ["a flag the service leaves out", { stackable: null }, {}],
    ])("%s", async (_, change, drift) => {
      const s = await made();
      expect(recorded({ ...s, ...change })).toEqual({ ...spring, stackable: true, endDate: "2099-12-31", ...drift });
    });
  });

  describe("a replacement frees the old coupon's code first", () => {
    it("a count is added while the freed code is taken", async () => {
      const { coupons } = await setup();
      const addonsId = await addons();
      const old = await coupons.create(spring);
      sim.addCoupon({ familyHandle: "plans", code: `SPRING25-REPLACED-${old.id}`, percentage: 5 });
      const { result, error, text } = await captureOutput(() => coupons.create({ ...spring, productFamily: "handle:addons" }));
      expect(error).toBeUndefined();
      expect(text).toContain(
        `Coupon: ${label("SPRING25", old.id)} is renamed \`SPRING25-REPLACED-${old.id}-1\` to free its code for its replacement (productFamily); it is archived once the new one exists.`,
      );
      expect(sim.coupons().find((c) => c.id === Number(old.id))?.code).toBe(`SPRING25-REPLACED-${old.id}-1`);
      expect(held("SPRING25").map((c) => [c.id, c.familyId])).toEqual([[Number(result?.id), addonsId]]);
    });

    it("a create refused after the rename says the old coupon holds the freed code now", async () => {
      const { coupons } = await setup();
      const addonsId = await addons();
      const old = await coupons.create(spring);
      sim.reset();
      const { error } = await captureOutput(() => coupons.create({ ...spring, productFamily: "handle:addons", endDate: "2000-01-01" }));
      expect((error as Error).message).toBe(
        `POST /product_families/${addonsId}/coupons.json failed with 422: Expiration Date cannot be in the past. The old coupon holds the code \`SPRING25-REPLACED-${old.id}\` now. The create was not applied; the next \`pulumi up\` creates it.`,
      );
      expect(sim.coupons().map((c) => c.code)).toEqual([`SPRING25-REPLACED-${old.id}`]);
    });

    it("a create refused with nothing renamed is the SDK's own failure, as it was thrown", async () => {
      const { coupons } = await setup();
      const addonsId = await addons();
      const { error } = await captureOutput(() => coupons.create({ ...spring, productFamily: "handle:addons", endDate: "2000-01-01" }));
      expect(error).toBeInstanceOf(BillingApiError);
      expect((error as Error).message).toBe(
        `POST /product_families/${addonsId}/coupons.json failed with 422: Expiration Date cannot be in the past`,
      );
      expect(sim.coupons()).toEqual([]);
    });
  });

  it("a create whose outcome is unknown, at a named site, records the site with the pending create", async () => {
    const { coupons } = await setup((url) => ({ "billing:sites": JSON.stringify({ eu: { baseUrl: url, apiKey: KEY } }) }));
    sim.injectFault({ kind: "status", status: 503, rate: 1, match: { method: "POST" } });
    const inputs = { ...spring, site: "eu" };
    const { error } = await captureOutput(() => coupons.create(inputs));
    const partial = error as { id: string; properties: Props };
    const { __provider: _, ...recorded } = partial.properties;
    expect(recorded).toEqual({ code: "SPRING25", args: inputs, site: "eu", pendingToken: partial.id.slice("pending-".length) });
    sim.clearFaults();
  });

  it("a new code taken by a live coupon is a preview error that says nothing of archiving", async () => {
    const { coupons } = await setup();
    const made = await coupons.create(spring);
    const live = sim.addCoupon({ familyHandle: "plans", code: "LIVE10", percentage: 10 });
    const { failures } = await coupons.check!(spring, { ...spring, code: "LIVE10" });
    expect(failures).toEqual([
      { property: "code", reason: `the code \`LIVE10\` is taken by ${label("LIVE10", live.id)}: choose another code` },
    ]);
    expect(made.outs.code).toBe("SPRING25");
  });

  describe("check of an in-place update carries the coupon's ids", () => {
    it("from the earlier checked inputs, without asking the service", async () => {
      const { coupons } = await setup();
      const made = await coupons.create(spring);
      const ids = { couponId: Number(made.id), productFamilyId: made.outs.productFamilyId };
      sim.reset();
      const news = { ...spring, name: "Renamed" };
      expect(await coupons.check!({ ...spring, ...ids }, news)).toEqual({ inputs: { ...news, ...ids }, failures: [] });
      // The family's handle is read to check the new code against it; no coupon is looked for.
      expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /product_families/handle:plans.json"]);
    });

    it("looked up by code when the earlier inputs do not carry them", async () => {
      const { coupons } = await setup();
      const made = await coupons.create(spring);
      const news = { ...spring, name: "Renamed" };
      expect(await coupons.check!(spring, news)).toEqual({
        inputs: { ...news, couponId: Number(made.id), productFamilyId: made.outs.productFamilyId },
        failures: [],
      });
    });
  });

  describe("read: the resource id is the coupon's only when it is all digits", () => {
    it.each([
      ["its id", (id: string) => id, true],
      ["digits after a prefix", (id: string) => `x${id}`, false],
      ["digits before a suffix", (id: string) => `${id}x`, false],
      ["a leading zero", (id: string) => `0${id}`, false],
    ])("%s", async (_, idOf, read) => {
      const { coupons } = await setup();
      const { id, outs } = await coupons.create(spring);
      const { couponId: _id, ...unrecorded } = outs;
      sim.reset();
      const stale = { ...unrecorded, name: "stale" };
      const got = await coupons.read!(idOf(id), stale);
      expect(got).toEqual({ id: idOf(id), props: read ? outs : stale });
      expect(sim.requests.length).toBe(read ? 1 : 0);
    });
  });

  describe("delete of a pending create looks for the coupon by its code", () => {
    const pending = { code: "SPRING25", args: spring, pendingToken: "token-1" };

    it("found: archived", async () => {
      const { coupons } = await setup();
      const landed = sim.addCoupon({ familyHandle: "plans", code: "SPRING25", name: "Spring sale", percentage: 25 });
      sim.reset();
      const { error, text } = await captureOutput(() => coupons.delete!("pending-token-1", pending));
      expect(error).toBeUndefined();
      expect(text).toBe(
        `Coupon: archived ${label("SPRING25", landed.id)}; subscriptions using it keep it, and the service keeps its code taken.\n`,
      );
      expect(steps(sim)).toEqual([`DELETE /product_families/${landed.familyId}/coupons/${landed.id}.json`]);
      expect(held("SPRING25")[0]?.archivedAt).toEqual(expect.any(String));
    });

    it("not found: nothing to archive, said so", async () => {
      const { coupons } = await setup();
      sim.reset();
      const { error, text } = await captureOutput(() => coupons.delete!("pending-token-1", pending));
      expect(error).toBeUndefined();
      expect(text).toBe("Coupon: the pending create of `SPRING25` made no coupon; nothing to archive.\n");
      expect(mutations(sim)).toEqual([]);
    });
  });
});
