import { randomBytes } from "node:crypto";
import { defaultOf, PricePoints } from "./price-points";
import type {
  PricePointInput,
  PricePointRecord,
  PricingInput,
  PricingRecord,
  ProductFamilyInput,
  ProductFamilyRecord,
  ProductInput,
  ProductRecord,
} from "./records";
import { byRef } from "./refs";
import { SiteError } from "./site-error";
import {
  type FamilyBody,
  HANDLE_TAKEN,
  hasProblems,
  NO_TERMS,
  PRICING_KEYS,
  PRODUCT_NOT_ARCHIVABLE,
  type PricePointBody,
  type PricePointUpdateBody,
  type Problems,
  type ProductCreateBody,
  type ProductUpdateBody,
  pricingOf,
  pricingProblems,
  Refusal,
  refuse,
} from "./wire-catalog";

/**
 * The family products made without one go into (seeding only: the API always names a family). Named as
 * the examples' family is, so that a program declaring it against a seeded site adopts it.
 */
export const DEFAULT_FAMILY = { handle: "plans", name: "Plans", description: "" } as const;

/** The next id of each sequence the catalog hands out. */
export interface CatalogIds {
  family: number;
  product: number;
  pricePoint: number;
  signupPage: number;
}

export interface CatalogSnapshot {
  families: ProductFamilyRecord[];
  products: ProductRecord[];
  next: CatalogIds;
}

/** How messages name a product: by handle when it has one. */
export const productLabel = (p: ProductRecord): string => (p.handle !== null ? `'${p.handle}'` : `${p.id} (no handle)`);

/** A price point of an archived product cannot be made: what the refusal says. */
const archivedProduct = (p: ProductRecord) =>
  `Product ${productLabel(p)} is archived: it takes no new price points (its subscriptions keep theirs).`;

/**
 * The site's catalogue: product families, products and their price points.
 * Seeding calls (`add*`) take what they are given, as the web UI would have
 * made it, and throw on misuse; the API's calls check what the service
 * checks and refuse with a `Refusal` (422, shaped by the handler) or a
 * `SiteError` (404).
 */
export class Catalog {
  readonly #now: () => string;
  readonly #families = new Map<number, ProductFamilyRecord>();
  readonly #products = new Map<number, ProductRecord>();
  // Distinct id ranges per kind make a mixed-up id fail loudly in tests.
  #next: Omit<CatalogIds, "pricePoint"> = { family: 9001, product: 1, signupPage: 1 };
  /** The products' price points (their lookup, lifecycle and ids: the same code as components'). */
  readonly pricePoints: PricePoints<PricePointRecord>;

  constructor(nowIso: () => string) {
    this.#now = nowIso;
    this.pricePoints = new PricePoints({ what: "price point", owner: "product", firstId: 101, now: nowIso });
  }

  get isEmpty(): boolean {
    return this.#families.size === 0 && this.#products.size === 0;
  }

  // ---- seeding ----------------------------------------------------------

  addFamily(f: ProductFamilyInput): ProductFamilyRecord {
    if (!f.handle) throw new Error("addProductFamily: handle must be a non-empty string");
    if (this.#familyByHandle(f.handle)) throw new Error(`addProductFamily: handle '${f.handle}' exists`);
    const id = this.#claim("family", f.id, this.#families);
    const now = this.#now();
    const record: ProductFamilyRecord = {
      id,
      handle: f.handle,
      name: f.name ?? f.handle,
      description: f.description ?? null,
      accountingCode: f.accountingCode ?? null,
      createdAt: now,
      updatedAt: now,
    };
    this.#families.set(id, record);
    return structuredClone(record);
  }

  addProduct(p: ProductInput): ProductRecord {
    const handle = p.handle ?? null;
    if (handle === "") throw new Error("addProduct: handle must be non-empty or null");
    if (handle !== null && this.#productByHandle(handle)) throw new Error(`addProduct: handle '${handle}' exists`);
    const family = this.#seedFamily(p);
    const given = p.pricePoints ?? [];
    if (new Set(given.map((pp) => pp.handle)).size !== given.length) throw new Error("addProduct: price point handles must be distinct");
    if (given.filter((pp) => pp.default).length > 1) throw new Error("addProduct: at most one default price point");
    if (given.some((pp) => pp.default && pp.archived)) throw new Error("addProduct: the default price point cannot be archived");
    const id = this.#claim("product", p.id, this.#products);
    // Deterministic prices without asking: 1000, 2000, 3000… cents by position.
    const terms: PricingRecord = { ...NO_TERMS, priceInCents: p.priceInCents ?? 1000 * (this.#products.size + 1), ...termsOf(p) };
    const now = this.#now();
    const made = (pp: PricePointInput, isDefault: boolean): PricePointRecord =>
      this.pricePoints.make(
        { id: pp.id, handle: pp.handle, name: pp.name ?? (isDefault ? "Default" : pp.handle), isDefault, archived: pp.archived, at: now },
        () => ({ ...terms, ...termsOf(pp), useSiteExchangeRate: pp.useSiteExchangeRate ?? true }),
      );
    const pricePoints = given.map((pp) => made(pp, pp.default === true));
    if (!pricePoints.some((pp) => pp.default)) pricePoints.push(made({ handle: `${handle ?? `product-${id}`}-default` }, true));
    const record: ProductRecord = {
      id,
      handle,
      name: p.name ?? handle ?? `Product ${id}`,
      description: p.description === undefined ? "" : p.description,
      familyId: family.id,
      accountingCode: p.accountingCode ?? null,
      taxCode: p.taxCode ?? null,
      requireCreditCard: p.requireCreditCard ?? true,
      requestCreditCard: p.requestCreditCard ?? true,
      requestBillingAddress: p.requestBillingAddress ?? false,
      requireBillingAddress: p.requireBillingAddress ?? false,
      requireShippingAddress: p.requireShippingAddress ?? false,
      signupPages: [],
      versionNumber: 1,
      archivedAt: p.archived ? now : null,
      pricePoints,
      createdAt: now,
      updatedAt: now,
    };
    this.#products.set(id, record);
    return structuredClone(record);
  }

  #seedFamily(p: ProductInput): ProductFamilyRecord {
    if (p.familyId !== undefined && p.familyHandle !== undefined) throw new Error("addProduct: give familyId or familyHandle, not both");
    if (p.familyId !== undefined) {
      const f = this.#families.get(p.familyId);
      if (!f) throw new Error(`addProduct: no product family has id ${p.familyId}`);
      return f;
    }
    if (p.familyHandle !== undefined) {
      const f = this.#familyByHandle(p.familyHandle);
      if (!f) throw new Error(`addProduct: no product family has handle '${p.familyHandle}'`);
      return f;
    }
    const existing = this.#familyByHandle(DEFAULT_FAMILY.handle);
    if (existing) return existing;
    return present(this.#families.get(this.addFamily({ ...DEFAULT_FAMILY }).id), "the default family");
  }

  // ---- families ---------------------------------------------------------

  /**
   * POST /product_families.json. Without a handle the service makes one from
   * the name (the published example: "Acme Projects" answered with
   * "acme-projects"); what it does when that one is taken is not published:
   * here a counter is appended ("acme-projects-2").
   */
  createFamily(b: FamilyBody): ProductFamilyRecord {
    let handle = b.handle ?? null;
    if (handle !== null && this.#familyByHandle(handle)) refuse("handle", HANDLE_TAKEN);
    handle ??= this.#freeHandle(b.name, (h) => this.#familyByHandle(h) !== undefined);
    const id = this.#claim("family", undefined, this.#families);
    const now = this.#now();
    const record: ProductFamilyRecord = {
      id,
      handle,
      name: b.name,
      description: b.description ?? null,
      accountingCode: b.accounting_code ?? null,
      createdAt: now,
      updatedAt: now,
    };
    this.#families.set(id, record);
    return record;
  }

  /** `{id}` as the contract takes it: the id, or `handle:<handle>`. 404 when there is none. */
  family(ref: string): ProductFamilyRecord {
    const f = byRef(
      ref,
      (id) => this.#families.get(id),
      (h) => this.#familyByHandle(h),
    );
    if (!f) throw new SiteError(404, "Product family not found");
    return f;
  }

  familyOf(p: ProductRecord): ProductFamilyRecord {
    return present(this.#families.get(p.familyId), "a product's family");
  }

  /** Oldest first. */
  families(): ProductFamilyRecord[] {
    return [...this.#families.values()].sort((a, b) => a.id - b.id);
  }

  // ---- products ---------------------------------------------------------

  /**
   * POST /product_families/{id}/products.json: the product and its first
   * price point, the default, named "Default" (every published product's
   * `product_price_point_name`) with a generated `uuid:` handle (as the
   * published promoteProductPricePointToDefault example shows one).
   */
  createProduct(family: ProductFamilyRecord, b: ProductCreateBody): ProductRecord {
    const handle = b.handle ?? null;
    if (handle !== null && this.#productByHandle(handle)) refuse("handle", HANDLE_TAKEN);
    const terms: PricingRecord = { ...NO_TERMS, priceInCents: b.price_in_cents, ...pricingOf(b) };
    throwIf(pricingProblems(terms));
    const id = this.#claim("product", undefined, this.#products);
    const now = this.#now();
    const record: ProductRecord = {
      id,
      handle,
      name: b.name,
      description: b.description ?? null,
      familyId: family.id,
      accountingCode: b.accounting_code ?? null,
      taxCode: b.tax_code ?? null,
      requireCreditCard: b.require_credit_card ?? true,
      requestCreditCard: b.request_credit_card ?? true,
      requestBillingAddress: b.request_billing_address ?? false,
      requireBillingAddress: b.require_billing_address ?? false,
      requireShippingAddress: b.require_shipping_address ?? false,
      signupPages: [],
      versionNumber: 1,
      archivedAt: null,
      pricePoints: [this.#newPricePoint({ name: "Default", handle: null, terms, isDefault: true })],
      createdAt: now,
      updatedAt: now,
    };
    if (b.auto_create_signup_page === true) record.signupPages.push(this.#signupPage(record));
    this.#products.set(id, record);
    return record;
  }

  product(id: number): ProductRecord {
    const p = this.#products.get(id);
    if (!p) throw new SiteError(404, "Product not found");
    return p;
  }

  productByHandle(handle: string): ProductRecord {
    const p = this.#productByHandle(handle);
    if (!p) throw new SiteError(404, "Product not found");
    return p;
  }

  /** A product as the price point paths take it: the id, or `handle:<handle>`. */
  productRef(ref: string): ProductRecord {
    const p = byRef(
      ref,
      (id) => this.#products.get(id),
      (h) => this.#productByHandle(h),
    );
    if (!p) throw new SiteError(404, "Product not found");
    return p;
  }

  /** Oldest first; archived ones only when asked for. */
  products(o: { familyId?: number; includeArchived: boolean }): ProductRecord[] {
    return [...this.#products.values()]
      .filter((p) => (o.familyId === undefined || p.familyId === o.familyId) && (o.includeArchived || p.archivedAt === null))
      .sort((a, b) => a.id - b.id);
  }

  /** For subscriptions and migrations: undefined when unknown (the caller words the refusal). */
  findProduct(id: number): ProductRecord | undefined {
    return this.#products.get(id);
  }

  findProductByHandle(handle: string): ProductRecord | undefined {
    return this.#productByHandle(handle);
  }

  /**
   * PUT /products/{id}.json. Changes what it names. A change of terms (price,
   * interval, trial, initial charge, expiration) does not touch the default
   * price point: as the contract says, it makes a new one (the product's
   * terms then) and makes it the default; the old default becomes a catalog
   * price point, and subscriptions on it keep it. The version number counts
   * those changes. Terms sent unchanged change nothing. An archived product
   * can be renamed, but takes no new terms (they would be a new price point).
   */
  updateProduct(p: ProductRecord, b: ProductUpdateBody): ProductRecord {
    if (b.handle !== undefined && b.handle !== null && b.handle !== p.handle && this.#productByHandle(b.handle))
      refuse("handle", HANDLE_TAKEN);
    const current = defaultPricePoint(p);
    const merged: PricingRecord = { ...pick(current), ...pricingOf(b) };
    const changed = (Object.keys(merged) as (keyof PricingRecord)[]).some((k) => merged[k] !== current[k]);
    if (changed) {
      throwIf(pricingProblems(merged));
      if (p.archivedAt !== null) refuse("base", archivedProduct(p));
    }
    if (b.handle !== undefined) p.handle = b.handle;
    if (b.name !== undefined) p.name = b.name;
    if (b.description !== undefined) p.description = b.description;
    if (b.accounting_code !== undefined) p.accountingCode = b.accounting_code;
    if (b.tax_code !== undefined) p.taxCode = b.tax_code;
    if (b.require_credit_card !== undefined) p.requireCreditCard = b.require_credit_card;
    if (b.request_credit_card !== undefined) p.requestCreditCard = b.request_credit_card;
    if (b.request_billing_address !== undefined) p.requestBillingAddress = b.request_billing_address;
    if (b.require_billing_address !== undefined) p.requireBillingAddress = b.require_billing_address;
    if (b.require_shipping_address !== undefined) p.requireShippingAddress = b.require_shipping_address;
    if (b.auto_create_signup_page === true && p.signupPages.length === 0) p.signupPages.push(this.#signupPage(p));
    if (changed) {
      current.default = false;
      current.updatedAt = this.#now();
      p.pricePoints.push(this.#newPricePoint({ name: "Default", handle: null, terms: merged, isDefault: true }));
      p.versionNumber += 1;
    }
    p.updatedAt = this.#now();
    return p;
  }

  /**
   * DELETE /products/{id}.json: archived, never deleted. It keeps its handle
   * (no other product may take it) and its subscribers. Archiving one already
   * archived is refused with the published message.
   */
  archiveProduct(p: ProductRecord): ProductRecord {
    if (p.archivedAt !== null) refuse("base", PRODUCT_NOT_ARCHIVABLE);
    p.archivedAt = this.#now();
    p.updatedAt = p.archivedAt;
    return p;
  }

  // ---- price points -----------------------------------------------------

  /**
   * POST /products/{id}/price_points.json. The handle is unique within the
   * product (archived price points keep theirs); without one, the service's
   * `uuid:` kind is made. An archived product refuses: the contract does not
   * say, but an archived product cannot be sold, and a price point made on it
   * could only be a mistake the caller wants to hear about.
   */
  createPricePoint(p: ProductRecord, b: PricePointBody): PricePointRecord {
    if (p.archivedAt !== null) refuse("base", archivedProduct(p));
    if (b.handle != null && this.pricePoints.holds(p, b.handle)) refuse("handle", HANDLE_TAKEN);
    const terms: PricingRecord = { ...NO_TERMS, priceInCents: b.price_in_cents, ...pricingOf(b) };
    throwIf(pricingProblems(terms));
    const pp = this.#newPricePoint({
      name: b.name,
      handle: b.handle ?? null,
      terms,
      isDefault: false,
      useSiteExchangeRate: b.use_site_exchange_rate,
    });
    p.pricePoints.push(pp);
    p.updatedAt = this.#now();
    return pp;
  }

  /**
   * POST /products/{id}/price_points/bulk.json: all or nothing. Every entry
   * is checked (against the product and the entries before it) before any
   * is made; problems come keyed `price_points[i].field`.
   */
  bulkCreatePricePoints(p: ProductRecord, bodies: readonly PricePointBody[]): PricePointRecord[] {
    if (p.archivedAt !== null) refuse("base", archivedProduct(p));
    const problems: Problems = {};
    const handles = new Set(p.pricePoints.map((x) => x.handle));
    const terms = bodies.map((b, i) => {
      const t: PricingRecord = { ...NO_TERMS, priceInCents: b.price_in_cents, ...pricingOf(b) };
      const own: Problems = pricingProblems(t);
      if (b.handle != null) {
        if (handles.has(b.handle)) own.handle = [HANDLE_TAKEN];
        handles.add(b.handle);
      }
      for (const [k, v] of Object.entries(own)) problems[`price_points[${i}].${k}`] = v;
      return t;
    });
    throwIf(problems);
    const made = bodies.map((b, i) =>
      this.#newPricePoint({
        name: b.name,
        handle: b.handle ?? null,
        terms: terms[i],
        isDefault: false,
        useSiteExchangeRate: b.use_site_exchange_rate,
      }),
    );
    p.pricePoints.push(...made);
    p.updatedAt = this.#now();
    return made;
  }

  /** PUT …/price_points/{id}.json: only the handle and the price (the handler refuses anything else). */
  updatePricePoint(p: ProductRecord, pp: PricePointRecord, b: PricePointUpdateBody): PricePointRecord {
    if (b.handle !== undefined && b.handle !== pp.handle && this.pricePoints.holds(p, b.handle)) refuse("handle", HANDLE_TAKEN);
    if (b.handle !== undefined) pp.handle = b.handle;
    if (b.price_in_cents !== undefined) pp.priceInCents = b.price_in_cents;
    pp.updatedAt = this.#now();
    return pp;
  }

  /** `clear_data` with `cleanup_scope=all`: every family and product goes; the id sequences go on (no id is handed out twice). */
  clear(): void {
    this.#families.clear();
    this.#products.clear();
  }

  // ---- data file ----------------------------------------------------------

  snapshot(): CatalogSnapshot {
    return {
      families: this.families().map((f) => structuredClone(f)),
      products: [...this.#products.values()].map((p) => structuredClone(p)),
      next: {
        family: this.#next.family,
        product: this.#next.product,
        pricePoint: this.pricePoints.nextId,
        signupPage: this.#next.signupPage,
      },
    };
  }

  /** Fills an empty catalogue; the next ids never go below one past the largest id held. */
  restore(d: CatalogSnapshot): void {
    if (!this.isEmpty) throw new Error("simulator bookkeeping: restore into a used catalogue");
    for (const f of d.families) this.#families.set(f.id, structuredClone(f));
    for (const p of d.products) this.#products.set(p.id, structuredClone(p));
    this.pricePoints.restore([...this.#products.values()], d.next.pricePoint);
    const highest = (ids: Iterable<number>) => Math.max(0, ...ids) + 1;
    this.#next = {
      family: Math.max(d.next.family, highest(this.#families.keys())),
      product: Math.max(d.next.product, highest(this.#products.keys())),
      signupPage: Math.max(d.next.signupPage, highest(d.products.flatMap((p) => p.signupPages.map((s) => s.id)))),
    };
  }

  // ---- bookkeeping ------------------------------------------------------

  /** A price point the API makes (never archived; a `uuid:` handle when none is given). */
  #newPricePoint(o: { name: string; handle: string | null; terms: PricingRecord; isDefault: boolean; useSiteExchangeRate?: boolean }) {
    return this.pricePoints.make({ name: o.name, handle: o.handle, isDefault: o.isDefault }, () => ({
      ...o.terms,
      useSiteExchangeRate: o.useSiteExchangeRate ?? true,
    }));
  }

  #signupPage(p: ProductRecord) {
    const id = this.#next.signupPage++;
    return { id, url: `https://simulator.billing.example/subscribe/${randomBytes(6).toString("hex")}/${p.handle ?? p.id}` };
  }

  #freeHandle(name: string, taken: (h: string) => boolean): string {
    const base =
      name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-+|-+$/g, "") || "family";
    let h = base;
    for (let n = 2; taken(h); n++) h = `${base}-${n}`;
    return h;
  }

  #familyByHandle(handle: string): ProductFamilyRecord | undefined {
    for (const f of this.#families.values()) if (f.handle === handle) return f;
    return undefined;
  }

  #productByHandle(handle: string): ProductRecord | undefined {
    for (const p of this.#products.values()) if (p.handle === handle) return p;
    return undefined;
  }

  #claim(kind: "family" | "product", given: number | undefined, taken: Map<number, unknown>): number {
    const id = given ?? this.#next[kind];
    if (!Number.isSafeInteger(id) || id <= 0) throw new Error(`${kind} id must be a positive integer, got ${id}`);
    if (taken.has(id)) throw new Error(`${kind} id ${id} exists`);
    this.#next[kind] = Math.max(this.#next[kind], id + 1);
    return id;
  }
}

export function defaultPricePoint(p: ProductRecord): PricePointRecord {
  return defaultOf(p, "product");
}

/** A record's terms alone. */
export function pick(r: PricingRecord): PricingRecord {
  return Object.fromEntries(TERM_KEYS.map((k) => [k, r[k]])) as unknown as PricingRecord;
}

const TERM_KEYS: readonly (keyof PricingRecord)[] = [
  "priceInCents",
  "interval",
  "intervalUnit",
  "trialPriceInCents",
  "trialInterval",
  "trialIntervalUnit",
  "trialType",
  "initialChargeInCents",
  "initialChargeAfterTrial",
  "expirationInterval",
  "expirationIntervalUnit",
];
// The request's pricing fields and the record's terms are the same list, in two spellings.
if (PRICING_KEYS.length !== TERM_KEYS.length) throw new Error("simulator bookkeeping: pricing keys and terms differ");

/** A seeding call's terms, given ones only (`intervalMonths` is `interval` in months). */
function termsOf(i: PricingInput): Partial<PricingRecord> {
  const out: Partial<PricingRecord> = {};
  if (i.intervalMonths !== undefined) {
    out.interval = i.intervalMonths;
    out.intervalUnit = "month";
  }
  for (const k of TERM_KEYS) {
    const v = (i as Record<string, unknown>)[k];
    if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

function throwIf(problems: Problems): void {
  if (hasProblems(problems)) throw new Refusal(problems);
}

/** A record the catalogue's own bookkeeping guarantees (never the caller's input: that is a refusal). */
function present<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`simulator bookkeeping: ${what} is missing`);
  return value;
}
