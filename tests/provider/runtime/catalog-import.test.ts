import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KINDS } from "../../../provider/kinds";
import type { CatalogFacet, CatalogReader, Context } from "../../../provider/kinds/kind";
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

/**
 * A catalog of three made-up kinds, to reach what the registry's kinds do not ask of the import's view today: a book
 * on a shelf names its author and the shelf it was moved from by id, and lists its notes, a kind with no reader.
 */
describe("the import's view of the rest of the site", () => {
  type Obj = { readonly id: number; readonly key: string; readonly author?: number; readonly from?: number };
  const site = {
    shelf: [
      { id: 7, key: "oak" },
      { id: 9, key: "elm" },
    ],
    author: [{ id: 7, key: "melville" }],
    book: [{ id: 1, key: "moby", author: 7, from: 9 }],
  } as const;
  const facet = (noun: string, owner?: CatalogFacet["owner"]): CatalogFacet => ({
    key: "handle",
    owner,
    references: {},
    runtimeInputs: [],
    defaults: {},
    noun,
    title: noun,
    replaced: () => [],
    deleted: () => [],
  });
  const reader = (objects: readonly Obj[], fromService: CatalogReader["fromService"] = async (o) => ({ handle: (o as Obj).key })) =>
    ({
      list: async () => objects,
      find: async (_c: unknown, key: string) => objects.find((o) => o.key === key || String(o.id) === key),
      id: (o: unknown) => (o as Obj).id,
      key: (o: unknown) => (o as Obj).key,
      archived: () => false,
      fromService,
      record: async (_c: unknown, o: unknown, inputs: Record<string, unknown>) => ({ id: (o as Obj).id, inputs }),
    }) satisfies CatalogReader;
  const all = [
    { kind: { key: "shelf", type: "Shelf", example: { handle: "oak" }, catalog: facet("shelf") }, reader: reader(site.shelf) },
    { kind: { key: "author", type: "Author", example: { handle: "melville" }, catalog: facet("author") }, reader: reader(site.author) },
    { kind: { key: "note", type: "Note", example: { handle: "n1" }, catalog: facet("note") } },
    {
      kind: {
        key: "book",
        type: "Book",
        example: { handle: "moby", shelf: "handle:oak" },
        catalog: facet("book", { input: "shelf", kind: "shelf" }),
      },
      reader: reader(site.book, async (o, view) => {
        const book = o as Obj;
        return {
          handle: book.key,
          shelf: await view.keyOf("shelf", 7),
          author: await view.keyOf("author", book.author ?? 0),
          movedFrom: await view.keyOf("shelf", book.from ?? 0),
          lender: await view.keyOf("author", 404),
          notes: await view.children("note", o),
        };
      }),
    },
  ];
  const made = (key: string) => catalogImporter(all, key) as { forms: string; read(ctx: Context, id: string): Promise<{ inputs: object }> };

  it("an object named by id is read from the site, whatever the kind or id of the objects read already", async () => {
    // The shelf oak (id 7) is read first, as the book's owner; the author with the same id 7, and the other shelf, are not it.
    const { inputs } = await made("book").read(ctx, "oak/moby");
    expect(inputs).toStrictEqual({ handle: "moby", shelf: "oak", author: "melville", movedFrom: "elm", notes: [] });
  });

  it("an id the site does not hold has no key, and a kind with no reader holds nothing", async () => {
    const { inputs } = await made("book").read(ctx, "oak/1");
    expect(inputs).not.toHaveProperty("lender");
    expect(inputs).toHaveProperty("notes", []);
  });

  it("the site of an entry of billing:sites is an input; without one there is none", async () => {
    expect((await made("shelf").read(ctx, "eu/elm")).inputs).toStrictEqual({ handle: "elm", site: "eu" });
    expect((await made("shelf").read(ctx, "elm")).inputs).toStrictEqual({ handle: "elm" });
  });

  it("the forms name the kind, its owner, and the example's ids", () => {
    expect(made("book").forms).toBe(
      "give <shelf>/<book>, each a handle or an id (e.g. oak/moby), or <site>/<shelf>/<book> for an entry of billing:sites",
    );
    expect(made("shelf").forms).toBe("give the shelf's handle or id (e.g. oak), or <site>/<handle> for an entry of billing:sites");
  });
});

describe("each catalog kind's import forms", () => {
  it.each(Object.values(KINDS).filter((m) => m.kind.catalog))("$kind.type: show an id from its example, its owner's too", ({ kind }) => {
    const forms = importer(kind.key).forms;
    const example = kind.example as Record<string, unknown>;
    const facet = kind.catalog as CatalogFacet;
    expect(forms).toContain(
      `(e.g. ${facet.owner ? `${String(example[facet.owner.input]).replace(/^handle:/, "")}/` : ""}${facet.within ? `${example[facet.within]}:` : ""}${example[facet.key]})`,
    );
    expect(forms).not.toContain("undefined");
  });
});
