import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { Product, ProductPricePoint } from "../../../provider";
import { thrown } from "../support";
import { annual } from "./site";

// A program's ProductPricePoint given its Product resource goes with it (deletedWith), the options given kept.
// (A file of its own: the mutation run leaves it out, see mutation/vitest.config.mts.)

// The engine mocked: a Product's productId is 42, every other output its input.
beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (a) => ({ id: `${a.name}-id`, state: a.type.endsWith("Product") ? { ...a.inputs, productId: 42 } : a.inputs }),
      call: (a) => a.inputs,
    },
    "billing-app",
    "dev",
    true,
  );
});

describe("a program's ProductPricePoint given its Product resource", () => {
  it("goes with it (deletedWith), the options given kept", () => {
    const product = new Product("pro", {
      productFamily: "handle:plans",
      handle: "pro",
      name: "Pro",
      priceInCents: 4900,
      interval: 1,
      intervalUnit: "month",
    });
    const seen: pulumi.CustomResourceOptions[] = [];
    new ProductPricePoint(
      "pro-annual",
      { ...annual, product },
      {
        transformations: [
          (a) => {
            seen.push(a.opts as pulumi.CustomResourceOptions);
            return undefined;
          },
        ],
      },
    );
    expect(seen.map((o) => o.deletedWith === product)).toEqual([true]);
  });
});

// Issue 42: two declarations of one product's default flipped it on every `up --refresh`. Refused in the price
// point's constructor (so at preview), naming both resources and what to keep; only values known then are compared.
describe("a program's ProductPricePoint declared default: true for its Product resource", () => {
  const growth = {
    productFamily: "handle:plans",
    handle: "growth",
    name: "Growth",
    priceInCents: 9900,
    interval: 1,
    intervalUnit: "month" as const,
  };
  const growth2026 = { handle: "growth-2026", name: "Growth 2026", priceInCents: 10900, interval: 1, intervalUnit: "month" as const };

  it("other pricing than the Product's: refused, naming both, the difference and what to keep", () => {
    const product = new Product("growth", growth);
    const err = thrown(() => new ProductPricePoint("growth-2026", { ...growth2026, product, default: true }));
    expect(err).toBeInstanceOf(pulumi.RunError);
    expect((err as Error).message).toBe(
      'Product "growth" and ProductPricePoint "growth-2026" (default: true) both declare the product\'s default price point, differently: ' +
        "priceInCents $99.00 on the Product, $109.00 on the price point. The price point declared default: true is the default (new signups get it); " +
        "the Product's pricing, sent on every `pulumi up --refresh`, would make the service a new default price point each time, and the price point " +
        'would be promoted again. Keep one: give Product "growth" the price point\'s pricing (or leave its useSiteExchangeRate and currencyPrices out), ' +
        'or remove default: true from ProductPricePoint "growth-2026".',
    );
  });

  it.each([
    [
      "the Product's currency prices",
      { useSiteExchangeRate: false, currencyPrices: { EUR: { baseline: 90 } } },
      {},
      /useSiteExchangeRate false on the Product, true on the price point; currencyPrices \{"EUR":\{"baseline":90\}\} on the Product, none on the price point/,
    ],
    [
      "other currency prices on each",
      { useSiteExchangeRate: false, currencyPrices: { EUR: { baseline: 90 } } },
      { useSiteExchangeRate: false, currencyPrices: { EUR: { baseline: 99 } } },
      /currencyPrices \{"EUR":\{"baseline":90\}\} on the Product, \{"EUR":\{"baseline":99\}\} on the price point/,
    ],
    [
      "a trial on the Product only",
      { trialPriceInCents: 0, trialInterval: 7, trialIntervalUnit: "day" as const },
      {},
      /trialPriceInCents \$0\.00 on the Product, \(none\) on the price point/,
    ],
  ])("%s beside the same pricing: refused", (_, onProduct, onPoint, reason) => {
    const product = new Product("growth", { ...growth, priceInCents: 10900, ...onProduct });
    const err = thrown(() => new ProductPricePoint("growth-2026", { ...growth2026, ...onPoint, product, default: true }));
    expect(err).toBeInstanceOf(pulumi.RunError);
    expect((err as Error).message).toMatch(reason);
  });

  it("a second price point declared default: true for the same Product: refused, naming both", () => {
    const product = new Product("growth", { ...growth, priceInCents: 10900 });
    new ProductPricePoint("growth-2026", { ...growth2026, product, default: true });
    const err = thrown(() => new ProductPricePoint("growth-2027", { ...growth2026, handle: "growth-2027", product, default: true }));
    expect(err).toBeInstanceOf(pulumi.RunError);
    expect((err as Error).message).toMatch(
      /^ProductPricePoint "growth-2027" and ProductPricePoint "growth-2026" both declare default: true for Product "growth": a product has one default price point/,
    );
  });

  it("two price points declared default: true for one product written as a literal: refused; on two sites: accepted", () => {
    new ProductPricePoint("launch-2026", { ...growth2026, handle: "launch-2026", product: "handle:launch", default: true });
    new ProductPricePoint("launch-eu", { ...growth2026, handle: "launch-2026", product: "handle:launch", default: true, site: "eu" });
    const err = thrown(
      () => new ProductPricePoint("launch-2027", { ...growth2026, handle: "launch-2027", product: "handle:launch", default: true }),
    );
    expect(err).toBeInstanceOf(pulumi.RunError);
    expect((err as Error).message).toMatch(
      /^ProductPricePoint "launch-2027" and ProductPricePoint "launch-2026" both declare default: true for product "handle:launch": a product has one default price point/,
    );
  });

  it.each([
    [
      "the same pricing, the service's defaults left out on one side",
      { ...growth, priceInCents: 10900, expirationIntervalUnit: "never" as const },
      {},
    ],
    [
      "the same currency prices, written in another order",
      { ...growth, priceInCents: 10900, useSiteExchangeRate: false, currencyPrices: { GBP: { baseline: 80 }, EUR: { baseline: 90 } } },
      { useSiteExchangeRate: false, currencyPrices: { EUR: { baseline: 90 }, GBP: { baseline: 80 } } },
    ],
    ["a price not known yet (an Output): left to the providers, which converge", { ...growth, priceInCents: pulumi.output(9900) }, {}],
    ["other pricing, the price point not declared default", growth, { default: false }],
  ])("%s: accepted", (_, productArgs, onPoint) => {
    const product = new Product("growth", productArgs);
    expect(thrown(() => new ProductPricePoint("growth-2026", { ...growth2026, default: true, ...onPoint, product }))).toBeUndefined();
  });
});
