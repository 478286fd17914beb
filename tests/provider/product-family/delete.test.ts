import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput, mutations } from "../support";
import { family, familySite } from "./site";

/** ProductFamily delete leaves the family at the service (which has no delete of one) and says so, naming its id. */

describe("ProductFamily delete", () => {
  let sim: Simulator;
  const { setup } = familySite((started) => {
    sim = started;
  });

  it("a change of name fails at preview with the fix; delete leaves it at the service and says so", async () => {
    const families = await setup();
    const f = await families.create(family);
    sim.reset();
    await expect(families.diff!(f.id, f.outs, { ...family, name: "Renamed" })).rejects.toThrow(
      /cannot be changed.*name: the service holds "Rockets"/,
    );
    const { text } = await captureOutput(() => families.delete!(f.id, f.outs));
    expect(text).toMatch(/stays at the service, which has no delete of a family/);
    expect(mutations(sim)).toEqual([]);
  });

  it("delete names the recorded family id", async () => {
    const families = await setup();
    const { text } = await captureOutput(() => families.delete!("77", { familyId: 5, handle: "rockets", args: { name: "Rockets" } }));
    expect(text).toBe(
      "ProductFamily: family `rockets` (id 5) left the stack and stays at the service, which has no delete of a family; its handle stays taken.\n",
    );
  });
});
