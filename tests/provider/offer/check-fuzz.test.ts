/**
 * Fuzz of the Offer kind's `check()` with fast-check: handles the service refuses, blank names, references of every
 * wrong form, references well formed but naming nothing at the site (a product, a price point of another product, a
 * component, a component's price point, a coupon), an on/off component starting above 1, a component or coupon named
 * twice, archived objects on a first deploy, unknown keys, the engine's UNKNOWN anywhere; on a first deploy and on an
 * update. For every input check answers `{ inputs, failures }` and never throws; every failure names a declared input
 * (or the unknown key given) and says what would be accepted; an input an independent oracle knows to be valid gets no
 * failure, one it knows invalid a failure on that field. Nothing is ever sent but reads.
 *
 * Check resolves the references once every other field passes, in order (product, productPricePoint, components,
 * coupons), and says the first that names nothing: the oracle expects that one.
 *
 * It shares the catalog kinds' seed. Reproducing: `CATALOG_FUZZ_SEED=<n> npx vitest run tests/provider/offer/check-fuzz.test.ts`.
 */

import fc from "fast-check";
import { seedOf } from "../../seeds";
import {
  compact,
  describeFuzz,
  earlier,
  isBool,
  isInt,
  isName,
  isReference,
  isSite,
  Judge,
  judgeKeys,
  junk,
  mutated,
  namesNothing,
  opt,
  orUnknown,
  own,
  type Props,
  scalar,
  UNKNOWN,
  validSite,
} from "../check-fuzz-kit";

const SEED = seedOf("CATALOG_FUZZ_SEED");
const RUNS = 1000;
const KEY = "sk_offer_fuzz";
const INPUTS = ["handle", "name", "description", "product", "productPricePoint", "components", "coupons", "adopt", "site"];

/** The fuzz site: what each reference may name (ids fixed at seeding). */
const PRODUCTS = [
  { id: 1, handle: "basic", points: ["basic-monthly", "basic-annual"], archived: false },
  { id: 2, handle: "legacy", points: ["legacy-monthly"], archived: true },
];
const COMPONENTS = [
  { id: 10, handle: "support", onOff: true, points: [] as string[] },
  { id: 11, handle: "texts", onOff: false, points: ["texts-bulk"] },
];
const COUPONS = [
  { id: 20, code: "WEB10", archived: false },
  { id: 21, code: "OLD5", archived: true },
];

const productRef = fc.constantFrom<unknown>(1, "1", "handle:basic", 2, "handle:legacy", 999, "handle:fznone");
const pricePointRef = fc.constantFrom<unknown>(
  "handle:basic-monthly",
  "handle:basic-annual",
  "handle:legacy-monthly",
  "handle:fznone",
  987_654,
);
const componentItem = fc
  .record({
    component: orUnknown(fc.constantFrom<unknown>(10, "11", "handle:support", "handle:texts", "handle:fznone")),
    pricePoint: fc.option(orUnknown(fc.constantFrom<unknown>("handle:texts-bulk", "handle:fznone")), { nil: undefined, freq: 3 }),
    startingQuantity: orUnknown(fc.constantFrom(0, 1, 2, 50)),
  })
  .map(compact);
const couponRef = orUnknown(fc.constantFrom<unknown>("WEB10", "handle:WEB10", 20, "OLD5", "NOPE", 777));

/** Handles the service takes for an offer, none held at the site. */
const freshHandle = fc.stringMatching(/^fz[a-z0-9][a-z0-9_-]{0,20}$/);
const valid: fc.Arbitrary<Props> = fc
  .record({
    handle: orUnknown(freshHandle),
    name: orUnknown(fc.string({ minLength: 1, maxLength: 40 }).filter((s) => /\S/.test(s))),
    description: opt(fc.string({ maxLength: 40 })),
    product: orUnknown(productRef),
    productPricePoint: opt(pricePointRef),
    components: fc.option(orUnknown(fc.array(componentItem, { maxLength: 3 })), { nil: undefined, freq: 2 }),
    coupons: fc.option(orUnknown(fc.array(couponRef, { maxLength: 3 })), { nil: undefined, freq: 2 }),
    adopt: opt(fc.boolean()),
    site: validSite,
  })
  .map(compact);
const bad = fc.oneof(
  junk,
  fc.constantFrom<unknown>("fz.offer", "fz:offer", "Fz", "fz offer", "-fz", "_fz", "x".repeat(256), "   ", "web10", ["web10"], [0]),
  fc.constantFrom<unknown>(
    [{ component: 10 }],
    [{ component: 10, startingQuantity: -1 }],
    [{ component: 10, startingQuantity: 1, colour: 1 }],
  ),
  fc.constantFrom<unknown>([
    { component: "handle:support", startingQuantity: 1 },
    { component: "handle:support", startingQuantity: 0 },
  ]),
  fc.constantFrom<unknown>(["WEB10", "handle:WEB10"], [20, 20], [1.5], ["handle:"], 0, -1, 1.5, "handle:Basic"),
);
const inputs = mutated(valid, INPUTS, bad, ["offer", "productId", "product_id", "couponCodes", "Handle"]);

/** A reference as check reads it: an id (numeric text too), or the handle it names. */
const refKey = (v: unknown) => (typeof v === "number" ? v : typeof v === "string" && /^[0-9]+$/.test(v) ? Number(v) : v);
const isCouponRef = (v: unknown) =>
  (typeof v === "number" && Number.isSafeInteger(v) && v > 0) ||
  (typeof v === "string" && /^[A-Z0-9%@+\-_.]{1,255}$/.test(v.replace(/^handle:/, "")));
const holdsUnknown = (v: unknown): boolean =>
  v === UNKNOWN || (typeof v === "object" && v !== null && Object.values(v as Props).some(holdsUnknown));

function judgeComponents(j: Judge, v: unknown) {
  if (v === undefined || v === UNKNOWN) return;
  if (v === null) return j.field("components", "either");
  if (!Array.isArray(v)) return j.mustFail.add("components");
  for (const item of v) {
    if (item === UNKNOWN) continue;
    if (typeof item !== "object" || item === null || Array.isArray(item)) return j.mustFail.add("components");
    const c = item as Props;
    if (Object.keys(c).some((k) => !["component", "pricePoint", "startingQuantity"].includes(k))) j.mustFail.add("components");
    if (scalar(own(c, "component"), false, isReference) === "bad") j.mustFail.add("components");
    if (scalar(own(c, "pricePoint"), true, isReference) !== "ok") j.mustFail.add("components");
    if (scalar(own(c, "startingQuantity"), false, isInt(0)) === "bad") j.mustFail.add("components");
  }
  // A component named twice: judged on the whole list, so once nothing in it is unknown.
  if (holdsUnknown(v)) return;
  const keys = v.map((c) => (c as Props | null)?.component).filter((c) => c !== undefined);
  if (new Set(keys.map((k) => JSON.stringify(refKey(k)))).size !== keys.length) j.mustFail.add("components");
}

function judgeCoupons(j: Judge, v: unknown) {
  if (v === undefined || v === UNKNOWN) return;
  if (v === null) return j.field("coupons", "either");
  if (!Array.isArray(v)) return j.mustFail.add("coupons");
  if (v.some((c) => c !== UNKNOWN && !isCouponRef(c))) return j.mustFail.add("coupons");
  if (holdsUnknown(v)) return;
  const known = v.filter((c) => c !== UNKNOWN).map((c) => (typeof c === "string" ? c.replace(/^handle:/, "") : c));
  if (new Set(known).size !== known.length) j.mustFail.add("coupons");
}

/** The first reference that names nothing at the site (or, for a new offer, something archived), in check's order. */
function unresolved(news: Props, strict: boolean): string | undefined {
  const v = (k: string) => own(news, k);
  const p = refKey(v("product"));
  const product = PRODUCTS.find((x) => x.id === p || `handle:${x.handle}` === p);
  if (!product || (strict && product.archived)) return "product";
  const pp = v("productPricePoint");
  if (pp !== undefined && !product.points.some((h) => `handle:${h}` === pp)) return "productPricePoint";
  const items = (v("components") ?? []) as Props[];
  const ids: number[] = [];
  for (const item of items) {
    const c = refKey(item.component);
    const component = COMPONENTS.find((x) => x.id === c || `handle:${x.handle}` === c);
    if (typeof c === "string" && !component) return "components";
    if (component?.onOff && typeof c === "string" && (item.startingQuantity as number) > 1) return "components";
    if (item.pricePoint !== undefined && !component?.points.some((h) => `handle:${h}` === item.pricePoint)) return "components";
    ids.push(component?.id ?? (c as number));
  }
  if (new Set(ids).size !== ids.length) return "components";
  for (const ref of (v("coupons") ?? []) as unknown[]) {
    const coupon = COUPONS.find((x) => x.id === ref || x.code === String(ref).replace(/^handle:/, ""));
    if (!coupon || (strict && coupon.archived)) return "coupons";
  }
  return undefined;
}

/**
 * While some of it is unknown (the kind resolves nothing yet): the known `handle:` references that name nothing at the
 * site, each checked on its own (a price point in the owner a known handle beside it names).
 */
function namingNothing(news: Props): string[] {
  const v = (k: string) => own(news, k);
  const out: string[] = [];
  const product = PRODUCTS.find((x) => v("product") === `handle:${x.handle}`);
  if (
    namesNothing(
      v("product"),
      PRODUCTS.map((x) => x.handle),
    )
  )
    out.push("product");
  if (product && namesNothing(v("productPricePoint"), product.points)) out.push("productPricePoint");
  const items = v("components");
  for (const item of Array.isArray(items) ? (items as Props[]) : []) {
    if (typeof item !== "object" || item === null) continue;
    const component = COMPONENTS.find((x) => item.component === `handle:${x.handle}`);
    if (
      namesNothing(
        item.component,
        COMPONENTS.map((x) => x.handle),
      )
    )
      out.push("components");
    if (component && namesNothing(item.pricePoint, component.points)) out.push("components");
  }
  // A bare code is written `handle:<code>` by the list's check, which waits for an unknown entry: then only `handle:` ones count.
  const coupons = v("coupons");
  const written =
    Array.isArray(coupons) && !coupons.includes(UNKNOWN)
      ? coupons.map((c) => (typeof c === "string" ? `handle:${c.replace(/^handle:/, "")}` : c))
      : coupons;
  for (const c of Array.isArray(written) ? written : [])
    if (
      namesNothing(
        c,
        COUPONS.map((x) => x.code),
      )
    )
      out.push("coupons");
  return out;
}

function judge(news: Props, update: boolean): Judge {
  const j = new Judge();
  const v = (k: string) => own(news, k);
  judgeKeys(j, news, INPUTS);
  // The service's rule for an offer's handle: lowercase letters, numbers, dashes and underscores. One starting with
  // a dash or an underscore the service would take; the catalog's handle rule (which the kind may keep) does not.
  const handle = v("handle");
  if (typeof handle === "string" && /^[_-][a-z0-9_-]*$/.test(handle) && handle.length <= 255) j.unsure = true;
  else
    j.field(
      "handle",
      scalar(handle, false, (x) => typeof x === "string" && x.length <= 255 && /^[a-z0-9][a-z0-9_-]*$/.test(x)),
    );
  j.field("name", scalar(v("name"), false, isName(255)));
  j.field(
    "description",
    scalar(v("description"), true, (x) => typeof x === "string"),
  );
  j.field("product", scalar(v("product"), false, isReference));
  j.field("productPricePoint", scalar(v("productPricePoint"), true, isReference));
  judgeComponents(j, v("components"));
  judgeCoupons(j, v("coupons"));
  j.field("adopt", scalar(v("adopt"), true, isBool));
  if (!isSite(v("site"))) j.mustFail.add("site");
  // Resolution: once the rest passes and every reference is known. Only a new offer (a first deploy) is refused archived objects.
  const refs = ["site", "handle", "name", "description", "product", "productPricePoint", "components", "coupons"];
  if (j.valid && !refs.some((k) => holdsUnknown(v(k)))) {
    const first = unresolved(news, !update);
    if (first) j.mustFail.add(first);
  } else if (j.valid && !update && v("site") !== UNKNOWN) for (const input of namingNothing(news)) j.mustFail.add(input);
  return j;
}

describeFuzz(
  "Offer",
  KEY,
  (sim) => {
    sim.addProductFamily({ handle: "launch", name: "Launch" });
    for (const p of PRODUCTS)
      sim.addProduct({
        id: p.id,
        handle: p.handle,
        familyHandle: "launch",
        archived: p.archived,
        pricePoints: p.points.map((handle, i) => ({ handle, default: i === 0 })),
      });
    for (const c of COMPONENTS) {
      sim.addComponent({ id: c.id, familyHandle: "launch", kind: c.onOff ? "on_off" : "metered", handle: c.handle, unitPrice: 1 });
      for (const handle of c.points) sim.addComponentPricePoint({ componentId: c.id }, { handle, unitPrice: 2 });
    }
    for (const c of COUPONS) sim.addCoupon({ id: c.id, familyHandle: "launch", code: c.code, percentage: 10, archived: c.archived });
  },
  {
    kind: "offer",
    names: INPUTS,
    inputs,
    judge,
    olds: (news) => earlier(news, { name: "earlier" }),
    examples: [
      { handle: "fz-a", name: "A", product: "handle:basic", productPricePoint: "handle:basic-annual", coupons: ["WEB10", 20] },
      { handle: "fz.a", name: "A", product: 1 },
      { handle: "fz-b", name: "B", product: "handle:legacy", coupons: ["OLD5"] },
      { handle: "fz-c", name: "C", product: 1, components: [{ component: "handle:support", startingQuantity: 2 }] },
      { handle: "fz-d", name: "D", product: 1, components: [{ component: 10, startingQuantity: 2 }] },
      {
        handle: "fz-e",
        name: "E",
        product: 1,
        components: [
          { component: 11, startingQuantity: 1 },
          { component: "handle:texts", startingQuantity: 3 },
        ],
      },
      {
        handle: "fz-f",
        name: "F",
        product: 1,
        components: [{ component: 424_242, pricePoint: "handle:texts-bulk", startingQuantity: 1 }],
      },
      { handle: UNKNOWN, name: "U", product: UNKNOWN, components: [UNKNOWN], coupons: ["web10"] },
    ],
    runs: RUNS,
    seed: SEED,
    seedName: "CATALOG_FUZZ_SEED",
  },
);
