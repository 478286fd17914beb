import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput } from "../support";
import { declared, reasonCodeSite, steps } from "./site";

/** ReasonCode create: sent once, its outputs as the service holds them, and the declared inputs recorded beside them. */

describe("ReasonCode create", () => {
  let sim: Simulator;
  const { setup, held } = reasonCodeSite((started) => {
    sim = started;
  });

  it("creates by code and records the outputs; a second create adopts the same code", async () => {
    const codes = await setup();
    const first = await codes.create({ ...declared, position: 3 });
    expect(first.outs).toEqual({
      reasonCodeId: Number(first.id),
      code: "too_expensive",
      description: "It costs too much",
      position: 3,
      args: { description: "It costs too much", position: 3 },
    });
    expect(held("too_expensive")).toMatchObject({ description: "It costs too much", position: 3 });
    const { result, text } = await captureOutput(() => codes.create({ ...declared, position: 3 }));
    expect(result?.id).toBe(first.id);
    expect(text).toContain(`adopted reason code \`too_expensive\` (id ${first.id})`);
    expect(steps(sim)).toEqual(["POST /reason_codes.json"]);
  });

  it("without a position, the service's is recorded and the declaration records none", async () => {
    const codes = await setup();
    sim.addReasonCode({ code: "first", description: "First", position: 4 });
    const { outs } = await codes.create({ ...declared, site: "eu" });
    expect(outs).toMatchObject({ position: 5, site: "eu", args: { description: "It costs too much" } });
  });
});
