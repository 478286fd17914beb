import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { type Simulator, startSimulator } from "../../simulator";
import { ExampleStack, installedConsumer, mutations } from "./support";

const KEY = "sk_e2e_currency_prices_7c31d0";

/** A program with a product and one of its price points, each with prices in EUR from config: only those amounts change. */
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import { Component, ComponentPricePoint, Product, ProductFamily, ProductPricePoint } from "pulumi-subscription-billing";

const eur = new pulumi.Config("prices").requireObject<{ pro: number; annual: number }>("eur");
const tier = new pulumi.Config("prices").get("tier") ?? "0.05";
const family = new ProductFamily("plans", { handle: "plans", name: "Plans" });
const pro = new Product("pro", {
  productFamily: family.familyId,
  handle: "pro",
  name: "Pro",
  priceInCents: 4900,
  interval: 1,
  intervalUnit: "month",
  useSiteExchangeRate: false,
  currencyPrices: { EUR: { baseline: eur.pro } },
});
const annual = new ProductPricePoint("pro-annual", {
  product: pro,
  handle: "pro-annual",
  name: "Pro, yearly",
  priceInCents: 49000,
  interval: 12,
  intervalUnit: "month",
  useSiteExchangeRate: false,
  currencyPrices: { EUR: { baseline: eur.annual } },
});
const sms = new Component("sms", {
  productFamily: family.familyId,
  kind: "metered",
  handle: "sms",
  name: "SMS",
  unitName: "message",
  pricingScheme: "per_unit",
  prices: [{ startingQuantity: 1, unitPrice: "0.06" }],
});
new ComponentPricePoint("sms-volume", {
  component: sms,
  handle: "sms-volume",
  name: "Volume",
  pricingScheme: "volume",
  prices: [{ startingQuantity: 1, endingQuantity: 1000, unitPrice: tier }, { startingQuantity: 1001, unitPrice: "0.03" }],
});
export const ids = { product: pro.productId, defaultPricePoint: pro.defaultPricePointId, annual: annual.pricePointId };
`;

// Currency prices through the real CLI: a Product (its default price point's) and a ProductPricePoint, each in a
// second currency of the site. up makes them; a changed amount previews as old → new money per currency and
// is applied in place by up (a PUT each, nothing replaced, the same ids); no key in state or output.
describe("currency prices with the real CLI: a Product and a ProductPricePoint in EUR", () => {
  let sim: Simulator;
  let s: ExampleStack;
  const auth = { authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}` };
  const prices = (v: { pro: number; annual: number }) => s.config("prices:eur", JSON.stringify(v));

  /** The EUR baseline a price point holds: GET …?currency_prices=true. */
  async function eurBaseline(productId: number, pricePointId: number): Promise<unknown> {
    const answer = await fetch(`${sim.url}/products/${productId}/price_points/${pricePointId}.json?currency_prices=true`, {
      headers: auth,
    });
    const { price_point } = (await answer.json()) as {
      price_point: { currency_prices: { currency: string; role: string; price: unknown }[] };
    };
    return price_point.currency_prices.find((p) => p.currency === "EUR" && p.role === "baseline")?.price;
  }

  before(async () => {
    const c = await installedConsumer();
    const dir = path.join(c.dir, "currency-prices");
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, "Pulumi.yaml"),
      "name: billing-currency-prices\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n",
    );
    await writeFile(path.join(dir, "index.ts"), PROGRAM);
    sim = await startSimulator({ apiKey: KEY, nonPrimaryCurrencies: ["EUR", "GBP"] });
    s = await ExampleStack.create(c, "currency-prices", "eur");
    await s.config("billing:baseUrl", sim.url);
    await s.config("billing:apiKey", KEY, true);
    await prices({ pro: 45, annual: 449 });
  });

  after(async () => {
    await s?.dispose();
    await sim?.close();
  });

  it("up makes both with their EUR prices; a second up changes nothing", async () => {
    await s.run(["up", "--yes", "--skip-preview"]);
    const { ids } = (await s.stackOutputs()) as { ids: { product: number; defaultPricePoint: number; annual: number } };
    assert.equal(await eurBaseline(ids.product, ids.defaultPricePoint), 45);
    assert.equal(await eurBaseline(ids.product, ids.annual), 449);
    sim.reset();
    await s.run(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
    assert.deepEqual(mutations(sim.requests), []);
  });

  it("a changed amount: preview says old → new per currency, up PUTs it in place, nothing replaced", async () => {
    const before = ((await s.stackOutputs()) as { ids: Record<string, number> }).ids;
    await prices({ pro: 47.5, annual: 449 });
    const preview = await s.run(["preview", "--diff"]);
    assert.match(preview.stdout + preview.stderr, /EUR baseline EUR 45\.00 → baseline EUR 47\.50 \(in place\)/);
    assert.doesNotMatch(preview.stdout, /replace/);
    sim.reset();
    const up = await s.run(["up", "--yes", "--skip-preview"]);
    assert.match(up.stdout, /1 updated/);
    assert.doesNotMatch(up.stdout, /replaced|created/);
    assert.deepEqual(
      mutations(sim.requests).map((r) => `${r.method} ${r.path}`),
      [`PUT /product_price_points/${before.defaultPricePoint}/currency_prices.json`],
    );
    const after = ((await s.stackOutputs()) as { ids: Record<string, number> }).ids;
    assert.deepEqual(after, before);
    assert.equal(await eurBaseline(after.product as number, after.defaultPricePoint as number), 47.5);

    await prices({ pro: 47.5, annual: 459 });
    const pointPreview = await s.run(["preview", "--diff"]);
    assert.match(pointPreview.stdout + pointPreview.stderr, /EUR baseline EUR 449\.00 → baseline EUR 459\.00/);
    sim.reset();
    await s.run(["up", "--yes", "--skip-preview"]);
    assert.deepEqual(
      mutations(sim.requests).map((r) => `${r.method} ${r.path}`),
      [`PUT /product_price_points/${before.annual}/currency_prices.json`],
    );
    assert.equal(await eurBaseline(after.product as number, after.annual as number), 459);
  });

  // Issue 42: what subscribers pay is said on a plain preview (no --diff), and the diff names the declared input only.
  it("a component price point's tier 0.05 → 0.04: a plain preview says it in money, its diff is `~prices` alone; up changes it in place", async () => {
    await s.config("prices:tier", "0.04");
    const preview = await s.run(["preview"]);
    const out = `${preview.stdout}\n${preview.stderr}`;
    assert.match(out, /Component price point `sms-volume`: pricing change \(prices 1–1000 \$0\.05 → \$0\.04\): changed in place/);
    assert.match(out, /billing:ComponentPricePoint sms-volume update \[diff: ~prices\]/);
    assert.doesNotMatch(out, /\[diff: [^\]]*preview/);
    sim.reset();
    const up = await s.run(["up", "--yes", "--skip-preview"]);
    assert.match(up.stdout, /1 updated/);
    assert.deepEqual(
      mutations(sim.requests).map((r) => `${r.method} ${r.path.replace(/[0-9]+/g, "N")}`),
      ["PUT /components/N/price_points/N.json"],
    );
  });

  it("no credential in state or CLI output", async () => {
    const state = await s.exportState();
    assert.ok(!state.includes(KEY), "state holds the key");
    assert.ok(!s.outputs.join("\n").includes(KEY), "CLI output holds the key");
  });
});
