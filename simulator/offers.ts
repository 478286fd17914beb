import type { Catalog } from "./catalog";
import { defaultPricePoint } from "./catalog";
import type { Components } from "./components";
import { defaultComponentPricePoint } from "./components";
import type { Coupons } from "./coupons";
import type { ComponentRecord, ProductRecord } from "./records";
import type { OfferInput, OfferItemRecord, OfferRecord } from "./records-site";
import { SiteError } from "./site-error";
import { hasProblems, type Problems, Refusal } from "./wire-catalog";
import { OFFER_HANDLE, OFFER_HANDLE_TAKEN, type OfferBody } from "./wire-site-config";

export const FIRST_OFFER_IDS = { offer: 1, signupPage: 500001 } as const;

export interface OfferSnapshot {
  offers: OfferRecord[];
  next: { offer: number; signupPage: number };
}

/**
 * Offers: a product at one of its price points, components at theirs with
 * starting quantities, and coupons, sold as one signup offer. No update (the
 * contract has none): archive it and make another. References are checked
 * against this site's catalogue, refused in the published shape (an object of
 * field lists keyed by the request's top-level field, the culprit's id after a
 * colon: "starting_quantity for an On/Off component can only be '1' or '0':
 * 24"). Without `product_price_point_id` the product's default price point is
 * used (the contract); without a component's `price_point_id`, the component's
 * default (not published; as for the product). Archived products, price points,
 * components and coupons are refused: they take no new subscribers, and an
 * offer is a way to subscribe (not published). Handles are unique within the
 * site, archived offers' included (not published; they are the offer's key on
 * the signup page).
 */
export class Offers {
  readonly #now: () => string;
  readonly #catalog: Catalog;
  readonly #components: Components;
  readonly #coupons: Coupons;
  readonly #offers = new Map<number, OfferRecord>();
  #next: { offer: number; signupPage: number } = { ...FIRST_OFFER_IDS };

  constructor(nowIso: () => string, catalog: Catalog, components: Components, coupons: Coupons) {
    this.#now = nowIso;
    this.#catalog = catalog;
    this.#components = components;
    this.#coupons = coupons;
  }

  get isEmpty(): boolean {
    return this.#offers.size === 0;
  }

  /** An offer made elsewhere (the web UI), by this site's handles or ids; a reference the API would refuse throws. */
  add(o: OfferInput): OfferRecord {
    const fail = (m: string): never => {
      throw new Error(`addOffer: ${m}`);
    };
    if (!OFFER_HANDLE.test(o.handle ?? "")) fail(`handle '${o.handle}' is not a valid offer handle`);
    if (this.#byHandle(o.handle)) fail(`handle '${o.handle}' exists`);
    const product =
      o.productId !== undefined ? this.#catalog.findProduct(o.productId) : this.#catalog.findProductByHandle(o.productHandle ?? "");
    if (!product) return fail(`no product ${o.productId !== undefined ? `has id ${o.productId}` : `has handle '${o.productHandle}'`}`);
    const pp =
      o.pricePointId !== undefined || o.pricePointHandle !== undefined
        ? product.pricePoints.find((x) => x.id === o.pricePointId || x.handle === o.pricePointHandle)
        : defaultPricePoint(product);
    if (!pp) return fail(`price point ${o.pricePointId ?? o.pricePointHandle} is not one of the product's`);
    const items: OfferItemRecord[] = (o.components ?? []).map((i) => {
      const c = i.componentId !== undefined ? this.#components.find(i.componentId) : this.#components.findByHandle(i.componentHandle ?? "");
      if (!c) return fail(`no component ${i.componentId ?? `'${i.componentHandle}'`}`);
      const cpp =
        i.pricePointId !== undefined || i.pricePointHandle !== undefined
          ? c.pricePoints.find((x) => x.id === i.pricePointId || x.handle === i.pricePointHandle)
          : defaultComponentPricePoint(c);
      if (!cpp) return fail(`price point ${i.pricePointId ?? i.pricePointHandle} is not one of component ${c.id}'s`);
      const startingQuantity = i.startingQuantity ?? 1;
      if (c.kind === "on_off" && startingQuantity !== 0 && startingQuantity !== 1) fail(`an on/off component starts at 0 or 1`);
      return { componentId: c.id, pricePointId: cpp.id, startingQuantity };
    });
    const couponIds = (o.couponCodes ?? []).map((code) => {
      const c = this.#coupons.list({ codes: [code] })[0];
      return c ? c.id : fail(`no coupon has code '${code}'`);
    });
    if (o.id !== undefined && (this.#offers.has(o.id) || !Number.isSafeInteger(o.id) || o.id <= 0))
      fail(`id ${o.id} is taken or not a positive integer`);
    const id = o.id ?? this.#next.offer;
    this.#next.offer = Math.max(this.#next.offer, id + 1);
    const now = this.#now();
    const record: OfferRecord = {
      id,
      handle: o.handle,
      name: o.name ?? o.handle,
      description: o.description ?? null,
      productId: product.id,
      pricePointId: pp.id,
      items,
      couponIds,
      signupPages: (o.signupPages ?? []).map((s) => {
        const pageId = this.#next.signupPage++;
        return {
          id: pageId,
          nickname: s.nickname,
          enabled: s.enabled ?? true,
          url: s.url ?? `https://simulator.billing.example/subscribe/offer-${pageId}/${o.handle}`,
        };
      }),
      archivedAt: o.archived ? now : null,
      createdAt: now,
      updatedAt: now,
    };
    this.#offers.set(id, record);
    return structuredClone(record);
  }

  /** POST /offers.json: every reference checked before the offer is made; all problems at once. */
  create(b: OfferBody): OfferRecord {
    const problems: Problems = {};
    const add = (key: string, message: string) => {
      problems[key] ??= [];
      if (!problems[key].includes(message)) problems[key].push(message);
    };
    if (this.#byHandle(b.handle)) add("handle", OFFER_HANDLE_TAKEN);
    const product = this.#catalog.findProduct(b.product_id);
    let pricePointId: number | undefined;
    if (!product) add("product_id", `Product not found: ${b.product_id}`);
    else if (product.archivedAt !== null) add("product_id", `Product is archived: ${b.product_id}`);
    else pricePointId = this.#productPricePoint(product, b.product_price_point_id, add);
    const items: OfferItemRecord[] = [];
    for (const i of b.components ?? []) {
      const c = this.#components.find(i.component_id);
      if (!c) {
        add("components", `Component not found: ${i.component_id}`);
        continue;
      }
      if (c.archivedAt !== null) add("components", `Component is archived: ${c.id}`);
      const cpp = this.#componentPricePoint(c, i.price_point_id, add);
      const q = i.starting_quantity ?? 1;
      if (c.kind === "on_off" && q !== 0 && q !== 1)
        add("components", `starting_quantity for an On/Off component can only be '1' or '0': ${c.id}`);
      else if (q < 0) add("components", `starting_quantity must be 0 or more: ${c.id}`);
      if (cpp !== undefined) items.push({ componentId: c.id, pricePointId: cpp, startingQuantity: q });
    }
    const couponIds: number[] = [];
    for (const code of b.coupons ?? []) {
      const c = this.#coupons.list({ codes: [code] })[0];
      if (!c) add("coupons", `Coupon not found: ${code}`);
      else if (c.archivedAt !== null) add("coupons", `Coupon is archived: ${code}`);
      else couponIds.push(c.id);
    }
    if (hasProblems(problems) || product === undefined || pricePointId === undefined) throw new Refusal(problems);
    const now = this.#now();
    const record: OfferRecord = {
      id: this.#next.offer++,
      handle: b.handle,
      name: b.name,
      description: b.description ?? null,
      productId: product.id,
      pricePointId,
      items,
      couponIds,
      signupPages: [],
      archivedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    this.#offers.set(record.id, record);
    return record;
  }

  /** `{offer_id}`: 404 when there is none (the vendor's suite reads a 404 for an unknown id on read, archive and unarchive). */
  get(id: number): OfferRecord {
    const o = this.#offers.get(id);
    if (!o) throw new SiteError(404, "Offer not found");
    return o;
  }

  /** Oldest first; archived ones only when asked for. */
  list(includeArchived: boolean): OfferRecord[] {
    return [...this.#offers.values()].filter((o) => includeArchived || o.archivedAt === null).sort((a, b) => a.id - b.id);
  }

  /** …/archive.json: archiving an archived offer changes nothing (the contract lists no refusal). */
  archive(o: OfferRecord): void {
    if (o.archivedAt !== null) return;
    o.archivedAt = this.#now();
    o.updatedAt = o.archivedAt;
  }

  unarchive(o: OfferRecord): void {
    if (o.archivedAt === null) return;
    o.archivedAt = null;
    o.updatedAt = this.#now();
  }

  /** `clear_data` with `cleanup_scope=all`: the catalogue goes, and the offers made of it. */
  clear(): void {
    this.#offers.clear();
  }

  snapshot(): OfferSnapshot {
    return { offers: this.list(true).map((o) => structuredClone(o)), next: { ...this.#next } };
  }

  restore(d: OfferSnapshot): void {
    if (!this.isEmpty) throw new Error("simulator bookkeeping: restore into used offers");
    for (const o of d.offers) this.#offers.set(o.id, structuredClone(o));
    const highest = (ids: number[]) => Math.max(0, ...ids) + 1;
    this.#next = {
      offer: Math.max(d.next.offer, highest([...this.#offers.keys()])),
      signupPage: Math.max(d.next.signupPage, highest(d.offers.flatMap((o) => o.signupPages.map((s) => s.id)))),
    };
  }

  #productPricePoint(p: ProductRecord, id: number | undefined, add: (k: string, m: string) => void): number | undefined {
    if (id === undefined) return defaultPricePoint(p).id;
    const pp = p.pricePoints.find((x) => x.id === id);
    if (!pp) add("product_price_point_id", `Product price point does not belong to the product: ${id}`);
    else if (pp.archivedAt !== null) add("product_price_point_id", `Product price point is archived: ${id}`);
    else return pp.id;
    return undefined;
  }

  #componentPricePoint(c: ComponentRecord, id: number | undefined, add: (k: string, m: string) => void): number | undefined {
    if (id === undefined) return defaultComponentPricePoint(c).id;
    const pp = c.pricePoints.find((x) => x.id === id);
    if (!pp) add("components", `Price point does not belong to the component: ${id}`);
    else if (pp.archivedAt !== null) add("components", `Price point is archived: ${id}`);
    else return pp.id;
    return undefined;
  }

  #byHandle(handle: string): OfferRecord | undefined {
    for (const o of this.#offers.values()) if (o.handle === handle) return o;
    return undefined;
  }
}
