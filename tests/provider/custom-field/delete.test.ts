import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput } from "../support";
import { customFieldSite, declared, steps } from "./site";

/**
 * CustomField delete: deletes the field (and its data) by the name it holds; with data, refused unless the recorded
 * declaration said `deleteData: true`, with a message naming the count and the flag; a replacement that would delete
 * a field with data is refused at preview.
 */

describe("CustomField delete", () => {
  let sim: Simulator;
  const { setup, held } = customFieldSite((started) => {
    sim = started;
  });

  it("a field with data: refused naming the count and the flag, nothing sent; applied deleteData: true deletes it", async () => {
    const fields = await setup();
    const c = await fields.create(declared);
    sim.setMetafieldDataCount("subscriptions", "Region", 3);
    sim.reset();
    const refused = await captureOutput(() => fields.delete!(c.id, c.outs));
    expect(String(refused.error)).toContain(
      `CustomField: custom field \`Region\` (id ${c.id}) holds data on 3 subscriptions, which deleting it would delete: nothing was deleted. ` +
        "To delete it and its data, declare deleteData: true and run `pulumi up` (which records it), then remove it.",
    );
    expect(steps(sim)).toEqual([]);
    expect(await held("Region")).toBeDefined();
    const { outs } = await fields.update!(c.id, c.outs, { ...declared, deleteData: true });
    const { text, error } = await captureOutput(() => fields.delete!(c.id, outs));
    expect(error).toBeUndefined();
    expect(text).toContain(`deleted custom field \`Region\` (id ${c.id}) of subscriptions, and its data on 3 subscriptions.`);
    expect(steps(sim)).toEqual(["DELETE /subscriptions/metafields.json"]);
    expect(await held("Region")).toBeUndefined();
  });

  it("a field without data is deleted without the flag; one gone already stays gone", async () => {
    const fields = await setup();
    const c = await fields.create({ ...declared, resourceType: "customers" });
    await fields.delete!(c.id, c.outs);
    expect(await held("Region", "customers")).toBeUndefined();
    sim.reset();
    await fields.delete!(c.id, c.outs);
    expect(steps(sim)).toEqual([]);
  });

  it("a new resource type would delete the old field's data: refused at preview unless deleteData: true was applied", async () => {
    const fields = await setup();
    await fields.create(declared);
    sim.setMetafieldDataCount("subscriptions", "Region", 1);
    const moved = { ...declared, resourceType: "customers" };
    const refused = await fields.check!(declared, moved);
    expect(refused.failures?.[0]?.property).toBe("resourceType");
    expect(refused.failures?.[0]?.reason).toMatch(/data on 1 subscription: declare deleteData: true and run `pulumi up` first/);
    const allowed = await fields.check!({ ...declared, deleteData: true }, { ...moved, deleteData: true });
    expect(allowed.failures).toEqual([]);
  });
});
