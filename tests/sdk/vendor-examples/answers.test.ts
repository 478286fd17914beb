import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AuthenticationRequiredError,
  BillingApiError,
  BillingClient,
  type Endpoint,
  MigrationOutcomeUnknownError,
  type MigrationPreview,
  type PricePoint,
  type Product,
  type Site,
  type Subscription,
  type Webhook,
} from "../../../sdk";
import { classifyAnswer } from "../../../sdk/outcome";
import { nextWait } from "../../../sdk/retry";
import { type FixtureServer, fixture, fixtureBytes, type Reply, type Route, startFixtureServer, VENDOR_INDEX } from "../fixture-server";

/**
 * The SDK against the vendor's own published examples (tests/fixtures/vendor, sources in its README.md
 * and index.json): every response fixture of an endpoint the SDK calls is served byte for byte, with its
 * published status, by a local HTTP server, read through the public client over a real socket, and what
 * comes out is checked field by field against values copied by hand from the fixture text.
 *
 * Some fixtures answer a request the SDK does not make with a body of a shape it does read (a PUT or
 * DELETE of a subscription returns the same Subscription Response as the GET; the promote-default PATCH
 * returns a Product Response): those are served to the SDK's call of the same shape, and each table says so.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: FixtureServer;

let billing: BillingClient;

const clients: BillingClient[] = [];

function client(extra: { migrationSettleSeconds?: number } = {}): BillingClient {
  const c = new BillingClient({ baseUrl: server.url, apiKey: "k", retryBaseDelayMs: 1, maxRetries: 0, retryBudgetSeconds: 0, ...extra });
  clients.push(c);
  return c;
}

beforeAll(async () => {
  server = await startFixtureServer();
});

afterAll(() => server.close());

beforeEach(() => {
  server.requests.length = 0;
  server.serve([]);
  billing = client();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

const route = (method: string, path: string | RegExp, reply: Reply): Route => ({ method, path, reply });

/** What the server saw: method and path with query, in order. */
const seen = () => server.requests.map((r) => `${r.method} ${r.url}`);

// ---------------------------------------------------------------------------------------------------
// Which fixtures: every response fixture of index.json, less the ones below (reason on each line).
// ---------------------------------------------------------------------------------------------------

const RESPONSES = VENDOR_INDEX.filter((e) => e.kind === "response");

const SUCCESS_FIXTURES = RESPONSES.filter((e) => (e.status ?? 0) < 400)
  .filter((e) => !(e.method === "POST" && e.path === "/products/{product_id}/price_points.json")) // the SDK never creates price points
  .filter((e) => e.file !== "webhooks-list.200.successful.legacy-template.txt") // a template, not JSON: its literal values are served in "a list of successful webhooks" below
  .map((e) => e.file);

// Every error body is kept: any endpoint may answer with any of these shapes, and every call reads them the same way.
const ERROR_FIXTURES = RESPONSES.filter((e) => (e.status ?? 0) >= 400).map((e) => e.file);

// ---------------------------------------------------------------------------------------------------
// Subscriptions: readSubscription (GET /subscriptions/{id}.json) on every published Subscription Response.
// ---------------------------------------------------------------------------------------------------

/** Every key of the SDK's Subscription (pricePointHandle undefined unless given), so that toStrictEqual checks them all. */
const sub = (s: Omit<Subscription, "pricePointHandle"> & { pricePointHandle?: string }): Subscription => ({
  pricePointHandle: undefined,
  ...s,
});

const SUBSCRIPTIONS: Record<string, Subscription> = {
  "subscription-read.active.json": sub({
    id: 15236915,
    state: "active",
    previousState: "active",
    product: { id: 3792003, handle: "basic" },
    pricePointId: undefined,
    currentPeriodEndsAt: "2016-11-15T14:48:10-05:00",
    nextAssessmentAt: "2016-11-15T14:48:10-05:00",
  }),
  // PUT /subscriptions/{id}.json: same Subscription Response as the GET.
  "subscription-update.200.active.json": sub({
    id: 18220670,
    state: "active",
    previousState: "active",
    product: { id: 4470347, handle: "zero-dollar-product" },
    pricePointId: undefined,
    currentPeriodEndsAt: "2017-06-30T12:00:00-05:00",
    nextAssessmentAt: "2017-06-30T12:00:00-05:00",
  }),
  // DELETE /subscriptions/{id}.json
  "subscription-delete.200.canceled.json": sub({
    id: 15254809,
    state: "canceled",
    previousState: "active",
    product: { id: 3792003, handle: "basic" },
    pricePointId: undefined,
    currentPeriodEndsAt: "2017-08-29T12:00:00-04:00",
    nextAssessmentAt: "2017-08-29T12:00:00-04:00",
  }),
  // POST /subscriptions/{id}/migrations.json (also served to migrateSubscription below)
  "subscription-migrate.200.trialing.json": sub({
    id: 15054201,
    state: "trialing",
    previousState: "active",
    product: { id: 3861800, handle: "trial-product" },
    pricePointId: undefined,
    currentPeriodEndsAt: "2016-11-10T12:43:36-05:00",
    nextAssessmentAt: "2016-11-10T12:43:36-05:00",
  }),
  // PUT /subscriptions/{id}/retry.json: product handle null; product_price_point_id 3464 and its handle.
  "subscription-retry.200.active.json": sub({
    id: 46330,
    state: "active",
    previousState: "past_due",
    product: { id: 8080, handle: undefined },
    pricePointId: 3464,
    pricePointHandle: "uuid:5305c3f0-1375-0137-5619-065dfbfdc636",
    currentPeriodEndsAt: "2021-06-22T13:10:46-06:00",
    nextAssessmentAt: "2021-06-22T13:10:46-06:00",
  }),
  // POST /subscriptions/{id}/hold.json
  "subscription-pause.200.on_hold.json": sub({
    id: 18220670,
    state: "on_hold",
    previousState: "active",
    product: { id: 4470347, handle: "zero-dollar-product" },
    pricePointId: undefined,
    currentPeriodEndsAt: "2017-06-30T12:00:00-05:00",
    nextAssessmentAt: "2017-06-30T12:00:00-05:00",
  }),
  // PUT /subscriptions/{id}/hold.json
  "subscription-hold-update.200.on_hold.json": sub({
    id: 20359140,
    state: "on_hold",
    previousState: "active",
    product: { id: 4535643, handle: "annual-product" },
    pricePointId: undefined,
    currentPeriodEndsAt: "2023-01-05T17:15:00-06:00",
    nextAssessmentAt: "2023-01-05T17:15:00-06:00",
  }),
};

describe("readSubscription on every published Subscription Response", () => {
  it.each(Object.entries(SUBSCRIPTIONS))("%s", async (file, expected) => {
    server.serve([route("GET", `/subscriptions/${expected.id}.json`, fixture(file, 200))]);
    expect(await billing.readSubscription(expected.id)).toStrictEqual(expected);
    expect(seen()).toStrictEqual([`GET /subscriptions/${expected.id}.json`]);
  });
});

// ---------------------------------------------------------------------------------------------------
// Products and price points.
// ---------------------------------------------------------------------------------------------------

const PRODUCTS: Record<string, { arg: number | string; path: string; product: Product }> = {
  "product-read.200.json": {
    arg: 4535635,
    path: "/products/4535635.json",
    product: {
      id: 4535635,
      handle: "paid-annual-seats",
      name: "Paid Annual Seats",
      defaultPricePointId: undefined,
      defaultPricePointHandle: undefined,
    },
  },
  "product-read-by-handle.200.json": {
    arg: "no-cost-product",
    path: "/products/handle/no-cost-product.json",
    product: {
      id: 3903594,
      handle: "no-cost-product",
      name: "No cost product",
      defaultPricePointId: undefined,
      defaultPricePointHandle: undefined,
    },
  },
  // PUT /products/{id}.json: same Product Response as the GET.
  "product-update.200.json": {
    arg: 4365034,
    path: "/products/4365034.json",
    product: { id: 4365034, handle: "platinum", name: "Platinum Plan", defaultPricePointId: undefined, defaultPricePointHandle: undefined },
  },
  // DELETE /products/{id}.json: archived, handle null.
  "product-archive.200.archived.json": {
    arg: 4535638,
    path: "/products/4535638.json",
    product: {
      id: 4535638,
      handle: undefined,
      name: "Business Monthly",
      defaultPricePointId: undefined,
      defaultPricePointHandle: undefined,
    },
  },
  // PATCH …/price_points/{id}/default.json: the only published Product Response with default_product_price_point_id.
  "product-promote-default.200.json": {
    arg: 29778,
    path: "/products/29778.json",
    product: {
      id: 29778,
      handle: "educational",
      name: "Educational",
      defaultPricePointId: 32395,
      defaultPricePointHandle: "uuid:8c878f50-726e-013c-c71b-0286551bb34f",
    },
  },
};

describe("readProduct on every published Product Response", () => {
  it.each(Object.entries(PRODUCTS))("%s", async (file, { arg, path, product }) => {
    server.serve([route("GET", path, fixture(file, 200))]);
    // The fields that resolve a migration's price point; the catalog fields are checked in catalog.test.ts.
    expect(await billing.readProduct(arg)).toMatchObject(product);
    expect(seen()).toStrictEqual([`GET ${path}`]);
  });
});

const EDUCATIONAL: PricePoint = { id: 283, handle: "educational", name: "Educational", type: undefined };

const PRICE_POINT_LISTS: Record<string, { productId: number; result: PricePoint[] | { error: string } }> = {
  // Timestamps with a space instead of 'T': nothing here reads them, so nothing may refuse them.
  "price-points-list.200.json": { productId: 901, result: [EDUCATIONAL] },
  "price-points-list.200.sdk-doc.json": { productId: 901, result: [EDUCATIONAL] },
  // GET /products_price_points.json (site-wide; the SDK lists per product, same List Product Price Points
  // Response). Its one price point has id 0, a placeholder: no price point has id 0, and an SDK that returned
  // it would let a migration record price point 0. The entry is left out; the list itself stays readable.
  "price-points-list-all.200.json": { productId: 1230, result: [] },
};

describe("listPricePoints on every published price point list", () => {
  it.each(Object.entries(PRICE_POINT_LISTS))("%s", async (file, { productId, result }) => {
    server.serve([route("GET", `/products/${productId}/price_points.json`, fixture(file, 200))]);
    if (Array.isArray(result)) {
      // Ids, handles, names and types; the pricing is checked in catalog.test.ts.
      const points = await billing.listPricePoints(productId);
      expect(points).toHaveLength(result.length);
      expect(points).toMatchObject(result);
    } else {
      const err = await billing.listPricePoints(productId).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BillingApiError);
      expect(err).toMatchObject({ status: 200, errors: [], message: result.error, mayHaveApplied: false });
    }
    expect(seen()).toStrictEqual([`GET /products/${productId}/price_points.json?page=1&per_page=200`]);
  });
});

// ---------------------------------------------------------------------------------------------------
// Migrations.
// ---------------------------------------------------------------------------------------------------

const MIGRATED = SUBSCRIPTIONS["subscription-migrate.200.trialing.json"];

const SUB_ID = MIGRATED.id;

const MIGRATE_PATH = `/subscriptions/${SUB_ID}/migrations.json`;

const PREVIEW_PATH = `/subscriptions/${SUB_ID}/migrations/preview.json`;

const PRODUCT_PATH = `/products/${MIGRATED.product.id}.json`;

/**
 * product-promote-default.200.json (the only published product with default_product_price_point_id) as the
 * answer about the migrated product: its body verbatim but for `product.id`, set to the id asked, since the
 * SDK resolves nothing from an answer about another product (tested below).
 */
function productAsked(id = MIGRATED.product.id): Reply {
  const body = JSON.parse(fixtureBytes("product-promote-default.200.json").toString("utf8"));
  body.product.id = id;
  return { status: 200, text: JSON.stringify(body), contentType: "application/json" };
}

const DEFAULT_HANDLE = "uuid:8c878f50-726e-013c-c71b-0286551bb34f";

const PRICE_POINTS_PATH = `/products/${MIGRATED.product.id}/price_points.json`;

const DEFAULTS = { include_trial: false, include_initial_charge: false, include_coupons: true, preserve_period: false };

const PREVIEWS: Record<string, MigrationPreview> = {
  "migration-preview.200.json": { proratedAdjustmentInCents: 0, chargeInCents: 5000, paymentDueInCents: 0, creditAppliedInCents: 0 },
  // $250 → $900 halfway through the month: a negative adjustment.
  "migration-preview.200.legacy-docs.json": {
    proratedAdjustmentInCents: -12500,
    chargeInCents: 90000,
    paymentDueInCents: 77500,
    creditAppliedInCents: 0,
  },
};

describe("previewMigration on every published preview", () => {
  it.each(Object.entries(PREVIEWS))("%s", async (file, expected) => {
    server.serve([route("POST", PREVIEW_PATH, fixture(file))]);
    expect(await billing.previewMigration(SUB_ID, { productId: 3801242 })).toStrictEqual(expected);
    expect(seen()).toStrictEqual([`POST ${PREVIEW_PATH}`]);
    expect(JSON.parse(server.requests[0].text)).toStrictEqual({ migration: { product_id: 3801242, ...DEFAULTS } });
  });
});

describe("migrateSubscription on the published migration (no product_price_point_id in it)", () => {
  it("sends the published request's migration body", async () => {
    const published = JSON.parse(fixtureBytes("subscription-migrate.request.json").toString("utf8"));
    server.serve([
      route("POST", MIGRATE_PATH, fixture("subscription-migrate.200.trialing.json")),
      route("GET", PRODUCT_PATH, productAsked()),
    ]);
    await billing.migrateSubscription(SUB_ID, { productId: 3801242, preservePeriod: true });
    const body = JSON.parse(server.requests[0].text);
    expect(body.migration).toStrictEqual(published.migration);
    expect(Object.keys(body).sort()).toStrictEqual(["migration", "uniqueness_token"]);
    expect(body.uniqueness_token).toMatch(UUID);
  });

  // product-promote-default.200.json is the only published product with default_product_price_point_id: it is
  // served for GET /products/3861800.json although it describes product 29778 (the SDK takes the id it asked for).
  it("productHandle: the price point is the product's default_product_price_point_id (GET /products/{id}.json)", async () => {
    server.serve([
      route("POST", MIGRATE_PATH, fixture("subscription-migrate.200.trialing.json")),
      route("GET", PRODUCT_PATH, productAsked()),
    ]);
    const result = await billing.migrateSubscription(SUB_ID, { productHandle: "trial-product" });
    expect(result).toStrictEqual({ ...MIGRATED, pricePointId: 32395, pricePointHandle: DEFAULT_HANDLE });
    expect(seen()).toStrictEqual([`POST ${MIGRATE_PATH}`, `GET ${PRODUCT_PATH}`]);
    const body = JSON.parse(server.requests[0].text);
    expect(body.migration).toStrictEqual({ product_handle: "trial-product", ...DEFAULTS });
  });

  it.each([["price-points-list.200.json"], ["price-points-list.200.sdk-doc.json"]])(
    "pricePointHandle: the id is looked up by handle in the price point list (%s)",
    async (list) => {
      server.serve([
        route("POST", MIGRATE_PATH, fixture("subscription-migrate.200.trialing.json")),
        route("GET", PRICE_POINTS_PATH, fixture(list, 200)),
      ]);
      const result = await billing.migrateSubscription(SUB_ID, { productHandle: "trial-product", pricePointHandle: "educational" });
      expect(result).toStrictEqual({ ...MIGRATED, pricePointId: 283, pricePointHandle: "educational" });
      expect(seen()).toStrictEqual([`POST ${MIGRATE_PATH}`, `GET ${PRICE_POINTS_PATH}?page=1&per_page=200`]);
      expect(JSON.parse(server.requests[0].text).migration).toStrictEqual({
        product_handle: "trial-product",
        product_price_point_handle: "educational",
        ...DEFAULTS,
      });
    },
  );

  it("pricePointHandle not in the list: the id stays undefined, the handle asked for is kept", async () => {
    server.serve([
      route("POST", MIGRATE_PATH, fixture("subscription-migrate.200.trialing.json")),
      route("GET", PRICE_POINTS_PATH, fixture("price-points-list.200.json", 200)),
    ]);
    const result = await billing.migrateSubscription(SUB_ID, { productHandle: "trial-product", pricePointHandle: "annual" });
    expect(result).toStrictEqual({ ...MIGRATED, pricePointId: undefined, pricePointHandle: "annual" });
  });

  it("pricePointId named: taken as is, nothing more is read", async () => {
    server.serve([route("POST", MIGRATE_PATH, fixture("subscription-migrate.200.trialing.json"))]);
    const result = await billing.migrateSubscription(SUB_ID, { productHandle: "trial-product", pricePointId: 32395 });
    expect(result).toStrictEqual({ ...MIGRATED, pricePointId: 32395 });
    expect(seen()).toStrictEqual([`POST ${MIGRATE_PATH}`]);
  });

  // Every other published Product Response lacks default_product_price_point_id, and no published price point has `type`:
  // the default cannot be learnt, and the migration (applied) is not failed for it.
  it("a product without default_product_price_point_id and a list without `type`: pricePointId undefined", async () => {
    server.serve([
      route("POST", MIGRATE_PATH, fixture("subscription-migrate.200.trialing.json")),
      route("GET", PRODUCT_PATH, fixture("product-read.200.json")),
      route("GET", PRICE_POINTS_PATH, fixture("price-points-list.200.json")),
    ]);
    const result = await billing.migrateSubscription(SUB_ID, { productHandle: "trial-product" });
    expect(result).toStrictEqual({ ...MIGRATED, pricePointId: undefined });
    expect(seen()).toStrictEqual([`POST ${MIGRATE_PATH}`, `GET ${PRODUCT_PATH}`]);
  });

  it("an answer about another product resolves nothing (the published product 29778 for product 3861800)", async () => {
    server.serve([
      route("POST", MIGRATE_PATH, fixture("subscription-migrate.200.trialing.json")),
      route("GET", PRODUCT_PATH, fixture("product-promote-default.200.json", 200)),
    ]);
    const result = await billing.migrateSubscription(SUB_ID, { productHandle: "trial-product" });
    expect(result).toStrictEqual({ ...MIGRATED, pricePointId: undefined });
    expect(seen()).toStrictEqual([`POST ${MIGRATE_PATH}`, `GET ${PRODUCT_PATH}`]);
  });

  it("an answer that carries product_price_point_id (the retry example's newer shape): used, nothing more is read", async () => {
    const retried = SUBSCRIPTIONS["subscription-retry.200.active.json"];
    const path = `/subscriptions/${retried.id}/migrations.json`;
    server.serve([route("POST", path, fixture("subscription-retry.200.active.json"))]);
    expect(await billing.migrateSubscription(retried.id, { productId: 8080 })).toStrictEqual(retried);
    expect(seen()).toStrictEqual([`POST ${path}`]);
  });
});

describe("the published 3-D Secure 422 of a migration", () => {
  it("AuthenticationRequiredError with actionLink, gatewayPaymentId, description; nothing read back", async () => {
    server.serve([route("POST", MIGRATE_PATH, fixture("migration-3ds-422.json"))]);
    const err = await billing.migrateSubscription(SUB_ID, { productId: 3801242 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationRequiredError);
    expect(err).toBeInstanceOf(BillingApiError);
    const e = err as AuthenticationRequiredError;
    expect(e.status).toBe(422);
    expect(e.errors).toStrictEqual(["Your card was declined. This transaction requires 3D secure authentication."]);
    expect(e.actionLink).toBe("http://acme.chargify.com/3d-secure/pi_1F0aGoJ2UDb3Q4av7zU3sHPh?one_time_token_id=242");
    expect(e.gatewayPaymentId).toBe("pi_1F0aGoJ2UDb3Q4av7zU3sHPh");
    expect(e.description).toBe(
      "This card requires 3D secure authentication. Redirect the customer to the URL from the action_link attribute to authenticate. " +
        "Attach callback_url param to this URL if you want to be notified about the result of 3D Secure authentication. " +
        "Attach redirect_url param to this URL if you want to redirect a customer back to your page after 3D Secure authentication. " +
        "Example: https://mysite.chargify.com/3d-secure/pi_1FCm4RKDeye4C0XfbqquXRYm?one_time_token_id=128&callback_url=https://localhost:4000" +
        "&redirect_url=https://yourpage.com will do a POST request to https://localhost:4000 after payment is authenticated and will redirect " +
        "a customer to https://yourpage.com after 3DS authentication.",
    );
    expect(e.method).toBe("POST");
    expect(e.path).toBe(MIGRATE_PATH);
    expect(e.mayHaveApplied).toBe(false);
    expect(e.message).toBe(
      `POST ${MIGRATE_PATH} needs 3-D Secure authentication by the customer; ` +
        "send them to http://acme.chargify.com/3d-secure/pi_1F0aGoJ2UDb3Q4av7zU3sHPh?one_time_token_id=242 and the service completes the migration after it",
    );
    expect(seen()).toStrictEqual([`POST ${MIGRATE_PATH}`]);
  });
});

const DUPLICATE = "DuplicatePrevention::DuplicateSubmissionError";

describe("the published 409 (repeated uniqueness_token)", () => {
  it("on a migration: read back; on the target, it is the answer (price point resolved)", async () => {
    server.serve([
      route("POST", MIGRATE_PATH, fixture("duplicate-409.json")),
      route("GET", `/subscriptions/${SUB_ID}.json`, fixture("subscription-migrate.200.trialing.json", 200)),
      route("GET", PRODUCT_PATH, productAsked()),
    ]);
    const result = await billing.migrateSubscription(SUB_ID, { productHandle: "trial-product" }, { uniquenessToken: "tok-409" });
    expect(result).toStrictEqual({ ...MIGRATED, pricePointId: 32395, pricePointHandle: DEFAULT_HANDLE });
    expect(seen()).toStrictEqual([`POST ${MIGRATE_PATH}`, `GET /subscriptions/${SUB_ID}.json`, `GET ${PRODUCT_PATH}`]);
    expect(JSON.parse(server.requests[0].text).uniqueness_token).toBe("tok-409");
  });

  it("on a migration: not on the target when the settle time is over → MigrationOutcomeUnknownError, the 409 as cause", async () => {
    const b = client({ migrationSettleSeconds: 0 });
    server.serve([
      route("POST", MIGRATE_PATH, fixture("duplicate-409.json")),
      route("GET", `/subscriptions/${SUB_ID}.json`, fixture("subscription-migrate.200.trialing.json", 200)),
    ]);
    const err = await b.migrateSubscription(SUB_ID, { productHandle: "basic" }, { uniquenessToken: "tok-409" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MigrationOutcomeUnknownError);
    const e = err as MigrationOutcomeUnknownError;
    expect(e.subscriptionId).toBe(SUB_ID);
    expect(e.uniquenessToken).toBe("tok-409");
    expect(e.message).toBe(
      `migration of subscription ${SUB_ID} may or may not have been applied: the service answered that a request with this ` +
        `uniqueness_token was already submitted (it may still be processing), and after 0 s of reading back subscription ${SUB_ID} ` +
        "is on trial-product, not on the target; resume it with the same uniqueness_token (tok-409), never with a new one",
    );
    expect(e.cause).toBeInstanceOf(BillingApiError);
    expect(e.cause).toMatchObject({ status: 409, errors: [DUPLICATE], method: "POST", path: MIGRATE_PATH });
    expect(seen()).toStrictEqual([`POST ${MIGRATE_PATH}`, `GET /subscriptions/${SUB_ID}.json`]);
  });

  it("on a replay: the batch was queued by the first request", async () => {
    server.serve([route("POST", "/webhooks/replay.json", fixture("duplicate-409.json"))]);
    expect(await billing.replayWebhooks([141765032, 141765008])).toStrictEqual({ queued: 2, batches: 1 });
    expect(seen()).toStrictEqual(["POST /webhooks/replay.json"]);
  });
});

// ---------------------------------------------------------------------------------------------------
// Webhooks: list, replay, settings.
// ---------------------------------------------------------------------------------------------------

const LIST_URL = "/webhooks.json?page=1&per_page=200&order=oldest_first";

const FAILED_404 = "404 Resource Not Found (retry 5 of 5)";

const WEBHOOK_LISTS: Record<string, Webhook[]> = {
  // Published under 201 (the service answers 200): served with 201, a 2xx all the same.
  "webhooks-list.201.json": [
    {
      id: 141765032,
      event: "statement_settled",
      successful: false,
      createdAt: "2016-11-08T16:22:26-05:00",
      lastError: FAILED_404,
      lastErrorAt: "2016-11-08T16:43:54-05:00",
      acceptedAt: undefined,
      lastSentAt: "2016-11-08T16:43:54-05:00",
      lastSentUrl: "http://requestb.in/11u45x71",
    },
    {
      id: 141765008,
      event: "payment_success",
      successful: false,
      createdAt: "2016-11-08T16:22:25-05:00",
      lastError: FAILED_404,
      lastErrorAt: "2016-11-08T16:43:54-05:00",
      acceptedAt: undefined,
      lastSentAt: "2016-11-08T16:43:54-05:00",
      lastSentUrl: "http://requestb.in/11u45x71",
    },
  ],
};

describe("listWebhooks on the published list", () => {
  it.each(Object.entries(WEBHOOK_LISTS))("%s", async (file, expected) => {
    server.serve([route("GET", "/webhooks.json", fixture(file))]);
    expect(await billing.listWebhooks()).toStrictEqual(expected);
    expect(seen()).toStrictEqual([`GET ${LIST_URL}`]);
  });

  /**
   * webhooks-list.200.successful.legacy-template.txt is a template (`auto generated` placeholders): its
   * literal values (successful true, last_error and last_error_at null, event "payment_success") are kept
   * as published; the placeholders are filled here, the first id past 2^53 written as a JSON number.
   */
  const template = (id: string, at: string) =>
    `{"webhook":{"last_error_at":null,"accepted_at":"${at}:02-04:00","last_sent_at":"${at}:01-04:00","created_at":"${at}:00-04:00",` +
    `"body":"id=${id}&event=payment_success","signature":"0f1e2d3c","successful":true,"last_error":null,"id":${id},` +
    `"event":"payment_success","last_sent_url":"https://example.com/hooks"}}`;
  const SUCCESSFUL_LIST =
    `[\n${template("9007199254740993", "2024-05-01T10:00")},\n${template("141765099", "2024-05-01T10:01")},\n` +
    `${template("9223372036854775807", "2024-05-01T10:02")}\n]`;
  const successful = (id: number | string, at: string): Webhook => ({
    id,
    event: "payment_success",
    successful: true,
    createdAt: `${at}:00-04:00`,
    lastError: undefined,
    lastErrorAt: undefined,
    acceptedAt: `${at}:02-04:00`,
    lastSentAt: `${at}:01-04:00`,
    lastSentUrl: "https://example.com/hooks",
  });

  it("a list of successful webhooks (the legacy template's values), ids past 2^53 come back as exact decimal strings", async () => {
    server.serve([route("GET", "/webhooks.json", { status: 200, text: SUCCESSFUL_LIST, contentType: "application/json" })]);
    expect(await billing.listWebhooks()).toStrictEqual([
      successful("9007199254740993", "2024-05-01T10:00"),
      successful(141765099, "2024-05-01T10:01"),
      successful("9223372036854775807", "2024-05-01T10:02"),
    ]);
  });

  it("…and those ids are replayed digit for digit", async () => {
    server.serve([
      route("GET", "/webhooks.json", { status: 200, text: SUCCESSFUL_LIST, contentType: "application/json" }),
      route("POST", "/webhooks/replay.json", fixture("replay.200.json")),
    ]);
    const ids = (await billing.listWebhooks()).map((w) => w.id);
    expect(await billing.replayWebhooks(ids)).toStrictEqual({ queued: 3, batches: 1 });
    const sent = server.requests[1].text;
    expect(sent.startsWith('{"ids":[9007199254740993,141765099,9223372036854775807],"uniqueness_token":"')).toBe(true);
    expect(JSON.parse(sent).uniqueness_token).toMatch(UUID);
  });
});

const REPLAYS: Record<string, { ids: number[]; result: { queued: number; batches: number }; posts: number }> = {
  "replay.200.json": { ids: [123456789, 123456788], result: { queued: 2, batches: 1 }, posts: 1 },
};

describe("replayWebhooks on the published replay answer", () => {
  it.each(Object.entries(REPLAYS))("%s: { queued, batches }, the body as published", async (file, { ids, result, posts }) => {
    server.serve([route("POST", "/webhooks/replay.json", fixture(file))]);
    expect(await billing.replayWebhooks(ids)).toStrictEqual(result);
    expect(seen()).toStrictEqual(Array(posts).fill("POST /webhooks/replay.json"));
    const published = JSON.parse(fixtureBytes("replay.request.json").toString("utf8"));
    const body = JSON.parse(server.requests[0].text);
    expect(body.ids).toStrictEqual(published.ids);
    expect(Object.keys(body).sort()).toStrictEqual(["ids", "uniqueness_token"]);
  });

  it("replay.200.json for each of two batches (2001 ids, one repeated): 2000 queued in two batches", async () => {
    server.serve([route("POST", "/webhooks/replay.json", fixture("replay.200.json"))]);
    const ids = [...Array.from({ length: 2000 }, (_, i) => 5001 + i), 5001];
    expect(await billing.replayWebhooks(ids)).toStrictEqual({ queued: 2000, batches: 2 });
    expect(server.requests.map((r) => JSON.parse(r.text).ids.length)).toStrictEqual([1000, 1000]);
  });
});

const SETTINGS: Record<string, { enabled: boolean; result: { webhooksEnabled: boolean } }> = {
  "webhooks-settings.200.json": { enabled: true, result: { webhooksEnabled: true } },
};

describe("setWebhooksEnabled on the published settings answer", () => {
  it.each(Object.entries(SETTINGS))("%s", async (file, { enabled, result }) => {
    server.serve([route("PUT", "/webhooks/settings.json", fixture(file))]);
    expect(await billing.setWebhooksEnabled(enabled)).toStrictEqual(result);
    expect(seen()).toStrictEqual(["PUT /webhooks/settings.json"]);
    expect(JSON.parse(server.requests[0].text)).toStrictEqual(JSON.parse(fixtureBytes("webhooks-settings.request.json").toString("utf8")));
  });
});

// ---------------------------------------------------------------------------------------------------
// The site: readSite (GET /site.json), which proves a site and its credentials (an import reads it).
// ---------------------------------------------------------------------------------------------------

const SITES: Record<string, Site> = {
  // The published example is a schema placeholder (id 0, "string"): read as published, not refused.
  "site-read.200.json": { id: 0, name: "string", subdomain: "string", test: true, currency: "string", nonPrimaryCurrencies: ["string"] },
};

describe("readSite on the published Site Response", () => {
  it.each(Object.entries(SITES))("%s", async (file, site) => {
    server.serve([route("GET", "/site.json", fixture(file))]);
    expect(await billing.readSite()).toStrictEqual(site);
    expect(seen()).toStrictEqual(["GET /site.json"]);
  });
});

// ---------------------------------------------------------------------------------------------------
// Webhook endpoints: listEndpoints (GET /endpoints.json), createEndpoint (POST /endpoints.json),
// updateEndpoint (PUT /endpoints/{id}.json). Events come out sorted and distinct (sdk/results.ts).
// ---------------------------------------------------------------------------------------------------

const ENDPOINT_LISTS: Record<string, Endpoint[]> = {
  // A bare array (not wrapped in {"endpoint": …}); the second url is published with one slash and comes back as published.
  "endpoints-list.200.json": [
    { id: 11, url: "https://foobar.com/webhooks", events: ["payment_failure", "payment_success"], status: "enabled", siteId: 1 },
    {
      id: 12,
      url: "https:/example.com/webhooks",
      events: ["payment_failure", "payment_success", "refund_failure"],
      status: "enabled",
      siteId: 1,
    },
  ],
};

describe("listEndpoints on the published endpoint list", () => {
  it.each(Object.entries(ENDPOINT_LISTS))("%s", async (file, expected) => {
    server.serve([route("GET", "/endpoints.json", fixture(file))]);
    expect(await billing.listEndpoints()).toStrictEqual(expected);
    expect(seen()).toStrictEqual(["GET /endpoints.json"]);
  });
});

const ENDPOINT_RESPONSES: Record<string, Endpoint> = {
  "endpoint-create.200.json": {
    id: 1,
    url: "https://your.site/webhooks",
    events: ["payment_failure", "payment_success"],
    status: "enabled",
    siteId: 1,
  },
};

describe("createEndpoint and updateEndpoint on the published Endpoint Response", () => {
  it.each(Object.entries(ENDPOINT_RESPONSES))(
    "createEndpoint, %s: sends the published request's values (events sorted) with a uniqueness_token",
    async (file, expected) => {
      const published = JSON.parse(fixtureBytes("endpoint-create.request.json").toString("utf8"));
      server.serve([route("POST", "/endpoints.json", fixture(file))]);
      const created = await billing.createEndpoint({ url: published.endpoint.url, events: published.endpoint.webhook_subscriptions });
      expect(created).toStrictEqual(expected);
      expect(seen()).toStrictEqual(["POST /endpoints.json"]);
      const body = JSON.parse(server.requests[0].text);
      expect(Object.keys(body).sort()).toStrictEqual(["endpoint", "uniqueness_token"]);
      expect(body.endpoint).toStrictEqual({
        url: "https://your.site/webhooks",
        webhook_subscriptions: ["payment_failure", "payment_success"],
      });
      expect(body.uniqueness_token).toMatch(UUID);
    },
  );

  // PUT /endpoints/{id}.json: no 200 example is published; its schema is the create's Endpoint Response.
  it.each(Object.entries(ENDPOINT_RESPONSES))(
    "updateEndpoint, %s: sends the published update request as published (its events already sorted, no token)",
    async (file, expected) => {
      const published = JSON.parse(fixtureBytes("endpoint-update.request.json").toString("utf8"));
      server.serve([route("PUT", "/endpoints/1.json", fixture(file))]);
      const updated = await billing.updateEndpoint(1, { url: published.endpoint.url, events: published.endpoint.webhook_subscriptions });
      expect(updated).toStrictEqual(expected);
      expect(seen()).toStrictEqual(["PUT /endpoints/1.json"]);
      expect(JSON.parse(server.requests[0].text)).toStrictEqual({
        endpoint: {
          url: "https://yout.site/webhooks/1/json.",
          webhook_subscriptions: ["payment_failure", "payment_success", "refund_failure"],
        },
      });
    },
  );
});

// ---------------------------------------------------------------------------------------------------
// Every published error body, through the call it belongs to (or the SDK's call of the same path).
// ---------------------------------------------------------------------------------------------------

type Call = { name: string; method: string; path: string; run: (b: BillingClient) => Promise<unknown> };

const CALLS = {
  readSubscription: {
    name: "readSubscription",
    method: "GET",
    path: "/subscriptions/15254809.json",
    run: (b) => b.readSubscription(15254809),
  },
  readProduct: { name: "readProduct", method: "GET", path: "/products/4535635.json", run: (b) => b.readProduct(4535635) },
  listPricePoints: { name: "listPricePoints", method: "GET", path: "/products/901/price_points.json", run: (b) => b.listPricePoints(901) },
  migrateSubscription: {
    name: "migrateSubscription",
    method: "POST",
    path: MIGRATE_PATH,
    run: (b) => b.migrateSubscription(SUB_ID, { productId: 3801242 }),
  },
  previewMigration: {
    name: "previewMigration",
    method: "POST",
    path: PREVIEW_PATH,
    run: (b) => b.previewMigration(SUB_ID, { productId: 3801242 }),
  },
  setWebhooksEnabled: {
    name: "setWebhooksEnabled",
    method: "PUT",
    path: "/webhooks/settings.json",
    run: (b) => b.setWebhooksEnabled(true),
  },
  listWebhooks: { name: "listWebhooks", method: "GET", path: "/webhooks.json", run: (b) => b.listWebhooks() },
  replayWebhooks: { name: "replayWebhooks", method: "POST", path: "/webhooks/replay.json", run: (b) => b.replayWebhooks([141765032]) },
  listEndpoints: { name: "listEndpoints", method: "GET", path: "/endpoints.json", run: (b) => b.listEndpoints() },
  createEndpoint: {
    name: "createEndpoint",
    method: "POST",
    path: "/endpoints.json",
    run: (b) => b.createEndpoint({ url: "https://your.site/webhooks", events: ["payment_success", "payment_failure"] }),
  },
  updateEndpoint: {
    name: "updateEndpoint",
    method: "PUT",
    path: "/endpoints/1.json",
    run: (b) =>
      b.updateEndpoint(1, { url: "https://your.site/webhooks", events: ["payment_failure", "payment_success", "refund_failure"] }),
  },
} satisfies Record<string, Call>;

/** fixture → the call it is served to, and the `errors` list that must come out. */
const ERRORS: Record<string, { call: Call; errors: string[] }> = {
  "migration-422.json": {
    call: CALLS.migrateSubscription,
    errors: [
      "No credit card was on file for the $200.00 balance",
      "This subscription is not eligible for a prorated migration",
      "Invalid Product",
    ],
  },
  // PUT …/reactivate.json: an Error List Response; served to the migration POST (index.json's validateAs).
  "subscription-reactivate-422.resume-only.json": {
    call: CALLS.migrateSubscription,
    errors: ["Request was 'resume only', but this subscription cannot be resumed."],
  },
  "migration-preview-422.json": { call: CALLS.previewMigration, errors: ["Subscription must be active"] },
  // PUT and DELETE /subscriptions/{id}.json: the SDK reads that path (GET).
  "subscription-update-422.json": {
    call: CALLS.readSubscription,
    errors: [
      "Payment collection method cannot be set to 'invoice' when the subscription is past due",
      "'expires_at' cannot be set for subscriptions on calendar billing",
    ],
  },
  // {"error": "…"}: a single string under the singular key.
  "subscription-delete-422.already-canceled.json": { call: CALLS.readSubscription, errors: ["The subscription is already canceled"] },
  "subscription-delete-422.field-lengths.json": {
    call: CALLS.readSubscription,
    errors: ["reason_code size cannot be greater than 255", "cancellation_message size cannot be greater than 65535"],
  },
  "subscription-delete-422.not-an-object.json": { call: CALLS.readSubscription, errors: ["subscription must be an Object"] },
  // PUT and DELETE /products/{id}.json: the SDK reads that path (GET).
  "product-update-422.json": { call: CALLS.readProduct, errors: ["Name: cannot be blank."] },
  "product-archive-422.json": { call: CALLS.readProduct, errors: ["Product cannot be archived."] },
  // POST /products/{id}/price_points.json: {"errors": {field: …}}; the SDK lists that path (GET).
  // Each message gets its field's key in front, so the field is named whatever the message says.
  "price-point-create-422.blank.json": { call: CALLS.listPricePoints, errors: ["price_point: can't be blank"] },
  "price-point-create-422.fields.json": {
    call: CALLS.listPricePoints,
    errors: [
      "interval: Recurring Interval: cannot be blank.",
      "interval_unit: Interval unit: cannot be blank.",
      "interval_unit: Interval unit: must be 'month' or 'day'.",
      "name: Name: cannot be blank.",
      "price: Price: is not a number.",
      "price_in_cents: Price in cents: cannot be blank.",
    ],
  },
  "price-point-create-422.interval.json": {
    call: CALLS.listPricePoints,
    errors: ["interval: Recurring Interval: must be greater than or equal to 1."],
  },
  "price-point-create-422.price.json": { call: CALLS.listPricePoints, errors: ["price: Price: must be greater than or equal to 0."] },
  "endpoint-create-422.json": { call: CALLS.createEndpoint, errors: ["URL: invalid, only http and https supported"] },
  "endpoint-update-422.json": { call: CALLS.updateEndpoint, errors: ["Event key is not valid - foobar"] },
};

describe("every published error body → BillingApiError with the service's messages", () => {
  it.each(Object.entries(ERRORS))("%s", async (file, { call, errors }) => {
    server.serve([route(call.method, call.path, fixture(file))]);
    const err = await call.run(billing).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).not.toBeInstanceOf(AuthenticationRequiredError);
    const e = err as BillingApiError;
    expect(e.status).toBe(422);
    expect(e.errors).toStrictEqual(errors);
    expect(e.method).toBe(call.method);
    expect(e.path).toBe(call.path);
    expect(e.mayHaveApplied).toBe(false);
    expect(e.message).toBe(`${call.method} ${call.path} failed with 422: ${errors.join("; ")}`);
    // Refused: nothing read back, nothing repeated.
    expect(server.requests).toHaveLength(1);
  });
});

const RATE_LIMITED = "Your request was denied due to a usage violation. You can track this request with support by referencing …";

describe("the published 429 (plain text, not JSON), served with status 429", () => {
  it.each(Object.values(CALLS).map((c) => [c.name, c] as const))(
    "%s: BillingApiError with the vendor's text, not retried (budget 0)",
    async (_, call) => {
      server.serve([route(call.method, call.path, fixture("429.txt"))]);
      const err = await call.run(billing).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BillingApiError);
      const e = err as BillingApiError;
      expect(e.status).toBe(429);
      expect(e.errors).toStrictEqual([RATE_LIMITED]);
      expect(e.message).toBe(`${call.method} ${call.path} failed with 429: ${RATE_LIMITED}`);
      expect(e.mayHaveApplied).toBe(false);
      expect(server.requests).toHaveLength(1);
    },
  );

  // On a fresh connection the 429 takes over a millisecond; on a warm one it often arrives within the same
  // millisecond, and a budget of 0 must still mean no retry (the retry wait with retryBaseDelayMs 1 is 0 ms).
  it("on a warm connection, 200 times: never retried with retryBudgetSeconds 0", async () => {
    server.serve([
      route("PUT", "/webhooks/settings.json", fixture("webhooks-settings.200.json")),
      route("GET", CALLS.readSubscription.path, fixture("429.txt")),
    ]);
    await billing.setWebhooksEnabled(true);
    for (let i = 0; i < 200; i++) {
      const err = await billing.readSubscription(15254809).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 429, errors: [RATE_LIMITED] });
    }
    const reads = server.requests.filter((r) => r.method === "GET").length;
    expect(reads, "GETs for 200 calls answered 429").toBe(200);
  });

  // The same without the clock: the retry policy asked about this 429 answered in under a millisecond.
  it("the retry policy: no wait (no retry) for this 429 with a budget of 0, even 0 ms after the first attempt", () => {
    const outcome = classifyAnswer({ status: 429, body: undefined, text: fixtureBytes("429.txt").toString("utf8"), retryAfter: undefined });
    expect(outcome.kind).toBe("rate-limited");
    const policy = { maxRetries: 0, baseDelayMs: 1, budgetMs: 0 };
    expect(nextWait(outcome, 1, 0, policy, true)).toBeUndefined();
    expect(nextWait(outcome, 1, 1, policy, true)).toBeUndefined();
  });
});

/**
 * account-blocked-422.txt: four bodies published in Ruby inspect notation (not JSON), concatenated with a
 * blank line between them. Served as published (text/plain, 422), each alone and the file whole: the SDK
 * cannot read a list from them, so its `errors` is the text on one line (at most 300 characters).
 */
const BLOCKED_LINES = [
  '{ "errors" => [ [0] "Your Chargify account has been canceled. Please contact support@chargify.com to reactivate." ] }',
  '{ "errors" => [ [0] "Your trial has ended, please contact sales." ] }',
  '{ "errors" => [ [0] "Site data clearing is in progress. Please try later." ] }',
  '{ "errors" => [ [0] "This site has been deleted." ] }',
];

describe("the published account-block 422s (Ruby notation, served as text)", () => {
  const blocks = fixtureBytes("account-blocked-422.txt").toString("utf8").split("\n\n");

  it("the file holds the four published bodies", () => {
    expect(blocks.map((b) => b.replace(/\s+/g, " ").trim())).toStrictEqual(BLOCKED_LINES);
  });

  it.each(BLOCKED_LINES.map((line, i) => [i, line] as const))("body %i alone: its text is the error", async (i, line) => {
    server.serve([route("GET", CALLS.readSubscription.path, { status: 422, text: blocks[i], contentType: "text/plain" })]);
    const err = await billing.readSubscription(15254809).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).toMatchObject({ status: 422, errors: [line], mayHaveApplied: false });
  });

  it("the file whole, on one line (text is kept up to 1000 characters)", async () => {
    server.serve([route("GET", CALLS.readSubscription.path, fixture("account-blocked-422.txt"))]);
    const err = await billing.readSubscription(15254809).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    const whole = BLOCKED_LINES.join(" ");
    expect(whole).toHaveLength(320);
    expect(err).toMatchObject({ status: 422, errors: [whole] });
  });
});

// ---------------------------------------------------------------------------------------------------
// Coverage: every response fixture of index.json is served above, or filtered out with its reason.
// ---------------------------------------------------------------------------------------------------

describe("coverage of tests/fixtures/vendor/index.json", () => {
  it("every success fixture of an endpoint the SDK calls has its expected values here", () => {
    const covered = [
      ...Object.keys(SUBSCRIPTIONS),
      ...Object.keys(PRODUCTS),
      ...Object.keys(PRICE_POINT_LISTS),
      ...Object.keys(PREVIEWS),
      ...Object.keys(WEBHOOK_LISTS),
      ...Object.keys(REPLAYS),
      ...Object.keys(SETTINGS),
      ...Object.keys(SITES),
      ...Object.keys(ENDPOINT_LISTS),
      ...Object.keys(ENDPOINT_RESPONSES),
    ];
    expect([...covered].sort()).toStrictEqual([...SUCCESS_FIXTURES].sort());
  });

  it("every published error body is served here", () => {
    const covered = [...Object.keys(ERRORS), "migration-3ds-422.json", "duplicate-409.json", "429.txt", "account-blocked-422.txt"];
    expect([...covered].sort()).toStrictEqual([...ERROR_FIXTURES].sort());
  });
});
