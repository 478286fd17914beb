import { describe, expect, it } from "vitest";
import { BillingConnectionError, BillingValidationError, type Coupon } from "../../sdk";
import { componentsService } from "./components-fake-service";
import { clientOf, site } from "./helpers";

/**
 * Coupons (sdk/catalog/coupons.ts) and the argument checks they share (checks.ts, components.ts)
 * against the simulator, pinned where the mutation run found them unchecked: the read-back that
 * settles an update whose answer was lost compares the code, the name and the discount given (a
 * percentage or an amount), and takes the coupon read back only when each of them holds; and the
 * refusals before anything is sent, word for word. One test uses the in-memory components service,
 * to answer a coupon in a shape the simulator never does (a percentage with amount_in_cents 0).
 */

type Billing = Awaited<ReturnType<typeof site>>["billing"];

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
    const svc = await componentsService();
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

/** The validation error `p` rejects with; a failed expectation when it rejects with anything else or resolves. */
async function refused(p: Promise<unknown>): Promise<BillingValidationError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BillingValidationError);
  return err as BillingValidationError;
}

describe("coupon and component arguments refused before anything is sent", () => {
  const ID = (property: string, got: string) => ({ property, message: `must be a positive integer id, got ${got}` });

  it.each([
    ["readCoupon, familyId 0", (b: Billing) => b.readCoupon(0, 1), "invalid coupon", [ID("familyId", "0")]],
    ["readCoupon, couponId -1", (b: Billing) => b.readCoupon(1, -1), "invalid coupon", [ID("couponId", "-1")]],
    ["archiveCoupon, both ids", (b: Billing) => b.archiveCoupon(1.5, 0), "invalid coupon", [ID("familyId", "1.5"), ID("couponId", "0")]],
    ["updateCoupon, couponId 0", (b: Billing) => b.updateCoupon(1, 0, PERCENT), "invalid coupon", [ID("couponId", "0")]],
    ["readComponent, componentId 0", (b: Billing) => b.readComponent(1, 0), "invalid component", [ID("componentId", "0")]],
    ["archiveComponent, familyId 0", (b: Billing) => b.archiveComponent(0, 1), "invalid component", [ID("familyId", "0")]],
    ["listCoupons, familyId 0", (b: Billing) => b.listCoupons({ familyId: 0 }), "invalid coupon list", [ID("familyId", "0")]],
    ["listProducts, familyId -2", (b: Billing) => b.listProducts({ familyId: -2 }), "invalid product list", [ID("familyId", "-2")]],
  ] as const)("%s", async (_, call, what, problems) => {
    const { sim, billing } = await site();
    const err = await refused(call(billing));
    expect(err.problems).toStrictEqual(problems);
    expect(err.message).toBe(`${what}: ${problems.map((p) => `${p.property}: ${p.message}`).join("; ")}`);
    expect(sim.requests).toStrictEqual([]);
  });

  it("findCoupon: a code that is not one, named code, with the family checked too", async () => {
    const { sim, billing } = await site();
    const err = await refused(billing.findCoupon("spring", { familyId: 0 }));
    expect(err.problems).toStrictEqual([
      {
        property: "code",
        message: 'must be only uppercase letters, digits and "%", "@", "+", "-", "_", "." (uppercase: "SPRING"), got "spring"',
      },
      ID("familyId", "0"),
    ]);
    expect(err.message).toBe(
      'invalid coupon code: code: must be only uppercase letters, digits and "%", "@", "+", "-", "_", "." (uppercase: "SPRING"), got "spring"; familyId: must be a positive integer id, got 0',
    );
    expect(sim.requests).toStrictEqual([]);
  });

  it("findCoupon: a good code in a bad family, the family alone named", async () => {
    const { sim, billing } = await site();
    const err = await refused(billing.findCoupon("SPRING", { familyId: -1 }));
    expect(err.message).toBe("invalid coupon code: familyId: must be a positive integer id, got -1");
    expect(sim.requests).toStrictEqual([]);
  });

  it("listCoupons: a code in the list that is not one, named codes", async () => {
    const { sim, billing } = await site();
    const err = await refused(billing.listCoupons({ codes: ["SPRING", "fall"] }));
    const message = 'must be only uppercase letters, digits and "%", "@", "+", "-", "_", "." (uppercase: "FALL"), got "fall"';
    expect(err.problems).toStrictEqual([{ property: "codes", message }]);
    expect(err.message).toBe(`invalid coupon list: codes: ${message}`);
    expect(sim.requests).toStrictEqual([]);
  });

  it("createCoupon: a good coupon in family 0 is refused for the family alone", async () => {
    const { sim, billing } = await site();
    const err = await refused(billing.createCoupon(0, PERCENT));
    expect(err.problems).toStrictEqual([ID("familyId", "0")]);
    expect(err.message).toBe("invalid coupon: familyId: must be a positive integer id, got 0");
    expect(sim.requests).toStrictEqual([]);
  });

  it.each([
    ["an empty string", ""],
    ["a number", 42],
    ["null", null],
  ] as const)("createCoupon: a uniquenessToken that is %s", async (_, token) => {
    const { sim, billing } = await site();
    const f = await billing.createProductFamily({ handle: "saas", name: "SaaS" });
    sim.reset();
    const err = await refused(billing.createCoupon(f.id, PERCENT, { uniquenessToken: token as never }));
    const problem = { property: "uniquenessToken", message: "must be a non-empty string (the token of the create being resumed)" };
    expect(err.problems).toStrictEqual([problem]);
    expect(err.message).toBe(`invalid coupon: uniquenessToken: ${problem.message}`);
    expect(sim.requests).toStrictEqual([]);
  });

  it("createCoupon: a token given is the one sent", async () => {
    const { sim, billing } = await site();
    const f = await billing.createProductFamily({ handle: "saas", name: "SaaS" });
    sim.reset();
    const made = await billing.createCoupon(f.id, PERCENT, { uniquenessToken: "t-1" });
    expect(held(made)).toStrictEqual({ code: "SPRING", name: "Spring", percentage: "15", amountInCents: undefined });
    expect(sim.requests.map((r) => (r.body as { uniqueness_token?: string }).uniqueness_token)).toStrictEqual(["t-1"]);
  });
});
