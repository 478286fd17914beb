import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput } from "../support";
import { customFieldSite, declared, type Json, NO_SCOPE, steps } from "./site";

/** CustomField create: sent once under its resource type, its outputs as the service holds it, the declared inputs recorded. */

describe("CustomField create", () => {
  let sim: Simulator;
  const { setup, held } = customFieldSite((started) => {
    sim = started;
  });

  it("creates by name, records outputs and the declaration; a second create adopts it", async () => {
    const fields = await setup();
    const first = await fields.create({ ...declared, scope: { csv: true, hosted: ["7"] }, deleteData: true });
    expect(first.outs).toEqual({
      customFieldId: Number(first.id),
      resourceType: "subscriptions",
      name: "Region",
      inputType: "dropdown",
      enum: ["EU", "US"],
      scope: { ...NO_SCOPE, csv: true, hosted: ["7"] },
      dataCount: 0,
      args: { inputType: "dropdown", enum: ["EU", "US"], scope: { csv: true, hosted: ["7"] }, deleteData: true },
    });
    const body = sim.requests.find((r) => r.method === "POST")?.body as Json;
    expect(body.metafields).toMatchObject({ name: "Region", input_type: "dropdown", enum: ["EU", "US"] });
    expect(await held("Region")).toMatchObject({ input_type: "dropdown", enum: ["EU", "US"] });
    const { result, text } = await captureOutput(() => fields.create(declared));
    expect(result?.id).toBe(first.id);
    expect(text).toContain(`adopted custom field \`Region\` (id ${first.id})`);
    expect(steps(sim)).toEqual(["POST /subscriptions/metafields.json"]);
  });

  it("a customers' field of the same name is another field, at the named site", async () => {
    const fields = await setup();
    const subs = await fields.create(declared);
    const customers = await fields.create({ ...declared, resourceType: "customers", site: "eu" });
    expect(customers.id).not.toBe(subs.id);
    expect(customers.outs).toMatchObject({ resourceType: "customers", site: "eu" });
    expect(steps(sim)).toEqual(["POST /subscriptions/metafields.json", "POST /customers/metafields.json"]);
  });
});
