import type * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput } from "../support";
import { auth, catalogSite, family, type Json, launch, steps } from "./site";

/**
 * A Product beside a ProductPricePoint declared `default: true` with other pricing (issue 42: `growth` at 9900 and
 * `growth-2026` at 10900): the price point is the default, and the product's pricing is its own price point's, which
 * refresh does not read as drift. Before, each `up --refresh` flipped the default: the product's pricing made a new
 * default price point, then the price point was promoted again, one more live price point each round.
 */

const point = {
  product: "handle:rocket",
  handle: "rocket-2026",
  name: "Rocket 2026",
  priceInCents: 5900,
  interval: 1,
  intervalUnit: "month",
  default: true,
};

type Provider = pulumi.dynamic.ResourceProvider;
interface Applied {
  readonly p: Provider;
  readonly id: string;
  outs: Json;
  readonly inputs: Json;
}

describe("Product and a ProductPricePoint declared default: true", () => {
  let sim: Simulator;
  const { providers } = catalogSite((started) => {
    sim = started;
    sim.configureSite({ nonPrimaryCurrencies: ["EUR"], exchangeRates: { EUR: 0.9 } });
  });

  /** The product's price points as `handle id (default)`, live ones only. */
  async function live(productId: unknown): Promise<string[]> {
    const answer = await fetch(`${sim.url}/products/${productId}/price_points.json`, { headers: auth });
    const { price_points } = (await answer.json()) as { price_points: Json[] };
    return price_points.filter((p) => !p.archived_at).map((p) => `${p.handle}${p.type === "default" ? " (default)" : ""}`);
  }

  async function applied(p: Provider, inputs: Json): Promise<Applied> {
    const checked = await p.check!({}, inputs);
    expect(checked.failures ?? []).toEqual([]);
    const made = await p.create!(checked.inputs);
    return { p, id: made.id, outs: made.outs, inputs: checked.inputs };
  }

  /** `pulumi up --refresh`: each read first, then each diffed against its refreshed state and updated if it differs. */
  async function upRefresh(all: readonly Applied[]): Promise<string[]> {
    for (const a of all) a.outs = (await a.p.read!(a.id, a.outs)).props as Json;
    const changed: string[] = [];
    for (const a of all) {
      const { changes } = await a.p.diff!(a.id, a.outs, a.inputs);
      if (!changes) continue;
      changed.push(String(a.outs.handle));
      a.outs = (await a.p.update!(a.id, a.outs, a.inputs)).outs;
    }
    return changed;
  }

  it.each([
    ["other pricing", launch, point],
    [
      "the product's default with its own currency prices, the price point with its own",
      { ...launch, useSiteExchangeRate: false, currencyPrices: { EUR: { baseline: 44 } } },
      { ...point, useSiteExchangeRate: false, currencyPrices: { EUR: { baseline: 53 } } },
    ],
  ])("%s: applied, then up --refresh three times, sends nothing and the price point stays the default", async (_, product, pp) => {
    const p = await providers();
    await p.families.create(family);
    const rocket = await applied(p.products, product);
    const rocket2026 = await applied(p.pricePoints, pp);
    const productId = rocket.outs.productId;
    const before = await live(productId);
    expect(before).toContain("rocket-2026 (default)");
    sim.reset();
    for (let round = 1; round <= 3; round++) {
      const { result, text } = await captureOutput(() => upRefresh([rocket, rocket2026]));
      expect(result, `round ${round}`).toEqual([]);
      expect(text).toBe("");
    }
    expect(steps(sim)).toEqual([]);
    expect(await live(productId)).toEqual(before);
    // The product's outputs say what new signups get: the price point's pricing.
    expect(rocket.outs).toMatchObject({ defaultPricePointHandle: "rocket-2026", priceInCents: 5900 });
  });

  it("a state recorded before ownDefaultId: its recorded default is taken for its own, and nothing is sent", async () => {
    const p = await providers();
    await p.families.create(family);
    const rocket = await applied(p.products, launch);
    const { ownDefaultId, ...before } = rocket.outs;
    expect(ownDefaultId).toBe(rocket.outs.defaultPricePointId);
    rocket.outs = before;
    const rocket2026 = await applied(p.pricePoints, point);
    sim.reset();
    expect(await upRefresh([rocket, rocket2026])).toEqual([]);
    expect(rocket.outs.ownDefaultId).toBe(ownDefaultId);
    expect(steps(sim)).toEqual([]);
  });

  it("the product's pricing declared as the promoted price point's: preview announces no pricing change, and up sends none", async () => {
    const p = await providers();
    await p.families.create(family);
    const rocket = await applied(p.products, launch);
    const rocket2026 = await applied(p.pricePoints, point);
    rocket.outs = (await p.products.read!(rocket.id, rocket.outs)).props as Json;
    sim.reset();
    // Before, check compared with the declaration before (4900) and said the service would make a new default price point.
    const { result: checked, text } = await captureOutput(() => p.products.check!(rocket.inputs, { ...launch, priceInCents: 5900 }));
    expect(text).toBe("");
    expect(checked?.inputs.preview).toBeUndefined();
    const changed = { ...rocket, inputs: checked?.inputs as Json };
    expect(await upRefresh([changed, rocket2026])).toEqual(["rocket"]);
    expect(await upRefresh([changed, rocket2026])).toEqual([]);
    expect(steps(sim)).toEqual([]);
  });

  it("the product's currency prices changed while the price point is the default: said, and nothing sent", async () => {
    const p = await providers();
    await p.families.create(family);
    const mine = { ...launch, useSiteExchangeRate: false, currencyPrices: { EUR: { baseline: 44 } } };
    const rocket = await applied(p.products, mine);
    const rocket2026 = await applied(p.pricePoints, point);
    const checked = await p.products.check!(rocket.inputs, { ...mine, currencyPrices: { EUR: { baseline: 46 } } });
    sim.reset();
    const { result, text } = await captureOutput(() => upRefresh([{ ...rocket, inputs: checked.inputs }, rocket2026]));
    expect(result).toEqual(["rocket"]);
    expect(text).toMatch(
      /^Product `rocket`: currencyPrices changed, but its default is product `rocket`'s default price point \(id \d+\) \(`rocket-2026`\), another price point than its own: nothing was sent\. Declare them on the ProductPricePoint declared default: true\.\n$/,
    );
    expect(steps(sim)).toEqual([]);
  });

  it("a new pricing declared on the product is sent once (a new default); the price point, promoted again, then stays", async () => {
    const p = await providers();
    await p.families.create(family);
    const rocket = await applied(p.products, launch);
    const rocket2026 = await applied(p.pricePoints, point);
    const checked = await p.products.check!(rocket.inputs, { ...launch, priceInCents: 4500 });
    const changed = { ...rocket, inputs: checked.inputs };
    sim.reset();
    const first = await captureOutput(() => upRefresh([changed, rocket2026]));
    expect(first.result).toEqual(["rocket"]);
    expect(first.text).toMatch(
      /^Product `rocket`: pricing changed \(priceInCents \$59\.00 → \$45\.00\): the service made a new default price point/,
    );
    // The next round promotes the declared default again; then nothing changes.
    expect(await upRefresh([changed, rocket2026])).toEqual(["rocket-2026"]);
    sim.reset();
    expect(await upRefresh([changed, rocket2026])).toEqual([]);
    expect(await upRefresh([changed, rocket2026])).toEqual([]);
    expect(steps(sim)).toEqual([]);
  });
});
