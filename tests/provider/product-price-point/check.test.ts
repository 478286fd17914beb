import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { configureRequest, KEY, mutations } from "../support";
import { annual, auth, LAUNCH, ppPath, priceChange, pricePointSite } from "./site";

/**
 * ProductPricePoint check(): what preview says before anything is sent (a name of only spaces), what a pricing change
 * means (a replacement), a product the key may not list (that failure, not a missing product), and the ids an
 * in-place update's check carries (as recorded, else read by its handle, an archived one's too). What preview says
 * of an adoption is in adopt.test.ts.
 */

describe("ProductPricePoint check", () => {
  let sim: Simulator;
  const { setup } = pricePointSite((started) => {
    sim = started;
  });

  // The service refuses a name of only spaces as blank: at preview, as an empty one.
  it("a name of only spaces", async () => {
    const { points } = await setup();
    const { failures } = await points.check!({}, { ...annual, name: "  \t" });
    expect(failures).toStrictEqual([{ property: "name", reason: "must not be only spaces (a name of 1 to 255 characters)" }]);
    expect(mutations(sim)).toEqual([]);
  });

  it("preview of a pricing change: the replacement it means", async () => {
    const { points } = await setup();
    const checked = await points.check!(annual, { ...annual, priceInCents: 59000 });
    expect(checked.inputs.preview).toEqual({
      pricingChange: priceChange(
        "replaced: the old price point's handle is freed, the new one created (and promoted if default), the old one archived; subscriptions on the old one keep it",
      ),
    });
  });

  it("preview on a product the key may not list: that failure, not a missing product", async () => {
    const { points } = await setup();
    await points.configure!(
      configureRequest({
        "billing:baseUrl": sim.url,
        "billing:apiKey": KEY,
        "billing:sites": JSON.stringify({ locked: { baseUrl: sim.url, apiKey: "sk_live_NOT_THIS_SITE_0000" } }),
      }),
    );
    const error = await points.check!({}, { ...annual, product: LAUNCH, site: "locked" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(String((error as Error).message)).toMatch(
      /^the billing site locked refused the API key from billing:sites\["locked"\]\.apiKey \(401 Unauthorized to GET /,
    );
  });

  describe("check of an update carries its ids (stable)", () => {
    it("from the earlier checked inputs, without asking the service", async () => {
      const { points } = await setup();
      const news = { ...annual, handle: "launch-yearly" };
      // Ids the service does not hold: taken as recorded, not looked up.
      expect(await points.check!({ ...annual, pricePointId: 999, productId: 77 }, news)).toEqual({
        inputs: { ...news, pricePointId: 999, productId: 77 },
        failures: [],
      });
      expect(sim.requests).toEqual([]);
    });

    it("looked up by handle when the earlier inputs lack the product's id", async () => {
      const { points } = await setup();
      const { id } = await points.create(annual);
      const news = { ...annual, handle: "launch-yearly" };
      const { inputs } = await points.check!({ ...annual, pricePointId: 999 }, news);
      expect({ pricePointId: inputs.pricePointId, productId: inputs.productId }).toEqual({ pricePointId: Number(id), productId: LAUNCH });
    });
  });

  it("preview of an update carries the ids of an archived one found by its handle", async () => {
    const { points } = await setup();
    const { id } = await points.create(annual);
    await fetch(`${sim.url}${ppPath(id)}`, { method: "DELETE", headers: auth });
    sim.reset();
    const checked = await points.check!(annual, { ...annual, default: false });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).toMatchObject({ pricePointId: Number(id), productId: LAUNCH });
  });
});
