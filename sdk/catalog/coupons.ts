import { randomUUID } from "node:crypto";
import { BillingApiError, BillingValidationError } from "../errors";
import { allPages } from "../pages";
import type { Coupon } from "../results";
import type { Transport } from "../transport";
import { problemsOf } from "../validation";
import { couponListResponse, couponResponse, MAX_COUPONS_PER_PAGE } from "../wire";
import { idOf, idProblems, parsed, tokenProblems } from "./checks";
import { couponBody } from "./component-bodies";
import { toCoupon } from "./component-results";
import { couponCode, couponInput } from "./coupon-inputs";
import { type CreateOptions, createOnce, differsFrom, type Sighting, sightingInFamily } from "./create";
import type { CouponInput } from "./input-types";
import { settledWrite } from "./settle";

/** Coupons: create in a family, read, find by code, list, update, archive. */

function idsOf(familyId: unknown, couponId: unknown): [number, number] {
  const problems = [...idProblems(familyId, "familyId"), ...idProblems(couponId, "couponId")];
  if (problems.length > 0) throw new BillingValidationError("invalid coupon", problems);
  return [familyId as number, couponId as number];
}

const couponPath = (familyId: number, couponId: number) => `/product_families/${familyId}/coupons/${couponId}.json`;

/** A coupon by family and id. A 404 is a {@link BillingApiError} with status 404. */
export async function readCoupon(t: Transport, familyId: unknown, couponId: unknown): Promise<Coupon> {
  const [fid, cid] = idsOf(familyId, couponId);
  const { coupon } = await t.call({ method: "GET", path: couponPath(fid, cid), repeatable: true }, couponResponse);
  return toCoupon(coupon);
}

/** Options of `findCoupon`. */
export interface FindCouponOptions {
  /** The coupon's family: the service needs it unless the coupon is in the site's default family. */
  readonly familyId?: number;
}

/** A coupon by code (`GET /coupons/find.json`). A 404 is a {@link BillingApiError} with status 404. */
export async function findCoupon(t: Transport, code: unknown, opts: FindCouponOptions = {}): Promise<Coupon> {
  const r = couponCode.safeParse(code);
  const problems = r.success ? [] : problemsOf(r.error, "code");
  if (opts.familyId !== undefined) problems.push(...idProblems(opts.familyId, "familyId"));
  if (problems.length > 0 || !r.success) throw new BillingValidationError("invalid coupon code", problems);
  const { coupon } = await t.call(
    {
      method: "GET",
      path: "/coupons/find.json",
      repeatable: true,
      query: { code: r.data, product_family_id: opts.familyId },
    },
    couponResponse,
  );
  return toCoupon(coupon);
}

/** Options of `listCoupons`. */
export interface ListCouponsOptions {
  /** Archived coupons too (default false). */
  readonly includeArchived?: boolean;
  /** Only this family's coupons (`GET /product_families/{id}/coupons.json`). */
  readonly familyId?: number;
  /** Only the coupons with these codes (`filter[codes]`): a lookup by code across the site's families, archived ones included. */
  readonly codes?: readonly string[];
}

/**
 * Every coupon of the site, or of one family, across pages. The contract's coupon lists take no
 * archived filter: the SDK reads what the service answers and, without `includeArchived`, leaves
 * out those with `archived_at`. Whether the real service lists archived coupons is not published.
 */
export async function listCoupons(
  t: Transport,
  // `ids` (the contract's `filter[ids]`) is not offered to callers: the batched reads use it.
  opts: ListCouponsOptions & { readonly ids?: readonly number[] } = {},
): Promise<Coupon[]> {
  const path =
    opts.familyId === undefined
      ? "/coupons.json"
      : `/product_families/${idOf(opts.familyId, "familyId", "invalid coupon list")}/coupons.json`;
  const codes = opts.codes?.map((code) => {
    const r = couponCode.safeParse(code);
    if (!r.success) throw new BillingValidationError("invalid coupon list", problemsOf(r.error, "codes"));
    return r.data;
  });
  // An empty list of codes matches no coupon; the service would read an empty filter as none at all.
  if (codes !== undefined && codes.length === 0) return [];
  const filter = {
    ...(codes === undefined ? {} : { "filter[codes]": codes.join(",") }),
    ...(opts.ids === undefined ? {} : { "filter[ids]": opts.ids.join(",") }),
  };
  const rows = await allPages(MAX_COUPONS_PER_PAGE, async (page) =>
    (
      await t.call(
        { method: "GET", path, repeatable: true, query: { page, per_page: MAX_COUPONS_PER_PAGE, ...filter } },
        couponListResponse,
      )
    ).map((r) => r.coupon),
  );
  return rows.map(toCoupon).filter((c) => opts.includeArchived || c.archivedAt === undefined);
}

/** A coupon by code, for a create's read-back (see {@link sightingInFamily}). */
const findByCode = (t: Transport, code: string, familyId: number): Promise<Sighting<Coupon>> =>
  sightingInFamily("coupon", familyId, () => findCoupon(t, code, { familyId }));

/** Creates a coupon in a family once (see {@link createOnce}); its code is what it is read back by. */
export async function createCoupon(
  t: Transport,
  familyId: unknown,
  input: CouponInput,
  opts: Omit<CreateOptions, "uniquenessToken"> & { uniquenessToken?: unknown },
): Promise<Coupon> {
  const c = parsed(couponInput, input, "invalid coupon", undefined, [
    ...idProblems(familyId, "familyId"),
    ...tokenProblems(opts.uniquenessToken),
  ]);
  const family = familyId as number;
  const token = (opts.uniquenessToken as string | undefined) ?? randomUUID();
  return createOnce(
    t,
    {
      kind: "coupon",
      handle: c.code,
      uniquenessToken: token,
      request: {
        method: "POST",
        path: `/product_families/${family}/coupons.json`,
        repeatable: false,
        body: { ...couponBody(c, family), uniqueness_token: token },
      },
      answer: couponResponse,
      result: (r) => toCoupon(r.coupon),
      find: () => findByCode(t, c.code, family),
      // The service answers a percentage as text ("10.0"): compared as a number, as updateCoupon's read-back does.
      differs: (o) =>
        otherDiscount(o, c) ??
        differsFrom(o.id, [
          ["name", c.name, o.name],
          ["percentage", c.percentage, o.percentage === undefined ? undefined : Number(o.percentage)],
          ["amountInCents", c.amountInCents, o.amountInCents],
        ]),
    },
    { ...opts, uniquenessToken: token },
  );
}

/**
 * A coupon is a percentage or an amount: one found holding the other kind is not this create's, though the
 * field asked for, absent from its answer, cannot say so by itself.
 */
function otherDiscount(o: Coupon, c: CouponInput): string | undefined {
  const [asked, other, held] =
    c.percentage !== undefined
      ? (["percentage", "amountInCents", o.amountInCents] as const)
      : (["amountInCents", "percentage", o.percentage === undefined ? undefined : Number(o.percentage)] as const);
  if (held === undefined) return undefined;
  return `id ${o.id} holds ${other} ${JSON.stringify(held)} where this create asked ${asked} ${JSON.stringify(c[asked])}`;
}

/**
 * Sets a coupon's fields (`PUT`, the create's body: the whole coupon). With restrictions given, the
 * coupon is read first so that those it has and the input leaves out are lifted (sent as false).
 * Repeated like a read; after a failure that may have applied, read back to see whether the code,
 * name and discount hold.
 */
export async function updateCoupon(t: Transport, familyId: unknown, couponId: unknown, input: CouponInput): Promise<Coupon> {
  const [fid, cid] = idsOf(familyId, couponId);
  const c = parsed(couponInput, input, "invalid coupon update");
  let unrestrict = { products: [] as number[], components: [] as number[] };
  if (c.restrictedProducts !== undefined || c.restrictedComponents !== undefined) {
    const now = await readCoupon(t, fid, cid);
    const dropped = (type: string, given: readonly number[] | undefined) =>
      given === undefined ? [] : now.restrictions.filter((r) => r.itemType === type && !given.includes(r.itemId)).map((r) => r.itemId);
    unrestrict = { products: dropped("Product", c.restrictedProducts), components: dropped("Component", c.restrictedComponents) };
  }
  return settledWrite(
    t,
    { method: "PUT", path: couponPath(fid, cid), repeatable: true, body: couponBody(c, fid, unrestrict) },
    couponResponse,
    (r) => toCoupon(r.coupon),
    async () => {
      const back = await readCoupon(t, fid, cid);
      const held =
        back.code === c.code &&
        back.name === c.name &&
        (c.percentage === undefined || Number(back.percentage) === c.percentage) &&
        (c.amountInCents === undefined || back.amountInCents === c.amountInCents);
      return held ? back : undefined;
    },
  );
}

/** Archives a coupon (`DELETE`); after an attempt that may have applied, one read back archived is the result. */
export async function archiveCoupon(t: Transport, familyId: unknown, couponId: unknown): Promise<Coupon> {
  const [fid, cid] = idsOf(familyId, couponId);
  return settledWrite(
    t,
    { method: "DELETE", path: couponPath(fid, cid), repeatable: true },
    couponResponse,
    (r) => toCoupon(r.coupon),
    async () => {
      const c = await readCoupon(t, fid, cid);
      return c.archivedAt !== undefined ? c : undefined;
    },
  );
}
