import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { customFieldSite, declared, type Json, steps } from "./site";

/**
 * CustomField update: a new name renames the field in place through `current_name` (its data kept, the state then
 * names it by the new name); values and scope change in place; a new resource type replaces it; a new name must be
 * free, said at preview.
 */

describe("CustomField update", () => {
  let sim: Simulator;
  const { setup, held } = customFieldSite((started) => {
    sim = started;
  });

  it("a rename: diff updates in place, the PUT names the held name, the data stays, the next update names the new one", async () => {
    const fields = await setup();
    const c = await fields.create(declared);
    sim.setMetafieldDataCount("subscriptions", "Region", 40);
    const renamed = { ...declared, name: "Sales region" };
    expect(await fields.diff!(c.id, c.outs, renamed)).toMatchObject({ changes: true, replaces: [] });
    const checked = await fields.check!({ ...declared, customFieldId: Number(c.id) }, renamed);
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.preview).toEqual({ dataCount: 40 });
    sim.reset();
    const { outs } = await fields.update!(c.id, c.outs, renamed);
    expect(steps(sim)).toEqual(["PUT /subscriptions/metafields.json"]);
    expect((sim.requests.at(-1)?.body as Json | undefined)?.metafields).toEqual({ current_name: "Region", name: "Sales region" });
    expect(outs).toMatchObject({ customFieldId: Number(c.id), name: "Sales region", dataCount: 40 });
    expect(await held("Region")).toBeUndefined();
    expect(await held("Sales region")).toMatchObject({ id: Number(c.id), data_count: 40 });
    sim.reset();
    const next = await fields.update!(c.id, outs, { ...renamed, enum: ["EU", "US", "APAC"] });
    expect((sim.requests.at(-1)?.body as Json | undefined)?.metafields).toMatchObject({
      current_name: "Sales region",
      enum: ["EU", "US", "APAC"],
    });
    expect(next.outs).toMatchObject({ name: "Sales region", enum: ["EU", "US", "APAC"] });
  });

  it("a new name taken by another field of the resource type fails at preview naming name", async () => {
    const fields = await setup();
    const c = await fields.create(declared);
    sim.addMetafield({ resourceType: "subscriptions", name: "Country" });
    const checked = await fields.check!({ ...declared, customFieldId: Number(c.id) }, { ...declared, name: "Country" });
    expect(checked.failures).toEqual([
      {
        property: "name",
        reason: "the name `Country` is taken by another custom field of subscriptions: choose another name (a rename needs a free one)",
      },
    ]);
  });

  it.each([
    ["the values", { enum: ["EU"] }, { input_type: "dropdown", enum: ["EU"] }],
    ["the input type, to text", { inputType: "text", enum: undefined }, { input_type: "text" }],
    ["the scope", { scope: { invoices: true } }, { scope: { invoices: "1", csv: "0" } }],
  ])("%s change in place", async (_, change, sent) => {
    const fields = await setup();
    const c = await fields.create(declared);
    sim.reset();
    const { outs } = await fields.update!(c.id, c.outs, { ...declared, ...change });
    expect(steps(sim)).toEqual(["PUT /subscriptions/metafields.json"]);
    expect((sim.requests.at(-1)?.body as Json | undefined)?.metafields).toMatchObject({ current_name: "Region", ...sent });
    expect(await fields.diff!(c.id, outs, { ...declared, ...change })).toMatchObject({ changes: false });
  });

  it("a new resource type replaces it; deleteData alone is an update that sends nothing", async () => {
    const fields = await setup();
    const c = await fields.create(declared);
    expect(await fields.diff!(c.id, c.outs, { ...declared, resourceType: "customers" })).toMatchObject({ replaces: ["resourceType"] });
    expect(await fields.diff!(c.id, c.outs, { ...declared, deleteData: true })).toMatchObject({ changes: true, replaces: [] });
    sim.reset();
    const { outs } = await fields.update!(c.id, c.outs, { ...declared, deleteData: true });
    expect(steps(sim)).toEqual([]);
    expect(outs.args).toMatchObject({ deleteData: true });
  });
});
