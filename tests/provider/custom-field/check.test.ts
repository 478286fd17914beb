import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { customFieldSite, declared } from "./site";

/**
 * CustomField check(): each field's bad value is a failure naming it, before anything is sent; values are required
 * with a radio or a dropdown and refused with text, at preview.
 */

describe("CustomField check", () => {
  let sim: Simulator;
  const { setup } = customFieldSite((started) => {
    sim = started;
  });

  it.each([
    ["resourceType", { resourceType: "invoices" }, /must be "subscriptions" or "customers"/],
    ["name", { name: "" }, /./],
    ["name", { name: "   " }, /only spaces/],
    ["name", { name: "x".repeat(256) }, /255/],
    ["inputType", { inputType: "balance_tracker" }, /must be "text", "radio" or "dropdown"/],
    ["enum", { enum: [] }, /at least one value/],
    ["enum", { enum: ["EU", "EU"] }, /twice/],
    ["enum", { inputType: "radio", enum: undefined }, /is required with inputType "radio"/],
    ["enum", { inputType: "text" }, /must be left out with inputType "text"/],
    ["enum", { inputType: undefined }, /must be left out with inputType "text"/],
    ["scope", { scope: { csv: "yes" } }, /true or false/],
    ["scope", { scope: { everywhere: true } }, /./],
    ["deleteData", { deleteData: "yes" }, /true or false/],
    ["adopt", { adopt: 1 }, /true or false/],
    ["site", { site: "" }, /billing:sites/],
  ])("a bad %s: %j", async (property, bad, reason) => {
    const fields = await setup();
    const { failures } = await fields.check!({}, { ...declared, ...bad });
    expect(failures?.map((f) => f.property.split(".")[0])).toEqual([property]);
    expect(failures?.[0]?.reason).toMatch(reason);
    expect(sim.requests).toEqual([]);
  });

  it("a text field without values, and a dropdown with them, pass", async () => {
    const fields = await setup();
    expect((await fields.check!({}, { resourceType: "customers", name: "Notes" })).failures).toEqual([]);
    expect((await fields.check!({}, { ...declared, scope: { csv: true, hosted: ["12"] } })).failures).toEqual([]);
  });
});
