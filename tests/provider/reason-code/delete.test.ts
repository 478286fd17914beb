import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput } from "../support";
import { declared, reasonCodeSite, steps } from "./site";

/** ReasonCode delete deletes the code at the service; one gone already stays gone; a pending create that made none sends nothing. */

describe("ReasonCode delete", () => {
  let sim: Simulator;
  const { setup, held } = reasonCodeSite((started) => {
    sim = started;
  });

  it("deletes it at the service, and says so", async () => {
    const codes = await setup();
    const c = await codes.create(declared);
    sim.reset();
    const { text, error } = await captureOutput(() => codes.delete!(c.id, c.outs));
    expect(error).toBeUndefined();
    expect(text).toContain(`ReasonCode: deleted reason code \`too_expensive\` (id ${c.id}).`);
    expect(steps(sim)).toEqual([`DELETE /reason_codes/${c.id}.json`]);
    expect(held("too_expensive")).toBeUndefined();
    // Deleted already (outside, or by a delete that failed after it applied): nothing more to do.
    sim.reset();
    await codes.delete!(c.id, c.outs);
    expect(steps(sim)).toEqual([]);
  });

  it("a pending create: the code its create made is deleted, found by its code; none made, nothing sent", async () => {
    const codes = await setup();
    const { text } = await captureOutput(() => codes.delete!("pending-t", { code: "too_expensive", args: {}, pendingToken: "t" }));
    expect(text).toContain("the pending create of `too_expensive` made no reason code; nothing to delete.");
    const r = sim.addReasonCode({ code: "too_expensive", description: "Made" });
    await codes.delete!("pending-t", { code: "too_expensive", args: {}, pendingToken: "t" });
    expect(steps(sim)).toEqual([`DELETE /reason_codes/${r.id}.json`]);
  });
});
