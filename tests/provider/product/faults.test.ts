import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput } from "../support";
import { type Json, launch, productSite } from "./site";

/** Product under the service's failures: a create whose outcome is unknown is recorded pending, with its site. */

describe("Product under the service's failures", () => {
  let sim: Simulator;
  const { setup } = productSite((started) => {
    sim = started.sim;
  });

  it("an outcome unknown, at a named site, records the site with the pending create", async () => {
    const products = await setup();
    sim.injectFault({ kind: "status", status: 503, rate: 1, match: { method: "POST" } });
    const inputs = { ...launch, site: "eu" };
    const { error } = await captureOutput(() => products.create(inputs));
    const partial = error as { message: string; id: string; properties: Json };
    expect(partial.id).toMatch(/^pending-/);
    expect(partial.message).toMatch(
      /\. Recorded: the next `pulumi up` looks for product `rocket` by its handle and only re-sends the create, with the same token, if it is not there\.$/,
    );
    const { __provider: _, ...recorded } = partial.properties;
    expect(recorded).toEqual({ handle: "rocket", args: inputs, site: "eu", pendingToken: partial.id.slice("pending-".length) });
  });
});
