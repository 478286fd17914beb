import { describe, expect, it, onTestFinished } from "vitest";
import {
  type CatalogSnapshot,
  catalogDeclarations,
  catalogImportFile,
  catalogProgram,
  importFileJson,
  Reference,
  readCatalog,
  snapshotJson,
} from "../../catalog";
import { biomeFormatted, typecheckProgram } from "./compile";
import { SECRET_KEY, webUiSite } from "./site";

// The export's two outputs from a web-UI site read over a socket: the bulk import file and the program,
// each the same bytes for the same catalog, the program formatted and type-checked against the package's types.

async function readSite(o: Parameters<typeof webUiSite>[0] = {}, includeArchived = false) {
  const sim = await webUiSite(o);
  onTestFinished(() => sim.close());
  return (await readCatalog({ baseUrl: sim.url, apiKey: SECRET_KEY }, { includeArchived })).snapshot;
}

describe("catalogImportFile", () => {
  it("names every live object by handle, with the plugin's types and names derived from handles", async () => {
    const s = await readSite();
    const { resources } = catalogImportFile(s);
    // Deliberate change: a name's prefix is its kind's noun in kebab case, so a family is `product-family-<handle>` (was `family-`).
    expect(resources.map((r) => [r.type.replace("billing:index:", ""), r.name, r.id])).toEqual([
      ["ProductFamily", "product-family-addons", "addons"],
      ["ProductFamily", "product-family-plans", "plans"],
      ["Product", "product-basic", "basic"],
      ["ProductPricePoint", "price-point-basic--basic-annual", "basic/basic-annual"],
      ["Product", "product-pro", "pro"],
      ["ProductPricePoint", "price-point-pro--pro-annual", "pro/pro-annual"],
      ["ProductPricePoint", "price-point-pro--pro-quarterly", "pro/pro-quarterly"],
      ["Component", "component-api-calls", "api-calls"],
      ["ComponentPricePoint", "component-price-point-api-calls--api-calls-eu", "api-calls/api-calls-eu"],
      ["Component", "component-credits", "credits"],
      ["Component", "component-events", "events"],
      ["Component", "component-seats", "seats"],
      ["Component", "component-sso", "sso"],
      ["Coupon", "coupon-SEATS5", "SEATS5"],
      ["Coupon", "coupon-WELCOME10", "WELCOME10"],
    ]);
    expect(new Set(resources.map((r) => r.name)).size).toBe(resources.length);
    expect(catalogImportFile(s, { site: "prod" }).resources[2]?.id).toBe("prod/basic");
    expect(() => catalogImportFile(s, { site: "a/b" })).toThrow(/site: "a\/b" must be the name of an entry of billing:sites/);
  });

  it("archived objects stay out of the import file even when read (the kinds would restore them)", async () => {
    const s = await readSite({}, true);
    const ids = catalogImportFile(s).resources.map((r) => r.id);
    expect(ids).not.toContain("legacy");
    expect(ids).not.toContain("basic/basic-2019");
    expect(ids).not.toContain("BLACKFRIDAY");
    expect(ids).not.toContain("seats/seats-old");
  });

  it("is the same bytes for the same site read twice and for a second site seeded the same way", async () => {
    const a = await readSite({ bulk: 5 });
    const b = await readSite({ bulk: 5 });
    expect(importFileJson(catalogImportFile(a))).toBe(importFileJson(catalogImportFile(b)));
    expect(snapshotJson(a)).not.toBe(snapshotJson(b)); // the components' default price points have generated uuid: handles
    expect(catalogProgram(a)).toBe(catalogProgram(b));
  });

  it("two handles that make the same name get distinct names, the same way every time", () => {
    const s: CatalogSnapshot = {
      format: "billing-catalog-snapshot/2",
      includesArchived: false,
      objects: {
        Coupon: {
          "A%B": { productFamily: "handle:plans", code: "A%B", name: "a", percentage: 5 },
          "A@B": { productFamily: "handle:plans", code: "A@B", name: "b", percentage: 5 },
        },
      },
    };
    expect(catalogImportFile(s).resources.map((r) => r.name)).toEqual(["coupon-A_B", "coupon-A_B-2"]);
  });
});

describe("catalogProgram", () => {
  it("declares the catalog with references between its resources, leaving out what the service holds by default", async () => {
    const code = catalogProgram(await readSite(), { target: "dynamic" });
    expect(code).toContain(
      'import { Component, ComponentPricePoint, Coupon, Product, ProductFamily, ProductPricePoint } from "pulumi-subscription-billing";',
    );
    // Deliberate changes: inputs are written in the snapshot's (sorted) order; a price point names its owner's
    // output (`productPro.productId`, was the resource itself); a family's variable follows its new name.
    expect(code).toContain(
      'const productPro = new Product("product-pro", {\n  accountingCode: "PRO-1",\n  description: "For teams",\n  handle: "pro",',
    );
    expect(code).toContain("  productFamily: productFamilyPlans.familyId,\n");
    expect(code).toMatch(/new ProductPricePoint\("price-point-pro--pro-annual", \{\n[^}]*\n {2}product: productPro\.productId,\n/);
    expect(code).toMatch(
      /new ComponentPricePoint\("component-price-point-api-calls--api-calls-eu", \{\n {2}component: componentApiCalls\.componentId,\n/,
    );
    // Deliberate change: a product's trialType is read from its default price point, and so declared.
    expect(code).toMatch(/new Product\("product-pro", \{[^}]*\n {2}trialType: "no_obligation",\n/);
    expect(code).toContain("restrictedProducts: [productBasic.productId, productPro.productId],");
    expect(code).toContain("restrictedComponents: [componentSeats.componentId],");
    // Service defaults are left out: credit card options, exchange rates, a coupon's compounding.
    expect(code).not.toMatch(/requireCreditCard|useSiteExchangeRate|compoundingStrategy|allowNegativeBalance|hideDateRangeOnInvoice/);
    // An on/off component is its price, without the tiers its price point repeats.
    expect(code).toContain(
      'new Component("component-sso", {\n  handle: "sso",\n  kind: "on_off",\n  name: "SSO",\n  productFamily: productFamilyAddons.familyId,\n  unitPrice: "99.0",\n});',
    );
    expect(code).not.toMatch(/legacy|BLACKFRIDAY|basic-2019/);
  });

  it("for the plugin (the default), declares the same resources through the generated SDK, references by id outputs", async () => {
    const s = await readSite();
    const plugin = catalogProgram(s);
    expect(plugin).toBe(catalogProgram(s, { target: "plugin" }));
    expect(plugin).toContain('\nimport * as billing from "pulumi-subscription-billing/billing";\n');
    expect(plugin).toMatch(
      /new billing\.ProductPricePoint\("price-point-pro--pro-annual", \{\n[^}]*\n {2}product: productPro\.productId,\n/,
    );
    expect(plugin).toContain("restrictedProducts: [productBasic.productId, productPro.productId],");
    expect(plugin).toMatch(/`npx billing-plugin install`/);
    // The dynamic program, statement for statement, but for the classes' namespace: one generator, two imports.
    const statements = (code: string) => code.split("\n").filter((l) => !l.startsWith("//") && !l.startsWith("import "));
    const dynamic = catalogProgram(s, { target: "dynamic" });
    expect(statements(plugin)).toEqual(statements(dynamic).map((l) => l.replace(/\bnew (\w+)\(/, "new billing.$1(")));
    expect(statements(plugin).filter((l) => l.includes("new billing.")).length).toBe(catalogImportFile(s).resources.length);
  });

  it("is already formatted as biome formats it, archived objects listed in a closing comment, for either target", async () => {
    const s = await readSite({}, true);
    for (const target of ["plugin", "dynamic"] as const) {
      const code = catalogProgram(s, { target });
      expect(code).toContain("// Archived at the service, and not declared");
      expect(code).toContain("// - Product `legacy`");
      expect(code).toContain("// - ComponentPricePoint `seats/seats-old`");
      expect(biomeFormatted(code), target).toBe(code);
    }
  });

  it("breaks a call whose head is too long for a line the way biome does, and sets a site when asked", () => {
    const handle = `a-${"very-long-".repeat(14)}handle`;
    const s: CatalogSnapshot = {
      format: "billing-catalog-snapshot/2",
      includesArchived: false,
      objects: {
        ProductFamily: { [handle]: { handle, name: handle, description: handle } },
        Product: {
          p: {
            productFamily: `handle:${handle}`,
            handle: "p",
            name: "P",
            priceInCents: 100,
            interval: 1,
            intervalUnit: "month",
            defaultPricePoint: { handle: "p-default", name: "Default" },
          },
        },
      },
    };
    for (const target of ["plugin", "dynamic"] as const) {
      const code = catalogProgram(s, { site: "staging", target });
      expect(code).toContain('  site: "staging",');
      expect(biomeFormatted(code), target).toBe(code);
    }
  });

  // Two compiler runs: past vitest's 20 s default once on a loaded 2-core machine. The timeout only stops a hang.
  it("type-checks against the package's published types (dist/): the generated SDK's and the dynamic classes'", {
    timeout: 240_000,
  }, async () => {
    const s = await readSite();
    for (const target of ["plugin", "dynamic"] as const) {
      const code = catalogProgram(s, { target });
      expect(typecheckProgram(code), target).toEqual([]);
      // The check is real: a wrong input name is an error.
      expect(typecheckProgram(code.replace("unitName:", "unitNames:")).join("\n"), target).toMatch(/unitNames/);
    }
  });
});

describe("catalogDeclarations", () => {
  it("gives the program's resources in its order, references to declared resources as Reference, an archived one kept as handle:<h>", async () => {
    const sim = await webUiSite();
    onTestFinished(() => sim.close());
    sim.addCoupon({ familyHandle: "plans", code: "LEGACY5", percentage: 5, restrictedProducts: ["legacy", "pro"] });
    const { snapshot: s } = await readCatalog({ baseUrl: sim.url, apiKey: SECRET_KEY });
    const declared = catalogDeclarations(s);
    // The same resources, names and order as the import file.
    expect(declared.map((d) => [d.type, d.name, d.key])).toEqual(
      catalogImportFile(s).resources.map((r) => [r.type.replace("billing:index:", ""), r.name, r.id]),
    );
    const byName = (name: string) => declared.find((d) => d.name === name)!;
    expect(byName("product-pro").inputs.productFamily).toEqual(new Reference("ProductFamily", "plans", "product-family-plans", "familyId"));
    expect(byName("price-point-pro--pro-annual").inputs.product).toEqual(new Reference("Product", "pro", "product-pro", "productId"));
    expect(byName("component-price-point-api-calls--api-calls-eu").inputs.component).toEqual(
      new Reference("Component", "api-calls", "component-api-calls", "componentId"),
    );
    // `legacy` is archived: not declared, so named by its handle.
    expect(byName("coupon-LEGACY5").inputs.restrictedProducts).toEqual([
      "handle:legacy",
      new Reference("Product", "pro", "product-pro", "productId"),
    ]);
    // An owner's default price point is not an input; no site unless asked.
    expect(byName("product-pro").inputs).not.toHaveProperty("defaultPricePoint");
    expect(declared.every((d) => !("site" in d.inputs))).toBe(true);
    expect(catalogDeclarations(s, { site: "prod" }).every((d) => d.inputs.site === "prod")).toBe(true);
  });
});
