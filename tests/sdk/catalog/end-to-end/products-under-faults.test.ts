import { describe, expect, it } from "vitest";
import {
  BillingApiError,
  type BillingClient,
  BillingError,
  CatalogOutcomeUnknownError,
  PricePointsPartialFailureError,
} from "../../../../sdk";
import { clientOf, everything, expectNoSecret } from "../../helpers";
import { type FakeService, fakeService } from "../fake-service";
import { contractRequestCheck } from "../request-contract";

/**
 * The product catalog's writes under faults, against the in-memory catalog service (../fake-service.ts) over a real
 * socket: creates with a reset or a 503 after the request was applied or before, a 409 duplicate submission with the
 * object found or not, an answer later than the client's timeout; the repeatable writes (archive, unarchive, promote,
 * update) whose answer is lost. Each proves what the service holds afterwards (never two), what was sent (one token,
 * re-sent only when nothing was found) and that an outcome the SDK cannot learn is a CatalogOutcomeUnknownError that
 * says so. The last test validates every request sent here against the contract (../request-contract.ts).
 */

const MONTHLY = { priceInCents: 1000, interval: 1, intervalUnit: "month" } as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Kind {
  readonly kind: "product family" | "product" | "price point";
  /** Makes what the create needs; returns the create, its POST path and its read-back request. */
  prepare(
    svc: FakeService,
    billing: BillingClient,
  ): Promise<{
    create: (b: BillingClient, token?: string) => Promise<{ id: number; handle: string | undefined }>;
    post: string;
    readBack: string;
    count: () => number;
  }>;
}

const KINDS: readonly Kind[] = [
  {
    kind: "product family",
    async prepare(svc) {
      return {
        create: (b, token) => b.createProductFamily({ handle: "saas", name: "SaaS" }, { uniquenessToken: token }),
        post: "POST /product_families.json",
        readBack: "GET /product_families/handle:saas.json",
        count: () => svc.families.filter((f) => f.handle === "saas").length,
      };
    },
  },
  {
    kind: "product",
    async prepare(svc, billing) {
      const f = await billing.createProductFamily({ handle: "saas", name: "SaaS" });
      return {
        create: (b, token) => b.createProduct(f.id, { handle: "pro", name: "Pro", ...MONTHLY }, { uniquenessToken: token }),
        post: `POST /product_families/${f.id}/products.json`,
        readBack: "GET /products/handle/pro.json",
        count: () => svc.products.filter((p) => p.handle === "pro").length,
      };
    },
  },
  {
    kind: "price point",
    async prepare(svc, billing) {
      const f = await billing.createProductFamily({ handle: "saas", name: "SaaS" });
      const p = await billing.createProduct(f.id, { handle: "pro", name: "Pro", ...MONTHLY });
      return {
        create: (b, token) =>
          b.createPricePoint(p.id, { handle: "annual", name: "Annual", ...MONTHLY, interval: 12 }, { uniquenessToken: token }),
        post: `POST /products/${p.id}/price_points.json`,
        readBack: `GET /products/${p.id}/price_points.json`,
        count: () => svc.pricePoints.filter((x) => x.handle === "annual").length,
      };
    },
  },
];

/** Every service of this file, for the contract check of everything sent (the last test). */
const services: FakeService[] = [];

async function service() {
  const svc = await fakeService();
  services.push(svc);
  return svc;
}

async function setup(k: Kind, client: { maxRetries?: number; migrationSettleSeconds?: number; timeoutMs?: number } = {}) {
  const svc = await service();
  const billing = clientOf(svc.url, { maxRetries: 2, migrationSettleSeconds: 0.05, ...client });
  const c = await k.prepare(svc, billing);
  svc.requests.length = 0;
  const [method, path] = c.post.split(" ");
  const postPath = new RegExp(`^${path.replace(/[.]/g, "\\.")}$`);
  const readPath = new RegExp(`^${c.readBack.split(" ")[1].replace(/[.]/g, "\\.")}$`);
  const tokens = () => svc.requests.filter((r) => `${r.method} ${r.path}` === c.post).map((r) => (r.body as any).uniqueness_token);
  return { svc, billing, ...c, method, postPath, readPath, tokens };
}

async function unknownOf(p: Promise<unknown>): Promise<CatalogOutcomeUnknownError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CatalogOutcomeUnknownError);
  expect(err).toBeInstanceOf(BillingError);
  return err as CatalogOutcomeUnknownError;
}

describe.each(KINDS)("create a $kind under faults", (k) => {
  it.each([["reset-after"], ["503-after"]] as const)(
    "%s (applied, answer lost): read back by handle, found, nothing re-sent",
    async (kind) => {
      const s = await setup(k);
      s.svc.fault({ kind, method: "POST", path: s.postPath });
      const made = await s.create(s.billing);
      expect(made.handle).toBe(k.kind === "product family" ? "saas" : k.kind === "product" ? "pro" : "annual");
      expect(s.count()).toBe(1);
      expect(s.svc.seen()).toStrictEqual([s.post, s.readBack]);
    },
  );

  it.each([["reset-before"], ["503-before"]] as const)(
    "%s (not applied): read back, not found, re-sent once with the same token, created once",
    async (kind) => {
      const s = await setup(k);
      s.svc.fault({ kind, method: "POST", path: s.postPath });
      await s.create(s.billing);
      expect(s.count()).toBe(1);
      expect(s.svc.seen()).toStrictEqual([s.post, s.readBack, s.post]);
      const [a, b] = s.tokens();
      expect(a).toMatch(UUID);
      expect(b).toBe(a);
    },
  );

  it("a timeout while the service applies it: read back, found, nothing re-sent", async () => {
    const s = await setup(k, { timeoutMs: 100 });
    // The answer a second past the timeout: a timer firing late on a loaded machine still fires first.
    s.svc.fault({ kind: "slow", delayMs: 1100, method: "POST", path: s.postPath });
    await s.create(s.billing);
    expect(s.count()).toBe(1);
    expect(s.svc.seen()).toStrictEqual([s.post, s.readBack]);
  });

  it("503 on every attempt, nothing applied: CatalogOutcomeUnknownError after maxRetries + 1 sends, one token, truthful", async () => {
    const s = await setup(k, { maxRetries: 2 });
    s.svc.fault({ kind: "503-before", method: "POST", path: s.postPath, times: 10 });
    const err = await unknownOf(s.create(s.billing));
    expect(s.count()).toBe(0);
    expect(s.svc.seen()).toStrictEqual([s.post, s.readBack, s.post, s.readBack, s.post, s.readBack]);
    const tokens = s.tokens();
    expect(new Set(tokens).size).toBe(1);
    expect(err.kind).toBe(k.kind);
    expect(err.uniquenessToken).toBe(tokens[0]);
    expect(err.mayHaveApplied).toBe(true);
    expect(err.cause).toBeInstanceOf(BillingApiError);
    expect(err.message).toMatch(
      new RegExp(`^creating the ${k.kind} "${err.handle}" may or may not have been applied: 3 attempt\\(s\\) failed ambiguously`),
    );
    expect(err.message).toContain("it may or may not have been created");
    expect(err.message).toContain(`Resuming reads it back by handle first, then creates it with the same uniqueness_token (${tokens[0]})`);
    expectNoSecret(everything(err));
  });

  it("resumed with its token after an unknown outcome: 409 duplicate submission, read back, found; one on the service", async () => {
    // The answer lost after the create applied, and the read-back failing: unknown.
    const s = await setup(k, { maxRetries: 0 });
    s.svc.fault({ kind: "reset-after", method: "POST", path: s.postPath }, { kind: "503-before", method: "GET", path: s.readPath });
    const first = await unknownOf(s.create(s.billing));
    expect(first.message).toContain("reading back by handle failed too");
    expect(s.count()).toBe(1);
    s.svc.requests.length = 0;
    const made = await s.create(s.billing, first.uniquenessToken);
    expect(made.id).toBeGreaterThan(0);
    expect(s.count()).toBe(1);
    expect(s.svc.seen()).toStrictEqual([s.post, s.readBack]);
    expect(s.tokens()).toStrictEqual([first.uniquenessToken]);
  });

  it("409 duplicate submission and nothing with the handle appears within the settle time: CatalogOutcomeUnknownError", async () => {
    const s = await setup(k, { migrationSettleSeconds: 0.05 });
    s.svc.fault({ kind: "409", method: "POST", path: s.postPath });
    const err = await unknownOf(s.create(s.billing));
    expect(s.count()).toBe(0);
    expect(s.svc.seen()[0]).toBe(s.post);
    expect(
      s.svc
        .seen()
        .slice(1)
        .every((r) => r === s.readBack),
    ).toBe(true);
    expect(s.svc.seen().filter((r) => r === s.post)).toHaveLength(1);
    expect(err.message).toContain("a request with this uniqueness_token was already submitted (it may still be processing)");
    expect(err.cause).toMatchObject({ status: 409 });
  });

  it("the read-back fails: CatalogOutcomeUnknownError that says so, nothing re-sent", async () => {
    const s = await setup(k, { maxRetries: 0 });
    s.svc.fault(
      { kind: "503-before", method: "POST", path: s.postPath },
      { kind: "503-before", method: "GET", path: s.readPath, times: 5 },
    );
    const err = await unknownOf(s.create(s.billing));
    expect(err.message).toContain("the request failed (POST");
    expect(err.message).toContain("reading back by handle failed too");
    expect(s.svc.seen().filter((r) => r === s.post)).toHaveLength(1);
  });

  it("a 2xx whose body cannot be read: read back by handle, found", async () => {
    const s = await setup(k);
    s.svc.fault({ kind: "garbled", method: "POST", path: s.postPath });
    const made = await s.create(s.billing);
    expect(made.id).toBeGreaterThan(0);
    expect(s.count()).toBe(1);
    expect(s.svc.seen()).toStrictEqual([s.post, s.readBack]);
  });

  it("a refusal on the first attempt is the service's own answer, nothing read back", async () => {
    const s = await setup(k);
    await s.create(s.billing);
    s.svc.requests.length = 0;
    const err = await s.create(s.billing).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).toMatchObject({ status: 422, mayHaveApplied: false });
    expect((err as BillingApiError).errors[0]).toMatch(/^handle: |^Handle must be unique/);
    expect(s.svc.seen()).toStrictEqual([s.post]);
  });
});

describe("what a read-back does not count as the object created", () => {
  it("an archived product with the handle: re-sent, and the service's refusal is the answer", async () => {
    const svc = await service();
    const billing = clientOf(svc.url, { maxRetries: 2 });
    const f = await billing.createProductFamily({ handle: "saas", name: "SaaS" });
    const old = await billing.createProduct(f.id, { handle: "pro", name: "Pro", ...MONTHLY });
    await billing.archiveProduct(old.id);
    svc.requests.length = 0;
    svc.fault({ kind: "503-before", method: "POST" });
    const err = await billing.createProduct(f.id, { handle: "pro", name: "Pro again", ...MONTHLY }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).toMatchObject({ status: 422, errors: ["handle: must be unique within a Site."] });
    expect(svc.seen()).toStrictEqual([
      `POST /product_families/${f.id}/products.json`,
      "GET /products/handle/pro.json",
      `POST /product_families/${f.id}/products.json`,
      "GET /products/handle/pro.json",
    ]);
    expect(svc.products).toHaveLength(1);
  });

  it("a product with the handle in another family is not this create's", async () => {
    const svc = await service();
    const billing = clientOf(svc.url, { maxRetries: 0 });
    const a = await billing.createProductFamily({ handle: "a", name: "A" });
    const b = await billing.createProductFamily({ handle: "b", name: "B" });
    await billing.createProduct(a.id, { handle: "pro", name: "Pro", ...MONTHLY });
    svc.fault({ kind: "503-before", method: "POST" });
    const err = await unknownOf(billing.createProduct(b.id, { handle: "pro", name: "Pro", ...MONTHLY }));
    expect(err.message).toMatch(/no live product with handle "pro" is found \(product \d+ in another family \(\d+\)\)/);
  });
});

describe("createPricePoints under faults", () => {
  it("each create resolved on its own: one lost answer read back, one refused; a partial failure lists both", async () => {
    const svc = await service();
    const billing = clientOf(svc.url, { maxRetries: 1, maxConcurrency: 3 });
    const f = await billing.createProductFamily({ handle: "saas", name: "SaaS" });
    const p = await billing.createProduct(f.id, { handle: "pro", name: "Pro", ...MONTHLY });
    await billing.createPricePoint(p.id, { handle: "taken", name: "Taken", ...MONTHLY });
    svc.fault({ kind: "reset-after", method: "POST", path: /price_points\.json$/ });
    const err = await billing
      .createPricePoints(p.id, [
        { handle: "a", name: "A", ...MONTHLY },
        { handle: "taken", name: "Taken", ...MONTHLY },
        { handle: "c", name: "C", ...MONTHLY },
      ])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PricePointsPartialFailureError);
    const e = err as PricePointsPartialFailureError;
    expect(e.created.map((c) => [c.index, c.pricePoint.handle])).toStrictEqual([
      [0, "a"],
      [2, "c"],
    ]);
    expect(e.failures.map((x) => [x.index, x.handle, (x.error as BillingApiError).status])).toStrictEqual([[1, "taken", 422]]);
    expect(e.mayHaveApplied).toBe(false);
    expect(e.message).toMatch(/^creating price points of product \d+ partly failed: 2 created, 1 failed: \[1\] "taken": POST /);
    expect(svc.pricePoints.filter((x) => ["a", "c"].includes(x.handle as string))).toHaveLength(2);
  });

  it("at most maxConcurrency requests in flight", async () => {
    const svc = await service();
    const setupClient = clientOf(svc.url);
    const f = await setupClient.createProductFamily({ handle: "saas", name: "SaaS" });
    const p = await setupClient.createProduct(f.id, { handle: "pro", name: "Pro", ...MONTHLY });
    const billing = clientOf(svc.url, { maxConcurrency: 3 });
    svc.fault({ kind: "slow", delayMs: 40, method: "POST", times: 100 });
    await billing.createPricePoints(
      p.id,
      Array.from({ length: 10 }, (_, i) => ({ handle: `pp-${i}`, name: `PP ${i}`, ...MONTHLY })),
    );
    expect(svc.peak).toBe(3);
  });
});

describe("repeatable writes under faults: settled by reading whether they took", () => {
  async function catalog(client: { maxRetries?: number } = {}) {
    const svc = await service();
    const billing = clientOf(svc.url, client);
    const f = await billing.createProductFamily({ handle: "saas", name: "SaaS" });
    const p = await billing.createProduct(f.id, { handle: "pro", name: "Pro", ...MONTHLY });
    const pp = await billing.createPricePoint(p.id, { handle: "annual", name: "Annual", ...MONTHLY, interval: 12 });
    svc.requests.length = 0;
    return { svc, billing, p, pp };
  }
  const POINT = (p: { id: number }, pp: { id: number }) => `/products/${p.id}/price_points/${pp.id}.json`;

  it("archivePricePoint: applied, answer lost, no retries left: read back archived, returned", async () => {
    const { svc, billing, p, pp } = await catalog({ maxRetries: 0 });
    svc.fault({ kind: "reset-after", method: "DELETE" });
    const archived = await billing.archivePricePoint(p.id, pp.id);
    expect(archived).toMatchObject({ id: pp.id, archivedAt: expect.any(String) });
    expect(svc.seen()).toStrictEqual([`DELETE ${POINT(p, pp)}`, `GET ${POINT(p, pp)}`]);
  });

  it("archivePricePoint: a 503 after applying, retried: the repeat finds it archived", async () => {
    const { svc, billing, p, pp } = await catalog({ maxRetries: 1 });
    svc.fault({ kind: "503-after", method: "DELETE" });
    expect((await billing.archivePricePoint(p.id, pp.id)).archivedAt).toEqual(expect.any(String));
    expect(svc.seen()).toStrictEqual([`DELETE ${POINT(p, pp)}`, `DELETE ${POINT(p, pp)}`]);
  });

  it("archiveProduct and unarchivePricePoint: applied, answer lost: read back, returned", async () => {
    const { svc, billing, p, pp } = await catalog({ maxRetries: 0 });
    await billing.archivePricePoint(p.id, pp.id);
    svc.fault({ kind: "reset-after", method: "PATCH" }, { kind: "reset-after", method: "DELETE" });
    expect((await billing.unarchivePricePoint(p.id, pp.id)).archivedAt).toBeUndefined();
    expect((await billing.archiveProduct(p.id)).archivedAt).toEqual(expect.any(String));
  });

  it("promotePricePoint: applied, answer lost: the product's default is it, so the price point is read and returned", async () => {
    const { svc, billing, p, pp } = await catalog({ maxRetries: 0 });
    svc.fault({ kind: "reset-after", method: "PATCH" });
    expect(await billing.promotePricePoint(p.id, pp.id)).toMatchObject({ id: pp.id, type: "default" });
    expect(svc.seen()).toStrictEqual([
      `PATCH /products/${p.id}/price_points/${pp.id}/default.json`,
      `GET /products/${p.id}.json`,
      `GET ${POINT(p, pp)}`,
    ]);
  });

  it("promotePricePoint: not applied, no retries left: the failure, saying it may have applied", async () => {
    const { svc, billing, p, pp } = await catalog({ maxRetries: 0 });
    svc.fault({ kind: "reset-before", method: "PATCH" });
    const err = await billing.promotePricePoint(p.id, pp.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingError);
    expect(err).toMatchObject({ mayHaveApplied: true, method: "PATCH" });
    expect(svc.seen()).toStrictEqual([`PATCH /products/${p.id}/price_points/${pp.id}/default.json`, `GET /products/${p.id}.json`]);
    expect((await billing.readProduct(p.id)).defaultPricePointId).toBe(p.defaultPricePointId);
  });

  it("updateProduct with a new price: a 503 after applying, retried: one new default price point, not two", async () => {
    const { svc, billing, p } = await catalog({ maxRetries: 2 });
    svc.fault({ kind: "503-after", method: "PUT" });
    const updated = await billing.updateProduct(p.id, { priceInCents: 2500 });
    expect(updated.pricing?.priceInCents).toBe(2500);
    expect(svc.seen()).toStrictEqual([`PUT /products/${p.id}.json`, `PUT /products/${p.id}.json`]);
    expect(svc.pricePoints.filter((x) => x.product_id === p.id)).toHaveLength(3); // the first default, "annual", and one new default
  });
});

describe("a product handle of digits only", () => {
  it("is read back by the handle path, not taken for an id", async () => {
    const svc = await service();
    const billing = clientOf(svc.url, { maxRetries: 0 });
    const f = await billing.createProductFamily({ handle: "saas", name: "SaaS" });
    svc.requests.length = 0;
    svc.fault({ kind: "reset-after", method: "POST" });
    const made = await billing.createProduct(f.id, { handle: "2024", name: "Edition 2024", ...MONTHLY });
    expect(made.handle).toBe("2024");
    expect(svc.seen()).toStrictEqual([`POST /product_families/${f.id}/products.json`, "GET /products/handle/2024.json"]);
  });
});

describe("every request sent above, retries and read-backs included", () => {
  it("validates against the contract's request schema, but for the listed deviations (request-contract.ts)", async () => {
    const sent = services.flatMap((s) =>
      s.log.map((r) => ({ method: r.method, url: r.url, text: r.body === undefined ? "" : JSON.stringify(r.body) })),
    );
    const { problems, deviations } = await contractRequestCheck(sent);
    expect(problems).toStrictEqual([]);
    expect(deviations).toStrictEqual([
      "listProductPricePoints: archived in the query",
      "readProductFamily: {id} as handle:x",
      "updateProduct: a partial product (without some of name, description, price_in_cents, interval, interval_unit)",
    ]);
  });
});
