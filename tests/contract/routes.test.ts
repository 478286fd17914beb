import { describe, expect, it } from "vitest";
import { contractCheck } from "./validator";

/**
 * The vendored contract grew to the whole catalog (families, products, product and component price
 * points, components, coupons). The contract checks route a request to its operation by path: these
 * are the catalog's requests, by the concrete paths a client sends, including the ones where a literal
 * segment and a path parameter meet (`bulk`, `handle`, `lookup`, `find`), each to the one operation
 * it is. A request the SDK or the simulator gets wrong is then judged against the right schema.
 */
const ROUTES: readonly [method: string, path: string, operationId: string][] = [
  ["POST", "/product_families.json", "createProductFamily"],
  ["GET", "/product_families.json", "listProductFamilies"],
  ["GET", "/product_families/handle:saas.json", "readProductFamily"],
  ["POST", "/product_families/7/products.json", "createProduct"],
  ["GET", "/products.json?include_archived=true", "listProducts"],
  ["GET", "/products/12.json", "readProduct"],
  ["GET", "/products/handle/pro.json", "readProductByHandle"],
  ["PUT", "/products/12.json", "updateProduct"],
  ["DELETE", "/products/12.json", "archiveProduct"],
  ["POST", "/products/12/price_points.json", "createProductPricePoint"],
  ["POST", "/products/12/price_points/bulk.json", "bulkCreateProductPricePoints"],
  ["GET", "/products/12/price_points/34.json", "readProductPricePoint"],
  ["PUT", "/products/12/price_points/34.json", "updateProductPricePoint"],
  ["DELETE", "/products/12/price_points/34.json", "archiveProductPricePoint"],
  ["PATCH", "/products/12/price_points/34/unarchive.json", "unarchiveProductPricePoint"],
  ["PATCH", "/products/12/price_points/34/default.json", "promoteProductPricePointToDefault"],
  ["POST", "/product_families/7/metered_components.json", "createMeteredComponent"],
  ["POST", "/product_families/7/quantity_based_components.json", "createQuantityBasedComponent"],
  ["POST", "/product_families/7/on_off_components.json", "createOnOffComponent"],
  ["POST", "/product_families/7/prepaid_usage_components.json", "createPrepaidUsageComponent"],
  ["POST", "/product_families/7/event_based_components.json", "createEventBasedComponent"],
  ["GET", "/components/lookup.json?handle=seats", "findComponent"],
  ["GET", "/product_families/7/components/56.json", "readComponent"],
  ["PUT", "/components/56.json", "updateComponent"],
  ["DELETE", "/product_families/7/components/56.json", "archiveComponent"],
  ["PUT", "/components/56/price_points/78.json", "updateComponentPricePoint"],
  ["PUT", "/components/56/price_points/78/unarchive.json", "unarchiveComponentPricePoint"],
  ["PUT", "/components/56/price_points/78/default.json", "promoteComponentPricePointToDefault"],
  ["POST", "/product_families/7/coupons.json", "createCoupon"],
  ["PUT", "/product_families/7/coupons/90.json", "updateCoupon"],
  ["DELETE", "/product_families/7/coupons/90.json", "archiveCoupon"],
  ["GET", "/coupons/find.json?code=LAUNCH10", "findCoupon"],
  // A site's configuration (issue 41). `/subscriptions/metafields.json` also fits `/subscriptions/{subscription_id}.json`:
  // the literal segment wins, as it does for `bulk`, `handle` and `lookup`.
  ["POST", "/product_price_points/34/currency_prices.json", "createProductCurrencyPrices"],
  ["PUT", "/product_price_points/34/currency_prices.json", "updateProductCurrencyPrices"],
  ["POST", "/price_points/78/currency_prices.json", "createCurrencyPrices"],
  ["PUT", "/price_points/78/currency_prices.json", "updateCurrencyPrices"],
  ["PUT", "/coupons/90/currency_prices.json", "createOrUpdateCouponCurrencyPrices"],
  ["POST", "/subscriptions/metafields.json", "createMetafields"],
  ["GET", "/subscriptions/metafields.json?name=Color", "listMetafields"],
  ["PUT", "/customers/metafields.json", "updateMetafield"],
  ["DELETE", "/customers/metafields.json?name=Color", "deleteMetafield"],
  ["GET", "/subscriptions/1001.json", "readSubscription"],
  ["POST", "/reason_codes.json", "createReasonCode"],
  ["GET", "/reason_codes/3.json", "readReasonCode"],
  ["DELETE", "/reason_codes/3.json", "deleteReasonCode"],
  ["POST", "/offers.json", "createOffer"],
  ["GET", "/offers/3.json", "readOffer"],
  ["PUT", "/offers/3/archive.json", "archiveOffer"],
  ["PUT", "/offers/3/unarchive.json", "unarchiveOffer"],
  ["POST", "/sites/clear_data.json?cleanup_scope=customers", "clearSite"],
];

describe("the vendored contract routes the catalog's requests", () => {
  it.each(ROUTES)("%s %s → %s", async (method, path, operationId) => {
    const check = await contractCheck();
    expect(check.operationOf(method, path)).toBe(operationId);
  });

  it("the operations the webhooks and migrations use are where they were", async () => {
    const check = await contractCheck();
    expect(check.operationOf("PUT", "/webhooks/settings.json")).toBe("enableWebhooks");
    expect(check.operationOf("POST", "/subscriptions/1001/migrations.json")).toBe("migrateSubscriptionProduct");
    expect(check.operationOf("GET", "/products/2/price_points.json")).toBe("listProductPricePoints");
  });
});
