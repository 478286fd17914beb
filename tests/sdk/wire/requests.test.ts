import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Simulator } from "../../../simulator";
import { site } from "../helpers";

/**
 * The request schemas the SDK publishes (`wire.productRequest`, `wire.pricePointRequest`, …: "the body … checks:
 * what the SDK sends") hold every body the SDK sends, field for field: each body the simulator received is parsed by
 * its schema and must come back whole; each enum value the SDK can send is sent once, and one refusal per bound shows
 * the schema is not a pass-through. The schemas are built when sdk/wire loads: each test loads it afresh (only
 * sdk/wire, mutation/README.md).
 */

beforeEach(() => {
  vi.resetModules();
});

const wire = () => import("../../../sdk/wire");

type Wire = Awaited<ReturnType<typeof wire>>;

type RequestSchema =
  | "productFamilyRequest"
  | "productRequest"
  | "productUpdateRequest"
  | "pricePointRequest"
  | "pricePointUpdateRequest"
  | "endpointRequest"
  | "migrationRequest"
  | "migrationPreviewRequest"
  | "replayWebhooksRequest"
  | "webhookSettingsRequest";

const MONTHLY = { priceInCents: 1000, interval: 1, intervalUnit: "month" } as const;

/** The bodies the simulator received for `method path`, in order. */
const bodies = (sim: Simulator, method: string, path: RegExp) =>
  sim.requests.filter((r) => r.method === method && path.test(r.path)).map((r) => r.body);

/** What a freshly loaded request schema makes of each body: every one must parse to itself. */
async function parsedBy(schema: RequestSchema, sent: unknown[]) {
  const w: Wire = await wire();
  return sent.map((b) => {
    const r = w[schema].safeParse(b);
    return r.success ? r.data : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  });
}

describe("every body the SDK sends parses, whole, with the request schema it publishes for it", () => {
  it("product families, products and their updates", async () => {
    const { sim, billing } = await site();
    const f = await billing.createProductFamily({ handle: "saas", name: "SaaS", description: "Plans" });
    await billing.createProductFamily({ handle: "x", name: "X" });
    const p = await billing.createProduct(f.id, {
      handle: "pro",
      name: "Pro",
      ...MONTHLY,
      trialPriceInCents: 0,
      trialInterval: 14,
      trialIntervalUnit: "day",
      trialType: "no_obligation",
      initialChargeInCents: 500,
      initialChargeAfterTrial: true,
      expirationInterval: 2,
      expirationIntervalUnit: "month",
    });
    await billing.createProduct(f.id, {
      handle: "daily",
      name: "Daily",
      priceInCents: 0,
      interval: 1,
      intervalUnit: "day",
      trialPriceInCents: 100,
      trialInterval: 1,
      trialIntervalUnit: "month",
      expirationInterval: 30,
      expirationIntervalUnit: "day",
    });
    await billing.updateProduct(p.id, { name: "Pro 2", priceInCents: 2000 });

    const families = bodies(sim, "POST", /^\/product_families\.json$/);
    const products = bodies(sim, "POST", /^\/product_families\/\d+\/products\.json$/);
    const updates = bodies(sim, "PUT", /^\/products\/\d+\.json$/);
    expect([families.length, products.length, updates.length]).toStrictEqual([2, 2, 1]);
    expect(await parsedBy("productFamilyRequest", families)).toStrictEqual(families);
    expect(await parsedBy("productRequest", products)).toStrictEqual(products);
    expect(await parsedBy("productUpdateRequest", updates)).toStrictEqual(updates);
  });

  it("price points and their updates", async () => {
    const { sim, billing } = await site();
    const f = await billing.createProductFamily({ handle: "saas", name: "SaaS" });
    const p = await billing.createProduct(f.id, { handle: "pro", name: "Pro", ...MONTHLY });
    const pp = await billing.createPricePoint(p.id, {
      handle: "annual",
      name: "Annual",
      ...MONTHLY,
      interval: 12,
      useSiteExchangeRate: false,
    });
    await billing.createPricePoint(p.id, {
      handle: "weekly",
      name: "Weekly",
      priceInCents: 300,
      interval: 7,
      intervalUnit: "day",
      trialPriceInCents: 0,
      trialInterval: 1,
      trialIntervalUnit: "month",
      expirationInterval: 1,
      expirationIntervalUnit: "day",
    });
    await billing.updatePricePoint(p.id, pp.id, { handle: "annual-2", priceInCents: 9000 });

    const created = bodies(sim, "POST", /^\/products\/\d+\/price_points\.json$/);
    const updated = bodies(sim, "PUT", /^\/products\/\d+\/price_points\/\d+\.json$/);
    expect([created.length, updated.length]).toStrictEqual([2, 1]);
    expect(await parsedBy("pricePointRequest", created)).toStrictEqual(created);
    expect(await parsedBy("pricePointUpdateRequest", updated)).toStrictEqual(updated);
  });

  it("webhook endpoints, settings and replays", async () => {
    const { sim, billing } = await site();
    const e = await billing.createEndpoint({ url: "https://hooks.example.com/b", events: ["payment_success", "payment_failure"] });
    await billing.updateEndpoint(e.id, { url: "https://hooks.example.com/c", events: [] });
    await billing.setWebhooksEnabled(true);
    await billing.setWebhooksEnabled(false);
    // Safe integers only: the simulator records an id past 2^53 as its raw JSON text, not as the SDK's value.
    await billing.replayWebhooks([5005, 5006]);

    const endpoints = [...bodies(sim, "POST", /^\/endpoints\.json$/), ...bodies(sim, "PUT", /^\/endpoints\/\d+\.json$/)];
    const settings = bodies(sim, "PUT", /^\/webhooks\/settings\.json$/);
    const replays = bodies(sim, "POST", /^\/webhooks\/replay\.json$/);
    expect([endpoints.length, settings.length, replays.length]).toStrictEqual([2, 2, 1]);
    expect(await parsedBy("endpointRequest", endpoints)).toStrictEqual(endpoints);
    expect(await parsedBy("webhookSettingsRequest", settings)).toStrictEqual(settings);
    expect(await parsedBy("replayWebhooksRequest", replays)).toStrictEqual(replays);
  });

  it("a migration and its preview", async () => {
    const { sim, billing } = await site();
    sim.addProduct({ id: 1, handle: "basic", priceInCents: 1000 });
    sim.addProduct({ id: 2, handle: "pro", priceInCents: 5000 });
    const id = sim.addSubscription({ productHandle: "basic", state: "active" }).id;
    await billing.previewMigration(id, { productHandle: "pro" });
    await billing.migrateSubscription(id, { productHandle: "pro" });

    const previews = bodies(sim, "POST", /^\/subscriptions\/\d+\/migrations\/preview\.json$/);
    const migrations = bodies(sim, "POST", /^\/subscriptions\/\d+\/migrations\.json$/);
    expect([previews.length, migrations.length]).toStrictEqual([1, 1]);
    expect(await parsedBy("migrationPreviewRequest", previews)).toStrictEqual(previews);
    expect(await parsedBy("migrationRequest", migrations)).toStrictEqual(migrations);
  });
});

describe("the request schemas refuse what the service would", () => {
  const PRICING = { price_in_cents: 1000, interval: 1, interval_unit: "month" };
  it.each<[RequestSchema, unknown, string]>([
    ["productFamilyRequest", { product_family: { name: "" } }, "product_family.name"],
    ["productRequest", { product: { name: "", handle: "pro", description: "", ...PRICING } }, "product.name"],
    ["pricePointRequest", { price_point: { name: "A", handle: "", ...PRICING } }, "price_point.handle"],
    ["pricePointRequest", { price_point: { name: "A", handle: "a", ...PRICING, interval_unit: "week" } }, "price_point.interval_unit"],
    ["pricePointRequest", { price_point: { name: "A", handle: "a", ...PRICING, price_in_cents: -1 } }, "price_point.price_in_cents"],
    ["pricePointUpdateRequest", { price_point: { handle: "" } }, "price_point.handle"],
    ["productUpdateRequest", { product: { expiration_interval_unit: "year" } }, "product.expiration_interval_unit"],
    ["endpointRequest", { endpoint: { url: "", webhook_subscriptions: [] } }, "endpoint.url"],
    ["replayWebhooksRequest", { ids: [] }, "ids"],
    ["webhookSettingsRequest", { webhooks_enabled: "yes" }, "webhooks_enabled"],
  ])("%s refuses %j at %s", async (schema, body, path) => {
    const w: Wire = await wire();
    const r = w[schema].safeParse(body);
    expect(r.success ? [] : r.error.issues.map((i) => i.path.join("."))).toStrictEqual([path]);
  });

  it("a replay takes an id past 2^53 as decimal text (the SDK's WebhookId), and at most 1000 ids", async () => {
    const w: Wire = await wire();
    const big = { ids: [5005, "9007199254740993"] };
    expect(w.replayWebhooksRequest.safeParse(big)).toStrictEqual({ success: true, data: big });
    const most = { ids: Array.from({ length: 1000 }, (_, i) => i + 1) };
    expect(w.replayWebhooksRequest.safeParse(most).success).toBe(true);
    expect(w.replayWebhooksRequest.safeParse({ ids: [...most.ids, 1001] }).success).toBe(false);
  });

  it('"never" is an expiration unit an update may send (the service\'s own value), beside "day" and "month"', async () => {
    const w: Wire = await wire();
    for (const unit of ["never", "day", "month"]) {
      const body = { product: { expiration_interval_unit: unit } };
      expect(w.productUpdateRequest.safeParse(body)).toStrictEqual({ success: true, data: body });
    }
  });
});
