import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator";
import { call, start } from "./helpers";

// Custom fields (metafields) of subscriptions and customers over real HTTP: create (one or a list; a name that exists
// is changed), list (name filter, pages, direction), update (rename through current_name), delete by name (and its
// data: data_count says how much), the refusals in the contract's Single Error Response.

const EXCLUDED = { csv: "0", invoices: "0", statements: "0", portal: "0", public_show: "0", public_edit: "0", hosted: [] };

async function site(): Promise<Simulator> {
  return start();
}

describe("POST /{resource_type}/metafields.json", () => {
  it("one field (the published Single-Metafield example): 200, a list of it, scope options not given excluded", async () => {
    const sim = await site();
    const res = await call(sim, "POST", "/subscriptions/metafields.json", {
      body: {
        metafields: {
          name: "Dropdown field",
          input_type: "dropdown",
          enum: ["option 1", "option 2"],
          scope: { public_edit: "1", public_show: "1" },
        },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: expect.any(Number),
        name: "Dropdown field",
        scope: { ...EXCLUDED, public_show: "1", public_edit: "1" },
        data_count: 0,
        input_type: "dropdown",
        enum: ["option 1", "option 2"],
      },
    ]);
  });

  it("a list (the published Multiple-Metafields example): text fields, enum null, in the order given", async () => {
    const sim = await site();
    const res = await call(sim, "POST", "/customers/metafields.json", { body: { metafields: [{ name: "Color" }, { name: "Brand" }] } });
    expect(res.body.map((m: any) => [m.name, m.input_type, m.enum, m.scope])).toEqual([
      ["Color", "text", null, EXCLUDED],
      ["Brand", "text", null, EXCLUDED],
    ]);
    expect(sim.metafields().map((m) => [m.resourceType, m.name])).toEqual([
      ["customers", "Color"],
      ["customers", "Brand"],
    ]);
  });

  it("a name that exists is that field, changed (the vendor's suite creates one name with four scopes): no second field", async () => {
    const sim = await site();
    const [made] = (await call(sim, "POST", "/subscriptions/metafields.json", { body: { metafields: { name: "Color" } } })).body;
    const again = await call(sim, "POST", "/subscriptions/metafields.json", {
      body: { metafields: { name: "Color", scope: { csv: "1", invoices: "1" } } },
    });
    expect(again.body).toEqual([{ ...made, scope: { ...EXCLUDED, csv: "1", invoices: "1" } }]);
    expect(sim.metafields()).toHaveLength(1);
  });

  it("names are per resource type: subscriptions and customers may both have 'Color'", async () => {
    const sim = await site();
    await call(sim, "POST", "/subscriptions/metafields.json", { body: { metafields: { name: "Color" } } });
    await call(sim, "POST", "/customers/metafields.json", { body: { metafields: { name: "Color" } } });
    expect(sim.metafields().map((m) => m.resourceType)).toEqual(["subscriptions", "customers"]);
  });

  const RULES: [string, unknown, string][] = [
    ["an empty object (the vendor's suite)", { metafields: {} }, "'name' must be present to create or update metafields"],
    ["no metafields", {}, "'name' must be present to create or update metafields"],
    ["a blank name in a list", { metafields: [{ name: "A" }, { name: " " }] }, "'name' must be present to create or update metafields"],
    [
      "an input type that is not one",
      { metafields: { name: "A", input_type: "checkbox" } },
      "'input_type' must be one of balance_tracker, text, radio, dropdown",
    ],
    ["a scope option that is not 0 or 1", { metafields: { name: "A", scope: { csv: "yes" } } }, `'scope.csv' must be "0" or "1"`],
    [
      "allowed values that are not a list",
      { metafields: { name: "A", input_type: "radio", enum: "a,b" } },
      "'enum' must be a list of the allowed values",
    ],
  ];
  it.each(RULES)("%s: 422 {error} (the published shape), nothing made", async (_what, body, error) => {
    const sim = await site();
    const res = await call(sim, "POST", "/subscriptions/metafields.json", { body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error });
    expect(sim.metafields()).toEqual([]);
  });

  it("at most 100 fields per resource type", async () => {
    const sim = await site();
    for (let i = 0; i < 99; i++) sim.addMetafield({ resourceType: "subscriptions", name: `f${i}` });
    const res = await call(sim, "POST", "/subscriptions/metafields.json", { body: { metafields: [{ name: "x" }, { name: "y" }] } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: "A site can have at most 100 metafields for subscriptions." });
    expect(
      (await call(sim, "POST", "/subscriptions/metafields.json", { body: { metafields: [{ name: "f0" }, { name: "x" }] } })).status,
    ).toBe(200);
  });

  it("a resource type other than subscriptions and customers is not found", async () => {
    const sim = await site();
    expect((await call(sim, "POST", "/invoices/metafields.json", { body: { metafields: { name: "A" } } })).status).toBe(404);
  });
});

describe("GET /{resource_type}/metafields.json", () => {
  async function three(): Promise<Simulator> {
    const sim = await site();
    for (const name of ["a", "b", "c"]) sim.addMetafield({ resourceType: "subscriptions", name });
    sim.addMetafield({ resourceType: "customers", name: "z" });
    return sim;
  }

  it.each([
    ["", ["a", "b", "c"], { total_count: 3, current_page: 1, total_pages: 1, per_page: 20 }],
    ["?name=b", ["b"], { total_count: 1, current_page: 1, total_pages: 1, per_page: 20 }],
    ["?name=unknown", [], { total_count: 0, current_page: 1, total_pages: 0, per_page: 20 }],
    ["?per_page=2&page=2", ["c"], { total_count: 3, current_page: 2, total_pages: 2, per_page: 2 }],
    ["?direction=desc", ["c", "b", "a"], { total_count: 3, current_page: 1, total_pages: 1, per_page: 20 }],
    ["?per_page=-1", ["a", "b", "c"], { total_count: 3, current_page: 1, total_pages: 1, per_page: 20 }],
    ["?per_page=500", ["a", "b", "c"], { total_count: 3, current_page: 1, total_pages: 1, per_page: 200 }],
  ])("%s", async (query, names, paging) => {
    const sim = await three();
    const res = await call(sim, "GET", `/subscriptions/metafields.json${query}`);
    expect(res.status).toBe(200);
    const { metafields, ...rest } = res.body;
    expect(rest).toEqual(paging);
    expect(metafields.map((m: any) => m.name)).toEqual(names);
  });

  it("a page that is not one: 422 'invalid page: -1' (as the vendor's suite reads it)", async () => {
    const sim = await three();
    const res = await call(sim, "GET", "/subscriptions/metafields.json?page=-1");
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ errors: ["invalid page: -1"] });
  });

  it("data_count is how many records hold a value", async () => {
    const sim = await three();
    sim.setMetafieldDataCount("subscriptions", "b", 7);
    const res = await call(sim, "GET", "/subscriptions/metafields.json?name=b");
    expect(res.body.metafields[0].data_count).toBe(7);
  });
});

describe("PUT /{resource_type}/metafields.json", () => {
  it("renames through current_name, keeping the id; changes input type, values and scope as given", async () => {
    const sim = await site();
    const made = sim.addMetafield({ resourceType: "subscriptions", name: "Color", dataCount: 3 });
    const res = await call(sim, "PUT", "/subscriptions/metafields.json", {
      body: {
        metafields: { current_name: "Color", name: "Colour", input_type: "radio", enum: ["red", "", "blue"], scope: { portal: "1" } },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { id: made.id, name: "Colour", scope: { ...EXCLUDED, portal: "1" }, data_count: 3, input_type: "radio", enum: ["red", "blue"] },
    ]);
    const back = await call(sim, "PUT", "/subscriptions/metafields.json", {
      body: { metafields: { current_name: "Colour", input_type: "text", enum: [] } },
    });
    expect(back.body[0]).toMatchObject({ id: made.id, input_type: "text", enum: [], scope: { ...EXCLUDED, portal: "1" } });
  });

  it("a list is checked whole: one entry refused, none of them changes", async () => {
    const sim = await site();
    sim.addMetafield({ resourceType: "subscriptions", name: "Color" });
    const res = await call(sim, "PUT", "/subscriptions/metafields.json", {
      body: {
        metafields: [
          { current_name: "Color", name: "Colour" },
          { current_name: "Size", name: "S" },
        ],
      },
    });
    expect(res.status).toBe(404);
    expect(sim.metafields().map((m) => m.name)).toEqual(["Color"]);
    const both = await call(sim, "PUT", "/subscriptions/metafields.json", {
      body: { metafields: [{ current_name: "Color", input_type: "dropdown", enum: ["a"] }] },
    });
    expect(both.body.map((m: any) => [m.name, m.input_type, m.enum])).toEqual([["Color", "dropdown", ["a"]]]);
  });

  it("a scope given is whole: options it leaves out become excluded", async () => {
    const sim = await site();
    sim.addMetafield({ resourceType: "customers", name: "Tier", scope: { csv: "1", invoices: "1", hosted: ["p1"] } });
    const res = await call(sim, "PUT", "/customers/metafields.json", {
      body: { metafields: { current_name: "Tier", scope: { csv: "1" } } },
    });
    expect(res.body[0].scope).toEqual({ ...EXCLUDED, csv: "1" });
  });

  it.each([
    ["no current_name (the vendor's suite)", { metafields: {} }, 422, { error: "'current_name' must be present to update metafields" }],
    [
      "a name another field has (the published 422)",
      { metafields: { current_name: "Color", name: "Brand" } },
      422,
      { error: "Metafield name must be unique for the Attachment Type" },
    ],
    [
      "a field that is not there",
      { metafields: { current_name: "Size", name: "S" } },
      404,
      { errors: ["Metafield 'Size' not found for subscriptions"] },
    ],
  ])("%s", async (_what, body, status, answer) => {
    const sim = await site();
    sim.addMetafield({ resourceType: "subscriptions", name: "Color" });
    sim.addMetafield({ resourceType: "subscriptions", name: "Brand" });
    const res = await call(sim, "PUT", "/subscriptions/metafields.json", { body });
    expect(res.status).toBe(status);
    expect(res.body).toEqual(answer);
    expect(sim.metafields().map((m) => m.name)).toEqual(["Color", "Brand"]);
  });
});

describe("DELETE /{resource_type}/metafields.json?name=", () => {
  it("deletes the field and its data: 200 without a body; the list no longer has it", async () => {
    const sim = await site();
    sim.addMetafield({ resourceType: "subscriptions", name: "Color", dataCount: 12 });
    expect((await call(sim, "GET", "/subscriptions/metafields.json?name=Color")).body.metafields[0].data_count).toBe(12);
    const res = await call(sim, "DELETE", "/subscriptions/metafields.json?name=Color");
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
    expect(res.headers.get("content-type")).toBeNull();
    expect((await call(sim, "GET", "/subscriptions/metafields.json?name=Color")).body.total_count).toBe(0);
    expect(sim.metafields()).toEqual([]);
  });

  it.each([
    ["no name (the vendor's suite)", "/subscriptions/metafields.json"],
    ["an unknown name", "/subscriptions/metafields.json?name=Size"],
    ["the other resource type's field", "/customers/metafields.json?name=Color"],
  ])("%s: 404, and nothing is deleted", async (_what, path) => {
    const sim = await site();
    sim.addMetafield({ resourceType: "subscriptions", name: "Color" });
    expect((await call(sim, "DELETE", path)).status).toBe(404);
    expect(sim.metafields()).toHaveLength(1);
  });
});

describe("seeding calls", () => {
  it.each([
    [
      "a name taken",
      (s: Simulator) => s.addMetafield({ resourceType: "subscriptions", name: "Color" }),
      /already have a metafield 'Color'/,
    ],
    ["a resource type that is not one", (s: Simulator) => s.addMetafield({ resourceType: "invoices" as never, name: "X" }), /resourceType/],
    ["a negative data count", (s: Simulator) => s.setMetafieldDataCount("subscriptions", "Color", -1), /whole number/],
    [
      "the data count of a field that is not there",
      (s: Simulator) => s.setMetafieldDataCount("customers", "Color", 1),
      /no metafield 'Color'/,
    ],
  ])("refuse %s", async (_what, seed, message) => {
    const sim = await site();
    sim.addMetafield({ resourceType: "subscriptions", name: "Color" });
    expect(() => seed(sim)).toThrow(message);
  });
});
