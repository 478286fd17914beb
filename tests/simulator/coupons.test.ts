import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator";
import { call, start } from "./helpers";
import { notFound } from "./lookup-helpers";

// Coupons over real HTTP: create (percentage or amount, restrictions by id), read, update, archive, find by code,
// the lists (30 a page, filter[ids], filter[codes]); the service's rules as a table of 422s.

const NOW = new Date("2026-01-15T12:00:00Z");

/** Family "plans" (9001, the site's first: its default), "addons" (9002); product "pro"; component "seats". */
async function site(): Promise<{ sim: Simulator; pro: number; seats: number }> {
  const sim = await start({ now: () => NOW });
  sim.addProductFamily({ id: 9001, handle: "plans", name: "Plans" });
  sim.addProductFamily({ id: 9002, handle: "addons", name: "Add-ons" });
  const pro = sim.addProduct({ handle: "pro", name: "Pro", familyHandle: "plans" }).id;
  const seats = sim.addComponent({ familyHandle: "plans", kind: "quantity_based", handle: "seats", name: "Seats" }).id;
  return { sim, pro, seats };
}

const coupon = (extra: Record<string, unknown> = {}) => ({ name: "Ten off", code: "TEN", percentage: 10, ...extra });

describe("POST /product_families/{id}/coupons.json", () => {
  it("a percentage coupon: 201, percent, restrictions named by the site's items", async () => {
    const { sim, pro, seats } = await site();
    const res = await call(sim, "POST", "/product_families/9001/coupons.json", {
      body: {
        coupon: coupon({ recurring: true, duration_period_count: 3 }),
        restricted_products: { [pro]: true },
        restricted_components: { [seats]: true },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.coupon).toMatchObject({
      code: "TEN",
      percentage: "10",
      amount_in_cents: null,
      amount: null,
      discount_type: "percent",
      recurring: true,
      recurring_scheme: "recur_with_duration",
      duration_period_count: 3,
      product_family_id: 9001,
      product_family_name: "Plans",
      archived_at: null,
      compounding_strategy: "compound",
    });
    expect(res.body.coupon.coupon_restrictions.map((r: any) => [r.item_type, r.item_id, r.name, r.handle])).toEqual([
      ["Product", pro, "Pro", "pro"],
      ["Component", seats, "Seats", "seats"],
    ]);
  });

  it("an amount coupon: amount in cents and dollars, discount_type amount, does not recur", async () => {
    const { sim } = await site();
    const res = await call(sim, "POST", "/product_families/9002/coupons.json", {
      body: { coupon: { name: "$5 off", code: "FIVE.OFF@EXAMPLE.COM", amount_in_cents: 500 } },
    });
    expect(res.status).toBe(201);
    expect(res.body.coupon).toMatchObject({
      amount_in_cents: 500,
      amount: 5,
      percentage: null,
      discount_type: "amount",
      recurring_scheme: "do_not_recur",
    });
  });

  const RULES: [string, Record<string, unknown>, string[]][] = [
    [
      "a lowercase code",
      { coupon: coupon({ code: "ten" }) },
      ["Code: may only contain uppercase letters, numbers, and the characters '%', '@', '+', '-', '_', and '.'."],
    ],
    [
      "a code with a space",
      { coupon: coupon({ code: "TEN OFF" }) },
      ["Code: may only contain uppercase letters, numbers, and the characters '%', '@', '+', '-', '_', and '.'."],
    ],
    [
      "a code with a slash",
      { coupon: coupon({ code: "TEN/OFF" }) },
      ["Code: may only contain uppercase letters, numbers, and the characters '%', '@', '+', '-', '_', and '.'."],
    ],
    ["no code", { coupon: coupon({ code: undefined }) }, ["Code: cannot be blank."]],
    ["no name", { coupon: coupon({ name: "" }) }, ["Name: cannot be blank."]],
    [
      "both percentage and amount",
      { coupon: coupon({ amount_in_cents: 100 }) },
      ["Coupon: give a percentage or an amount_in_cents, not both."],
    ],
    [
      "neither percentage nor amount",
      { coupon: coupon({ percentage: undefined }) },
      ["Coupon: a percentage or an amount_in_cents is required."],
    ],
    ["a percentage over 100", { coupon: coupon({ percentage: 101 }) }, ["Percentage: must be greater than 0 and at most 100."]],
    [
      "an end date in the past (the published 422)",
      { coupon: coupon({ end_date: "2025-12-31T00:00:00Z" }) },
      ["Expiration Date cannot be in the past"],
    ],
    ["an unknown product", { coupon: coupon(), restricted_products: { "777": true } }, ["Restricted products: no product has id 777."]],
    [
      "an unknown component",
      { coupon: coupon(), restricted_components: { "777": true } },
      ["Restricted components: no component has id 777."],
    ],
    [
      "a code taken (archived coupons keep theirs)",
      { coupon: coupon({ code: "OLD" }) },
      ["Code: must be unique - that value has been taken."],
    ],
    ["no coupon object", { name: "x" }, ["coupon must be an Object"]],
  ];
  it.each(RULES)("%s: 422 %j", async (_what, body, errors) => {
    const { sim } = await site();
    sim.addCoupon({ familyHandle: "addons", code: "OLD", amountInCents: 100, archived: true });
    const res = await call(sim, "POST", "/product_families/9001/coupons.json", { body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ errors });
    expect(sim.coupons()).toHaveLength(1);
  });

  it("every allowed special character is taken", async () => {
    const { sim } = await site();
    const res = await call(sim, "POST", "/product_families/9001/coupons.json", { body: { coupon: coupon({ code: "A%B@C+D-E_F.G9" }) } });
    expect(res.status).toBe(201);
  });
});

describe("read, update, archive, find", () => {
  it("PUT changes what it names; an amount replaces a percentage; restrictions true adds, false removes", async () => {
    const { sim, pro, seats } = await site();
    const c = sim.addCoupon({ familyHandle: "plans", code: "TEN", percentage: 10, restrictedProducts: ["pro"] });
    const res = await call(sim, "PUT", `/product_families/9001/coupons/${c.id}.json`, {
      body: {
        coupon: { name: "Ten dollars", amount_in_cents: 1000 },
        restricted_products: { [pro]: false },
        restricted_components: { [seats]: true },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.coupon).toMatchObject({ name: "Ten dollars", amount_in_cents: 1000, percentage: null, code: "TEN" });
    expect(res.body.coupon.coupon_restrictions.map((r: any) => r.item_type)).toEqual(["Component"]);
    expect((await call(sim, "GET", `/product_families/9001/coupons/${c.id}.json`)).body.coupon.name).toBe("Ten dollars");
    expect((await call(sim, "GET", `/product_families/9002/coupons/${c.id}.json`)).status).toBe(404);
  });

  it("DELETE archives and keeps the code; archived coupons are still found and listed", async () => {
    const { sim } = await site();
    const c = sim.addCoupon({ familyHandle: "plans", code: "TEN", percentage: 10 });
    const res = await call(sim, "DELETE", `/product_families/9001/coupons/${c.id}.json`);
    expect(res.body.coupon.archived_at).toBe("2026-01-15T12:00:00Z");
    expect((await call(sim, "DELETE", `/product_families/9001/coupons/${c.id}.json`)).status).toBe(422);
    expect((await call(sim, "GET", "/coupons/find.json?code=TEN")).body.coupon.archived_at).not.toBeNull();
    expect((await call(sim, "GET", "/coupons.json")).body).toHaveLength(1);
  });

  it("find by code: the default (first) family without product_family_id, any family with it", async () => {
    const { sim } = await site();
    sim.addCoupon({ familyHandle: "addons", code: "ADDON", amountInCents: 100 });
    sim.addCoupon({ familyHandle: "plans", code: "PLAN", amountInCents: 100 });
    expect((await call(sim, "GET", "/coupons/find.json?code=PLAN")).body.coupon.code).toBe("PLAN");
    await notFound(sim, "/coupons/find.json?code=ADDON");
    expect((await call(sim, "GET", "/coupons/find.json?code=ADDON&product_family_id=9002")).body.coupon.code).toBe("ADDON");
    await notFound(sim, "/coupons/find.json?code=NOPE&product_family_id=9002");
  });
});

describe("GET /coupons.json and /product_families/{id}/coupons.json", () => {
  it("30 a page by default, oldest first, filter[ids] and filter[codes], by family", async () => {
    const { sim } = await site();
    const made = Array.from({ length: 65 }, (_, i) =>
      sim.addCoupon({ familyHandle: i % 2 ? "addons" : "plans", code: `C${String(i).padStart(2, "0")}`, percentage: 5 }),
    );
    const codes = async (p: string) => (await call(sim, "GET", p)).body.map((x: any) => x.coupon.code);
    expect(await codes("/coupons.json")).toEqual(made.slice(0, 30).map((c) => c.code));
    expect(await codes("/coupons.json?page=3")).toEqual(made.slice(60).map((c) => c.code));
    expect(await codes("/coupons.json?per_page=200")).toHaveLength(65);
    expect(await codes("/product_families/9002/coupons.json?per_page=200")).toHaveLength(32);
    expect(await codes(`/coupons.json?filter[ids]=${made[3].id},${made[1].id}`)).toEqual(["C01", "C03"]);
    expect(await codes("/product_families/9001/coupons.json?filter[codes]=C00,C02,C01")).toEqual(["C00", "C02"]);
  });
});

describe("seeding: addCoupon", () => {
  it("restrictions by handle; the API's code rule; exactly one of percentage and amount", async () => {
    const { sim, pro, seats } = await site();
    const c = sim.addCoupon({
      familyHandle: "plans",
      code: "BOTH",
      percentage: "12.5",
      restrictedProducts: ["pro"],
      restrictedComponents: ["seats"],
    });
    expect(c.restrictions.map((r) => [r.itemType, r.itemId])).toEqual([
      ["Product", pro],
      ["Component", seats],
    ]);
    expect(c.percentage).toBe("12.5");
    expect(() => sim.addCoupon({ familyHandle: "plans", code: "lower", percentage: 1 })).toThrow(/uppercase/);
    expect(() => sim.addCoupon({ familyHandle: "plans", code: "X", percentage: 1, amountInCents: 1 })).toThrow(/one of them/);
    expect(() => sim.addCoupon({ familyHandle: "plans", code: "Y", percentage: 1, restrictedProducts: ["nope"] })).toThrow(/no product/);
  });
});
