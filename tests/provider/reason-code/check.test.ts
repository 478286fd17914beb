import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { mutations } from "../support";
import { declared, reasonCodeSite } from "./site";

/**
 * ReasonCode check(): each field's bad value is a failure naming it, before anything is sent; a new code in place
 * must be free; an update's check carries the code's id.
 */

describe("ReasonCode check", () => {
  let sim: Simulator;
  const { setup } = reasonCodeSite((started) => {
    sim = started;
  });

  it.each([
    ["code", { code: "" }, /must not be empty/],
    ["code", { code: "   " }, /must not be only spaces/],
    ["code", { code: "x".repeat(256) }, /at most 255/],
    ["code", { code: 7 }, /must be a reason code/],
    ["description", { description: "" }, /must not be empty/],
    // Found by the check fuzz: only spaces passed check, and the service refused the create ("Description: cannot be blank.").
    ["description", { description: "  " }, /must not be only spaces/],
    ["description", { description: "x".repeat(256) }, /255/],
    ["position", { position: 0 }, /1 or more/],
    ["position", { position: 1.5 }, /whole number/],
    ["adopt", { adopt: "yes" }, /./],
    ["site", { site: "" }, /billing:sites/],
  ])("a bad %s: %j", async (property, bad, reason) => {
    const codes = await setup();
    const { failures } = await codes.check!({}, { ...declared, ...bad });
    expect(failures?.map((f) => f.property)).toEqual([property]);
    expect(failures?.[0]?.reason).toMatch(reason);
    expect(sim.requests).toEqual([]);
  });

  it("a missing description names it", async () => {
    const codes = await setup();
    const { failures } = await codes.check!({}, { code: "x" });
    expect(failures?.map((f) => f.property)).toEqual(["description"]);
  });

  it("a new code in place must be free: the holder is named", async () => {
    const codes = await setup();
    const other = sim.addReasonCode({ code: "taken", description: "Taken" });
    const { id, outs } = await codes.create(declared);
    const refused = await codes.check!({ ...declared, reasonCodeId: Number(id) }, { ...declared, code: "taken" });
    expect(refused.failures).toEqual([
      { property: "code", reason: `the code \`taken\` is taken by reason code \`taken\` (id ${other.id}): choose another code` },
    ]);
    const free = await codes.check!(outs, { ...declared, code: "free" });
    expect(free.failures).toEqual([]);
    expect(free.inputs).toMatchObject({ reasonCodeId: Number(id) });
    expect(mutations(sim).length).toBe(1);
  });
});
