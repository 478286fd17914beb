import { afterEach, describe, expect, it } from "vitest";
import { findByHandle, freedHandle, refersTo } from "../../provider/kinds/catalog";
import { productWithHandle } from "../../provider/kinds/product";
import { BillingClient } from "../../sdk/client";
import { BillingApiError } from "../../sdk/errors";
import type { Product } from "../../sdk/results";
import { type Simulator, startSimulator } from "../../simulator";
import { KEY } from "./support";

/**
 * The catalog kinds' handle and reference helpers, called directly (provider/kinds/catalog.ts; a product's lookup, product.ts): the handle a replaced
 * object is renamed to, whether a reference names an object, and the object with a handle (a read's 404 is none,
 * any other failure is thrown; a product's handle of digits is looked for in the product list, archived ones
 * included), the last against the simulator over a real socket. Each case is exact: a changed suffix, cut, request
 * or answer fails it.
 */

describe("freedHandle: the replaced object's handle, -replaced-<id> (and a count while taken), cut to 255 characters", () => {
  const long = "a".repeat(255);
  it.each([
    ["free at once", "texts", 7, [], "texts-replaced-7"],
    ["its first candidate taken: a count", "texts", 7, ["texts-replaced-7"], "texts-replaced-7-1"],
    ["the first two taken", "texts", 7, ["texts-replaced-7", "texts-replaced-7-1"], "texts-replaced-7-2"],
    ["others' handles do not matter", "texts", 7, ["texts", "texts-replaced-8"], "texts-replaced-7"],
    ["a 255-character handle cut to leave room for the suffix", long, 42, [], `${"a".repeat(243)}-replaced-42`],
    ["cut further for a count", long, 42, [`${"a".repeat(243)}-replaced-42`], `${"a".repeat(241)}-replaced-42-1`],
  ])("%s", (_, handle, id, taken, expected) => {
    const freed = freedHandle(handle, id, new Set(taken));
    expect(freed).toBe(expected);
    expect(freed.length).toBeLessThanOrEqual(255);
  });
});

describe("refersTo: a reference names the object by its id or as handle:<its handle>", () => {
  it.each([
    ["its id", 5, 5, "rockets", true],
    ["its id, the object's handle unknown", 5, 5, undefined, true],
    ["another id", 5, 6, "rockets", false],
    ["an id, the object's id unknown", 5, undefined, "rockets", false],
    ["handle:<its handle>", "handle:rockets", 5, "rockets", true],
    ["handle:<its handle>, its id unknown", "handle:rockets", undefined, "rockets", true],
    ["handle:<another handle>", "handle:boosters", 5, "rockets", false],
    ["its bare handle (not a reference)", "rockets", 5, "rockets", false],
    ["its id as text (not a reference)", "5", 5, "rockets", false],
    ["handle:undefined while the object's handle is unknown", "handle:undefined", 5, undefined, false],
    ["no reference, nothing known", undefined, undefined, undefined, false],
    ["no reference", undefined, 5, "rockets", false],
  ])("%s", (_, ref, id, handle, expected) => {
    expect(refersTo(ref, id, handle)).toBe(expected);
  });
});

describe("findByHandle: the read's answer; undefined on a 404 only, any other failure thrown", () => {
  it("an answer is returned as is", async () => {
    expect(await findByHandle(async () => ({ id: 1, handle: "basic" }))).toEqual({ id: 1, handle: "basic" });
  });

  it("a failure that is not the service's answer is thrown, the same error", async () => {
    const boom = new TypeError("boom");
    await expect(
      findByHandle(async () => {
        throw boom;
      }),
    ).rejects.toBe(boom);
  });
});

describe("productWithHandle: read by handle; a handle of digits only looked for in the product list, archived ones too", () => {
  let sim: Simulator;
  let client: BillingClient;
  afterEach(async () => {
    await client?.close();
    await sim?.close();
  });

  /**
   * Products `basic` (id 7), `7` (digits: the SDK would read it as the id of `basic`), `2024`, `1999` (archived),
   * `v2024` and `2024a`; a client that does not retry; each product as a read by id returns it; the request log emptied.
   */
  async function setup() {
    sim = await startSimulator({ apiKey: KEY });
    const handles = ["basic", "7", "2024", "1999", "v2024", "2024a"];
    const ids = [sim.addProduct({ id: 7, handle: "basic" }).id];
    for (const handle of handles.slice(1)) ids.push(sim.addProduct({ handle, archived: handle === "1999" }).id);
    client = new BillingClient({ baseUrl: sim.url, apiKey: KEY, maxRetries: 0 });
    const byHandle: Record<string, Product> = {};
    for (const id of ids) {
      const p = await client.readProduct(id);
      byHandle[p.handle as string] = p;
    }
    expect(Object.keys(byHandle).sort()).toEqual([...handles].sort());
    sim.reset();
    return byHandle;
  }
  const requests = () => sim.requests.map((r) => ({ method: r.method, path: r.path, query: r.query }));
  const listed = { method: "GET", path: "/products.json", query: { page: "1", per_page: "200", include_archived: "true" } };
  const read = (handle: string) => ({ method: "GET", path: `/products/handle/${handle}.json`, query: {} });

  it.each([
    ["letters: read by handle", "basic", [read("basic")]],
    ["ending in digits: read by handle", "v2024", [read("v2024")]],
    ["starting with digits: read by handle", "2024a", [read("2024a")]],
    ["digits: found in the list", "2024", [listed]],
    ["one digit, another product's id: found in the list, not read as that id", "7", [listed]],
  ])("%s (%s)", async (_, handle, sent) => {
    const byHandle = await setup();
    expect(await productWithHandle(client, handle)).toEqual(byHandle[handle]);
    expect(byHandle[handle]?.handle).toBe(handle);
    expect(requests()).toEqual(sent);
  });

  it("digits, archived: found in the list with archived ones", async () => {
    const byHandle = await setup();
    const found = await productWithHandle(client, "1999");
    expect(found).toEqual(byHandle["1999"]);
    expect(found?.archivedAt).toEqual(expect.any(String));
    expect(requests()).toEqual([listed]);
  });

  it.each([
    ["letters: the read's 404 is none", "nothing", [read("nothing")]],
    ["digits: none in the list", "3000", [listed]],
  ])("none with that handle, %s", async (_, handle, sent) => {
    await setup();
    expect(await productWithHandle(client, handle)).toBeUndefined();
    expect(requests()).toEqual(sent);
  });

  it("a read by handle that fails with a 500: thrown, not taken for none", async () => {
    await setup();
    sim.injectFault({ kind: "status", status: 500, match: { method: "GET", path: "/products/handle/basic.json" } });
    const err = await productWithHandle(client, "basic").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BillingApiError);
    expect((err as BillingApiError).status).toBe(500);
    expect(requests()).toEqual([read("basic")]);
  });

  it.each(["basic", "v2024", "2024a"])(
    "a handle not all digits (%s) is never looked for in the list: a failing list does not matter",
    async (handle) => {
      const byHandle = await setup();
      sim.injectFault({ kind: "status", status: 500, match: { method: "GET", path: "/products.json" } });
      expect(await productWithHandle(client, handle)).toEqual(byHandle[handle]);
    },
  );
});
