import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { quiet } from "../../reliability/world";
import { captureOutput, KEY, mutations } from "../support";
import { annual, type Failed, type Json, LAUNCH, ppPath, pricePointSite } from "./site";

/**
 * ProductPricePoint under the service's failures: a create whose outcome is unknown is recorded pending, with its
 * site, and the message says what the next up does; a pending replacement resumed is created with its token, then the
 * replaced one archived.
 */

describe("ProductPricePoint under the service's failures", () => {
  let sim: Simulator;
  const { setup } = pricePointSite((started) => {
    sim = started;
  });

  it("a create whose outcome is unknown, at a named site, records the site with the pending create", async () => {
    const { points, connect } = await setup();
    await connect({
      "billing:sites": JSON.stringify({
        "eu-shop": { baseUrl: sim.url, apiKey: KEY, timeoutMs: 300, migrationSettleSeconds: 1, retryBudgetSeconds: 3 },
      }),
    });
    sim.injectFault({ kind: "processing", ms: 2500, times: 1, match: { method: "POST" } });
    const inputs = { ...annual, site: "eu-shop" };
    const failed = await captureOutput(() => points.create(inputs));
    const partial = failed.error as Failed;
    expect(partial.properties).toEqual({
      handle: "launch-annual",
      args: inputs,
      site: "eu-shop",
      pendingToken: partial.id.slice("pending-".length),
      // Nothing to archive: no todo recorded.
    });
    await quiet([sim]);
  });

  it("an outcome unknown: the message says what the next up does", async () => {
    const { points } = await setup();
    sim.injectFault({ kind: "status", status: 503, rate: 1, match: { method: "POST" } });
    const { error } = await captureOutput(() => points.create(annual));
    expect((error as Error).message).toMatch(
      /\. Recorded: the next `pulumi up` looks for price point `launch-annual` by its handle and only re-sends the create, with the same token, if it is not there\.$/,
    );
  });

  it("a pending replacement resumed: created with its token, then the replaced one archived", async () => {
    const { points } = await setup();
    const { id: old } = await points.create({ ...annual, handle: "launch-old" });
    sim.reset();
    const pending = { handle: "launch-annual", args: annual, pendingToken: "tok-1", todo: { archive: [Number(old)] } };
    const { result, error } = await captureOutput(() => points.update!("pending-tok-1", pending, annual));
    expect(error).toBeUndefined();
    expect(mutations(sim).map((r) => [r.method, r.path, (r.body as Json | undefined)?.uniqueness_token])).toEqual([
      ["POST", `/products/${LAUNCH}/price_points.json`, "tok-1"],
      ["DELETE", ppPath(old), undefined],
    ]);
    expect(result?.outs).toMatchObject({ handle: "launch-annual" });
  });
});
