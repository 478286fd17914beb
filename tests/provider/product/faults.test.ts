import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput, mutations } from "../support";
import { auth, type Json, launch, productSite } from "./site";

/**
 * Product under the service's failures: a create whose outcome is unknown is recorded pending, with its site; a read
 * that fails after an update was applied says what was applied, and the next update sends nothing again.
 */

describe("Product under the service's failures", () => {
  let sim: Simulator;
  const { setup, made } = productSite((started) => {
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

  it("a pricing change applied, then its read-back refused: the error says what was applied, and the next up sends nothing", async () => {
    const products = await setup();
    const p = made();
    const old = { productId: p.id, handle: "rocket", args: launch };
    const news = { ...launch, priceInCents: 5900 };
    const before = (await (await fetch(`${sim.url}/products/${p.id}.json`, { headers: auth })).json()) as { product: Json };
    const held = before.product.default_product_price_point_id as number;
    // Every read of a price point other than the one held fails: the new default's read-back, after the PUT made it.
    sim.injectFault({
      kind: "status",
      status: 500,
      match: { method: "GET", path: new RegExp(`/price_points/(?!${held}\\.json)[0-9]+\\.json$`) },
    });
    const { error } = await captureOutput(() => products.update!(String(p.id), old, news));
    expect(String((error as Error).message)).toMatch(
      /^Product `rocket`: the update was applied at the service \(its pricing \(priceInCents \$49\.00 → \$59\.00\), so the service made a new default price point\); reading the result back failed: .*500.*\. Nothing else was sent; the next `pulumi up` reads it again and does not repeat the change\.$/,
    );
    sim.clearFaults();
    sim.reset();
    const again = await captureOutput(() => products.update!(String(p.id), old, news));
    expect(again.error).toBeUndefined();
    expect(mutations(sim)).toEqual([]);
    expect(again.result?.outs).toMatchObject({ priceInCents: 5900 });
  });
});
