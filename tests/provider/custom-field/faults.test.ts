import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput, mutations } from "../support";
import { customFieldSite, declared, type Json } from "./site";

/**
 * CustomField under the service's failures: a create whose outcome is unknown is recorded pending with its token,
 * resource type and site; resumed, it is created with the same token when not there, taken when there.
 */

describe("CustomField under the service's failures", () => {
  let sim: Simulator;
  const { setup } = customFieldSite((started) => {
    sim = started;
  });

  it("a create whose outcome is unknown records the pending create with its resource type and site", async () => {
    const fields = await setup();
    sim.injectFault({ kind: "status", status: 503, rate: 1, match: { method: "POST" } });
    const { error } = await captureOutput(() => fields.create({ ...declared, site: "eu" }));
    const partial = error as { message: string; id: string; properties: Record<string, unknown> };
    expect(partial.id).toMatch(/^pending-/);
    expect(partial.message).toMatch(/looks for custom field `Region` by its name and only re-sends the create/);
    const { __provider: _, ...recorded } = partial.properties;
    expect(recorded).toEqual({
      name: "Region",
      resourceType: "subscriptions",
      site: "eu",
      args: { inputType: "dropdown", enum: ["EU", "US"] },
      pendingToken: partial.id.slice("pending-".length),
    });
  });

  it("a pending create resumed: created with the same token when not there, taken when there", async () => {
    const fields = await setup();
    const pending = {
      name: "Region",
      resourceType: "subscriptions",
      args: { inputType: "dropdown", enum: ["EU", "US"] },
      pendingToken: "tok-1",
    };
    const { result } = await captureOutput(() => fields.update!("pending-tok-1", pending, declared));
    expect(mutations(sim).map((r) => [r.method, r.path, (r.body as Json).uniqueness_token])).toEqual([
      ["POST", "/subscriptions/metafields.json", "tok-1"],
    ]);
    expect(result?.outs).toMatchObject({ name: "Region", enum: ["EU", "US"] });
    sim.reset();
    const again = await fields.update!("pending-tok-1", pending, declared);
    expect(again.outs).toMatchObject({ customFieldId: result?.outs.customFieldId });
    expect(mutations(sim)).toEqual([]);
  });
});
