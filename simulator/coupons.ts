import type { Catalog } from "./catalog";
import type { Components } from "./components";
import type { CouponInput, CouponRecord, CouponRestrictionRecord, ProductFamilyRecord } from "./records";
import { SiteError } from "./site-error";
import { hasProblems, type Problems, Refusal, refuse } from "./wire-catalog";
import {
  COUPON_BOTH,
  COUPON_CODE,
  COUPON_CODE_INVALID,
  COUPON_CODE_TAKEN,
  COUPON_IN_PAST,
  COUPON_NEITHER,
  type CouponCreateBody,
  type CouponUpdateBody,
  decimalText,
} from "./wire-components";

export interface CouponIds {
  coupon: number;
  restriction: number;
}

export interface CouponSnapshot {
  coupons: CouponRecord[];
  next: CouponIds;
}

/** Not published: the wording of archiving an archived coupon (the contract lists no 422 for it; products refuse theirs). */
export const COUPON_ALREADY_ARCHIVED = "Coupon is already archived.";

/** Restrictions as a request gives them: ids (the keys of `restricted_products` / `restricted_components`) to booleans. */
export interface RestrictionChange {
  products?: Record<string, boolean>;
  components?: Record<string, boolean>;
}

/**
 * The site's coupons. Codes are unique within the site, archived coupons'
 * included (not published; the service finds a coupon by code alone, so two
 * live ones could not share one, and the web UI keeps an archived coupon's
 * code). Restrictions name products and components by this site's ids.
 */
export class Coupons {
  readonly #now: () => string;
  readonly #catalog: Catalog;
  readonly #components: Components;
  readonly #coupons = new Map<number, CouponRecord>();
  #next: CouponIds = { coupon: 60001, restriction: 70001 };

  constructor(nowIso: () => string, catalog: Catalog, components: Components) {
    this.#now = nowIso;
    this.#catalog = catalog;
    this.#components = components;
  }

  get isEmpty(): boolean {
    return this.#coupons.size === 0;
  }

  // ---- seeding ----------------------------------------------------------

  add(c: CouponInput): CouponRecord {
    if ((c.familyId === undefined) === (c.familyHandle === undefined))
      throw new Error("addCoupon: give familyId or familyHandle (one of them)");
    const family = this.#catalog.families().find((f) => (c.familyId !== undefined ? f.id === c.familyId : f.handle === c.familyHandle));
    if (!family)
      throw new Error(`addCoupon: no product family has ${c.familyId !== undefined ? `id ${c.familyId}` : `handle '${c.familyHandle}'`}`);
    if (!COUPON_CODE.test(c.code)) throw new Error(`addCoupon: ${COUPON_CODE_INVALID}`);
    if (this.#byCode(c.code)) throw new Error(`addCoupon: code '${c.code}' exists`);
    if ((c.percentage === undefined) === (c.amountInCents === undefined))
      throw new Error("addCoupon: give percentage or amountInCents (one of them)");
    const percentage = c.percentage !== undefined ? decimalText(c.percentage)?.replace(/\.0$/, "") : null;
    if (percentage === undefined) throw new Error(`addCoupon: percentage ${String(c.percentage)} is not a number`);
    if (c.id !== undefined && this.#coupons.has(c.id)) throw new Error(`coupon id ${c.id} exists`);
    const id = c.id ?? this.#next.coupon;
    this.#next.coupon = Math.max(this.#next.coupon, id + 1);
    const now = this.#now();
    const restrictions: CouponRestrictionRecord[] = [];
    for (const ref of c.restrictedProducts ?? []) {
      const p = typeof ref === "number" ? this.#catalog.findProduct(ref) : this.#catalog.findProductByHandle(ref);
      if (!p) throw new Error(`addCoupon: no product ${typeof ref === "number" ? `has id ${ref}` : `has handle '${ref}'`}`);
      restrictions.push({ id: this.#next.restriction++, itemType: "Product", itemId: p.id });
    }
    for (const ref of c.restrictedComponents ?? []) {
      const k = typeof ref === "number" ? this.#components.find(ref) : this.#components.findByHandle(ref);
      if (!k) throw new Error(`addCoupon: no component ${typeof ref === "number" ? `has id ${ref}` : `has handle '${ref}'`}`);
      restrictions.push({ id: this.#next.restriction++, itemType: "Component", itemId: k.id });
    }
    const record: CouponRecord = {
      id,
      familyId: family.id,
      code: c.code,
      name: c.name ?? c.code,
      description: c.description ?? "",
      percentage,
      amountInCents: c.amountInCents ?? null,
      recurring: c.recurring ?? false,
      durationPeriodCount: c.recurring ? (c.durationPeriodCount ?? null) : null,
      allowNegativeBalance: c.allowNegativeBalance ?? false,
      stackable: c.stackable ?? false,
      compoundingStrategy: c.compoundingStrategy === undefined ? "compound" : c.compoundingStrategy,
      excludeMidPeriodAllocations: c.excludeMidPeriodAllocations ?? false,
      applyOnCancelAtEndOfPeriod: c.applyOnCancelAtEndOfPeriod ?? false,
      applyOnSubscriptionExpiration: c.applyOnSubscriptionExpiration ?? false,
      startDate: now,
      endDate: c.endDate ?? null,
      restrictions,
      archivedAt: c.archived ? now : null,
      createdAt: now,
      updatedAt: now,
    };
    this.#coupons.set(id, record);
    return structuredClone(record);
  }

  // ---- the API ------------------------------------------------------------

  /**
   * POST /product_families/{id}/coupons.json. Exactly one of a percentage
   * and an amount (the two request shapes); an end date in the past is the
   * published refusal; restrictions must name this site's products and
   * components (only `true` entries restrict: `false` is "not applicable").
   */
  create(family: ProductFamilyRecord, b: CouponCreateBody, r: RestrictionChange): CouponRecord {
    const problems = this.#check(b, undefined, r);
    if (b.percentage == null && b.amount_in_cents == null) problems.base = [...(problems.base ?? []), COUPON_NEITHER];
    if (hasProblems(problems)) throw new Refusal(problems);
    const now = this.#now();
    const id = this.#next.coupon++;
    const record: CouponRecord = {
      id,
      familyId: family.id,
      code: b.code,
      name: b.name,
      description: b.description ?? "",
      percentage: b.percentage ?? null,
      amountInCents: b.amount_in_cents ?? null,
      recurring: b.recurring ?? false,
      durationPeriodCount: b.recurring ? (b.duration_period_count ?? null) : null,
      allowNegativeBalance: b.allow_negative_balance ?? false,
      stackable: b.stackable ?? false,
      // Unset, the service writes "compound" (every published coupon).
      compoundingStrategy: b.compounding_strategy === undefined ? "compound" : b.compounding_strategy,
      excludeMidPeriodAllocations: b.exclude_mid_period_allocations ?? false,
      applyOnCancelAtEndOfPeriod: b.apply_on_cancel_at_end_of_period ?? false,
      applyOnSubscriptionExpiration: b.apply_on_subscription_expiration ?? false,
      startDate: now,
      endDate: b.end_date != null ? new Date(b.end_date).toISOString().replace(/\.\d{3}Z$/, "Z") : null,
      restrictions: [],
      archivedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    this.#restrict(record, r);
    this.#coupons.set(id, record);
    return record;
  }

  /**
   * PUT …/coupons/{id}.json: what is given changes. Giving a percentage turns
   * an amount coupon into a percentage one and the other way round (the
   * published example answers a percentage coupon updated with an amount as an
   * amount coupon, percentage null); both at once is refused. Restrictions:
   * `true` adds one, `false` removes it, ids not named stay.
   */
  update(c: CouponRecord, b: CouponUpdateBody, r: RestrictionChange): CouponRecord {
    const problems = this.#check(b, c, r);
    if (hasProblems(problems)) throw new Refusal(problems);
    if (b.code !== undefined) c.code = b.code;
    if (b.name !== undefined) c.name = b.name;
    if (b.description !== undefined) c.description = b.description ?? "";
    if (b.percentage != null) {
      c.percentage = b.percentage;
      c.amountInCents = null;
    }
    if (b.amount_in_cents != null) {
      c.amountInCents = b.amount_in_cents;
      c.percentage = null;
    }
    if (b.recurring !== undefined) c.recurring = b.recurring;
    if (b.duration_period_count !== undefined) c.durationPeriodCount = b.duration_period_count;
    if (!c.recurring) c.durationPeriodCount = null;
    if (b.allow_negative_balance !== undefined) c.allowNegativeBalance = b.allow_negative_balance;
    if (b.stackable !== undefined) c.stackable = b.stackable;
    if (b.compounding_strategy !== undefined) c.compoundingStrategy = b.compounding_strategy;
    if (b.exclude_mid_period_allocations !== undefined) c.excludeMidPeriodAllocations = b.exclude_mid_period_allocations;
    if (b.apply_on_cancel_at_end_of_period !== undefined) c.applyOnCancelAtEndOfPeriod = b.apply_on_cancel_at_end_of_period;
    if (b.apply_on_subscription_expiration !== undefined) c.applyOnSubscriptionExpiration = b.apply_on_subscription_expiration;
    if (b.end_date !== undefined) c.endDate = b.end_date === null ? null : new Date(b.end_date).toISOString().replace(/\.\d{3}Z$/, "Z");
    this.#restrict(c, r);
    c.updatedAt = this.#now();
    return c;
  }

  /** DELETE …/coupons/{id}.json: archived, never deleted; it keeps its code. */
  archive(c: CouponRecord): CouponRecord {
    if (c.archivedAt !== null) refuse("base", COUPON_ALREADY_ARCHIVED);
    c.archivedAt = this.#now();
    c.updatedAt = c.archivedAt;
    return c;
  }

  /** `{coupon_id}` under the family the path names. */
  inFamily(family: ProductFamilyRecord, id: number): CouponRecord {
    const c = this.#coupons.get(id);
    if (!c || c.familyId !== family.id) throw new SiteError(404, "Coupon not found");
    return c;
  }

  /**
   * GET /coupons/find.json. The contract: "if the coupon you are trying to find
   * does not belong to the default product family in your site, then you will
   * need to specify … the product family id". The site's default family is
   * taken to be its first (oldest) one; archived coupons are found too.
   */
  findByCode(code: string, familyId: number | undefined): CouponRecord {
    const family = familyId ?? this.#catalog.families()[0]?.id;
    const c = this.#byCode(code);
    if (!c || c.familyId !== family) throw new SiteError(404, "Coupon not found");
    return c;
  }

  /**
   * Oldest first. Archived coupons are listed too (with their `archived_at`):
   * unlike the component and product lists, the coupon lists have no archived
   * parameter in the contract, so a client could not otherwise see them.
   */
  list(o: { familyId?: number; ids?: readonly number[]; codes?: readonly string[] }): CouponRecord[] {
    return [...this.#coupons.values()]
      .filter(
        (c) =>
          (o.familyId === undefined || c.familyId === o.familyId) &&
          (o.ids === undefined || o.ids.includes(c.id)) &&
          (o.codes === undefined || o.codes.includes(c.code)),
      )
      .sort((a, b) => a.id - b.id);
  }

  /** `clear_data` with `cleanup_scope=all`: every coupon goes (its code is free again); the id sequences go on. */
  clear(): void {
    this.#coupons.clear();
  }

  snapshot(): CouponSnapshot {
    return { coupons: this.list({}).map((c) => structuredClone(c)), next: { ...this.#next } };
  }

  restore(d: CouponSnapshot): void {
    if (!this.isEmpty) throw new Error("simulator bookkeeping: restore into used coupons");
    for (const c of d.coupons) this.#coupons.set(c.id, structuredClone(c));
    const highest = (ids: Iterable<number>) => Math.max(0, ...ids) + 1;
    this.#next = {
      coupon: Math.max(d.next.coupon, highest(this.#coupons.keys())),
      restriction: Math.max(d.next.restriction, highest(d.coupons.flatMap((c) => c.restrictions.map((x) => x.id)))),
    };
  }

  // ---- bookkeeping -----------------------------------------------------------

  #check(b: CouponUpdateBody, current: CouponRecord | undefined, r: RestrictionChange): Problems {
    const problems: Problems = {};
    const add = (key: string, message: string) => {
      problems[key] ??= [];
      problems[key].push(message);
    };
    if (b.code !== undefined && b.code !== current?.code && this.#byCode(b.code)) add("code", COUPON_CODE_TAKEN);
    if (b.percentage != null && b.amount_in_cents != null) add("base", COUPON_BOTH);
    if (b.end_date != null && Date.parse(b.end_date) < Date.parse(this.#now())) add("end_date", COUPON_IN_PAST);
    for (const id of Object.keys(r.products ?? {}))
      if (!this.#catalog.findProduct(Number(id))) add("restricted_products", `Restricted products: no product has id ${id}.`);
    for (const id of Object.keys(r.components ?? {}))
      if (!this.#components.find(Number(id))) add("restricted_components", `Restricted components: no component has id ${id}.`);
    return problems;
  }

  #restrict(c: CouponRecord, r: RestrictionChange): void {
    const apply = (itemType: "Product" | "Component", map: Record<string, boolean> | undefined) => {
      for (const [key, on] of Object.entries(map ?? {})) {
        const itemId = Number(key);
        const has = c.restrictions.some((x) => x.itemType === itemType && x.itemId === itemId);
        if (on && !has) c.restrictions.push({ id: this.#next.restriction++, itemType, itemId });
        if (!on && has) c.restrictions = c.restrictions.filter((x) => !(x.itemType === itemType && x.itemId === itemId));
      }
    };
    apply("Product", r.products);
    apply("Component", r.components);
  }

  #byCode(code: string): CouponRecord | undefined {
    for (const c of this.#coupons.values()) if (c.code === code) return c;
    return undefined;
  }
}
