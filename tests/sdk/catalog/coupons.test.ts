import { describe, expect, it } from "vitest";
import { type BillingClient, BillingConnectionError, type Coupon } from "../../../sdk";
import { clientOf, rejection, requestLog, site } from "../helpers";
import { fakeService, TWO_FAMILIES } from "./fake-service";
import { siteWithFamilies } from "./simulator-fixtures";

/**
 * Coupons (sdk/catalog/coupons.ts) through BillingClient: reads repeated after a 500, findCoupon without a family,
 * listCoupons by codes, an update with restrictions alone (which reads the coupon first), and the read-backs that
 * settle an update or archive whose answer was lost (taken only when the code, the name and the discount asked hold).
 * Against the simulator; one test uses the in-memory service (fake-service.ts) to answer a coupon in a shape the
 * simulator never writes (a percentage with amount_in_cents 0).
 */

const LOST = { kind: "reset", applyAfterHandling: true, times: 1, match: { method: "PUT" } } as const;

const UNSENT = { kind: "reset", times: 1, match: { method: "PUT" } } as const;

const PERCENT = { code: "SPRING", name: "Spring", percentage: 15 } as const;

const AMOUNT = { code: "FLAT", name: "Flat", amountInCents: 500 } as const;

/** A site with one family and one coupon made from `input`; the request log emptied. */
async function coupon(input: typeof PERCENT | typeof AMOUNT) {
  const s = await site({}, { maxRetries: 0 });
  const f = await s.billing.createProductFamily({ handle: "saas", name: "SaaS" });
  const c = await s.billing.createCoupon(f.id, input);
  s.sim.reset();
  const path = `/product_families/${f.id}/coupons/${c.id}.json`;
  return { ...s, f, c, path };
}

const seen = (sim: { requests: { method: string; path: string }[] }) => sim.requests.map((r) => `${r.method} ${r.path}`);

const held = (c: Coupon) => ({ code: c.code, name: c.name, percentage: c.percentage, amountInCents: c.amountInCents });

describe("updateCoupon whose answer is lost and that applied: the coupon read back is the result", () => {
  it.each([
    ["a percentage coupon, new name and percentage", PERCENT, { ...PERCENT, name: "Spring!", percentage: 20 }, "20", undefined],
    ["a percentage coupon, the same percentage", PERCENT, PERCENT, "15", undefined],
    ["a percentage coupon turned into an amount", PERCENT, { code: "SPRING", name: "Spring", amountInCents: 700 }, undefined, 700],
    ["an amount coupon, new amount", AMOUNT, { ...AMOUNT, amountInCents: 700 }, undefined, 700],
    ["an amount coupon turned into a percentage", AMOUNT, { code: "FLAT", name: "Flat", percentage: 25 }, "25", undefined],
    ["an amount coupon, a new code", AMOUNT, { ...AMOUNT, code: "FLAT2" }, undefined, 500],
  ] as const)("%s", async (_, made, input, percentage, amountInCents) => {
    const { sim, billing, f, c, path } = await coupon(made);
    sim.injectFault(LOST);
    const updated = await billing.updateCoupon(f.id, c.id, input);
    expect(held(updated)).toStrictEqual({ code: input.code, name: input.name, percentage, amountInCents });
    expect(updated.id).toBe(c.id);
    expect(seen(sim)).toStrictEqual([`PUT ${path}`, `GET ${path}`]);
    expect(await billing.readCoupon(f.id, c.id)).toStrictEqual(updated);
    expect(await billing.listCoupons({ includeArchived: true })).toStrictEqual([updated]);
  });
});

describe("updateCoupon whose answer is lost and that did not apply: a coupon that differs is not taken for it", () => {
  it.each([
    ["the code differs (name and percentage as asked)", PERCENT, { ...PERCENT, code: "SUMMER" }],
    ["the name differs (code and percentage as asked)", PERCENT, { ...PERCENT, name: "Spring!" }],
    ["the percentage differs (code and name as asked)", PERCENT, { ...PERCENT, percentage: 20 }],
    ["the code differs (name and amount as asked)", AMOUNT, { ...AMOUNT, code: "FLAT2" }],
    ["the name differs (code and amount as asked)", AMOUNT, { ...AMOUNT, name: "Flat!" }],
    ["the amount differs (code and name as asked)", AMOUNT, { ...AMOUNT, amountInCents: 700 }],
    ["an amount asked of a percentage coupon", PERCENT, { code: "SPRING", name: "Spring", amountInCents: 1500 }],
    ["a percentage asked of an amount coupon", AMOUNT, { code: "FLAT", name: "Flat", percentage: 5 }],
  ] as const)("%s: the failure, saying it may have applied", async (_, made, input) => {
    const { sim, billing, f, c, path } = await coupon(made);
    sim.injectFault(UNSENT);
    const err = await billing.updateCoupon(f.id, c.id, input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingConnectionError);
    expect((err as Error).message).toBe(
      `PUT ${path}: read ECONNRESET (ECONNRESET); it may or may not have been applied (the read-back could not confirm it), so read it back before relying on either`,
    );
    expect(err).toMatchObject({ mayHaveApplied: true });
    expect(seen(sim)).toStrictEqual([`PUT ${path}`, `GET ${path}`]);
    expect(await billing.readCoupon(f.id, c.id)).toStrictEqual(c);
  });
});

describe("updateCoupon's read-back compares only the discount asked", () => {
  it("a percentage coupon answered with amount_in_cents 0 (as the vendor's list example is): the amount, not asked, is not compared", async () => {
    const svc = await fakeService({ families: TWO_FAMILIES });
    const billing = clientOf(svc.url, { maxRetries: 0 });
    const c = await billing.createCoupon(1, { code: "TEN", name: "Ten", percentage: 10 });
    Object.assign(svc.coupons[0], { amount_in_cents: 0, amount: 0 });
    svc.requests.length = 0;
    svc.fault({ kind: "reset-before", method: "PUT" });
    const same = await billing.updateCoupon(1, c.id, { code: "TEN", name: "Ten", percentage: 10 });
    expect(held(same)).toStrictEqual({ code: "TEN", name: "Ten", percentage: "10", amountInCents: 0 });
    expect(same).toStrictEqual({ ...c, amountInCents: 0 });
    expect(svc.seen()).toStrictEqual([`PUT /product_families/1/coupons/${c.id}.json`, `GET /product_families/1/coupons/${c.id}.json`]);
  });
});

describe("coupon reads are repeated after a 500, as a read may be", () => {
  it.each<[string, string, (b: BillingClient, id: number) => Promise<unknown>]>([
    ["readCoupon", "/product_families/1/coupons/ID.json", (b, id) => b.readCoupon(1, id)],
    ["findCoupon", "/coupons/find.json", (b) => b.findCoupon("SPRING", { familyId: 1 })],
    ["listCoupons", "/coupons.json", (b) => b.listCoupons()],
  ])("%s", async (_, pathTemplate, op) => {
    const { sim, billing } = await siteWithFamilies({ maxRetries: 1 });
    const c = await billing.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15 });
    sim.reset();
    const path = pathTemplate.replace("ID", String(c.id));
    sim.injectFault({ kind: "status", status: 500, times: 1, match: { method: "GET", path } });
    const got = (await op(billing, c.id)) as { id: number; code: string } | { id: number; code: string }[];
    expect((Array.isArray(got) ? got : [got]).map((x) => [x.id, x.code])).toStrictEqual([[c.id, "SPRING"]]);
    expect(requestLog(sim)).toStrictEqual([`GET ${path} 500`, `GET ${path} 200`]);
  });
});

describe("findCoupon without a family sends no family and is not refused", () => {
  it("a coupon of the default family found by code alone", async () => {
    const { sim, billing } = await site({}, { maxRetries: 0 });
    const fam = await billing.createProductFamily({ handle: "plans", name: "Plans" });
    await billing.createCoupon(fam.id, { code: "SPRING", name: "Spring", percentage: 15 });
    sim.reset();
    const got = await billing.findCoupon("SPRING");
    expect([got.code, got.name]).toStrictEqual(["SPRING", "Spring"]);
    expect(sim.requests.map((r) => [r.path, r.query])).toStrictEqual([["/coupons/find.json", { code: "SPRING" }]]);
  });
});

describe("listCoupons by codes", () => {
  it("an empty list of codes matches none and sends nothing", async () => {
    const { sim, billing } = await siteWithFamilies();
    await billing.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15 });
    sim.reset();
    expect(await billing.listCoupons({ codes: [] })).toStrictEqual([]);
    expect(sim.requests).toStrictEqual([]);
  });

  it("the codes go in filter[codes], joined by commas, and only those coupons come back", async () => {
    const { sim, billing } = await siteWithFamilies();
    await billing.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15 });
    await billing.createCoupon(1, { code: "SUMMER", name: "Summer", percentage: 10 });
    await billing.createCoupon(2, { code: "FALL", name: "Fall", amountInCents: 300 });
    sim.reset();
    const got = await billing.listCoupons({ codes: ["SPRING", "FALL"] });
    expect(got.map((c) => c.code).sort()).toStrictEqual(["FALL", "SPRING"]);
    expect(sim.requests.map((r) => [r.path, r.query])).toStrictEqual([
      ["/coupons.json", { page: "1", per_page: "200", "filter[codes]": "SPRING,FALL" }],
    ]);
  });
});

describe("updateCoupon with restricted components alone reads the coupon first, to lift those left out", () => {
  it("a component restriction the input leaves out is sent as false", async () => {
    const { sim, billing } = await siteWithFamilies();
    sim.addComponent({ id: 30001, familyId: 1, kind: "on_off", handle: "support", name: "Support" });
    sim.addComponent({ id: 30002, familyId: 1, kind: "on_off", handle: "care", name: "Care" });
    const c = await billing.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15, restrictedComponents: [30001, 30002] });
    sim.reset();
    const got = await billing.updateCoupon(1, c.id, { code: "SPRING", name: "Spring", percentage: 15, restrictedComponents: [30002] });
    expect(got.restrictions.map((r) => [r.itemType, r.itemId])).toStrictEqual([["Component", 30002]]);
    const path = `/product_families/1/coupons/${c.id}.json`;
    expect(requestLog(sim)).toStrictEqual([`GET ${path} 200`, `PUT ${path} 200`]);
    const body = sim.requests[1].body as { restricted_components: Record<string, boolean> };
    expect(body.restricted_components).toStrictEqual({ 30001: false, 30002: true });
  });
});

describe("archiveCoupon whose request was lost before it applied is not taken as archived", () => {
  it("the read-back sees a live coupon: the failure stands", async () => {
    const { sim, billing } = await siteWithFamilies();
    const c = await billing.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15 });
    sim.reset();
    sim.injectFault({ kind: "reset", times: 1, match: { method: "DELETE" } });
    const err = await rejection(billing.archiveCoupon(1, c.id));
    expect([(err as Error).name, (err as Error).message]).toStrictEqual([
      "BillingConnectionError",
      `DELETE /product_families/1/coupons/${c.id}.json: read ECONNRESET (ECONNRESET); it may or may not have been applied ` +
        "(the read-back could not confirm it), so read it back before relying on either",
    ]);
    expect(requestLog(sim)).toStrictEqual([
      `DELETE /product_families/1/coupons/${c.id}.json 0`,
      `GET /product_families/1/coupons/${c.id}.json 200`,
    ]);
    expect((await billing.readCoupon(1, c.id)).archivedAt).toBe(undefined);
  });
});
