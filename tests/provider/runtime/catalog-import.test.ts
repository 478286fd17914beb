import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KINDS } from "../../../provider/kinds";
import type { Context } from "../../../provider/kinds/kind";
import { catalogImporter } from "../../../provider/runtime/catalog-import";
import { BillingClient } from "../../../sdk/client";
import { type Simulator, startSimulator } from "../../../simulator";

/**
 * The catalog's one `pulumi import` (provider/runtime/catalog-import.ts), called directly: an import id it cannot
 * read says the forms it takes, and an object the site lacks is named, with its owner, before anything is recorded.
 */

const KEY = "sk_catalog_import_7d1f";
let sim: Simulator;
let ctx: Context;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY });
  sim.addProductFamily({ handle: "plans", name: "Plans" });
  sim.addProduct({ handle: "pro", name: "Pro", familyHandle: "plans", priceInCents: 1000 });
  const client = new BillingClient({ baseUrl: sim.url, apiKey: KEY });
  ctx = { client: () => client, siteLabel: () => "(default)" } as unknown as Context;
});
afterAll(async () => {
  await sim.close();
});

const importer = (key: string) => {
  const i = catalogImporter(Object.values(KINDS), key);
  if (!i || !("read" in i)) throw new Error(`${key}: no catalog import`);
  return i as { forms: string; read(ctx: Context, id: string): Promise<{ id: string; inputs: Record<string, unknown> }> };
};

describe("the catalog's pulumi import", () => {
  it.each([
    ["productFamily", "a/b/c", "give the product family's handle or id (e.g. launch), or <site>/<handle> for an entry of billing:sites"],
    ["productPricePoint", "pro", "give <product>/<price point>, each a handle or an id"],
    ["productPricePoint", "a/b/c/d", "give <product>/<price point>, each a handle or an id"],
  ])("%s: the id %j is not one it reads; the error gives the forms it takes", async (key, id, forms) => {
    const i = importer(key);
    expect(i.forms).toContain(forms);
    await expect(i.read(ctx, id)).rejects.toThrow(i.forms);
  });

  it.each([
    ["productFamily", "ghost", "product family ghost does not exist at the site: nothing to import"],
    ["productPricePoint", "ghost/annual", "product ghost does not exist at the site: nothing to import"],
    ["productPricePoint", "pro/ghost", "product pro has no price point ghost: nothing to import"],
  ])("%s %j: what the site lacks is named, with its owner", async (key, id, message) => {
    await expect(importer(key).read(ctx, id)).rejects.toThrow(message);
  });

  it("an object the site holds is read with its site's id, and its inputs as a program declares them", async () => {
    const family = await importer("productFamily").read(ctx, "plans");
    expect(family.inputs).toEqual({ handle: "plans", name: "Plans" });
    expect(Number(family.id)).toBeGreaterThan(0);
  });
});
