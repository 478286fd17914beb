import { afterEach, describe, expect, it } from "vitest";
import { describeChanges, findByHandle, money, pricingOf, pricingText, productWithHandle } from "../../provider/kinds/catalog";
import { BillingClient } from "../../sdk/client";
import { BillingApiError } from "../../sdk/errors";
import type { Product } from "../../sdk/results";
import { type Simulator, startSimulator } from "../../simulator";
import { KEY } from "./support";

/**
 * The catalog kinds' pricing helpers and product lookup called directly (provider/kinds/catalog.ts): the
 * pricing subset sent to the SDK, money with its thousands separators, a pricing field's text in messages
 * ("(none)" when unset), the changes text, and the product with a handle (a handle of digits looked for in
 * the product list, archived ones included; a 404 read is "none", any other failure is thrown), the latter
 * against the simulator over a real socket. Each case is exact: a changed key, separator, word or request fails it.
 */

describe("pricingOf: the pricing fields that are set, in PRICING_FIELDS order, nothing else", () => {
  it.each([
    ["nothing set", {}, {}],
    ["unset (undefined) fields left out", { priceInCents: 4900, interval: undefined, trialInterval: undefined }, { priceInCents: 4900 }],
    [
      "falsy values kept: 0, false, null",
      { trialPriceInCents: 0, initialChargeAfterTrial: false, expirationInterval: null },
      { trialPriceInCents: 0, initialChargeAfterTrial: false, expirationInterval: null },
    ],
    [
      "fields that are not pricing left out",
      { handle: "basic", name: "Basic", priceInCents: 4900, intervalUnit: "month" },
      { priceInCents: 4900, intervalUnit: "month" },
    ],
  ])("%s", (_, input, expected) => {
    const out = pricingOf(input as Record<string, unknown>);
    expect(out).toStrictEqual(expected);
    expect(Object.keys(out)).toEqual(Object.keys(expected));
  });

  it("every field set: all eleven, in PRICING_FIELDS order whatever the input's order", () => {
    const out = pricingOf({
      expirationIntervalUnit: "day",
      expirationInterval: 90,
      initialChargeAfterTrial: true,
      initialChargeInCents: 500,
      trialType: "payment_expected",
      trialIntervalUnit: "day",
      trialInterval: 14,
      trialPriceInCents: 0,
      intervalUnit: "month",
      interval: 1,
      priceInCents: 4900,
    });
    expect(Object.entries(out)).toEqual([
      ["priceInCents", 4900],
      ["interval", 1],
      ["intervalUnit", "month"],
      ["trialPriceInCents", 0],
      ["trialInterval", 14],
      ["trialIntervalUnit", "day"],
      ["trialType", "payment_expected"],
      ["initialChargeInCents", 500],
      ["initialChargeAfterTrial", true],
      ["expirationInterval", 90],
      ["expirationIntervalUnit", "day"],
    ]);
  });
});

describe("money: cents as dollars with two decimals and a comma every three integer digits, the sign in front; anything else as its text", () => {
  it.each([
    [0, "$0.00"],
    [5, "$0.05"],
    [4900, "$49.00"],
    [99999, "$999.99"],
    [100000, "$1,000.00"],
    [123456, "$1,234.56"],
    [12345678, "$123,456.78"],
    [123456789, "$1,234,567.89"],
    [100000000000, "$1,000,000,000.00"],
    [-100, "-$1.00"],
    [-99999, "-$999.99"],
    [-123456789, "-$1,234,567.89"],
    [-0.4, "$0.00"],
    [0.4, "$0.00"],
    [Number.NaN, "NaN"],
    [Number.POSITIVE_INFINITY, "Infinity"],
    [Number.NEGATIVE_INFINITY, "-Infinity"],
    ["4900", "4900"],
    ["123456789", "123456789"],
    [undefined, "undefined"],
    [null, "null"],
  ])("%j → %s", (cents, expected) => {
    expect(money(cents)).toBe(expected);
  });
});

describe("pricingText: (none) when unset or null, money for an …InCents field, else the value's text", () => {
  it.each([
    ["priceInCents", undefined, "(none)"],
    ["priceInCents", null, "(none)"],
    ["interval", undefined, "(none)"],
    ["trialType", null, "(none)"],
    ["priceInCents", 123456, "$1,234.56"],
    ["trialPriceInCents", 0, "$0.00"],
    ["initialChargeInCents", 4900, "$49.00"],
    ["priceInCents", "4900", "4900"],
    ["interval", 1234, "1234"],
    ["expirationInterval", 0, "0"],
    ["intervalUnit", "month", "month"],
    ["initialChargeAfterTrial", false, "false"],
    ["initialChargeAfterTrial", true, "true"],
  ] as const)("%s %j → %s", (k, v, expected) => {
    expect(pricingText(k, v)).toBe(expected);
  });
});

describe("describeChanges: `field old → new` for each listed field, joined by a comma", () => {
  it.each([
    ["no fields", [], { priceInCents: 4900 }, { priceInCents: 5900 }, ""],
    [
      "money and a plain value, only the listed fields",
      ["priceInCents", "interval"],
      { priceInCents: 4900, interval: 1, intervalUnit: "month" },
      { priceInCents: 123456, interval: 12, intervalUnit: "day" },
      "priceInCents $49.00 → $1,234.56, interval 1 → 12",
    ],
    [
      "a trial added and removed: (none) on the unset side",
      ["trialInterval", "trialPriceInCents"],
      { trialPriceInCents: 0 },
      { trialInterval: 14, trialPriceInCents: null },
      "trialInterval (none) → 14, trialPriceInCents $0.00 → (none)",
    ],
  ] as const)("%s", (_, fields, from, to, expected) => {
    expect(describeChanges(fields, from, to)).toBe(expected);
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
