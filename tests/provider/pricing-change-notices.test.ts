import type * as pulumi from "@pulumi/pulumi";
import { afterEach, describe, expect, it } from "vitest";
import { componentPricePointProvider, couponProvider, productPricePointProvider, productProvider } from "../../provider";
import type { Simulator } from "../../simulator";
import { captureOutput, configured, mutations } from "./support";

/**
 * Issue 42: a plain `pulumi preview` says every pricing change in money. Each kind's check (the runtime's, as the
 * engine calls it) gives a notice with each changed field old → new, a tier's unit price per tier, a coupon's
 * amount or percentage, an adoption that will change a price included; and records the change in `preview` for
 * the review and the policy pack. Nothing is sent.
 */

type Provider = pulumi.dynamic.ResourceProvider;

const TIERS = (first: string) => [
  { startingQuantity: 1, endingQuantity: 1000, unitPrice: first },
  { startingQuantity: 1001, unitPrice: "0.03" },
];
const CPP = { component: "handle:sms", handle: "sms-volume", name: "Volume", pricingScheme: "volume", prices: TIERS("0.05") };
const PPP = {
  product: "handle:pro",
  handle: "pro-biennial",
  name: "Pro, two years",
  priceInCents: 90000,
  interval: 24,
  intervalUnit: "month",
};
const COUPON = { productFamily: "handle:plans", code: "SPRING", name: "Spring", amountInCents: 500 };

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** A provider configured against a fresh site holding the family `plans` and its metered component `sms`. */
async function site(exported: Provider) {
  const made = await configured(exported);
  sim = made.sim;
  sim.addComponent({ familyHandle: "plans", kind: "metered", handle: "sms", unitName: "message" });
  sim.reset();
  return made.provider;
}

describe("a pricing change at preview: a notice in money, and the change recorded for the review and the policy pack", () => {
  const cases: [string, Provider, Record<string, unknown>, Record<string, unknown>, string, readonly string[]][] = [
    [
      "a component price point's first tier 0.05 → 0.04 (in place)",
      componentPricePointProvider,
      CPP,
      { ...CPP, prices: TIERS("0.04") },
      "Component price point `sms-volume`: pricing change (prices 1–1000 $0.05 → $0.04): changed in place: subscriptions on this price point pay the new prices from their next charge",
      ["prices"],
    ],
    [
      "a component price point's tiers and scheme both",
      componentPricePointProvider,
      CPP,
      { ...CPP, pricingScheme: "tiered", prices: [{ startingQuantity: 1, unitPrice: "0.045" }] },
      "Component price point `sms-volume`: pricing change (pricingScheme volume → tiered, prices 1–1000 at $0.05; 1001+ at $0.03 → 1+ at $0.045): changed in place",
      ["pricingScheme", "prices"],
    ],
    [
      "a product price point's price (a replacement)",
      productPricePointProvider,
      PPP,
      { ...PPP, priceInCents: 95000 },
      "Price point `pro-biennial`: pricing change (priceInCents $900.00 → $950.00): replaced: the old price point's handle is freed",
      ["priceInCents"],
    ],
    [
      "a coupon's amount $5.00 → $6.00",
      couponProvider,
      COUPON,
      { ...COUPON, amountInCents: 600 },
      "Coupon `SPRING`: pricing change (amountInCents $5.00 → $6.00): in place: its discount changes in place (the coupon stays)",
      ["amountInCents"],
    ],
    [
      "a coupon's percentage 10% → 15%",
      couponProvider,
      { ...COUPON, amountInCents: undefined, percentage: 10 },
      { ...COUPON, amountInCents: undefined, percentage: 15 },
      "Coupon `SPRING`: pricing change (percentage 10% → 15%): in place",
      ["percentage"],
    ],
    [
      "a coupon from an amount to a percentage: both said",
      couponProvider,
      COUPON,
      { ...COUPON, amountInCents: undefined, percentage: 20 },
      "Coupon `SPRING`: pricing change (percentage none → 20%, amountInCents $5.00 → none): in place",
      ["percentage", "amountInCents"],
    ],
  ];

  it.each(cases)("%s", async (_, exported, olds, news, notice, fields) => {
    const provider = await site(exported);
    const defined = (o: Record<string, unknown>) => JSON.parse(JSON.stringify(o));
    const { result, text } = await captureOutput(() => provider.check!(defined(olds), defined(news)));
    expect(result?.failures ?? []).toEqual([]);
    expect(text).toContain(notice);
    expect(result?.inputs.preview?.pricingChange?.fields).toEqual(fields);
    expect(mutations(sim as Simulator)).toEqual([]);
  });

  it("a change of name only: no pricing notice, nothing recorded", async () => {
    const provider = await site(componentPricePointProvider);
    const { result, text } = await captureOutput(() => provider.check!(CPP, { ...CPP, name: "Volume pricing" }));
    expect(text).not.toMatch(/pricing change/);
    expect(result?.inputs.preview).toBeUndefined();
  });

  it("tiers written otherwise at the same prices (0.05 as 0.050) are no change", async () => {
    const provider = await site(componentPricePointProvider);
    const { result, text } = await captureOutput(() => provider.check!(CPP, { ...CPP, prices: TIERS("0.050") }));
    expect(text).not.toMatch(/pricing change/);
    expect(result?.inputs.preview).toBeUndefined();
  });
});

describe("a replacement's change is said once", () => {
  it("a price point's new price: the replacement's own check (a first deploy, which finds the old one) does not repeat it", async () => {
    const provider = await site(productPricePointProvider);
    const { outs } = await provider.create(PPP);
    const news = { ...PPP, priceInCents: 95000 };
    // As the engine checks a replacement: against the old inputs, then again as a first deploy.
    const first = await captureOutput(() => provider.check!({ ...PPP, pricePointId: outs.pricePointId }, news));
    const again = await captureOutput(() => provider.check!({}, news));
    const said = `${first.text}${again.text}`.split("pricing change (priceInCents $900.00 → $950.00)").length - 1;
    expect(said).toBe(1);
    // The review and the policy pack still read it on the replacement's inputs.
    expect(again.result?.inputs.preview?.pricingChange?.fields).toEqual(["priceInCents"]);
  });
});

describe("an adoption that will change a price says so in money at preview", () => {
  it("a coupon held at $4.00, declared at $5.00", async () => {
    const provider = await site(couponProvider);
    sim?.addCoupon({ familyHandle: "plans", code: "SPRING", name: "Spring", amountInCents: 400 });
    const { result, text } = await captureOutput(() => provider.check!({}, COUPON));
    expect(text).toContain(
      "Coupon `SPRING`: pricing change (amountInCents $4.00 → $5.00): the adopted coupon's discount is changed in place",
    );
    expect(result?.inputs.preview).toMatchObject({ adopt: { code: "SPRING" }, pricingChange: { fields: ["amountInCents"] } });
  });

  it("a product held at another price than declared", async () => {
    const provider = await site(productProvider);
    const { text } = await captureOutput(() =>
      provider.check!(
        {},
        { productFamily: "handle:plans", handle: "pro", name: "Pro", priceInCents: 12345, interval: 1, intervalUnit: "month" },
      ),
    );
    expect(text).toMatch(/Product `pro`: pricing change \(priceInCents \$[0-9.,]+ → \$123\.45[),]/);
  });
});
