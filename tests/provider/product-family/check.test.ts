import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { mutations } from "../support";
import { family, familySite } from "./site";

/**
 * ProductFamily check(): what preview says before anything is sent (a name of only spaces, which the service refuses
 * as blank), and the family's id an in-place update's check carries (as recorded, else read by its handle), so that
 * what takes it stays known. What preview says of an adoption is in adopt.test.ts.
 */

describe("ProductFamily check", () => {
  let sim: Simulator;
  const { setup } = familySite((started) => {
    sim = started;
  });

  // The service refuses a name of only spaces as blank: at preview, as an empty one.
  it("a name of only spaces", async () => {
    const families = await setup();
    const { failures } = await families.check!({}, { ...family, name: "  \t" });
    expect(failures).toStrictEqual([{ property: "name", reason: "must not be only spaces (a name of 1 to 255 characters)" }]);
    expect(mutations(sim)).toEqual([]);
  });

  describe("check of an in-place update carries the family's id", () => {
    // The ids an in-place update keeps are known at its preview: check records them beside the inputs (not as
    // declared inputs, so no diff reads them); a first deploy has none to record.
    it("check of an update records the family's id; without a declared change, the inputs as recorded; of a first deploy, nothing beyond the inputs", async () => {
      const families = await setup();
      const { id } = await families.create(family);
      const renamed = { ...family, description: "Our plans" };
      expect(await families.check!(family, renamed)).toStrictEqual({ inputs: { ...renamed, familyId: Number(id) }, failures: [] });
      // Nothing declared changed: what was recorded stays, so a no-change `up` stores nothing new (issue 43).
      expect(await families.check!(family, family)).toStrictEqual({ inputs: family, failures: [] });
      expect(await families.check!({ ...family, familyId: Number(id) }, family)).toStrictEqual({
        inputs: { ...family, familyId: Number(id) },
        failures: [],
      });
      const first = await families.check!({}, family);
      expect(Object.keys(first.inputs).sort()).toEqual(["handle", "name", "preview"]);
    });

    it.each([
      ["its id recorded: that id, without asking the service", { familyId: 999 }, () => 999, 0],
      ["none recorded: the family with its handle", {}, (id: number) => id, 1],
    ])("preview of an update carries its id: %s", async (_, recorded, expected, asked) => {
      const families = await setup();
      const f = sim.addProductFamily(family);
      const checked = await families.check!({ ...family, ...recorded }, { ...family, adopt: true });
      expect(checked.failures).toEqual([]);
      expect(checked.inputs).toMatchObject({ familyId: expected(f.id) });
      expect(sim.requests.filter((r) => r.method === "GET").length).toBe(asked);
    });
  });
});
