import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput, mutations, UNKNOWN } from "../support";
import { cannotChange, family, familySite, steps } from "./site";

/**
 * ProductFamily adoption by handle: the service cannot change a family, so an adoption compares what it holds (a
 * description held as null is an empty one) and refuses other values with the value it holds, at preview naming
 * the property; a value still unknown at preview may turn out to be the one held, so the preview is the adoption.
 * `adopt: false` refuses a family that exists, at preview and at create, but a resumed pending create takes the
 * family its own earlier create made.
 */

describe("ProductFamily adoption", () => {
  let sim: Simulator;
  const { setup } = familySite((started) => {
    sim = started;
  });

  it("at preview: an existing handle is announced as adopted, or refused with adopt: false", async () => {
    const families = await setup();
    const { id } = await families.create(family);
    const adopted = await families.check!({}, family);
    expect(adopted.inputs.preview).toEqual({ adopt: { id: Number(id), handle: "rockets" } });
    const refused = await families.check!({}, { ...family, adopt: false });
    expect(refused.failures?.[0]).toMatchObject({ property: "handle" });
    expect(refused.failures?.[0]?.reason).toMatch(/already exists at the service and adopt is false/);
  });

  // A name or description from another resource's output is unknown at preview: it may turn out to be what the
  // service holds, so the preview is the adoption, not the refusal a known different value gets (found 27 Nov).
  it.each([
    ["name", { name: UNKNOWN }],
    ["description", { description: UNKNOWN }],
    ["both", { name: UNKNOWN, description: UNKNOWN }],
  ])("preview of adopting a family whose %s is unknown yet: the adoption, no failure", async (_, unknowns) => {
    const families = await setup();
    const f = sim.addProductFamily({ ...family, description: "Held" });
    const checked = await families.check!({}, { ...family, ...unknowns, adopt: true });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.preview).toEqual({ adopt: { id: f.id, handle: "rockets" } });
    expect(mutations(sim)).toEqual([]);
  });

  describe("preview names the property the service holds differently", () => {
    it.each([
      ["the name", { name: "Spaceships" }, "name", 'name: the service holds "Rockets"'],
      ["the description", { name: "Rockets", description: "declared here" }, "description", 'description: the service holds "held"'],
      [
        "both: the name first",
        { name: "Spaceships", description: "declared here" },
        "name",
        'name: the service holds "Rockets"; description: the service holds "held"',
      ],
    ])("%s", async (_, declared, property, fixes) => {
      const families = await setup();
      sim.addProductFamily({ ...family, description: "held" });
      const checked = await families.check!({}, { handle: "rockets", ...declared });
      expect(checked.failures).toEqual([{ property, reason: cannotChange(fixes) }]);
    });
  });

  describe("adoption compares what the service holds, which it cannot change", () => {
    it.each([
      ["the same description", "made in the web UI", "made in the web UI"],
      ["no description there (null), declared empty", null, ""],
    ])("%s: adopted as it is, nothing sent", async (_, there, declared) => {
      const families = await setup();
      const made = sim.addProductFamily({ ...family, description: there });
      const { result, text, error } = await captureOutput(() => families.create({ ...family, description: declared }));
      expect(error).toBeUndefined();
      expect(result?.id).toBe(String(made.id));
      expect(result?.outs).toMatchObject({ description: there, args: { name: "Rockets", description: declared } });
      expect(text).toContain(`adopted product family \`rockets\` (id ${made.id})`);
      expect(steps(sim)).toEqual([]);
    });

    it.each([
      ["another name", { name: "Rockets" }, { name: "Spaceships" }, 'name: the service holds "Rockets"'],
      [
        "another description",
        { name: "Rockets", description: "made in the web UI" },
        { name: "Rockets", description: "declared here" },
        'description: the service holds "made in the web UI"',
      ],
      [
        "a description where the service holds none",
        { name: "Rockets" },
        { name: "Rockets", description: "declared here" },
        "description: the service holds null",
      ],
    ])("%s: refused with the value the service holds, nothing sent", async (_, there, declared, fix) => {
      const families = await setup();
      sim.addProductFamily({ handle: "rockets", ...there });
      await expect(families.create({ handle: "rockets", ...declared })).rejects.toThrow(new Error(cannotChange(fix)));
      expect(mutations(sim)).toEqual([]);
    });
  });

  it("adopted with a description the service holds and the program leaves out: no diff", async () => {
    const families = await setup();
    sim.addProductFamily({ handle: "rockets", name: "Rockets", description: "made in the web UI" });
    const { id, outs } = await families.create(family);
    expect(outs.description).toBe("made in the web UI");
    expect(await families.diff!(id, outs, family)).toMatchObject({ changes: false });
  });

  it("adopted with no description there (null) and one declared empty: diff sees no change", async () => {
    const families = await setup();
    sim.addProductFamily({ ...family, description: null });
    const declared = { ...family, description: "" };
    const { result } = await captureOutput(() => families.create(declared));
    const { id, outs } = result ?? { id: "", outs: {} };
    expect(outs.description).toBe(null);
    expect(await families.diff!(id, outs, declared)).toStrictEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  });

  describe("adopt: false", () => {
    it("adopt: false and the handle taken: refused, nothing created", async () => {
      const families = await setup();
      const made = sim.addProductFamily(family);
      await expect(families.create({ ...family, adopt: false })).rejects.toThrow(
        new Error(`product family \`rockets\` (id ${made.id}) already exists and adopt is false: nothing was changed`),
      );
      expect(mutations(sim)).toEqual([]);
    });

    it("a pending create resumed with adopt: false finds the family its own create made, and adopts it without a word", async () => {
      const families = await setup();
      const made = sim.addProductFamily(family);
      const { result, text, error } = await captureOutput(() =>
        families.update!("pending-tok", { handle: "rockets", args: { name: "Rockets" }, pendingToken: "tok" }, { ...family, adopt: false }),
      );
      expect(error).toBeUndefined();
      expect(result?.outs).toEqual({
        familyId: made.id,
        handle: "rockets",
        name: "Rockets",
        description: null,
        createdAt: made.createdAt,
        args: { name: "Rockets", adopt: false },
      });
      expect(text).toBe("");
      expect(mutations(sim)).toEqual([]);
    });
  });
});
