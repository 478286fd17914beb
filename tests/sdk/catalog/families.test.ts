import { beforeEach, describe, expect, it, vi } from "vitest";
import { CatalogOutcomeUnknownError } from "../../../sdk";
import { clientOf, KEY, rejection, requestLog, site } from "../helpers";
import { rewritingProxy } from "./rewriting-proxy";
import { siteWithFamilies } from "./simulator-fixtures";

/**
 * Product families (sdk/catalog/families.ts) through BillingClient: the list repeated after a 500 and leaving out a
 * placeholder row, a create whose answer was lost, and the families' path (built when the module loads: that test
 * loads a fresh copy). Answers the simulator never writes come from a rewriting proxy in front of it (rewriting-proxy.ts).
 */

describe("listProductFamilies is repeated after a 500", () => {
  it("listProductFamilies", async () => {
    const { sim, billing } = await siteWithFamilies({ maxRetries: 1 });
    sim.injectFault({ kind: "status", status: 500, times: 1, match: { method: "GET", path: "/product_families.json" } });
    const got = await billing.listProductFamilies();
    expect(got.map((f) => [f.id, f.handle])).toStrictEqual([
      [1, "one"],
      [2, "two"],
    ]);
    expect(requestLog(sim)).toStrictEqual(["GET /product_families.json 500", "GET /product_families.json 200"]);
  });
});

describe("a family create whose answer was lost", () => {
  it("reads back by handle and says it saw a 404", async () => {
    const { sim, billing } = await siteWithFamilies();
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
    const { sim } = await siteWithFamilies();
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

describe("the family list leaves out a placeholder row without a real id", () => {
  it("a row with id 0 is not returned", async () => {
    const { sim } = await siteWithFamilies();
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

describe("the families' path", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it("a family is created and listed at /product_families.json", async () => {
    const { sim } = await site();
    const { BillingClient } = await import("../../../sdk");
    const billing = new BillingClient({ baseUrl: sim.url, apiKey: KEY, retryBaseDelayMs: 1 });
    try {
      const made = await billing.createProductFamily({ handle: "plans", name: "Plans" });
      expect((await billing.listProductFamilies()).map((f) => [f.id, f.handle])).toStrictEqual([[made.id, "plans"]]);
    } finally {
      await billing.close();
    }
    expect(sim.requests.filter((r) => r.path.startsWith("/product_families")).map((r) => `${r.method} ${r.path}`)).toContain(
      "POST /product_families.json",
    );
  });
});
