import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { family, familySite } from "./site";

/** ProductFamily refresh: a family's name, description and creation time as the service holds them; a pending create's record as it is. */

describe("ProductFamily drift", () => {
  let sim: Simulator;
  const { setup } = familySite((started) => {
    sim = started;
  });

  it("read of a pending create: the record as it is, nothing asked", async () => {
    const families = await setup();
    sim.addProductFamily(family);
    const pending = { handle: "rockets", args: { name: "Rockets" }, pendingToken: "tok" };
    expect(await families.read!("pending-tok", pending)).toEqual({ id: "pending-tok", props: pending });
    expect(sim.requests).toEqual([]);
  });

  it("read of a family: its name, description and creation time as the service holds them", async () => {
    const families = await setup();
    const f = sim.addProductFamily({ ...family, description: "Everything that flies" });
    const s = { familyId: f.id, handle: "rockets", name: "stale", description: null, createdAt: "stale", args: { name: "Rockets" } };
    const got = await families.read!(String(f.id), s);
    expect(got.props).toEqual({
      familyId: f.id,
      handle: "rockets",
      name: "Rockets",
      description: "Everything that flies",
      createdAt: "2024-05-01T12:00:00Z",
      args: { name: "Rockets" },
    });
  });
});
