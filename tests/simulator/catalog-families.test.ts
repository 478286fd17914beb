import { describe, expect, it } from "vitest";
import { call, DUPLICATE, start } from "./helpers";

// Product families over real HTTP: create, list, read by id or handle:x. The
// API has no update and no delete of a family.

const family = (f: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ product_family: f, ...extra });
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

describe("POST /product_families.json", () => {
  it("201 with every key of the Product Family schema", async () => {
    const sim = await start();
    const res = await call(sim, "POST", "/product_families.json", {
      body: family({ name: "Acme Projects", handle: "acme", description: "Amazing project management tool" }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      product_family: {
        id: expect.any(Number),
        name: "Acme Projects",
        handle: "acme",
        accounting_code: null,
        description: "Amazing project management tool",
        created_at: expect.stringMatching(RFC3339),
        updated_at: expect.stringMatching(RFC3339),
      },
    });
  });

  it("without a handle, makes one from the name (the vendor's example: 'Acme Projects' → 'acme-projects'), counting up when taken", async () => {
    const sim = await start();
    const made = async (name: string) =>
      (await call(sim, "POST", "/product_families.json", { body: family({ name }) })).body.product_family.handle;
    expect(await made("Acme Projects")).toBe("acme-projects");
    expect(await made("Acme  Projects!")).toBe("acme-projects-2");
    expect(await made("***")).toBe("family");
  });

  it("description null when not given; accounting_code kept when given", async () => {
    const sim = await start();
    const res = await call(sim, "POST", "/product_families.json", { body: family({ name: "B", handle: "b", accounting_code: "ACC-1" }) });
    expect(res.body.product_family).toMatchObject({ description: null, accounting_code: "ACC-1" });
  });

  it("a taken handle is a 422 in the vendor's words, also when a seeded family holds it", async () => {
    const sim = await start();
    sim.addProductFamily({ handle: "plans", name: "Plans" });
    const res = await call(sim, "POST", "/product_families.json", { body: family({ name: "Other", handle: "plans" }) });
    expect(res).toMatchObject({ status: 422, body: { errors: ["API Handle: must be unique - that value has been taken."] } });
  });

  it.each<{ what: string; body: unknown; errors: string[] }>([
    { what: "no name", body: family({ handle: "x" }), errors: ["Name: cannot be blank."] },
    { what: "a blank name", body: family({ name: "  " }), errors: ["Name: cannot be blank."] },
    {
      what: "a handle with capitals",
      body: family({ name: "X", handle: "Gold" }),
      errors: [
        "API Handle: must start with a letter or number and may only contain lowercase letters, numbers, or the characters '.', ':', '-', or '_'.",
      ],
    },
    {
      what: "a handle starting with a dash",
      body: family({ name: "X", handle: "-gold" }),
      errors: [
        "API Handle: must start with a letter or number and may only contain lowercase letters, numbers, or the characters '.', ':', '-', or '_'.",
      ],
    },
    { what: "a name that is not a string", body: family({ name: 7 }), errors: ["Name: must be a string."] },
    { what: "no product_family object", body: { name: "X" }, errors: ["product_family must be an Object"] },
  ])("422 error list for $what", async ({ body, errors }) => {
    const sim = await start();
    expect(await call(sim, "POST", "/product_families.json", { body })).toMatchObject({ status: 422, body: { errors } });
    expect((await call(sim, "GET", "/product_families.json")).body).toEqual([]);
  });

  it("handles may hold '.', ':', '_' and '-' after a letter or digit", async () => {
    const sim = await start();
    const res = await call(sim, "POST", "/product_families.json", { body: family({ name: "X", handle: "9a.b:c_d-e" }) });
    expect(res.status).toBe(201);
  });

  it("a repeated uniqueness_token is a 409 that makes nothing; a refused request does not use its token up", async () => {
    const sim = await start();
    const body = family({ name: "Acme", handle: "acme" }, { uniqueness_token: "fam-1" });
    expect((await call(sim, "POST", "/product_families.json", { body })).status).toBe(201);
    expect(await call(sim, "POST", "/product_families.json", { body })).toMatchObject({ status: 409, body: { errors: [DUPLICATE] } });
    expect((await call(sim, "GET", "/product_families.json")).body).toHaveLength(1);
    const refused = family({ name: "" }, { uniqueness_token: "fam-2" });
    expect((await call(sim, "POST", "/product_families.json", { body: refused })).status).toBe(422);
    expect(
      (await call(sim, "POST", "/product_families.json", { body: family({ name: "Ok", handle: "ok" }, { uniqueness_token: "fam-2" }) }))
        .status,
    ).toBe(201);
  });
});

describe("GET /product_families.json and /product_families/{id}.json", () => {
  it("lists every family, oldest first, as a bare array of {product_family}", async () => {
    const sim = await start();
    const a = sim.addProductFamily({ handle: "a", name: "A", description: "first" });
    await call(sim, "POST", "/product_families.json", { body: family({ name: "B", handle: "b" }) });
    const res = await call(sim, "GET", "/product_families.json");
    expect(res.status).toBe(200);
    expect(res.body.map((f: any) => [f.product_family.id, f.product_family.handle])).toEqual([
      [a.id, "a"],
      [a.id + 1, "b"],
    ]);
    expect(res.body[0].product_family.description).toBe("first");
  });

  it("the contract gives this list no paging: every family on every page", async () => {
    const sim = await start();
    for (let i = 0; i < 25; i++) sim.addProductFamily({ handle: `f${i}` });
    expect((await call(sim, "GET", "/product_families.json?page=2&per_page=10")).body).toHaveLength(25);
  });

  it("reads one by id and by handle:<handle>", async () => {
    const sim = await start();
    const f = sim.addProductFamily({ handle: "billing-plans", name: "Acme Projects" });
    for (const ref of [String(f.id), "handle:billing-plans"]) {
      const res = await call(sim, "GET", `/product_families/${ref}.json`);
      expect(res.body.product_family).toMatchObject({ id: f.id, handle: "billing-plans", name: "Acme Projects" });
    }
  });

  it.each(["/product_families/4242.json", "/product_families/handle:nope.json", "/product_families/nope.json"])(
    "404 with an error list for %s",
    async (path) => {
      const sim = await start();
      expect(await call(sim, "GET", path)).toMatchObject({ status: 404, body: { errors: ["Product family not found"] } });
    },
  );

  it("a family has no update and no delete: 405 naming what the path allows", async () => {
    const sim = await start();
    const f = sim.addProductFamily({ handle: "a" });
    for (const method of ["PUT", "DELETE"]) {
      const res = await call(sim, method, `/product_families/${f.id}.json`, { body: method === "PUT" ? family({ name: "B" }) : undefined });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET");
    }
  });
});

describe("seeding families", () => {
  it("addProductFamily takes a handle, a name (default: the handle) and a description; a taken handle throws", async () => {
    const sim = await start();
    expect(sim.addProductFamily({ handle: "x" })).toMatchObject({ handle: "x", name: "x", description: null, accountingCode: null });
    expect(() => sim.addProductFamily({ handle: "x" })).toThrow(/handle 'x' exists/);
  });

  it("products without a family go into the default family 'plans', made on first use", async () => {
    const sim = await start();
    const p = sim.addProduct({ handle: "basic" });
    const res = await call(sim, "GET", `/products/${p.id}.json`);
    expect(res.body.product.product_family).toMatchObject({ handle: "plans", name: "Plans", id: p.familyId });
    expect((await call(sim, "GET", "/product_families.json")).body.map((f: any) => f.product_family.handle)).toEqual(["plans"]);
  });

  it("a product goes into the family named by familyId or familyHandle; an unknown one throws", async () => {
    const sim = await start();
    const f = sim.addProductFamily({ handle: "saas", name: "SaaS" });
    expect(sim.addProduct({ handle: "a", familyId: f.id }).familyId).toBe(f.id);
    expect(sim.addProduct({ handle: "b", familyHandle: "saas" }).familyId).toBe(f.id);
    expect(() => sim.addProduct({ handle: "c", familyHandle: "nope" })).toThrow(/no product family has handle 'nope'/);
    expect(() => sim.addProduct({ handle: "d", familyId: f.id, familyHandle: "saas" })).toThrow(/not both/);
  });
});
