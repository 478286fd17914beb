import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput, mutations } from "../support";
import { declared, type Json, reasonCodeSite } from "./site";

/**
 * ReasonCode under the service's failures: a create whose outcome is unknown is recorded pending with its token and
 * site; resumed, the code not there, it is created with the same token; there already, it is taken, not made twice.
 */

describe("ReasonCode under the service's failures", () => {
  let sim: Simulator;
  const { setup } = reasonCodeSite((started) => {
    sim = started;
  });

  it("a create whose outcome is unknown records the pending create with its site", async () => {
    const codes = await setup();
    sim.injectFault({ kind: "status", status: 503, rate: 1, match: { method: "POST" } });
    const { error } = await captureOutput(() => codes.create({ ...declared, position: 2, site: "eu" }));
    const partial = error as { message: string; id: string; properties: Record<string, unknown> };
    expect(partial.id).toMatch(/^pending-/);
    expect(partial.message).toMatch(/looks for reason code `too_expensive` by its code and only re-sends the create/);
    const { __provider: _, ...recorded } = partial.properties;
    expect(recorded).toEqual({
      code: "too_expensive",
      site: "eu",
      args: { description: "It costs too much", position: 2 },
      pendingToken: partial.id.slice("pending-".length),
    });
  });

  it("a pending create resumed: created with the same token when not there, taken when there", async () => {
    const codes = await setup();
    const pending = { code: "too_expensive", args: { description: "It costs too much" }, pendingToken: "tok-1" };
    const { result } = await captureOutput(() => codes.update!("pending-tok-1", pending, declared));
    expect(mutations(sim).map((r) => [r.method, r.path, (r.body as Json).uniqueness_token])).toEqual([
      ["POST", "/reason_codes.json", "tok-1"],
    ]);
    expect(result?.outs).toMatchObject({ code: "too_expensive", description: "It costs too much" });
    expect(result?.outs.pendingToken).toBeUndefined();
    sim.reset();
    const again = await codes.update!("pending-tok-1", pending, declared);
    expect(again.outs).toMatchObject({ reasonCodeId: result?.outs.reasonCodeId });
    expect(mutations(sim)).toEqual([]);
  });
});
