import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { type CatalogSnapshot, diffCatalogs, isEmptyDiff, readCatalog, renderDiff, snapshotFromPreview } from "../../catalog";
import { SECRET_KEY, webUiSite } from "./site";

// diffCatalogs over snapshots read from simulator sites: equal sites give nothing, a changed tier is named field by field.

type Site = Awaited<ReturnType<typeof webUiSite>>;

async function snapshotOf(o: Parameters<typeof webUiSite>[0] = {}, change?: (sim: Site) => void) {
  const sim = await webUiSite(o);
  onTestFinished(() => sim.close());
  change?.(sim);
  return (await readCatalog({ baseUrl: sim.url, apiKey: SECRET_KEY })).snapshot;
}

describe("diffCatalogs", () => {
  it("finds two identically seeded sites equal (their ids and generated default handles differ), and renders nothing", async () => {
    const a = await snapshotOf();
    const b = await snapshotOf({}, (sim) => sim.addProductFamily({ handle: "zz-unrelated", name: "x" }));
    const { "zz-unrelated": _, ...families } = b.objects.ProductFamily!;
    const bSame: CatalogSnapshot = { ...b, objects: { ...b.objects, ProductFamily: families } };
    const d = diffCatalogs(a, bSame);
    expect(d).toEqual({ added: [], removed: [], changed: [] });
    expect(isEmptyDiff(d)).toBe(true);
    // Equal sides say so (issue 42 item 7): in words, and as JSON with empty lists.
    expect(renderDiff(d, "markdown", { a: "staging", b: "production" })).toBe(
      "# Catalog diff: staging → production\n\nThe catalogs are equal: nothing added, removed or changed.\n",
    );
    expect(JSON.parse(renderDiff(d, "json"))).toEqual({ added: [], removed: [], changed: [] });
    // The family only B has is an addition.
    expect(diffCatalogs(a, b)).toEqual({ added: [{ kind: "ProductFamily", key: "zz-unrelated" }], removed: [], changed: [] });
  });

  it("names a changed tier field by field, old → new, in Markdown and JSON", async () => {
    const a = await snapshotOf();
    const b = await snapshotOf({ tier: "0.12" });
    const d = diffCatalogs(a, b);
    expect(d.added).toEqual([]);
    expect(d.removed).toEqual([]);
    expect(d.changed).toEqual([
      { kind: "Component", key: "api-calls", fields: [{ field: "prices[0].unitPrice", old: "0.1", new: "0.12" }] },
    ]);
    const md = renderDiff(d, "markdown", { a: "staging", b: "production" });
    expect(md).toContain("# Catalog diff: staging → production");
    expect(md).toContain("0 added, 0 removed, 1 changed (1 field).");
    expect(md).toContain('| Component `api-calls` | `prices[0].unitPrice` | `"0.1"` | `"0.12"` |');
    expect(JSON.parse(renderDiff(d, "json"))).toEqual(d);
  });

  it("price points are objects of their own: added, removed and changed under <product>/<handle>", async () => {
    const a = await snapshotOf();
    const b = structuredClone(a) as any;
    delete b.objects.ProductPricePoint["pro/pro-annual"];
    b.objects.ProductPricePoint["pro/pro-biennial"] = {
      product: "handle:pro",
      handle: "pro-biennial",
      name: "Biennial",
      priceInCents: 90000,
      interval: 24,
      intervalUnit: "month",
    };
    b.objects.ComponentPricePoint["api-calls/api-calls-eu"].prices[2].startingQuantity = 1002;
    b.objects.Coupon.WELCOME10.restrictedProducts = ["handle:pro"];
    const d = diffCatalogs(a, b);
    expect(d.added).toEqual([{ kind: "ProductPricePoint", key: "pro/pro-biennial" }]);
    expect(d.removed).toEqual([{ kind: "ProductPricePoint", key: "pro/pro-annual" }]);
    expect(d.changed).toEqual([
      {
        kind: "ComponentPricePoint",
        key: "api-calls/api-calls-eu",
        fields: [{ field: "prices[2].startingQuantity", old: 1001, new: 1002 }],
      },
      {
        kind: "Coupon",
        key: "WELCOME10",
        fields: [{ field: "restrictedProducts", old: ["handle:basic", "handle:pro"], new: ["handle:pro"] }],
      },
    ]);
  });

  it("compares prices as numbers (10.0 is 10), a field held on one side only against (none), default price points' names only when asked", async () => {
    const a = await snapshotOf();
    const b = structuredClone(a) as any;
    b.objects.Component.seats.prices[0].unitPrice = "50";
    b.objects.Product.pro.taxCode = "SW050000";
    b.objects.Product.pro.defaultPricePoint = { handle: "uuid:0b9c", name: "Default" };
    const d = diffCatalogs(a, b);
    expect(d.changed).toEqual([{ kind: "Product", key: "pro", fields: [{ field: "taxCode", old: undefined, new: "SW050000" }] }]);
    expect(renderDiff(d)).toContain('| Product `pro` | `taxCode` | (none) | `"SW050000"` |');
    expect(diffCatalogs(a, b, { compareDefaultPricePoints: true }).changed[0]!.fields).toEqual([
      { field: "defaultPricePoint.handle", old: "pro-default", new: "uuid:0b9c" },
      { field: "taxCode", old: undefined, new: "SW050000" },
    ]);
  });
});

describe("service defaults and owners in a diff", () => {
  it("a field one side leaves out is compared with its kind's service default: equal when the other states it, different when not", async () => {
    const a = await snapshotOf();
    const b = structuredClone(a) as any;
    b.objects.Product.pro.requireCreditCard = true;
    b.objects.Coupon.WELCOME10.compoundingStrategy = "compound";
    b.objects.ComponentPricePoint["api-calls/api-calls-eu"].useSiteExchangeRate = true;
    expect(diffCatalogs(a, b)).toEqual({ added: [], removed: [], changed: [] });
    expect(diffCatalogs(b, a)).toEqual({ added: [], removed: [], changed: [] });
    b.objects.Product.pro.requireCreditCard = false;
    expect(diffCatalogs(a, b).changed).toEqual([
      { kind: "Product", key: "pro", fields: [{ field: "requireCreditCard", old: true, new: false }] },
    ]);
  });

  it("what an owner on one side only holds is not listed again: its owner's line says it", async () => {
    const a = await snapshotOf();
    const b = structuredClone(a) as any;
    b.objects.Product.team = {
      productFamily: "handle:plans",
      handle: "team",
      name: "Team",
      priceInCents: 9900,
      interval: 1,
      intervalUnit: "month",
    };
    b.objects.ProductPricePoint["team/team-annual"] = {
      product: "handle:team",
      handle: "team-annual",
      name: "Annual",
      priceInCents: 99000,
      interval: 12,
      intervalUnit: "month",
    };
    delete b.objects.Component["api-calls"];
    delete b.objects.ComponentPricePoint["api-calls/api-calls-eu"];
    expect(diffCatalogs(a, b)).toEqual({
      added: [{ kind: "Product", key: "team" }],
      removed: [{ kind: "Component", key: "api-calls" }],
      changed: [],
    });
  });

  describe("a product archived on A (read with archived ones) and live on B: only the product's line", () => {
    // A's `retired` is archived and B's is live; A was read with archived objects and B without, so A's archived
    // product is left aside and B's shows as added. What it holds belongs to that line, whichever sides hold it.
    const retired = (archived: boolean, pricePoints: { handle: string; priceInCents: number }[]) => (sim: Site) =>
      sim.addProduct({
        handle: "retired",
        name: "Retired",
        familyHandle: "plans",
        priceInCents: 500,
        interval: 1,
        intervalUnit: "month",
        archived,
        pricePoints: pricePoints.map((pp) => ({ ...pp, name: pp.handle, interval: 12, intervalUnit: "month" })),
      });
    const withArchived = async (seed: (sim: Site) => void) => {
      const sim = await webUiSite();
      onTestFinished(() => sim.close());
      seed(sim);
      return (await readCatalog({ baseUrl: sim.url, apiKey: SECRET_KEY }, { includeArchived: true })).snapshot;
    };

    it("its price point on both sides is not compared", async () => {
      const a = await withArchived(retired(true, [{ handle: "retired-annual", priceInCents: 5000 }]));
      expect(a.objects.Product!.retired).toMatchObject({ archived: true });
      expect(a.objects.ProductPricePoint!["retired/retired-annual"]).not.toHaveProperty("archived");
      const b = await snapshotOf({}, retired(false, [{ handle: "retired-annual", priceInCents: 5500 }]));
      expect(diffCatalogs(a, b)).toEqual({ added: [{ kind: "Product", key: "retired" }], removed: [], changed: [] });
    });

    it("its price point on A only is not removed", async () => {
      const a = await withArchived(retired(true, [{ handle: "retired-annual", priceInCents: 5000 }]));
      const b = await snapshotOf({}, retired(false, []));
      expect(diffCatalogs(a, b)).toEqual({ added: [{ kind: "Product", key: "retired" }], removed: [], changed: [] });
    });
  });
});

describe("a program's preview as a side of the diff", () => {
  // The generated program of the web-UI site, previewed by the real CLI against an empty site (every id unknown);
  // __provider, source positions and config stripped: tests/catalog/fixtures/preview-fresh-site.json.
  const preview = () => JSON.parse(readFileSync(path.join(__dirname, "fixtures/preview-fresh-site.json"), "utf8"));

  it("reads what the program declares, references resolved to handles through the preview's dependencies", () => {
    const s = snapshotFromPreview(preview());
    expect(s.declaredOnly).toBe(true);
    const o = s.objects;
    expect(Object.keys(o.Product!)).toEqual(["basic", "pro"]);
    // The fixture is the format-2 program's preview: the product declares the trialType read from its default price point.
    expect(o.Product!.pro).toMatchObject({ productFamily: "handle:plans", priceInCents: 4900, trialType: "no_obligation" });
    expect(o.ProductPricePoint!["pro/pro-annual"]).toMatchObject({ product: "handle:pro", priceInCents: 49000 });
    // The default price point the program declares is its product's part, as a site's snapshot holds it.
    expect(Object.keys(o.ProductPricePoint!)).toEqual(["basic/basic-annual", "pro/pro-annual", "pro/pro-quarterly"]);
    expect(o.ComponentPricePoint!["api-calls/api-calls-eu"]).toMatchObject({ component: "handle:api-calls", pricingScheme: "volume" });
    expect(o.Coupon!.WELCOME10).toMatchObject({ productFamily: "handle:plans", restrictedProducts: ["handle:basic", "handle:pro"] });
    expect(o.Coupon!.SEATS5).toMatchObject({ restrictedProducts: ["handle:pro"], restrictedComponents: ["handle:seats"] });
  });

  it("the site the program came from diffs equal to its preview (service defaults the program leaves out are not compared); a changed tier shows", async () => {
    const site = await snapshotOf();
    expect(diffCatalogs(site, snapshotFromPreview(preview()))).toEqual({ added: [], removed: [], changed: [] });
    const changed = await snapshotOf({ tier: "0.12" });
    expect(diffCatalogs(snapshotFromPreview(preview()), changed).changed).toEqual([
      { kind: "Component", key: "api-calls", fields: [{ field: "prices[0].unitPrice", old: "0.1", new: "0.12" }] },
    ]);
    // A service default the program states is compared: the site holds the default, left out of its snapshot.
    const p = preview();
    const basic = p.steps.find((st: any) => String(st.urn).endsWith("Product::product-basic"));
    basic.newState.inputs.requireCreditCard = false;
    expect(diffCatalogs(site, snapshotFromPreview(p)).changed).toEqual([
      { kind: "Product", key: "basic", fields: [{ field: "requireCreditCard", old: true, new: false }] },
    ]);
    basic.newState.inputs.requireCreditCard = true;
    expect(diffCatalogs(site, snapshotFromPreview(p))).toEqual({ added: [], removed: [], changed: [] });
  });

  it("a preview that is not one, or whose reference names nothing, is refused naming it", () => {
    expect(() => snapshotFromPreview({ resources: [] }, { source: "p.json" })).toThrow(/p.json: not the output of `pulumi preview --json`/);
    const p = preview();
    p.steps = p.steps.filter((s: any) => !String(s.urn).includes("Product::product-pro"));
    expect(() => snapshotFromPreview(p, { source: "p.json" })).toThrow(
      /p.json: urn:pulumi:\S+'s (product|restrictedProducts) is unknown at preview and names no resource of the program/,
    );
  });
});

describe("archived objects in a diff", () => {
  it("are compared when both sides were read with them, and left aside when only one was", async () => {
    const sim = await webUiSite();
    onTestFinished(() => sim.close());
    const site = { baseUrl: sim.url, apiKey: SECRET_KEY };
    const withArchived = (await readCatalog(site, { includeArchived: true })).snapshot;
    const without = (await readCatalog(site)).snapshot;
    expect(diffCatalogs(withArchived, without)).toEqual({ added: [], removed: [], changed: [] });
    const changed = structuredClone(withArchived) as any;
    changed.objects.Product.legacy.priceInCents = 1000;
    expect(diffCatalogs(withArchived, changed).changed).toEqual([
      { kind: "Product", key: "legacy", fields: [{ field: "priceInCents", old: 900, new: 1000 }] },
    ]);
  });
});
