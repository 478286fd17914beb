import { describe, expect, it } from "vitest";
import { clientOf, scripted } from "./helpers";

describe("resolvePricePoint when the product names no default price point", () => {
  // The simulator always names a product's default; the vendor's placeholder (default_product_price_point_id 0)
  // names none, so the SDK looks for the price point of type "default" among the product's price points.
  it.each<[string, { id: number; handle: string; type: string }[], number | undefined, string | undefined]>([
    [
      "the one of type default, not the first listed",
      [
        { id: 71, handle: "solo-annual", type: "catalog" },
        { id: 72, handle: "solo-monthly", type: "default" },
      ],
      72,
      "solo-monthly",
    ],
    ["none when no price point is the default", [{ id: 71, handle: "solo-annual", type: "catalog" }], undefined, undefined],
  ])("%s", async (_, pricePoints, pricePointId, pricePointHandle) => {
    const server = await scripted([
      { status: 200, json: { subscription: { id: 9, state: "active", product: { id: 7, handle: "solo" } } } },
      { status: 200, json: { product: { id: 7, handle: "solo", default_product_price_point_id: 0 } } },
      { status: 200, json: { price_points: pricePoints } },
    ]);
    const billing = clientOf(server.url);
    const sub = await billing.readSubscription(9);
    const resolved = await billing.resolvePricePoint(sub, { productId: 7 });
    expect(resolved).toStrictEqual({ ...sub, pricePointId, pricePointHandle });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toStrictEqual([
      "GET /subscriptions/9.json",
      "GET /products/7.json",
      "GET /products/7/price_points.json",
    ]);
  });
});
