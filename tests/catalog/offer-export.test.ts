import { describe, expect, it, onTestFinished } from "vitest";
import { catalogDeclarations, catalogImportFile, catalogProgram, Reference, readCatalog } from "../../catalog";
import { typecheckProgram } from "./compile";
import { SECRET_KEY, webUiSite } from "./site";

/**
 * An offer in the export: its references (a product, a price point of it, components each with a price point of
 * its own, coupons) as the outputs of the program's resources, price points looked up under the owner named beside
 * them; a default price point left out (a create without one takes it); signup pages, which no request makes, never
 * declared; the program type-checks against the package's published types.
 */

async function offerSite() {
  const sim = await webUiSite();
  onTestFinished(() => sim.close());
  sim.addOffer({
    handle: "pro-bundle",
    name: "Pro bundle",
    description: "Pro with API calls",
    productHandle: "pro",
    pricePointHandle: "pro-annual",
    components: [
      { componentHandle: "api-calls", pricePointHandle: "api-calls-eu", startingQuantity: 100 },
      { componentHandle: "sso", startingQuantity: 1 },
    ],
    couponCodes: ["WELCOME10"],
    signupPages: [{ nickname: "launch" }],
  });
  // Its product archived: an offer of an archived product is still live, and names it by handle.
  sim.addOffer({ handle: "legacy-deal", productHandle: "legacy", archived: false });
  return (await readCatalog({ baseUrl: sim.url, apiKey: SECRET_KEY })).snapshot;
}

describe("an offer's export", () => {
  it("is read as the inputs that declare it, references as handle:<h>, the defaults and signup pages left out", async () => {
    const s = await offerSite();
    expect(s.objects.Offer).toEqual({
      "legacy-deal": { handle: "legacy-deal", name: "legacy-deal", product: "handle:legacy" },
      "pro-bundle": {
        components: [
          { component: "handle:api-calls", pricePoint: "handle:api-calls-eu", startingQuantity: 100 },
          { component: "handle:sso", startingQuantity: 1 },
        ],
        coupons: ["handle:WELCOME10"],
        description: "Pro with API calls",
        handle: "pro-bundle",
        name: "Pro bundle",
        product: "handle:pro",
        productPricePoint: "handle:pro-annual",
      },
    });
    expect(
      catalogImportFile(s)
        .resources.filter((r) => r.type === "billing:index:Offer")
        .map((r) => [r.name, r.id]),
    ).toEqual([
      ["offer-legacy-deal", "legacy-deal"],
      ["offer-pro-bundle", "pro-bundle"],
    ]);
  });

  it("declares its references as the outputs of the program's resources, nested ones too", async () => {
    const declared = catalogDeclarations(await offerSite());
    const offer = declared.find((d) => d.name === "offer-pro-bundle")!;
    expect(offer.inputs.product).toEqual(new Reference("Product", "pro", "product-pro", "productId"));
    expect(offer.inputs.productPricePoint).toEqual(
      new Reference("ProductPricePoint", "pro/pro-annual", "price-point-pro--pro-annual", "pricePointId"),
    );
    expect(offer.inputs.components).toEqual([
      {
        component: new Reference("Component", "api-calls", "component-api-calls", "componentId"),
        pricePoint: new Reference(
          "ComponentPricePoint",
          "api-calls/api-calls-eu",
          "component-price-point-api-calls--api-calls-eu",
          "pricePointId",
        ),
        startingQuantity: 100,
      },
      { component: new Reference("Component", "sso", "component-sso", "componentId"), startingQuantity: 1 },
    ]);
    expect(offer.inputs.coupons).toEqual([new Reference("Coupon", "WELCOME10", "coupon-WELCOME10", "couponId")]);
    // Archived, so not declared: named by its handle.
    expect(declared.find((d) => d.name === "offer-legacy-deal")?.inputs.product).toBe("handle:legacy");
    // After everything it names: the engine creates those first anyway, and a reader finds them above.
    expect(declared.at(-1)?.type).toBe("Offer");
  });

  it("is a program that type-checks against the package's published types (dist/)", { timeout: 120_000 }, async () => {
    const code = catalogProgram(await offerSite());
    expect(code).toContain(
      "  components: [\n    {\n      component: componentApiCalls.componentId,\n      pricePoint: componentPricePointApiCallsApiCallsEu.pricePointId,\n      startingQuantity: 100,\n    },\n",
    );
    expect(code).toContain("  coupons: [couponWELCOME10.couponId],\n");
    expect(typecheckProgram(code)).toEqual([]);
    expect(typecheckProgram(code.replace("startingQuantity: 100", 'startingQuantity: "100"')).join("\n")).toMatch(
      /startingQuantity|number/,
    );
  });
});
