import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput } from "../support";
import { customFieldSite, declared, steps } from "./site";

/**
 * CustomField adoption by name within its resource type: announced at preview with the field's data count, refused
 * with `adopt: false`; an adopted field is converged in place, named by its name.
 */

describe("CustomField adoption", () => {
  let sim: Simulator;
  const { setup, held } = customFieldSite((started) => {
    sim = started;
  });

  it("at preview: the adoption and the field's dataCount; adopt: false refused naming the name", async () => {
    const fields = await setup();
    const f = sim.addMetafield({ resourceType: "subscriptions", name: "Region", inputType: "radio", enum: ["EU"], dataCount: 12 });
    const adopted = await fields.check!({}, declared);
    expect(adopted.failures).toEqual([]);
    expect(adopted.inputs.preview).toEqual({ adopt: { id: f.id, name: "Region" }, dataCount: 12 });
    const refused = await fields.check!({}, { ...declared, adopt: false });
    expect(refused.failures?.[0]?.property).toBe("name");
    expect(refused.failures?.[0]?.reason).toMatch(/already exists at the service and adopt is false/);
    // Another resource type's field of that name is not this one.
    const fresh = await fields.check!({}, { ...declared, resourceType: "customers" });
    expect(fresh.inputs.preview).toBeUndefined();
  });

  it("adopting converges the input type, values and scope in one update named by the current name", async () => {
    const fields = await setup();
    sim.addMetafield({ resourceType: "subscriptions", name: "Region", inputType: "radio", enum: ["EU"], scope: { csv: "1" } });
    const { error } = await captureOutput(() => fields.create({ ...declared, adopt: false }));
    expect(String(error)).toMatch(/already exists and adopt is false: nothing was changed/);
    expect(steps(sim)).toEqual([]);
    const { outs } = await fields.create({ ...declared, scope: { portal: true } });
    expect(outs).toMatchObject({ inputType: "dropdown", enum: ["EU", "US"], scope: { csv: false, portal: true } });
    expect(steps(sim)).toEqual(["PUT /subscriptions/metafields.json"]);
    expect(sim.requests.at(-1)?.body).toMatchObject({ metafields: { current_name: "Region", input_type: "dropdown", enum: ["EU", "US"] } });
    expect(await held("Region")).toMatchObject({ input_type: "dropdown", scope: { csv: "0", portal: "1" } });
  });

  it("adopting a field that holds the declaration sends nothing; a scope left out is the service's", async () => {
    const fields = await setup();
    sim.addMetafield({ resourceType: "subscriptions", name: "Region", inputType: "dropdown", enum: ["EU", "US"], scope: { csv: "1" } });
    await fields.create(declared);
    expect(steps(sim)).toEqual([]);
  });
});
