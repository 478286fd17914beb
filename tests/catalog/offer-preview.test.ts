import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { snapshotFromPreview } from "../../catalog";

/**
 * An offer in a program's preview: references unknown until their resources exist, nested ones in its components
 * too, are read back as `handle:<h>` through the preview's property dependencies, each of its referenced kind in the
 * program's order, so that `billing-catalog diff` compares the program's offer with a site's.
 */

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const preview = () => JSON.parse(readFileSync(path.join(__dirname, "fixtures/preview-fresh-site.json"), "utf8"));
const urnOf = (p: { steps: { urn: string }[] }, suffix: string) => p.steps.find((s) => s.urn.endsWith(suffix))?.urn as string;

function withOffer(components: unknown[], deps: string[]) {
  const p = preview();
  const type = "pulumi-nodejs:dynamic/billing:Offer";
  const urn = `urn:pulumi:fresh::catalog-capture::${type}::offer-bundle`;
  p.steps.push({
    op: "create",
    urn,
    newState: {
      urn,
      type,
      inputs: { handle: "bundle", name: "Bundle", product: UNKNOWN, productPricePoint: UNKNOWN, components, coupons: ["handle:WELCOME10"] },
      propertyDependencies: {
        product: [urnOf(p, "Product::product-pro")],
        productPricePoint: [urnOf(p, "ProductPricePoint::price-point-pro--pro-annual")],
        components: deps.map((d) => urnOf(p, d)),
      },
    },
  });
  return p;
}

describe("an offer in a program's preview", () => {
  it("reads its references, nested ones by their kind in order, as handle:<h>; its components as the set check makes them", () => {
    const p = withOffer(
      [
        { component: UNKNOWN, pricePoint: UNKNOWN, startingQuantity: 100 },
        { component: "handle:sso", startingQuantity: 1 },
        { component: UNKNOWN, startingQuantity: 2 },
      ],
      [
        "Component::component-api-calls",
        "ComponentPricePoint::component-price-point-api-calls--api-calls-eu",
        "Component::component-seats",
      ],
    );
    expect(snapshotFromPreview(p).objects.Offer).toEqual({
      bundle: {
        handle: "bundle",
        name: "Bundle",
        product: "handle:pro",
        productPricePoint: "handle:pro-annual",
        components: [
          { component: "handle:api-calls", pricePoint: "handle:api-calls-eu", startingQuantity: 100 },
          { component: "handle:seats", startingQuantity: 2 },
          { component: "handle:sso", startingQuantity: 1 },
        ],
        coupons: ["handle:WELCOME10"],
      },
    });
  });

  it("a nested reference unknown at preview that names no resource of the program is refused naming it", () => {
    const p = withOffer([{ component: UNKNOWN, startingQuantity: 1 }], []);
    expect(() => snapshotFromPreview(p, { source: "p.json" })).toThrow(
      /p.json: urn:\S+offer-bundle's components\[\]\.component is unknown at preview and names no resource of the program/,
    );
  });
});
