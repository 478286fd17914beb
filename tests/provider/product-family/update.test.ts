import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { family, familySite } from "./site";

/**
 * ProductFamily has no update at the service: a declaration the same as the record is no change, a changed
 * description (or name) is refused at preview with the value the service holds, and an update (adopt changed)
 * records the declared values beside what the service holds, sending nothing.
 */

describe("ProductFamily update", () => {
  let sim: Simulator;
  const { setup } = familySite((started) => {
    sim = started;
  });

  it("diff with nothing changed: no change, nothing replaced, nothing deleted first", async () => {
    const families = await setup();
    const { id, outs } = await families.create(family);
    expect(await families.diff!(id, outs, family)).toStrictEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  });

  it("refuse of a description change names the description the service holds", async () => {
    const families = await setup();
    const s = { familyId: 5, handle: "rockets", name: "Rockets", description: "Held", args: { name: "Rockets", description: "Held" } };
    await expect(families.diff!("5", s, { ...family, description: "New" })).rejects.toThrow(
      new Error(
        'product family `rockets` cannot be changed: the service has no update of a family (description: the service holds "Held"). ' +
          "Declare the values it holds, or declare a new family with a new handle and move products to it.",
      ),
    );
  });

  it("an update records the declared values beside what the service holds", async () => {
    const families = await setup();
    const { id, outs } = await families.create({ ...family, description: "Flying" });
    sim.reset();
    const { outs: updated } = await families.update!(id, outs, { ...family, description: "Flying", adopt: false });
    expect(updated).toEqual({ ...outs, args: { name: "Rockets", description: "Flying", adopt: false } });
    expect(sim.requests).toEqual([]);
  });
});
