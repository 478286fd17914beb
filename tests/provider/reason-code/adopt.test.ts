import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput } from "../support";
import { declared, reasonCodeSite, steps } from "./site";

/**
 * ReasonCode adoption by code: announced at preview, refused with `adopt: false` (at preview, naming `code`, and at
 * create, nothing sent); an adopted code is converged to the declaration in place.
 */

describe("ReasonCode adoption", () => {
  let sim: Simulator;
  const { setup, held } = reasonCodeSite((started) => {
    sim = started;
  });

  it("at preview: an existing code is announced as adopted, or refused with adopt: false", async () => {
    const codes = await setup();
    const r = sim.addReasonCode({ code: "too_expensive", description: "Held" });
    const adopted = await codes.check!({}, declared);
    expect(adopted.failures).toEqual([]);
    expect(adopted.inputs.preview).toEqual({ adopt: { id: r.id, code: "too_expensive" } });
    const refused = await codes.check!({}, { ...declared, adopt: false });
    expect(refused.failures?.[0]?.property).toBe("code");
    expect(refused.failures?.[0]?.reason).toMatch(/already exists at the service and adopt is false/);
    const fresh = await codes.check!({}, { ...declared, code: "new" });
    expect(fresh.inputs.preview).toBeUndefined();
  });

  it("adopting converges what differs, in place; adopt: false at create sends nothing", async () => {
    const codes = await setup();
    const r = sim.addReasonCode({ code: "too_expensive", description: "Held", position: 2 });
    const { error } = await captureOutput(() => codes.create({ ...declared, adopt: false }));
    expect(String(error)).toMatch(/already exists and adopt is false: nothing was changed/);
    expect(steps(sim)).toEqual([]);
    const { id, outs } = await codes.create({ ...declared, position: 1 });
    expect(id).toBe(String(r.id));
    expect(outs).toMatchObject({ description: "It costs too much", position: 1 });
    expect(held("too_expensive")).toMatchObject({ description: "It costs too much", position: 1 });
    expect(steps(sim)).toEqual([`PUT /reason_codes/${r.id}.json`]);
  });

  it("adopting what already holds the declaration sends nothing", async () => {
    const codes = await setup();
    sim.addReasonCode({ code: "too_expensive", description: "It costs too much", position: 2 });
    await codes.create(declared);
    expect(steps(sim)).toEqual([]);
  });
});
