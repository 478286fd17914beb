import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DATA_VERSION, startSimulator } from "../../simulator";
import { call, start } from "./helpers";

// A site's currencies and mode as GET /site.json reports them: set by startSimulator's options or configureSite,
// checked, and kept by the --data file (version 4), which still reads version 3 files.

describe("GET /site.json", () => {
  it("a fresh site is a test site in USD alone, as the simulator always answered", async () => {
    const sim = await start();
    const { site } = (await call(sim, "GET", "/site.json")).body;
    expect([site.currency, site.non_primary_currencies, site.test]).toEqual(["USD", [], true]);
    expect(sim.siteSettings()).toEqual({ currency: "USD", nonPrimaryCurrencies: [], exchangeRates: {}, live: false });
  });

  it("reports the currencies and mode given to startSimulator", async () => {
    const sim = await start({ currency: "EUR", nonPrimaryCurrencies: ["USD", "GBP"], exchangeRates: { USD: 1.1 }, live: true });
    const { site } = (await call(sim, "GET", "/site.json")).body;
    expect([site.currency, site.non_primary_currencies, site.test]).toEqual(["EUR", ["USD", "GBP"], false]);
    expect(sim.siteSettings().exchangeRates).toEqual({ USD: 1.1, GBP: 1 });
  });

  it("reports a change made with configureSite; what it leaves out stays", async () => {
    const sim = await start({ nonPrimaryCurrencies: ["EUR"], exchangeRates: { EUR: 0.9 } });
    sim.configureSite({ nonPrimaryCurrencies: ["EUR", "CAD"] });
    sim.configureSite({ live: true });
    const { site } = (await call(sim, "GET", "/site.json")).body;
    expect([site.currency, site.non_primary_currencies, site.test]).toEqual(["USD", ["EUR", "CAD"], false]);
    expect(sim.siteSettings().exchangeRates).toEqual({ EUR: 0.9, CAD: 1 });
  });

  it.each([
    ["a code that is not ISO 4217", { currency: "usd" }, /'usd' is not an ISO 4217 currency code/],
    ["the primary among the others", { nonPrimaryCurrencies: ["USD"] }, /cannot also be a non-primary one/],
    ["a currency twice", { nonPrimaryCurrencies: ["EUR", "EUR"] }, /must be distinct/],
    ["a rate for a currency the site does not have", { exchangeRates: { EUR: 2 } }, /not a non-primary currency/],
    ["a rate that is not positive", { nonPrimaryCurrencies: ["EUR"], exchangeRates: { EUR: 0 } }, /must be a positive number/],
  ])("configureSite refuses %s, and the site is as it was", async (_what, change, message) => {
    const sim = await start();
    expect(() => sim.configureSite(change)).toThrow(message);
    expect(sim.siteSettings().nonPrimaryCurrencies).toEqual([]);
  });

  it("startSimulator refuses a bad currency before it takes a port", async () => {
    await expect(startSimulator({ currency: "EURO" })).rejects.toThrow(/startSimulator: 'EURO' is not an ISO 4217 currency code/);
  });
});

describe("the --data file keeps the site's settings", () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "sim-currencies-"));
    file = path.join(dir, "site.json");
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("across a restart; the options of a restart do not override the file (they are a first start's, like seed)", async () => {
    const first = await startSimulator({ dataFile: file, nonPrimaryCurrencies: ["EUR"], exchangeRates: { EUR: 0.8 } });
    first.configureSite({ live: true });
    await first.close();
    const stored = JSON.parse(await readFile(file, "utf8"));
    expect(stored.version).toBe(DATA_VERSION);
    expect(stored.site.settings).toEqual({ currency: "USD", nonPrimaryCurrencies: ["EUR"], exchangeRates: { EUR: 0.8 }, live: true });

    const second = await startSimulator({ dataFile: file, nonPrimaryCurrencies: ["GBP"] });
    try {
      const { site } = (await call(second, "GET", "/site.json")).body;
      expect([site.non_primary_currencies, site.test]).toEqual([["EUR"], false]);
    } finally {
      await second.close();
    }
  });

  it("reads a version 3 file as a test site in USD alone, with none of version 4's configuration", async () => {
    const first = await startSimulator({ dataFile: file });
    first.addProduct({ handle: "pro" });
    await first.close();
    const current = JSON.parse(await readFile(file, "utf8"));
    const {
      settings: _s,
      productCurrencyPrices: _p,
      componentCurrencyPrices: _q,
      couponCurrencyPrices: _r,
      metafields: _m,
      reasonCodes: _o,
      offers: _f,
      ...site
    } = current.site;
    const { currencyPrice: _1, metafield: _2, reasonCode: _3, offer: _4, offerSignupPage: _5, ...nextIds } = site.nextIds;
    await writeFile(file, JSON.stringify({ format: current.format, version: 3, site: { ...site, nextIds } }));

    const second = await startSimulator({ dataFile: file, nonPrimaryCurrencies: ["EUR"] });
    try {
      expect(second.restored).toBe(true);
      expect(second.siteSettings()).toEqual({ currency: "USD", nonPrimaryCurrencies: [], exchangeRates: {}, live: false });
      expect([second.metafields(), second.reasonCodes(), second.offers()]).toEqual([[], [], []]);
      expect(JSON.parse(await readFile(file, "utf8")).version).toBe(3);
      second.configureSite({ nonPrimaryCurrencies: ["EUR"] });
      const now = JSON.parse(await readFile(file, "utf8"));
      expect(now.version).toBe(4);
      expect(now.site.settings.nonPrimaryCurrencies).toEqual(["EUR"]);
    } finally {
      await second.close();
    }
  });

  it.each([
    [
      "a currency price in a currency the site does not have",
      (s: any) => (s.settings.nonPrimaryCurrencies = []),
      /EUR is not one of the site's non-primary currencies/,
    ],
    [
      "a currency price of a price point that is not there",
      (s: any) => (s.productCurrencyPrices[0].pricePointId = 4242),
      /no price point has id 4242/,
    ],
    [
      "two metafields of one name",
      (s: any) => s.metafields.push({ ...s.metafields[0], id: 99999 }),
      /metafield subscriptions\/Color appears more than once/,
    ],
    ["an offer of a product that is not there", (s: any) => (s.offers[0].productId = 4242), /no product has id 4242/],
  ])("refuses a file with %s, naming it", async (_what, spoil, message) => {
    const first = await startSimulator({ dataFile: file, nonPrimaryCurrencies: ["EUR"] });
    first.addProduct({ handle: "pro", pricePoints: [{ id: 101, handle: "pro-default", default: true }] });
    first.addProductCurrencyPrices(101, [{ currency: "EUR", role: "baseline", price: 9 }]);
    first.addMetafield({ resourceType: "subscriptions", name: "Color" });
    first.addOffer({ handle: "solo", productHandle: "pro" });
    await first.close();
    const data = JSON.parse(await readFile(file, "utf8"));
    spoil(data.site);
    await writeFile(file, JSON.stringify(data));
    await expect(startSimulator({ dataFile: file })).rejects.toThrow(message);
  });
});
