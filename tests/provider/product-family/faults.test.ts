import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput, mutations } from "../support";
import { family, familySite, type Json } from "./site";

/**
 * ProductFamily under the service's failures: a create whose outcome is unknown is recorded pending, with its site;
 * resumed, the family not there, it is created with the same uniqueness token.
 */

describe("ProductFamily under the service's failures", () => {
  let sim: Simulator;
  const { setup } = familySite((started) => {
    sim = started;
  });

  it("a create whose outcome is unknown, at a named site, records the site with the pending create", async () => {
    const families = await setup();
    sim.injectFault({ kind: "status", status: 503, rate: 1, match: { method: "POST" } });
    const { error } = await captureOutput(() => families.create({ ...family, description: "Flying", site: "eu" }));
    const partial = error as { message: string; id: string; properties: Record<string, unknown> };
    expect(partial.id).toMatch(/^pending-/);
    expect(partial.message).toMatch(
      /\. Recorded: the next `pulumi up` looks for product family `rockets` by its handle and only re-sends the create, with the same token, if it is not there\.$/,
    );
    const { __provider: _, ...recorded } = partial.properties;
    expect(recorded).toEqual({
      handle: "rockets",
      site: "eu",
      args: { name: "Rockets", description: "Flying" },
      pendingToken: partial.id.slice("pending-".length),
    });
  });

  it("a pending create resumed, the family not there: created with the same uniqueness token", async () => {
    const families = await setup();
    const { result, error } = await captureOutput(() =>
      families.update!("pending-tok", { handle: "rockets", args: { name: "Rockets" }, pendingToken: "tok-1" }, family),
    );
    expect(error).toBeUndefined();
    expect(mutations(sim).map((r) => [r.method, r.path, (r.body as Json).uniqueness_token])).toEqual([
      ["POST", "/product_families.json", "tok-1"],
    ]);
    expect(result?.outs).toMatchObject({ handle: "rockets", name: "Rockets" });
  });
});
