import { beforeEach, describe, expect, it, vi } from "vitest";
import { responseExamples } from "../../contract/examples";

/**
 * The vendor's own examples (contract/advanced-billing.openapi.json) read by the SDK's response schemas: each example
 * must parse and keep the fields the SDK reads at the paths named, with the example's own values. The schemas are
 * built when sdk/wire loads: each test loads it afresh (only sdk/wire, mutation/README.md).
 */

beforeEach(() => {
  vi.resetModules();
});

const wire = () => import("../../../sdk/wire");

type Wire = Awaited<ReturnType<typeof wire>>;

type ResponseSchema = { [K in keyof Wire]: K extends `${string}Response` ? K : never }[keyof Wire];

/** The values at a dotted path; `*` steps into every element of an array. */
function at(v: unknown, path: string): unknown[] {
  let found: unknown[] = [v];
  for (const step of path.split(".")) {
    found = found.flatMap((x) => {
      if (step === "*") return Array.isArray(x) ? x : [];
      return typeof x === "object" && x !== null && step in x ? [(x as Record<string, unknown>)[step]] : [];
    });
  }
  return found;
}

describe("the vendor's example answers, read by the response schemas", () => {
  it.each<[string, number, ResponseSchema, string[]]>([
    ["replayWebhooks", 200, "replayWebhooksResponse", ["status"]],
    ["enableWebhooks", 200, "webhookSettingsResponse", ["webhooks_enabled"]],
    ["listWebhooks", 201, "webhookListResponse", ["*.webhook.id", "*.webhook.event"]],
    ["migrateSubscriptionProduct", 422, "errorListResponse", ["errors"]],
    [
      "previewSubscriptionProductMigration",
      200,
      "migrationPreviewResponse",
      ["migration.prorated_adjustment_in_cents", "migration.charge_in_cents"],
    ],
    [
      "readSubscription",
      200,
      "subscriptionResponse",
      ["subscription.id", "subscription.state", "subscription.product.id", "subscription.product.handle"],
    ],
    ["createEndpoint", 200, "endpointResponse", ["endpoint.id", "endpoint.url", "endpoint.webhook_subscriptions"]],
    ["listEndpoints", 200, "endpointListResponse", ["*.id", "*.url"]],
    ["readSite", 200, "siteResponse", ["site.id", "site.subdomain"]],
    ["readProduct", 200, "productResponse", ["product.id", "product.handle", "product.product_family.id"]],
    ["listProducts", 200, "productListResponse", ["*.product.id", "*.product.handle"]],
    ["createProductFamily", 201, "productFamilyResponse", ["product_family.id", "product_family.handle"]],
    ["listProductFamilies", 200, "productFamilyListResponse", ["*.product_family.id", "*.product_family.handle"]],
    ["readProductPricePoint", 200, "pricePointResponse", ["price_point.id", "price_point.handle", "price_point.price_in_cents"]],
    ["listProductPricePoints", 200, "pricePointListResponse", ["price_points.*.id", "price_points.*.handle"]],
    ["readComponent", 200, "componentResponse", ["component.id", "component.kind", "component.pricing_scheme"]],
    ["listComponents", 200, "componentListResponse", ["*.component.id", "*.component.kind"]],
    ["listComponentPricePoints", 201, "componentPricePointListResponse", ["price_points.*.id", "price_points.*.handle"]],
    ["readCoupon", 200, "couponResponse", ["coupon.id", "coupon.code", "coupon.amount_in_cents"]],
    ["listCoupons", 200, "couponListResponse", ["*.coupon.id", "*.coupon.code"]],
    ["createCoupon", 422, "errorListResponse", ["errors"]],
  ])("%s %i (%s) keeps %j", async (operationId, status, schema, paths) => {
    const w: Wire = await wire();
    for (const [name, value] of Object.entries(responseExamples(operationId, status))) {
      const r = (w[schema] as { safeParse(v: unknown): { success: boolean; data?: unknown; error?: { issues: unknown[] } } }).safeParse(
        value,
      );
      expect(r.error?.issues ?? [], `${operationId} ${status} "${name}"`).toStrictEqual([]);
      for (const p of paths) {
        const want = at(value, p);
        expect(want.length, `${p} is in the example "${name}"`).toBeGreaterThan(0);
        expect(at(r.data, p), `${operationId} "${name}" ${p}`).toStrictEqual(want);
      }
    }
  });
});
