import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { KINDS } from "../../../provider/kinds";
import { type CatalogFacet, type KindModule, referencePath } from "../../../provider/kinds/kind";
import { kinds } from "../../../provider/runtime";
import { configure } from "../../../provider/runtime/config";
import { type Simulator, startSimulator } from "../../../simulator";
import { KEY, mutations, UNKNOWN } from "../support";

/**
 * The check of `handle:` references at preview (issue 42): every reference every catalog kind declares (its facet's
 * `references`, read here so that a new kind or reference is covered without a change), in each of its forms (an
 * input, an entry of a list, a field of each object of a list, a price point in the owner named beside it), names
 * its property and the handle when the site has no such object, before anything is sent; as soon as the site is
 * known, while other inputs are not; not while the site is unknown. A handle a resource of the same run declares
 * says to pass that resource instead.
 */

const modules = Object.values(KINDS) as unknown as KindModule[];
const moduleOf = (key: string) => modules.find((m) => m.kind.key === key) as KindModule;
type Props = Record<string, unknown>;

/** Every (kind, reference) a declaration holds. */
const rows = modules.flatMap((m) =>
  Object.entries(m.kind.catalog?.references ?? {}).map(([reference, to]) => ({
    kind: m.kind.key,
    reference,
    target: to.kind,
    output: to.output,
  })),
);

/** A key nothing at the site has, in the form the referenced kind's key takes (a coupon's code is uppercase). */
const missingKey = (facet: CatalogFacet) => (facet.key === "code" ? "DOES-NOT-EXIST" : "does-not-exist");

/**
 * The kind's example, declaring a fresh object of its own (so that no adoption decides its check), with `reference`
 * naming `value` in the reference's form.
 */
function declaring(kindKey: string, reference: string, value: string): Props {
  const { kind } = moduleOf(kindKey);
  const facet = kind.catalog as CatalogFacet;
  const example = structuredClone(kind.example) as Props;
  example[facet.key] = facet.key === "code" ? "FRESH42" : `fresh-${kindKey.toLowerCase()}`;
  const [input, field] = referencePath(reference);
  if (field !== undefined) {
    const [first] = (example[input] ?? []) as Props[];
    example[input] = [{ ...first, [field]: value }];
    return example;
  }
  // A list input takes a list of references: its schema says so.
  const list = (kind.inputs.shape[input] as z.ZodType).safeParse([value]).success;
  example[input] = list ? [value] : value;
  return example;
}

describe("handle: references are checked at the site at preview, for every kind from its declaration", () => {
  let sim: Simulator;
  const provider = {};
  beforeAll(async () => {
    sim = await startSimulator({ apiKey: KEY });
    // What the kinds' examples name, so that only the reference under test names nothing.
    const family = sim.addProductFamily({ handle: "plans", name: "Plans" });
    for (const handle of ["pro", "launch-pro"])
      sim.addProduct({ handle, familyId: family.id, pricePoints: [{ handle: "monthly", default: true }, { handle: SEEDED_POINT }] });
    const texts = sim.addComponent({ kind: "metered", handle: "text-messages", familyId: family.id, unitPrice: 1 });
    sim.addComponentPricePoint({ componentId: texts.id }, { handle: SEEDED_POINT, unitPrice: 2 });
    sim.addCoupon({ familyId: family.id, code: "SPRING25", percentage: 25 });
    const config: Props = {
      "billing:baseUrl": sim.url,
      "billing:apiKey": KEY,
      "billing:sites": JSON.stringify({ eu: { baseUrl: sim.url, apiKey: KEY } }),
    };
    configure(provider, { config: { get: (k: string) => config[k] as string | undefined } });
  });
  afterAll(async () => sim?.close());

  const check = (kind: string, news: Props, olds: Props = {}) =>
    kinds[kind as keyof typeof kinds].check(provider, olds, news) as Promise<{ failures: { property: string; reason: string }[] }>;

  it("reads a declaration's every reference (the table is not empty), each kind it names has a reader's withKey", () => {
    expect(rows.map((r) => `${r.kind}.${r.reference}`)).toEqual(
      expect.arrayContaining(["productPricePoint.product", "offer.components.pricePoint", "coupon.restrictedComponents"]),
    );
    for (const { target } of rows) expect(moduleOf(target).reader?.withKey, `${target}'s reader`).toBeTypeOf("function");
  });

  describe.each(rows)("$kind.$reference", ({ kind, reference, output, ...to }) => {
    const target = moduleOf(to.target).kind;
    const facet = target.catalog as CatalogFacet;
    const missing = missingKey(facet);
    const [input] = referencePath(reference);

    it.each([
      ["with every other input known", {}],
      ["while another input is still unknown (the site is known)", { name: UNKNOWN }],
      ["at a billing:sites entry", { site: "eu" }],
    ])("a handle the site has no object for fails on its property, naming it, %s; nothing is sent", async (_, more) => {
      const before = mutations(sim).length;
      const { failures } = await check(kind, { ...declaring(kind, reference, `handle:${missing}`), ...more });
      const failure = failures.find((f) => f.property === input);
      expect(failure, JSON.stringify(failures)).toBeDefined();
      expect(failure?.reason).toContain(missing);
      // What would be accepted: an existing one, or the resource of the same program.
      expect(failure?.reason).toContain(target.type);
      expect(failure?.reason).toMatch(/program/);
      expect(mutations(sim).length).toBe(before);
    });

    it("an existing handle passes; an unknown site waits", async () => {
      const existing = await check(kind, declaring(kind, reference, `handle:${referencedOfExample(kind, reference)}`));
      expect(existing.failures.filter((f) => f.property === input)).toEqual([]);
      const unknownSite = await check(kind, { ...declaring(kind, reference, `handle:${missing}`), site: UNKNOWN });
      expect(unknownSite.failures.filter((f) => f.property === input)).toEqual([]);
    });

    it("a generic failure says how to pass the resource instead, in the input's own form", async () => {
      const { failures } = await check(kind, { ...declaring(kind, reference, `handle:${missing}`), name: UNKNOWN });
      const [, field] = referencePath(reference);
      const form = field !== undefined ? `${input}: [{ ${field}: ` : `${input}: `;
      expect(failures.find((f) => f.property === input)?.reason).toContain(`pass the ${target.type}'s \`${output}\` (e.g. \`${form}`);
    });
  });

  it("a handle a resource checked earlier in the run declares says to pass that resource", async () => {
    const product = {
      productFamily: "handle:plans",
      handle: "rocket",
      name: "Rocket",
      priceInCents: 100,
      interval: 1,
      intervalUnit: "month",
    };
    expect((await check("product", product)).failures).toEqual([]);
    const point = {
      product: "handle:rocket",
      handle: "rocket-annual",
      name: "Annual",
      priceInCents: 1000,
      interval: 12,
      intervalUnit: "month",
    };
    const { failures } = await check("productPricePoint", point);
    expect(failures).toEqual([
      {
        property: "product",
        reason: expect.stringMatching(
          /no product has the handle `rocket` at site .* yet: a Product this program declares has it.*`product: rocket\.productId`/,
        ),
      },
    ]);
  });

  it("an unchanged reference at the same site is not read again on an update; a changed one is", async () => {
    const point = { product: "handle:gone", handle: "p1", name: "P", priceInCents: 1, interval: 1, intervalUnit: "month" };
    const unchanged = await check("productPricePoint", { ...point, name: "Renamed" }, point);
    expect(unchanged.failures.filter((f) => f.property === "product")).toEqual([]);
    const changed = await check("productPricePoint", point, { ...point, product: "handle:pro" });
    expect(changed.failures.map((f) => f.property)).toEqual(["product"]);
  });

  it("one read per reference: the kind's own read of it and the check's are one request", async () => {
    const before = sim.requests.length;
    const point = {
      product: "handle:launch-pro",
      handle: "lp-annual",
      name: "Annual",
      priceInCents: 1000,
      interval: 12,
      intervalUnit: "month",
    };
    expect((await check("productPricePoint", point)).failures).toEqual([]);
    const reads = sim.requests.slice(before).filter((r) => r.path.includes("launch-pro"));
    expect(reads.map((r) => `${r.method} ${r.path}`)).toHaveLength(1);
  });
});

/** A price point each seeded product and component holds besides its default. */
const SEEDED_POINT = "seeded-point";

/** A handle the site holds for the reference's kind (a price point: one its owner, as the example names it, holds). */
function referencedOfExample(kind: string, reference: string): string {
  const target = moduleOf(kind).kind.catalog?.references[reference]?.kind ?? "";
  const seeded: Record<string, string> = { productFamily: "plans", product: "launch-pro", component: "text-messages", coupon: "SPRING25" };
  return seeded[target] ?? SEEDED_POINT;
}
