import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import { BillingApiError, type BillingClient, CatalogOutcomeUnknownError } from "../../sdk";
import { clientOf, refusedWith, rejection, requestLog, scripted, site } from "./helpers";

// sdk/catalog/coupons.ts, create.ts, families.ts, inputs.ts (replay ids) and wire/errors.ts through BillingClient
// against the simulator: the mutation run found these unchecked. Reads that must be repeated after a 500, the words
// of refusals and of a create's read-back, the coupon list's code filter, the archive read-back that must see the
// coupon archived, the family list leaving out a placeholder row, and the error bodies in the vendor's rarer shapes.
// Answers the simulator never writes (a placeholder row, a coupon without its family or percentage, a bare-string
// error body) come from a rewriting proxy in front of it or from the scripted server. families.ts's FAMILIES path is
// built at load and only a fresh import could reach its mutant; it is left to the run's report, not reloaded here.

/** A site with families 1 ("one") and 2 ("two"). */
async function families(opts: { maxRetries?: number; migrationSettleSeconds?: number } = {}) {
  const s = await site({}, { maxRetries: opts.maxRetries ?? 0, migrationSettleSeconds: opts.migrationSettleSeconds });
  s.sim.addProductFamily({ id: 1, handle: "one", name: "One" });
  s.sim.addProductFamily({ id: 2, handle: "two", name: "Two" });
  return s;
}

/** A socket in front of the simulator that rewrites a JSON answer that succeeded, whatever its shape (lists too). */
async function rewritingProxy(simulatorUrl: string, rewrite: (method: string, path: string, body: unknown) => unknown): Promise<string> {
  const target = new URL(simulatorUrl);
  const server = createServer((req, res) => {
    const out = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on("data", (c: Buffer) => chunks.push(c));
      answer.on("end", () => {
        let text = Buffer.concat(chunks).toString("utf8");
        const status = answer.statusCode ?? 502;
        if (status < 300 && text !== "") text = JSON.stringify(rewrite(req.method ?? "", (req.url ?? "").split("?")[0], JSON.parse(text)));
        res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
        res.end(text);
      });
    });
    // A connection the simulator reset is reset to the client too: the same lost answer.
    out.on("error", () => req.socket.resetAndDestroy());
    req.pipe(out);
  });
  onTestFinished(
    () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  );
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("coupon reads are repeated after a 500, as a read may be", () => {
  it.each<[string, string, (b: BillingClient, id: number) => Promise<unknown>]>([
    ["readCoupon", "/product_families/1/coupons/ID.json", (b, id) => b.readCoupon(1, id)],
    ["findCoupon", "/coupons/find.json", (b) => b.findCoupon("SPRING", { familyId: 1 })],
    ["listCoupons", "/coupons.json", (b) => b.listCoupons()],
  ])("%s", async (_, pathTemplate, op) => {
    const { sim, billing } = await families({ maxRetries: 1 });
    const c = await billing.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15 });
    sim.reset();
    const path = pathTemplate.replace("ID", String(c.id));
    sim.injectFault({ kind: "status", status: 500, times: 1, match: { method: "GET", path } });
    const got = (await op(billing, c.id)) as { id: number; code: string } | { id: number; code: string }[];
    expect((Array.isArray(got) ? got : [got]).map((x) => [x.id, x.code])).toStrictEqual([[c.id, "SPRING"]]);
    expect(requestLog(sim)).toStrictEqual([`GET ${path} 500`, `GET ${path} 200`]);
  });
});

describe("product family list is repeated after a 500", () => {
  it("listProductFamilies", async () => {
    const { sim, billing } = await families({ maxRetries: 1 });
    sim.injectFault({ kind: "status", status: 500, times: 1, match: { method: "GET", path: "/product_families.json" } });
    const got = await billing.listProductFamilies();
    expect(got.map((f) => [f.id, f.handle])).toStrictEqual([
      [1, "one"],
      [2, "two"],
    ]);
    expect(requestLog(sim)).toStrictEqual(["GET /product_families.json 500", "GET /product_families.json 200"]);
  });
});

describe("findCoupon without a family sends no family and is not refused", () => {
  it("a coupon of the default family found by code alone", async () => {
    const { sim, billing } = await site({}, { maxRetries: 0 });
    const fam = await billing.createProductFamily({ handle: "plans", name: "Plans" });
    await billing.createCoupon(fam.id, { code: "SPRING", name: "Spring", percentage: 15 });
    sim.reset();
    const got = await billing.findCoupon("SPRING");
    expect([got.code, got.name]).toStrictEqual(["SPRING", "Spring"]);
    expect(sim.requests.map((r) => [r.path, r.query])).toStrictEqual([["/coupons/find.json", { code: "SPRING" }]]);
  });
});

describe("listCoupons by codes", () => {
  it("an empty list of codes matches none and sends nothing", async () => {
    const { sim, billing } = await families();
    await billing.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15 });
    sim.reset();
    expect(await billing.listCoupons({ codes: [] })).toStrictEqual([]);
    expect(sim.requests).toStrictEqual([]);
  });

  it("the codes go in filter[codes], joined by commas, and only those coupons come back", async () => {
    const { sim, billing } = await families();
    await billing.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15 });
    await billing.createCoupon(1, { code: "SUMMER", name: "Summer", percentage: 10 });
    await billing.createCoupon(2, { code: "FALL", name: "Fall", amountInCents: 300 });
    sim.reset();
    const got = await billing.listCoupons({ codes: ["SPRING", "FALL"] });
    expect(got.map((c) => c.code).sort()).toStrictEqual(["FALL", "SPRING"]);
    expect(sim.requests.map((r) => [r.path, r.query])).toStrictEqual([
      ["/coupons.json", { page: "1", per_page: "200", "filter[codes]": "SPRING,FALL" }],
    ]);
  });
});

describe("refusals name the operation and the property", () => {
  it("an update of a coupon with a bad input", async () => {
    const { sim, billing } = await families();
    const r = await refusedWith(billing.updateCoupon(1, 5, { code: "SPRING", name: 5 as unknown as string, percentage: 15 }));
    expect(r).toStrictEqual({
      message: "invalid coupon update: name: must be a name (a string), got 5",
      problems: [{ property: "name", message: "must be a name (a string), got 5" }],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it.each<[string, unknown, string]>([
    [
      "a bad handle",
      "Not A Handle",
      `must be a lowercase letter or number first, then only lowercase letters, numbers, '.', ':', '-' and '_', got "Not A Handle"`,
    ],
    ["id 0", 0, "must be a positive integer id, got 0"],
  ])("readProductFamily with %s", async (_, idOrHandle, message) => {
    const { sim, billing } = await families();
    expect(await refusedWith(billing.readProductFamily(idOrHandle as number))).toStrictEqual({
      message: `invalid product family: productFamily: ${message}`,
      problems: [{ property: "productFamily", message }],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it("createProductFamily with a token that is not a string", async () => {
    const { sim, billing } = await families();
    const token = "must be a non-empty string (the token of the create being resumed)";
    expect(
      await refusedWith(billing.createProductFamily({ handle: "saas", name: "SaaS" }, { uniquenessToken: 5 as unknown as string })),
    ).toStrictEqual({
      message: `invalid product family: uniquenessToken: ${token}`,
      problems: [{ property: "uniquenessToken", message: token }],
    });
    expect(sim.requests).toStrictEqual([]);
  });
});

describe("updateCoupon with restricted components alone reads the coupon first, to lift those left out", () => {
  it("a component restriction the input leaves out is sent as false", async () => {
    const { sim, billing } = await families();
    sim.addComponent({ id: 30001, familyId: 1, kind: "on_off", handle: "support", name: "Support" });
    sim.addComponent({ id: 30002, familyId: 1, kind: "on_off", handle: "care", name: "Care" });
    const c = await billing.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15, restrictedComponents: [30001, 30002] });
    sim.reset();
    const got = await billing.updateCoupon(1, c.id, { code: "SPRING", name: "Spring", percentage: 15, restrictedComponents: [30002] });
    expect(got.restrictions.map((r) => [r.itemType, r.itemId])).toStrictEqual([["Component", 30002]]);
    const path = `/product_families/1/coupons/${c.id}.json`;
    expect(requestLog(sim)).toStrictEqual([`GET ${path} 200`, `PUT ${path} 200`]);
    const body = sim.requests[1].body as { restricted_components: Record<string, boolean> };
    expect(body.restricted_components).toStrictEqual({ 30001: false, 30002: true });
  });
});

describe("archiveCoupon whose request was lost before it applied is not taken as archived", () => {
  it("the read-back sees a live coupon: the failure stands", async () => {
    const { sim, billing } = await families();
    const c = await billing.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15 });
    sim.reset();
    sim.injectFault({ kind: "reset", times: 1, match: { method: "DELETE" } });
    const err = await rejection(billing.archiveCoupon(1, c.id));
    expect([(err as Error).name, (err as Error).message]).toStrictEqual([
      "BillingConnectionError",
      `DELETE /product_families/1/coupons/${c.id}.json: read ECONNRESET (ECONNRESET); it may or may not have been applied ` +
        "(the read-back could not confirm it), so read it back before relying on either",
    ]);
    expect(requestLog(sim)).toStrictEqual([
      `DELETE /product_families/1/coupons/${c.id}.json 0`,
      `GET /product_families/1/coupons/${c.id}.json 200`,
    ]);
    expect((await billing.readCoupon(1, c.id)).archivedAt).toBe(undefined);
  });
});

describe("a coupon create whose answer was lost says what its read-back by code saw", () => {
  const tail = (seen: string) =>
    'creating the coupon "SPRING" may or may not have been applied: 1 attempt(s) failed ambiguously (last: POST ' +
    `/product_families/1/coupons.json: read ECONNRESET (ECONNRESET)) and no live coupon with handle "SPRING" is found (${seen}); ` +
    "it may or may not have been created. Resuming reads it back by handle first, then creates it with the same " +
    "uniqueness_token (tok-1), never a new one";

  it.each<[string, Record<string, unknown>, Record<string, unknown>, string]>([
    [
      "another name",
      { code: "SPRING", name: "Spring", percentage: 15 },
      { code: "SPRING", name: "Autumn", percentage: 15 },
      'a coupon this create did not make (id ID holds name "Spring" where this create asked "Autumn")',
    ],
    [
      "another percentage",
      { code: "SPRING", name: "Spring", percentage: 15 },
      { code: "SPRING", name: "Spring", percentage: 20 },
      "a coupon this create did not make (id ID holds percentage 15 where this create asked 20)",
    ],
    [
      "another amount",
      { code: "SPRING", name: "Spring", amountInCents: 500 },
      { code: "SPRING", name: "Spring", amountInCents: 700 },
      "a coupon this create did not make (id ID holds amountInCents 500 where this create asked 700)",
    ],
    // The other kind of discount: the field asked for is absent from the answer, so comparing it alone saw nothing.
    [
      "an amount where a percentage was asked",
      { code: "SPRING", name: "Spring", amountInCents: 500 },
      { code: "SPRING", name: "Spring", percentage: 15 },
      "a coupon this create did not make (id ID holds amountInCents 500 where this create asked percentage 15)",
    ],
    [
      "a percentage where an amount was asked",
      { code: "SPRING", name: "Spring", percentage: 15 },
      { code: "SPRING", name: "Spring", amountInCents: 500 },
      "a coupon this create did not make (id ID holds percentage 15 where this create asked amountInCents 500)",
    ],
  ])("%s", async (_, existing, asked, seen) => {
    const { sim, billing } = await families();
    const held = await billing.createCoupon(1, existing as never);
    sim.reset();
    sim.injectFault({ kind: "reset", times: 1, match: { method: "POST" } });
    const err = await rejection(billing.createCoupon(1, asked as never, { uniquenessToken: "tok-1" }));
    expect(err).toBeInstanceOf(CatalogOutcomeUnknownError);
    expect((err as Error).message).toBe(tail(seen.replace("ID", String(held.id))));
    expect(sim.requests.map((r) => [r.method, r.path, r.status, r.query])).toStrictEqual([
      ["POST", "/product_families/1/coupons.json", 0, {}],
      ["GET", "/coupons/find.json", 200, { code: "SPRING", product_family_id: "1" }],
    ]);
  });

  it("an archived coupon with the code", async () => {
    const { sim, billing } = await families();
    const held = await billing.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15 });
    const archived = await billing.archiveCoupon(1, held.id);
    sim.reset();
    sim.injectFault({ kind: "reset", times: 1, match: { method: "POST" } });
    const err = await rejection(billing.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15 }, { uniquenessToken: "tok-1" }));
    expect(err).toBeInstanceOf(CatalogOutcomeUnknownError);
    expect((err as Error).message).toBe(tail(`an archived coupon (id ${held.id}, archived ${archived.archivedAt})`));
  });

  it("a coupon in another family", async () => {
    const { sim, billing } = await families();
    const held = await billing.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15 });
    sim.reset();
    // The service answers with a coupon of another family than the one asked for.
    const url = await rewritingProxy(sim.url, (method, path, body) => {
      if (method === "GET" && path === "/coupons/find.json") (body as { coupon: Record<string, unknown> }).coupon.product_family_id = 2;
      return body;
    });
    const b = clientOf(url, { maxRetries: 0 });
    sim.injectFault({ kind: "reset", times: 1, match: { method: "POST" } });
    const err = await rejection(b.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15 }, { uniquenessToken: "tok-1" }));
    expect(err).toBeInstanceOf(CatalogOutcomeUnknownError);
    expect((err as Error).message).toBe(tail(`coupon ${held.id} in another family (2)`));
  });

  it("a coupon whose answer names no family is taken as the one created", async () => {
    const { sim, billing } = await families();
    const held = await billing.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15 });
    sim.reset();
    const url = await rewritingProxy(sim.url, (method, path, body) => {
      if (method === "GET" && path === "/coupons/find.json") delete (body as { coupon: Record<string, unknown> }).coupon.product_family_id;
      return body;
    });
    const b = clientOf(url, { maxRetries: 0 });
    sim.injectFault({ kind: "reset", times: 1, match: { method: "POST" } });
    const got = await b.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15 }, { uniquenessToken: "tok-1" });
    expect([got.id, got.code, got.productFamilyId]).toStrictEqual([held.id, "SPRING", undefined]);
  });
});

describe("a coupon create's read-back does not compare a percentage the answer leaves out", () => {
  it("the coupon read back with percentage null, code and name as asked, is the one created", async () => {
    const { sim, billing } = await families();
    const held = await billing.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15 });
    sim.reset();
    const url = await rewritingProxy(sim.url, (method, path, body) => {
      if (method === "GET" && path === "/coupons/find.json") (body as { coupon: Record<string, unknown> }).coupon.percentage = null;
      return body;
    });
    const b = clientOf(url, { maxRetries: 0 });
    sim.injectFault({ kind: "reset", times: 1, match: { method: "POST" } });
    const got = await b.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15 }, { uniquenessToken: "tok-1" });
    expect([got.id, got.code, got.percentage]).toStrictEqual([held.id, "SPRING", undefined]);
    expect(requestLog(sim)).toStrictEqual(["POST /product_families/1/coupons.json 0", "GET /coupons/find.json 200"]);
  });
});

describe("a family create whose answer was lost", () => {
  it("reads back by handle and says it saw a 404", async () => {
    const { sim, billing } = await families();
    sim.injectFault({ kind: "reset", times: 1, match: { method: "POST" } });
    const err = await rejection(billing.createProductFamily({ handle: "saas", name: "SaaS" }, { uniquenessToken: "tok-1" }));
    expect(err).toBeInstanceOf(CatalogOutcomeUnknownError);
    expect((err as Error).message).toBe(
      'creating the product family "saas" may or may not have been applied: 1 attempt(s) failed ambiguously (last: POST ' +
        '/product_families.json: read ECONNRESET (ECONNRESET)) and no live product family with handle "saas" is found ' +
        "(not found (404)); it may or may not have been created. Resuming reads it back by handle first, then creates it " +
        "with the same uniqueness_token (tok-1), never a new one",
    );
    expect(requestLog(sim)).toStrictEqual(["POST /product_families.json 0", "GET /product_families/handle:saas.json 404"]);
  });

  it("a family read back whose name differs only by surrounding spaces is the one created", async () => {
    const { sim } = await families();
    sim.addProductFamily({ id: 3, handle: "saas", name: "SaaS" });
    const url = await rewritingProxy(sim.url, (method, path, body) => {
      if (method === "GET" && path === "/product_families/handle:saas.json")
        (body as { product_family: Record<string, unknown> }).product_family.name = "  SaaS  ";
      return body;
    });
    const b = clientOf(url, { maxRetries: 0 });
    sim.injectFault({ kind: "reset", times: 1, match: { method: "POST" } });
    const got = await b.createProductFamily({ handle: "saas", name: "SaaS" }, { uniquenessToken: "tok-1" });
    expect([got.id, got.handle, got.name]).toStrictEqual([3, "saas", "  SaaS  "]);
  });
});

describe("a duplicate-submission answer read back without finding the object", () => {
  it("says how long it read back, in seconds", async () => {
    const { sim, billing } = await families({ migrationSettleSeconds: 1.4 });
    await billing.createProductFamily({ handle: "saas", name: "SaaS" }, { uniquenessToken: "tok-1" });
    sim.reset();
    const err = await rejection(billing.createProductFamily({ handle: "other", name: "Other" }, { uniquenessToken: "tok-1" }));
    expect(err).toBeInstanceOf(CatalogOutcomeUnknownError);
    expect((err as Error).message).toBe(
      'creating the product family "other" may or may not have been applied: the service answered that a request with this ' +
        "uniqueness_token was already submitted (it may still be processing), and after 1 s of reading back no live product " +
        'family with handle "other" is found (last seen: not found (404)); it may or may not have been created. Resuming ' +
        "reads it back by handle first, then creates it with the same uniqueness_token (tok-1), never a new one",
    );
  });
});

describe("the family list leaves out a placeholder row without a real id", () => {
  it("a row with id 0 is not returned", async () => {
    const { sim } = await families();
    const url = await rewritingProxy(sim.url, (method, path, body) => {
      if (method === "GET" && path === "/product_families.json") {
        const rows = body as { product_family: Record<string, unknown> }[];
        return [{ product_family: { ...rows[0].product_family, id: 0, handle: "placeholder" } }, ...rows];
      }
      return body;
    });
    const b = clientOf(url, { maxRetries: 0 });
    expect((await b.listProductFamilies()).map((f) => [f.id, f.handle])).toStrictEqual([
      [1, "one"],
      [2, "two"],
    ]);
  });
});

describe("replay ids: more than ten bad entries are counted, not listed", () => {
  it("eleven bad ids show ten and '… 1 more'", async () => {
    const { sim, billing } = await families();
    const bad = Array.from({ length: 11 }, (_, i) => -(i + 1));
    const r = await refusedWith(billing.replayWebhooks(bad));
    const shown = bad
      .slice(0, 10)
      .map((v, i) => `[${i}] ${v}`)
      .join(", ");
    expect(r.message.endsWith(`bad entries: ${shown}, … 1 more`)).toBe(true);
    expect(sim.requests).toStrictEqual([]);
  });
});

describe("the service's messages in its rarer error shapes", () => {
  it.each<[string, unknown, string]>([
    ["a bare JSON string, trimmed", "  A valid product_family_id is required  ", "A valid product_family_id is required"],
    ["errors as one string", { errors: "Handle is taken" }, "Handle is taken"],
    // No message in any known shape: the body's own text stands for it.
    ["an object with none", { foo: 1 }, '{"foo":1}'],
  ])("%s", async (_, json, message) => {
    const server = await scripted([{ status: 422, json }]);
    const b = clientOf(server.url, { maxRetries: 0 });
    const err = await rejection(b.readProductFamily(1));
    expect(err).toBeInstanceOf(BillingApiError);
    expect((err as BillingApiError).errors).toStrictEqual([message]);
    expect((err as Error).message).toBe(`GET /product_families/1.json failed with 422: ${message}`);
  });
});
