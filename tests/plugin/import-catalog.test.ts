import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { providerConfig } from "../../plugin/config";
import { BillingProvider } from "../../plugin/provider";
import { BillingApiError } from "../../sdk";
import { type Simulator, startSimulator } from "../../simulator";

// `pulumi import` of the catalog kinds (ProductFamily, Product, ProductPricePoint) through the plugin's
// provider, against the simulator over a real socket: by handle, by id and by <site>/<handle>; the state
// is what the service holds, the inputs what a program declares (references as handle:…, pricing the
// service holds by default left out), and declared as imported they preview with no changes.

const KEY = "sk_live_PLUGIN_CATALOG_SECRET_6161";
const EU_KEY = "sk_live_PLUGIN_CATALOG_EU_SECRET_6262";
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const FAMILY = "urn:pulumi:dev::billing-app::billing:index:ProductFamily::plans";
const PRODUCT = "urn:pulumi:dev::billing-app::billing:index:Product::pro";
const PRICE_POINT = "urn:pulumi:dev::billing-app::billing:index:ProductPricePoint::pro-annual";
const NOW = "2026-03-04T05:06:07Z";

/** Every pricing output null (what a product or price point whose pricing the answer lacks records). */
const NO_PRICING = {
  priceInCents: null,
  interval: null,
  intervalUnit: null,
  trialPriceInCents: null,
  trialInterval: null,
  trialIntervalUnit: null,
  trialType: null,
  initialChargeInCents: null,
  initialChargeAfterTrial: null,
  expirationInterval: null,
  expirationIntervalUnit: null,
};

describe("pulumi import of the catalog kinds", () => {
  const sims: Simulator[] = [];
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const s of sims.splice(0)) await s.close();
    for (const c of closers.splice(0)) await c();
  });

  async function simulator(key: string) {
    const sim = await startSimulator({ apiKey: key, now: () => new Date(NOW) });
    sims.push(sim);
    return sim;
  }

  /**
   * A site as a web UI made it: family "plans" (described) and "addons" (not); product "pro" with every
   * catalog field and a trial, an initial charge after it and an expiration, its default price point
   * "pro-monthly", "pro-annual" and an archived "pro-2025"; product "basic" with nothing but a price.
   */
  async function site(key: string) {
    const sim = await simulator(key);
    const plans = sim.addProductFamily({ handle: "plans", name: "Plans", description: "Every plan" });
    const addons = sim.addProductFamily({ handle: "addons", name: "Add-ons" });
    const pro = sim.addProduct({
      handle: "pro",
      familyHandle: "plans",
      name: "Pro",
      description: "For teams",
      accountingCode: "PRO-1",
      taxCode: "D0000000",
      priceInCents: 5000,
      trialPriceInCents: 0,
      trialInterval: 14,
      trialIntervalUnit: "day",
      trialType: "payment_expected",
      initialChargeInCents: 1000,
      initialChargeAfterTrial: true,
      expirationInterval: 12,
      expirationIntervalUnit: "month",
      pricePoints: [
        { handle: "pro-monthly", name: "Monthly", default: true },
        { handle: "pro-annual", name: "Annual", priceInCents: 50000, interval: 12, intervalUnit: "month" },
        { handle: "pro-2025", name: "2025 price", priceInCents: 4000, archived: true },
      ],
    });
    const basic = sim.addProduct({ handle: "basic", familyHandle: "addons", name: "Basic", description: null, priceInCents: 1500 });
    return { sim, plans, addons, pro, basic };
  }

  async function provider(sim: { url: string }, sites?: string, key = KEY) {
    const p = new BillingProvider("0.1.0");
    p.configure(
      providerConfig([["billing:config:baseUrl", sim.url]], {
        baseUrl: sim.url,
        apiKey: { ...SECRET, value: key },
        ...(sites ? { sites: { ...SECRET, value: sites } } : {}),
      }),
    );
    return p;
  }

  /**
   * A real socket in front of a simulator that rewrites the JSON answer of GETs of `path`: answers the
   * contract allows (a product without its family's handle, without pricing) that the simulator never writes.
   */
  async function rewriting(sim: Simulator, path: string, edit: (body: Record<string, Record<string, unknown>>) => void) {
    const server = createServer((req, res) => {
      void (async () => {
        const upstream = await fetch(sim.url + (req.url ?? "/"), {
          method: req.method,
          headers: { authorization: req.headers.authorization ?? "" },
        });
        let text = await upstream.text();
        if (req.method === "GET" && new URL(req.url ?? "/", sim.url).pathname === path && upstream.ok) {
          const body = JSON.parse(text);
          edit(body);
          text = JSON.stringify(body);
        }
        res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" });
        res.end(text);
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  }

  /** The imported inputs, declared as the program: check passes them and diff sees no change. */
  async function previewsUnchanged(
    p: BillingProvider,
    urn: string,
    imported: { id?: string; props?: Record<string, unknown>; inputs?: Record<string, unknown> },
  ) {
    const checked = await p.check(urn, imported.inputs ?? {}, imported.inputs ?? {});
    expect(checked.failures ?? []).toEqual([]);
    expect(await p.diff(imported.id ?? "", urn, imported.props ?? {}, checked.inputs ?? {})).toMatchObject({ changes: false });
  }

  const onlyReads = (sim: Simulator) => expect(sim.requests.filter((r) => r.method !== "GET")).toEqual([]);

  // ---- ProductFamily ----------------------------------------------------

  describe("ProductFamily", () => {
    it("by handle: the family's state and inputs; declared so, no changes; nothing sent but reads", async () => {
      const { sim, plans } = await site(KEY);
      const p = await provider(sim);
      sim.reset();
      const imported = await p.read("plans", FAMILY, undefined);
      expect(imported).toEqual({
        id: String(plans.id),
        props: {
          familyId: plans.id,
          handle: "plans",
          name: "Plans",
          description: "Every plan",
          createdAt: NOW,
          args: { name: "Plans", description: "Every plan" },
        },
        inputs: { handle: "plans", name: "Plans", description: "Every plan" },
      });
      expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /product_families/handle:plans.json"]);
      await previewsUnchanged(p, FAMILY, imported);
      onlyReads(sim);
      expect(JSON.stringify(imported)).not.toContain(KEY);
    });

    it("by id; a family without a description has none in its inputs and null in its state", async () => {
      const { sim, addons } = await site(KEY);
      const p = await provider(sim);
      sim.reset();
      const imported = await p.read(String(addons.id), FAMILY, undefined);
      expect(imported).toEqual({
        id: String(addons.id),
        props: { familyId: addons.id, handle: "addons", name: "Add-ons", description: null, createdAt: NOW, args: { name: "Add-ons" } },
        inputs: { handle: "addons", name: "Add-ons" },
      });
      expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /product_families/${addons.id}.json`]);
      await previewsUnchanged(p, FAMILY, imported);
      onlyReads(sim);
    });

    it("a family the answer gives no name is named by its handle", async () => {
      const { sim, plans } = await site(KEY);
      const proxy = await rewriting(sim, "/product_families/handle:plans.json", (b) => {
        b.product_family.name = null;
      });
      const imported = await (await provider(proxy)).read("plans", FAMILY, undefined);
      expect(imported).toEqual({
        id: String(plans.id),
        props: {
          familyId: plans.id,
          handle: "plans",
          name: null,
          description: "Every plan",
          createdAt: NOW,
          args: { name: "plans", description: "Every plan" },
        },
        inputs: { handle: "plans", name: "plans", description: "Every plan" },
      });
    });
  });

  // ---- Product ----------------------------------------------------------

  describe("Product", () => {
    /** pro, as a program declares it: the family by handle, every field the service holds a value for. */
    const proDeclared = {
      productFamily: "handle:plans",
      handle: "pro",
      name: "Pro",
      description: "For teams",
      accountingCode: "PRO-1",
      taxCode: "D0000000",
      priceInCents: 5000,
      interval: 1,
      intervalUnit: "month",
      trialPriceInCents: 0,
      trialInterval: 14,
      trialIntervalUnit: "day",
      // Held by its default price point (the product's answer has no trial_type): carried, so a copy keeps it.
      trialType: "payment_expected",
      initialChargeInCents: 1000,
      initialChargeAfterTrial: true,
      expirationInterval: 12,
      expirationIntervalUnit: "month",
    };

    it("by handle: every set field and pricing value kept, the family as handle:; declared so, no changes; nothing sent but reads", async () => {
      const { sim, plans, pro } = await site(KEY);
      const p = await provider(sim);
      sim.reset();
      const imported = await p.read("pro", PRODUCT, undefined);
      expect(imported).toEqual({
        id: String(pro.id),
        props: {
          productId: pro.id,
          productFamilyId: plans.id,
          handle: "pro",
          name: "Pro",
          description: "For teams",
          defaultPricePointId: pro.pricePoints[0]?.id,
          defaultPricePointHandle: "pro-monthly",
          archivedAt: null,
          priceInCents: 5000,
          interval: 1,
          intervalUnit: "month",
          trialPriceInCents: 0,
          trialInterval: 14,
          trialIntervalUnit: "day",
          // A product's answer carries no trial_type: its default price point's does, and is read.
          trialType: "payment_expected",
          initialChargeInCents: 1000,
          initialChargeAfterTrial: true,
          expirationInterval: 12,
          expirationIntervalUnit: "month",
          // Its default price point follows the site's exchange rate (the service's default): no prices of its own.
          useSiteExchangeRate: true,
          currencyPrices: null,
          args: proDeclared,
          productFamilyHandle: "plans",
        },
        inputs: proDeclared,
      });
      // The product, then its price points (the default's pricing is what it declares) and the default one it records.
      expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        "GET /products/handle/pro.json",
        `GET /products/${pro.id}/price_points.json`,
        `GET /products/${pro.id}/price_points/${pro.pricePoints[0]?.id}.json`,
      ]);
      await previewsUnchanged(p, PRODUCT, imported);
      onlyReads(sim);
      expect(JSON.stringify(imported)).not.toContain(KEY);
    });

    it("by id; no description, accounting code or tax code, no trial, initial charge or expiration: none of them in the inputs", async () => {
      const { sim, addons, basic } = await site(KEY);
      const p = await provider(sim);
      sim.reset();
      const imported = await p.read(String(basic.id), PRODUCT, undefined);
      const inputs = {
        productFamily: "handle:addons",
        handle: "basic",
        name: "Basic",
        priceInCents: 1500,
        interval: 1,
        intervalUnit: "month",
      };
      expect(imported).toEqual({
        id: String(basic.id),
        props: {
          productId: basic.id,
          productFamilyId: addons.id,
          handle: "basic",
          name: "Basic",
          description: null,
          defaultPricePointId: basic.pricePoints[0]?.id,
          defaultPricePointHandle: "basic-default",
          archivedAt: null,
          ...NO_PRICING,
          priceInCents: 1500,
          interval: 1,
          intervalUnit: "month",
          // What the service holds when nothing was set: kept in the state, left out of the inputs.
          initialChargeAfterTrial: false,
          expirationIntervalUnit: "never",
          // Its default price point follows the site's exchange rate (the service's default): no prices of its own.
          useSiteExchangeRate: true,
          currencyPrices: null,
          args: inputs,
          productFamilyHandle: "addons",
        },
        inputs,
      });
      expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        `GET /products/${basic.id}.json`,
        `GET /products/${basic.id}/price_points.json`,
        `GET /products/${basic.id}/price_points/${basic.pricePoints[0]?.id}.json`,
      ]);
      await previewsUnchanged(p, PRODUCT, imported);
      onlyReads(sim);
    });

    it("an answer without the family's handle names the family by its handle, read by id; one without pricing has its default price point's", async () => {
      const { sim, plans, basic } = await site(KEY);
      const proxy = await rewriting(sim, "/products/handle/basic.json", (b) => {
        b.product.product_family = { ...(b.product.product_family as object), handle: null };
        b.product.price_in_cents = null;
      });
      const p = await provider(proxy);
      const imported = await p.read("basic", PRODUCT, undefined);
      const addonsId = plans.id + 1;
      const inputs = {
        productFamily: "handle:addons",
        handle: "basic",
        name: "Basic",
        priceInCents: 1500,
        interval: 1,
        intervalUnit: "month",
      };
      expect(imported).toEqual({
        id: String(basic.id),
        props: {
          productId: basic.id,
          productFamilyId: addonsId,
          handle: "basic",
          name: "Basic",
          description: null,
          defaultPricePointId: basic.pricePoints[0]?.id,
          defaultPricePointHandle: "basic-default",
          archivedAt: null,
          ...NO_PRICING,
          priceInCents: 1500,
          interval: 1,
          intervalUnit: "month",
          initialChargeAfterTrial: false,
          // Its default price point follows the site's exchange rate (the service's default): no prices of its own.
          useSiteExchangeRate: true,
          currencyPrices: null,
          args: inputs,
          productFamilyHandle: null,
        },
        inputs,
      });
      onlyReads(sim);
    });
    it("a default price point with prices of its own: useSiteExchangeRate false and its currencyPrices, in the state and the inputs", async () => {
      const sim = await simulator(KEY);
      sim.configureSite({ nonPrimaryCurrencies: ["EUR", "GBP"], exchangeRates: { EUR: 0.9 } });
      sim.addProductFamily({ handle: "plans", name: "Plans" });
      const intl = sim.addProduct({
        handle: "intl",
        familyHandle: "plans",
        name: "International",
        priceInCents: 5000,
        initialChargeInCents: 1000,
        pricePoints: [{ handle: "intl-monthly", name: "Monthly", default: true, useSiteExchangeRate: false }],
      });
      const ppId = intl.pricePoints[0]?.id as number;
      sim.addProductCurrencyPrices(ppId, [
        { currency: "EUR", role: "baseline", price: 45 },
        { currency: "EUR", role: "initial", price: 9.5 },
      ]);
      const p = await provider(sim);
      sim.reset();
      const imported = await p.read("intl", PRODUCT, undefined);
      const currencyPrices = { EUR: { baseline: 45, initial: 9.5 } };
      expect(imported.inputs).toMatchObject({ handle: "intl", initialChargeInCents: 1000, useSiteExchangeRate: false, currencyPrices });
      expect(imported.props).toMatchObject({ defaultPricePointId: ppId, useSiteExchangeRate: false, currencyPrices });
      // Its currency prices are read with the default price point: for the inputs (its product's price points) and the state.
      expect(sim.requests.filter((r) => r.query?.currency_prices === "true").map((r) => r.path)).toEqual([
        `/products/${intl.id}/price_points/${ppId}.json`,
        `/products/${intl.id}/price_points/${ppId}.json`,
      ]);
      await previewsUnchanged(p, PRODUCT, imported);
      onlyReads(sim);
    });
  });

  // ---- ProductPricePoint ------------------------------------------------

  describe("ProductPricePoint", () => {
    const annualDeclared = {
      product: "handle:pro",
      handle: "pro-annual",
      name: "Annual",
      priceInCents: 50000,
      interval: 12,
      intervalUnit: "month",
      trialPriceInCents: 0,
      trialInterval: 14,
      trialIntervalUnit: "day",
      trialType: "payment_expected",
      initialChargeInCents: 1000,
      initialChargeAfterTrial: true,
      expirationInterval: 12,
      expirationIntervalUnit: "month",
    };
    const { product: _product, ...annualFields } = annualDeclared;
    // The state holds each declared field as declared, and the declaration itself as args.
    const annualState = (pro: { id: number; pricePoints: { id: number }[] }) => ({
      pricePointId: pro.pricePoints[1]?.id,
      productId: pro.id,
      ...annualFields,
      isDefault: false,
      archivedAt: null,
      // Follows the exchange rate (the site's default): no currency prices of its own.
      useSiteExchangeRate: true,
      currencyPrices: null,
      args: annualDeclared,
    });

    it("by <product>/<handle>: trial, initial charge and expiration kept, the product as handle:; declared so, no changes; nothing sent but reads", async () => {
      const { sim, pro } = await site(KEY);
      const p = await provider(sim);
      sim.reset();
      const imported = await p.read("pro/pro-annual", PRICE_POINT, undefined);
      expect(imported).toEqual({ id: String(pro.pricePoints[1]?.id), props: annualState(pro), inputs: annualDeclared });
      expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        "GET /products/handle/pro.json",
        `GET /products/${pro.id}/price_points.json`,
      ]);
      // Archived ones are listed too: an archived price point can be imported.
      expect(sim.requests[1]?.query).toMatchObject({ archived: "true" });
      await previewsUnchanged(p, PRICE_POINT, imported);
      onlyReads(sim);
      expect(JSON.stringify(imported)).not.toContain(KEY);
    });

    it("by <product id>/<price point id>: the same price point", async () => {
      const { sim, pro } = await site(KEY);
      const p = await provider(sim);
      sim.reset();
      const imported = await p.read(`${pro.id}/${pro.pricePoints[1]?.id}`, PRICE_POINT, undefined);
      expect(imported).toEqual({ id: String(pro.pricePoints[1]?.id), props: annualState(pro), inputs: annualDeclared });
      expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        `GET /products/${pro.id}.json`,
        `GET /products/${pro.id}/price_points.json`,
      ]);
    });

    it("the default price point: default: true and isDefault; no trial, initial charge or expiration in its inputs", async () => {
      const { sim, basic } = await site(KEY);
      const p = await provider(sim);
      const imported = await p.read("basic/basic-default", PRICE_POINT, undefined);
      const inputs = {
        product: "handle:basic",
        handle: "basic-default",
        name: "Default",
        priceInCents: 1500,
        interval: 1,
        intervalUnit: "month",
        default: true,
      };
      expect(imported).toEqual({
        id: String(basic.pricePoints[0]?.id),
        props: {
          pricePointId: basic.pricePoints[0]?.id,
          productId: basic.id,
          handle: "basic-default",
          name: "Default",
          isDefault: true,
          archivedAt: null,
          // Follows the exchange rate (the site's default): no currency prices of its own.
          useSiteExchangeRate: true,
          currencyPrices: null,
          ...NO_PRICING,
          priceInCents: 1500,
          interval: 1,
          intervalUnit: "month",
          initialChargeAfterTrial: false,
          args: inputs,
        },
        inputs,
      });
      await previewsUnchanged(p, PRICE_POINT, imported);
      onlyReads(sim);
    });

    it("an archived price point, by handle and by id among the archived ones, carries its archivedAt", async () => {
      const { sim, pro } = await site(KEY);
      const p = await provider(sim);
      const old = pro.pricePoints[2];
      const inputs = {
        product: "handle:pro",
        handle: "pro-2025",
        name: "2025 price",
        priceInCents: 4000,
        interval: 1,
        intervalUnit: "month",
        trialPriceInCents: 0,
        trialInterval: 14,
        trialIntervalUnit: "day",
        trialType: "payment_expected",
        initialChargeInCents: 1000,
        initialChargeAfterTrial: true,
        expirationInterval: 12,
        expirationIntervalUnit: "month",
      };
      const expected = {
        id: String(old?.id),
        props: {
          pricePointId: old?.id,
          productId: pro.id,
          handle: "pro-2025",
          name: "2025 price",
          isDefault: false,
          archivedAt: NOW,
          // Follows the exchange rate (the site's default): no currency prices of its own.
          useSiteExchangeRate: true,
          currencyPrices: null,
          priceInCents: 4000,
          interval: 1,
          intervalUnit: "month",
          trialPriceInCents: 0,
          trialInterval: 14,
          trialIntervalUnit: "day",
          trialType: "payment_expected",
          initialChargeInCents: 1000,
          initialChargeAfterTrial: true,
          expirationInterval: 12,
          expirationIntervalUnit: "month",
          args: inputs,
        },
        inputs,
      };
      expect(await p.read("pro/pro-2025", PRICE_POINT, undefined)).toEqual(expected);
      expect(await p.read(`pro/${old?.id}`, PRICE_POINT, undefined)).toEqual(expected);
      onlyReads(sim);
    });

    it("a price point of a product without a handle refers to the product by id", async () => {
      const sim = await simulator(KEY);
      const legacy = sim.addProduct({
        handle: null,
        name: "Legacy",
        priceInCents: 900,
        pricePoints: [{ handle: "legacy-default", default: true }],
      });
      const imported = await (await provider(sim)).read(`${legacy.id}/legacy-default`, PRICE_POINT, undefined);
      expect(imported.inputs).toEqual({
        product: legacy.id,
        handle: "legacy-default",
        name: "Default",
        priceInCents: 900,
        interval: 1,
        intervalUnit: "month",
        default: true,
      });
      expect(imported.props).toMatchObject({ pricePointId: legacy.pricePoints[0]?.id, productId: legacy.id, isDefault: true });
    });
  });

  // ---- <site>/… ------------------------------------------------------------

  describe("<site>/… reads that billing:sites entry with its credentials and records the site", () => {
    async function twoSites() {
      const { sim } = await site(KEY);
      const eu = await simulator(EU_KEY);
      const family = eu.addProductFamily({ handle: "eu-plans", name: "EU plans" });
      const product = eu.addProduct({
        handle: "eu-pro",
        familyHandle: "eu-plans",
        name: "EU Pro",
        priceInCents: 4500,
        pricePoints: [{ handle: "eu-pro-annual", name: "Annual", priceInCents: 45000, interval: 12, intervalUnit: "month" }],
      });
      const p = await provider(sim, JSON.stringify({ eu: { baseUrl: eu.url, apiKey: EU_KEY } }));
      sim.reset();
      return { sim, eu, family, product, p };
    }
    /** What the site answered each request: 200 only with its own key (a refused key is a 401). */
    const answered = (eu: Simulator) => eu.requests.map((r) => `${r.method} ${r.path} ${r.status}`);

    it("ProductFamily eu/<handle>", async () => {
      const { sim, eu, family, p } = await twoSites();
      const imported = await p.read("eu/eu-plans", FAMILY, undefined);
      expect(imported).toEqual({
        id: String(family.id),
        props: {
          familyId: family.id,
          handle: "eu-plans",
          name: "EU plans",
          description: null,
          createdAt: NOW,
          site: "eu",
          args: { name: "EU plans" },
        },
        inputs: { handle: "eu-plans", name: "EU plans", site: "eu" },
      });
      expect(sim.requests).toEqual([]);
      expect(answered(eu)).toEqual(["GET /product_families/handle:eu-plans.json 200"]);
      expect(JSON.stringify(imported)).not.toContain(EU_KEY);
      await previewsUnchanged(p, FAMILY, imported);
      onlyReads(eu);
    });

    it("Product eu/<id>", async () => {
      const { sim, eu, family, product, p } = await twoSites();
      const imported = await p.read(`eu/${product.id}`, PRODUCT, undefined);
      const args = {
        productFamily: "handle:eu-plans",
        handle: "eu-pro",
        name: "EU Pro",
        priceInCents: 4500,
        interval: 1,
        intervalUnit: "month",
      };
      expect(imported).toEqual({
        id: String(product.id),
        props: {
          productId: product.id,
          productFamilyId: family.id,
          handle: "eu-pro",
          name: "EU Pro",
          description: "",
          defaultPricePointId: product.pricePoints[1]?.id,
          defaultPricePointHandle: "eu-pro-default",
          archivedAt: null,
          ...NO_PRICING,
          priceInCents: 4500,
          interval: 1,
          intervalUnit: "month",
          initialChargeAfterTrial: false,
          expirationIntervalUnit: "never",
          useSiteExchangeRate: true,
          currencyPrices: null,
          site: "eu",
          args: { ...args, site: "eu" },
          productFamilyHandle: "eu-plans",
        },
        inputs: { ...args, site: "eu" },
      });
      expect(sim.requests).toEqual([]);
      expect(answered(eu)).toEqual([
        `GET /products/${product.id}.json 200`,
        `GET /products/${product.id}/price_points.json 200`,
        `GET /products/${product.id}/price_points/${product.pricePoints.find((pp) => pp.default)?.id}.json 200`,
      ]);
      await previewsUnchanged(p, PRODUCT, imported);
      onlyReads(eu);
    });

    it("ProductPricePoint eu/<product>/<handle>", async () => {
      const { sim, eu, product, p } = await twoSites();
      const imported = await p.read("eu/eu-pro/eu-pro-annual", PRICE_POINT, undefined);
      const args = {
        product: "handle:eu-pro",
        handle: "eu-pro-annual",
        name: "Annual",
        priceInCents: 45000,
        interval: 12,
        intervalUnit: "month",
      };
      expect(imported).toEqual({
        id: String(product.pricePoints[0]?.id),
        props: {
          pricePointId: product.pricePoints[0]?.id,
          productId: product.id,
          handle: "eu-pro-annual",
          name: "Annual",
          isDefault: false,
          archivedAt: null,
          // Follows the exchange rate (the site's default): no currency prices of its own.
          useSiteExchangeRate: true,
          currencyPrices: null,
          ...NO_PRICING,
          priceInCents: 45000,
          interval: 12,
          intervalUnit: "month",
          initialChargeAfterTrial: false,
          site: "eu",
          args: { ...args, site: "eu" },
        },
        inputs: { ...args, site: "eu" },
      });
      expect(sim.requests).toEqual([]);
      expect(answered(eu)).toEqual(["GET /products/handle/eu-pro.json 200", `GET /products/${product.id}/price_points.json 200`]);
      await previewsUnchanged(p, PRICE_POINT, imported);
      onlyReads(eu);
    });
  });

  // ---- what cannot be imported ---------------------------------------------

  describe("ids that are malformed or that the site does not have", () => {
    it("malformed ids name the form to give", async () => {
      const { sim } = await site(KEY);
      const p = await provider(sim);
      sim.reset();
      await expect(p.read("a/b/c", FAMILY, undefined)).rejects.toThrow(
        new Error(
          'ProductFamily import id "a/b/c": give the product family\'s handle or id (e.g. launch), or <site>/<handle> for an entry of billing:sites',
        ),
      );
      await expect(p.read("eu/pro/x", PRODUCT, undefined)).rejects.toThrow(
        new Error(
          'Product import id "eu/pro/x": give the product\'s handle or id (e.g. launch-pro), or <site>/<handle> for an entry of billing:sites',
        ),
      );
      await expect(p.read("pro", PRICE_POINT, undefined)).rejects.toThrow(
        new Error(
          'ProductPricePoint import id "pro": give <product>/<price point>, each a handle or an id (e.g. pro/pro-biennial), or <site>/<product>/<price point> for an entry of billing:sites',
        ),
      );
      await expect(p.read("eu/a/b/c", PRICE_POINT, undefined)).rejects.toThrow(
        new Error(
          'ProductPricePoint import id "eu/a/b/c": give <product>/<price point>, each a handle or an id (e.g. pro/pro-biennial), or <site>/<product>/<price point> for an entry of billing:sites',
        ),
      );
      expect(sim.requests).toEqual([]);
    });

    it("a handle or id the site does not have: nothing to import", async () => {
      const { sim, pro } = await site(KEY);
      const p = await provider(sim);
      await expect(p.read("nope", FAMILY, undefined)).rejects.toThrow(
        new Error('ProductFamily import id "nope": product family nope does not exist at the site: nothing to import'),
      );
      await expect(p.read("8999", FAMILY, undefined)).rejects.toThrow(
        new Error('ProductFamily import id "8999": product family 8999 does not exist at the site: nothing to import'),
      );
      await expect(p.read("nope", PRODUCT, undefined)).rejects.toThrow(
        new Error('Product import id "nope": product nope does not exist at the site: nothing to import'),
      );
      await expect(p.read("nope/pro-annual", PRICE_POINT, undefined)).rejects.toThrow(
        new Error('ProductPricePoint import id "nope/pro-annual": product nope does not exist at the site: nothing to import'),
      );
      await expect(p.read("pro/nope", PRICE_POINT, undefined)).rejects.toThrow(
        new Error('ProductPricePoint import id "pro/nope": product pro has no price point nope: nothing to import'),
      );
      // A price point of another product, by id, is not this product's.
      const basicDefault = (await p.read("basic/basic-default", PRICE_POINT, undefined)).id;
      await expect(p.read(`pro/${basicDefault}`, PRICE_POINT, undefined)).rejects.toThrow(
        new Error(`ProductPricePoint import id "pro/${basicDefault}": product pro has no price point ${basicDefault}: nothing to import`),
      );
      await expect(p.read(`${pro.id}/nope`, PRICE_POINT, undefined)).rejects.toThrow(
        new Error(`ProductPricePoint import id "${pro.id}/nope": product ${pro.id} has no price point nope: nothing to import`),
      );
      onlyReads(sim);
    });

    it("a site not configured fails naming it", async () => {
      const { sim } = await site(KEY);
      const p = await provider(sim);
      await expect(p.read("mars/plans", FAMILY, undefined)).rejects.toThrow(
        /^ProductFamily import id "mars\/plans": site "mars" is not an entry of the stack config billing:sites/,
      );
      await expect(p.read("mars/pro", PRODUCT, undefined)).rejects.toThrow(/^Product import id "mars\/pro": site "mars" is not an entry/);
      await expect(p.read("mars/pro/pro-annual", PRICE_POINT, undefined)).rejects.toThrow(
        /^ProductPricePoint import id "mars\/pro\/pro-annual": site "mars" is not an entry/,
      );
      expect(sim.requests).toEqual([]);
    });

    it("a refusal other than 404 (a site refusing the key: 401) passes through as the client's error", async () => {
      const { sim } = await site(KEY);
      const eu = await simulator(EU_KEY);
      const p = await provider(sim, JSON.stringify({ eu: { baseUrl: eu.url, apiKey: "sk_live_WRONG_KEY_0000" } }));
      const errors = await Promise.all(
        [
          ["eu/plans", FAMILY],
          ["eu/pro", PRODUCT],
          ["eu/pro/pro-annual", PRICE_POINT],
        ].map(([id, urn]) =>
          p.read(id as string, urn as string, undefined).then(
            () => undefined,
            (e: unknown) => e,
          ),
        ),
      );
      // The refusal named by where the key was set (provider/runtime/reported.ts), the request it refused in it.
      const refused = (path: string) =>
        `(401 Unauthorized to GET ${path}): run \`pulumi config set --secret billing:apiKey <api-key>\` with the site's API key`;
      expect(errors.map((e) => (e as Error).message.replace(/^the billing site \S+ refused the API key from billing:apiKey /, ""))).toEqual(
        [refused("/product_families/handle:plans.json"), refused("/products/handle/pro.json"), refused("/products/handle/pro.json")],
      );
      for (const e of errors) {
        expect(e).toBeInstanceOf(BillingApiError);
        expect((e as BillingApiError).status).toBe(401);
      }
      // The price point's lookup of its product is the product's own, asked for in the same window: sent once (issue 43's bulk reads).
      expect(eu.requests.map((r) => `${r.status} ${r.path}`).sort()).toEqual([
        "401 /product_families/handle:plans.json",
        "401 /products/handle/pro.json",
      ]);
    });
  });
});
