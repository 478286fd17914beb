import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput } from "../support";
import { family, familySite, steps } from "./site";

/**
 * ProductFamily create: by handle, the description sent, the declared name, description and adopt recorded beside
 * the outputs; a second create of the same handle adopts the family the first made.
 */

describe("ProductFamily create", () => {
  let sim: Simulator;
  const { setup, held } = familySite((started) => {
    sim = started;
  });

  it("creates by handle, and a second create adopts the same family", async () => {
    const families = await setup();
    const first = await families.create(family);
    expect(first.outs).toMatchObject({ handle: "rockets", name: "Rockets", familyId: Number(first.id) });
    const { result, text } = await captureOutput(() => families.create(family));
    expect(result?.id).toBe(first.id);
    expect(text).toContain(`adopted product family \`rockets\` (id ${first.id})`);
    expect(steps(sim)).toEqual(["POST /product_families.json"]);
  });

  it("sends the description, and records the declared name, description and adopt beside the outputs", async () => {
    const families = await setup();
    const { id, outs } = await families.create({ ...family, description: "Everything that flies", adopt: true });
    expect(outs).toEqual({
      familyId: Number(id),
      handle: "rockets",
      name: "Rockets",
      description: "Everything that flies",
      createdAt: expect.any(String),
      args: { name: "Rockets", description: "Everything that flies", adopt: true },
    });
    expect(await held("rockets")).toMatchObject({ name: "Rockets", description: "Everything that flies" });
  });

  it("without description or adopt, records the name alone", async () => {
    const families = await setup();
    const { outs } = await families.create(family);
    expect(outs.args).toEqual({ name: "Rockets" });
    expect(await held("rockets")).toMatchObject({ description: null });
  });
});
