import { afterEach, describe, expect, it } from "vitest";
import { providerConfig } from "../../plugin/config";
import { BillingProvider } from "../../plugin/provider";
import { type Simulator, startSimulator } from "../../simulator";
import type { ProductRecord } from "../../simulator/records";

// `pulumi import` of the catalog kinds by handles that begin with digits ("2026-plans", "1year",
// "12-months"): a key is an id only when it is digits alone, so these are read as handles. Through the
// plugin's provider, against the simulator over a real socket; the whole ReadResult compared.

const KEY = "sk_live_PLUGIN_CATALOG_DIGITS_7373";
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const NOW = "2026-03-04T05:06:07Z";
const urn = (type: string) => `urn:pulumi:dev::billing-app::billing:index:${type}::x`;

/** The pricing outputs of a price with no trial, initial charge or expiration. */
const PRICE_ONLY = {
  interval: 12,
  intervalUnit: "month",
  trialPriceInCents: null,
  trialInterval: null,
  trialIntervalUnit: null,
  trialType: null,
  initialChargeInCents: null,
  initialChargeAfterTrial: false,
  expirationInterval: null,
};

/** A product's price point, by handle, as the simulator made it. */
function byHandle(product: ProductRecord, handle: string) {
  const pp = product.pricePoints.find((x) => x.handle === handle);
  if (!pp) throw new Error(`no price point ${handle}`);
  return pp;
}

describe("pulumi import of catalog handles that begin with digits", () => {
  let sim: Simulator | undefined;
  afterEach(async () => {
    await sim?.close();
    sim = undefined;
  });

  async function setup() {
    sim = await startSimulator({ apiKey: KEY, now: () => new Date(NOW) });
    const family = sim.addProductFamily({ handle: "2026-plans", name: "2026 plans" });
    const product = sim.addProduct({
      handle: "1year",
      familyHandle: "2026-plans",
      name: "One year",
      priceInCents: 9900,
      interval: 12,
      intervalUnit: "month",
      pricePoints: [{ handle: "12-months", name: "Twelve months", priceInCents: 9000, interval: 12, intervalUnit: "month" }],
    });
    const p = new BillingProvider("0.1.0");
    p.configure(providerConfig([], { baseUrl: sim.url, apiKey: { ...SECRET, value: KEY } }));
    return { p, family, product };
  }

  it("ProductFamily 2026-plans", async () => {
    const { p, family } = await setup();
    expect(await p.read("2026-plans", urn("ProductFamily"), {})).toEqual({
      id: String(family.id),
      props: {
        familyId: family.id,
        handle: "2026-plans",
        name: "2026 plans",
        description: null,
        createdAt: NOW,
        args: { name: "2026 plans" },
      },
      inputs: { handle: "2026-plans", name: "2026 plans" },
    });
  });

  it("Product 1year", async () => {
    const { p, family, product } = await setup();
    const inputs = {
      productFamily: "handle:2026-plans",
      handle: "1year",
      name: "One year",
      priceInCents: 9900,
      interval: 12,
      intervalUnit: "month",
    };
    expect(await p.read("1year", urn("Product"), {})).toEqual({
      id: String(product.id),
      props: {
        productId: product.id,
        productFamilyId: family.id,
        handle: "1year",
        name: "One year",
        description: "",
        defaultPricePointId: byHandle(product, "1year-default").id,
        defaultPricePointHandle: "1year-default",
        archivedAt: null,
        priceInCents: 9900,
        ...PRICE_ONLY,
        expirationIntervalUnit: "never",
        useSiteExchangeRate: true,
        currencyPrices: null,
        args: inputs,
        productFamilyHandle: "2026-plans",
      },
      inputs,
    });
  });

  it("ProductPricePoint 1year/12-months", async () => {
    const { p, product } = await setup();
    const pp = byHandle(product, "12-months");
    const inputs = {
      product: "handle:1year",
      handle: "12-months",
      name: "Twelve months",
      priceInCents: 9000,
      interval: 12,
      intervalUnit: "month",
    };
    expect(await p.read("1year/12-months", urn("ProductPricePoint"), {})).toEqual({
      id: String(pp.id),
      props: {
        pricePointId: pp.id,
        productId: product.id,
        handle: "12-months",
        name: "Twelve months",
        isDefault: false,
        archivedAt: null,
        priceInCents: 9000,
        ...PRICE_ONLY,
        expirationIntervalUnit: null,
        // A price point that follows the site's exchange rate (the service's default) has no prices of its own.
        useSiteExchangeRate: true,
        currencyPrices: null,
        args: inputs,
      },
      inputs,
    });
  });
});
