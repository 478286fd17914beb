import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator";
import { call, start } from "./helpers";

// Offers over real HTTP: create from the site's catalogue (its references checked, refused in the published
// {"errors":{field:[…]}} shape), read, list (archived ones on request), archive and unarchive (200, no body); no update.

/**
 * Family "saas" (9001); product "pro" (31: default 101, "annual" 102, archived "old" 103) and archived "legacy";
 * components "invoices" (24, quantity based, price points 104 default and 105) and "support" (25, on/off); coupons
 * DEF456 and archived GONE.
 */
async function site(): Promise<Simulator> {
  const sim = await start({ now: () => new Date("2026-05-01T12:00:00Z") });
  sim.addProductFamily({ id: 9001, handle: "saas", name: "SaaS" });
  sim.addProduct({
    id: 31,
    handle: "pro",
    name: "Pro",
    familyHandle: "saas",
    pricePoints: [
      { id: 101, handle: "monthly", name: "Monthly", default: true, priceInCents: 2000 },
      { id: 102, handle: "annual", priceInCents: 20000, intervalMonths: 12 },
      { id: 103, handle: "old", archived: true },
    ],
  });
  sim.addProduct({ id: 32, handle: "legacy", familyHandle: "saas", archived: true });
  sim.addComponent({
    id: 24,
    familyHandle: "saas",
    kind: "quantity_based",
    handle: "invoices",
    name: "Invoices",
    unitPrice: 3,
    pricePoints: [{ id: 105, handle: "cheap", unitPrice: 2 }],
  });
  sim.addComponent({ id: 25, familyHandle: "saas", kind: "on_off", handle: "support", name: "Support", unitPrice: 10 });
  sim.addCoupon({ id: 3, familyHandle: "saas", code: "DEF456", name: "IB Loyalty", amountInCents: 500 });
  sim.addCoupon({ id: 4, familyHandle: "saas", code: "GONE", amountInCents: 100, archived: true });
  return sim;
}

const solo = (extra: Record<string, unknown> = {}) => ({
  name: "Solo",
  handle: "han_shot_first",
  description: "A Star Wars Story",
  product_id: 31,
  ...extra,
});

describe("POST /offers.json", () => {
  it("the published example's shape: 201, the product's default price point, component items, coupon discounts", async () => {
    const sim = await site();
    const res = await call(sim, "POST", "/offers.json", {
      body: { offer: solo({ components: [{ component_id: 24, starting_quantity: 1 }], coupons: ["DEF456"] }) },
    });
    expect(res.status).toBe(201);
    expect(res.body.offer).toEqual({
      id: expect.any(Number),
      site_id: 1,
      product_family_id: 9001,
      product_family_name: "SaaS",
      product_id: 31,
      product_name: "Pro",
      product_price_in_cents: 2000,
      product_revisable_number: 0,
      product_price_point_id: 101,
      product_price_point_name: "Monthly",
      name: "Solo",
      handle: "han_shot_first",
      description: "A Star Wars Story",
      created_at: "2026-05-01T12:00:00Z",
      updated_at: "2026-05-01T12:00:00Z",
      archived_at: null,
      offer_items: [
        {
          component_id: 24,
          component_name: "Invoices",
          component_unit_price: "3.0",
          price_point_id: sim.components()[0].pricePoints.find((p) => p.default)?.id,
          price_point_name: "Original",
          starting_quantity: "1.0",
          editable: false,
          currency_prices: [],
        },
      ],
      offer_discounts: [{ coupon_id: 3, coupon_code: "DEF456", coupon_name: "IB Loyalty" }],
      offer_signup_pages: [],
    });
  });

  it("a chosen product price point and component price point; empty lists as the vendor's suite reads them", async () => {
    const sim = await site();
    const res = await call(sim, "POST", "/offers.json", {
      body: { offer: solo({ product_price_point_id: 102, components: [{ component_id: 24, price_point_id: 105, starting_quantity: 5 }] }) },
    });
    expect(res.body.offer).toMatchObject({ product_price_point_id: 102, product_price_in_cents: 20000, offer_discounts: [] });
    expect(res.body.offer.offer_items[0]).toMatchObject({ price_point_id: 105, component_unit_price: "2.0", starting_quantity: "5.0" });
    const bare = await call(sim, "POST", "/offers.json", {
      body: { offer: { name: "B", handle: "bare", product_id: 31, components: [] } },
    });
    expect(bare.body.offer).toMatchObject({ description: null, offer_items: [], offer_discounts: [], offer_signup_pages: [] });
  });

  const RULES: [string, Record<string, unknown>, Record<string, string[]>][] = [
    [
      "a blank name and handle (the vendor's suite)",
      { offer: solo({ name: "", handle: "" }) },
      { name: ["Name cannot be blank."], handle: ["Handle cannot be blank."] },
    ],
    [
      "a handle with a space (the vendor's suite)",
      { offer: solo({ handle: "han_shot_first A" }) },
      { handle: ["Handle is invalid. Handles can only contain lowercase letters, numbers, dashes and underscores."] },
    ],
    [
      "an on/off component starting at 2 (the published 422)",
      { offer: solo({ components: [{ component_id: 25, starting_quantity: 2 }] }) },
      { components: ["starting_quantity for an On/Off component can only be '1' or '0': 25"] },
    ],
    ["no product", { offer: solo({ product_id: undefined }) }, { product_id: ["Product cannot be blank."] }],
    ["a product the site does not have", { offer: solo({ product_id: 77 }) }, { product_id: ["Product not found: 77"] }],
    ["an archived product", { offer: solo({ product_id: 32 }) }, { product_id: ["Product is archived: 32"] }],
    [
      "another product's price point",
      { offer: solo({ product_price_point_id: 999 }) },
      { product_price_point_id: ["Product price point does not belong to the product: 999"] },
    ],
    [
      "an archived price point",
      { offer: solo({ product_price_point_id: 103 }) },
      { product_price_point_id: ["Product price point is archived: 103"] },
    ],
    [
      "a component the site does not have",
      { offer: solo({ components: [{ component_id: 88 }] }) },
      { components: ["Component not found: 88"] },
    ],
    [
      "another component's price point",
      { offer: solo({ components: [{ component_id: 25, price_point_id: 105 }] }) },
      { components: ["Price point does not belong to the component: 105"] },
    ],
    ["a coupon the site does not have", { offer: solo({ coupons: ["NOPE"] }) }, { coupons: ["Coupon not found: NOPE"] }],
    ["an archived coupon", { offer: solo({ coupons: ["GONE"] }) }, { coupons: ["Coupon is archived: GONE"] }],
    ["no offer object", { name: "x" }, { offer: ["offer must be an Object"] }],
  ];
  it.each(RULES)("%s: 422, nothing made", async (_what, body, errors) => {
    const sim = await site();
    const res = await call(sim, "POST", "/offers.json", { body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ errors });
    expect(sim.offers()).toEqual([]);
  });

  it("a handle another offer has (an archived one's too)", async () => {
    const sim = await site();
    sim.addOffer({ handle: "han_shot_first", productHandle: "pro", archived: true });
    const res = await call(sim, "POST", "/offers.json", { body: { offer: solo() } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ errors: { handle: ["Handle has already been taken."] } });
  });

  it("there is no update: PUT /offers/{id}.json is not served", async () => {
    const sim = await site();
    const { id } = sim.addOffer({ handle: "solo", productHandle: "pro" });
    const res = await call(sim, "PUT", `/offers/${id}.json`, { body: { offer: { name: "x" } } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
  });
});

describe("reading, listing, archiving", () => {
  it("read answers what create answered; an unknown id is a 404 (read, archive, unarchive)", async () => {
    const sim = await site();
    const made = (await call(sim, "POST", "/offers.json", { body: { offer: solo({ coupons: ["DEF456"] }) } })).body.offer;
    expect((await call(sim, "GET", `/offers/${made.id}.json`)).body.offer).toEqual(made);
    expect((await call(sim, "GET", "/offers/123.json")).status).toBe(404);
    expect((await call(sim, "PUT", "/offers/123/archive.json")).status).toBe(404);
    expect((await call(sim, "PUT", "/offers/123/unarchive.json")).status).toBe(404);
  });

  it("archive and unarchive answer 200 without a body; the list leaves archived offers out unless asked", async () => {
    const sim = await site();
    const a = sim.addOffer({ handle: "a", productHandle: "pro" });
    sim.addOffer({ handle: "b", productHandle: "pro" });
    const archived = await call(sim, "PUT", `/offers/${a.id}/archive.json`);
    expect([archived.status, archived.text]).toEqual([200, ""]);
    expect((await call(sim, "GET", `/offers/${a.id}.json`)).body.offer.archived_at).toBe("2026-05-01T12:00:00Z");
    expect((await call(sim, "GET", "/offers.json")).body.offers.map((o: any) => o.handle)).toEqual(["b"]);
    expect((await call(sim, "GET", "/offers.json?include_archived=true")).body.offers.map((o: any) => o.handle)).toEqual(["a", "b"]);
    expect((await call(sim, "PUT", `/offers/${a.id}/unarchive.json`)).status).toBe(200);
    expect((await call(sim, "GET", `/offers/${a.id}.json`)).body.offer.archived_at).toBeNull();
    expect((await call(sim, "GET", "/offers.json?per_page=1&page=2")).body.offers.map((o: any) => o.handle)).toEqual(["b"]);
  });

  it("an offer made in the web UI with signup pages answers them", async () => {
    const sim = await site();
    const o = sim.addOffer({
      handle: "ggoods",
      productHandle: "pro",
      pricePointHandle: "annual",
      components: [{ componentHandle: "support", startingQuantity: 0 }],
      couponCodes: ["DEF456"],
      signupPages: [{ nickname: "ggoods", url: "https://general-goods.example/subscribe/hjpvhnw63tzy" }],
    });
    const read = (await call(sim, "GET", `/offers/${o.id}.json`)).body.offer;
    expect(read.offer_signup_pages).toEqual([
      {
        id: expect.any(Number),
        nickname: "ggoods",
        enabled: true,
        return_url: "",
        return_params: "",
        url: "https://general-goods.example/subscribe/hjpvhnw63tzy",
      },
    ]);
    expect(read).toMatchObject({ product_price_point_id: 102, offer_items: [{ component_id: 25, starting_quantity: "0.0" }] });
  });

  it.each([
    ["an unknown product", { handle: "x", productHandle: "gold" }, /no product has handle 'gold'/],
    [
      "an on/off component at 3",
      { handle: "x", productHandle: "pro", components: [{ componentHandle: "support", startingQuantity: 3 }] },
      /0 or 1/,
    ],
    ["an unknown coupon", { handle: "x", productHandle: "pro", couponCodes: ["NOPE"] }, /no coupon has code 'NOPE'/],
    ["a handle with a space", { handle: "x y", productHandle: "pro" }, /not a valid offer handle/],
  ])("addOffer refuses %s", async (_what, input, message) => {
    const sim = await site();
    expect(() => sim.addOffer(input)).toThrow(message);
  });
});
