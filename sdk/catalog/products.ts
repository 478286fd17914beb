import { randomUUID } from "node:crypto";
import { type ProductInput, type ProductUpdateInput, productInput, productUpdateInput } from "../inputs";
import { allPages } from "../pages";
import { readProduct, readProductByHandle } from "../products";
import type { Product } from "../results";
import type { Transport } from "../transport";
import { MAX_PRODUCTS_PER_PAGE, productListResponse, productResponse } from "../wire";
import { productCreateBody, productUpdateBody } from "./bodies";
import { idOf, idProblems, parsed, tokenProblems } from "./checks";
import { type CreateOptions, createOnce, differsFrom, type Sighting, sightingInFamily } from "./create";
import { settledWrite } from "./settle";
import { toProduct } from "./to-results";

/** Products: create in a family, list, update, archive. `readProduct` is in `../products.ts`. */

export interface ListProductsOptions {
  /** Archived products too (default false: the service leaves them out). */
  readonly includeArchived?: boolean;
  /** Only this family's products (`GET /product_families/{id}/products.json`). */
  readonly familyId?: number;
}

/** Every product of the site, or of one family, across pages. */
export async function listProducts(t: Transport, opts: ListProductsOptions = {}): Promise<Product[]> {
  const path =
    opts.familyId === undefined
      ? "/products.json"
      : `/product_families/${idOf(opts.familyId, "familyId", "invalid product list")}/products.json`;
  const rows = await allPages(MAX_PRODUCTS_PER_PAGE, async (page) =>
    (
      await t.call(
        {
          method: "GET",
          path,
          repeatable: true,
          query: { page, per_page: MAX_PRODUCTS_PER_PAGE, include_archived: opts.includeArchived ? "true" : undefined },
        },
        productListResponse,
      )
    ).map((r) => r.product),
  );
  return rows.map(toProduct);
}

/** A product by handle, for a create's read-back (see {@link sightingInFamily}): by the handle path always, as a handle of digits ("2024") is not an id here. */
const findProduct = (t: Transport, handle: string, familyId: number): Promise<Sighting<Product>> =>
  sightingInFamily("product", familyId, () => readProductByHandle(t, handle));

/** Creates a product in a family once (see {@link createOnce}): never two, whatever fails. */
export async function createProduct(
  t: Transport,
  familyId: unknown,
  input: ProductInput,
  opts: Omit<CreateOptions, "uniquenessToken"> & { uniquenessToken?: unknown },
): Promise<Product> {
  const p = parsed(productInput, input, "invalid product", undefined, [
    ...idProblems(familyId, "familyId"),
    ...tokenProblems(opts.uniquenessToken),
  ]);
  const family = familyId as number;
  const token = (opts.uniquenessToken as string | undefined) ?? randomUUID();
  return createOnce(
    t,
    {
      kind: "product",
      handle: p.handle,
      uniquenessToken: token,
      request: {
        method: "POST",
        path: `/product_families/${family}/products.json`,
        repeatable: false,
        body: { product: productCreateBody(p), uniqueness_token: token },
      },
      answer: productResponse,
      result: (r) => toProduct(r.product),
      find: () => findProduct(t, p.handle, family),
      differs: (o) =>
        differsFrom(o.id, [
          ["name", p.name, o.name],
          ["priceInCents", p.priceInCents, o.pricing?.priceInCents],
        ]),
    },
    { ...opts, uniquenessToken: token },
  );
}

/**
 * Changes the fields given, and only those. With a pricing change the service makes a new price
 * point the product's default (existing subscriptions keep theirs): repeating the same PUT finds
 * the pricing already in place and changes nothing more, so it is retried like a read.
 */
export async function updateProduct(t: Transport, productId: unknown, input: ProductUpdateInput): Promise<Product> {
  const p = parsed(productUpdateInput, input, "invalid product update", undefined, idProblems(productId, "productId"));
  return settledWrite(
    t,
    { method: "PUT", path: `/products/${productId}.json`, repeatable: true, body: { product: productUpdateBody(p) } },
    productResponse,
    (r) => toProduct(r.product),
    async () => {
      const back = await readProduct(t, productId);
      return holdsUpdate(back, p) ? back : undefined;
    },
  );
}

/**
 * Archives a product (`DELETE /products/{id}.json`: nothing is deleted). After an attempt that may
 * have applied, a product read back as archived is the result.
 */
export async function archiveProduct(t: Transport, productId: unknown): Promise<Product> {
  const id = idOf(productId, "productId", "invalid product");
  return settledWrite(
    t,
    { method: "DELETE", path: `/products/${id}.json`, repeatable: true },
    productResponse,
    (r) => toProduct(r.product),
    async () => {
      const p = await readProduct(t, id);
      return p.archivedAt !== undefined ? p : undefined;
    },
  );
}

/** The fields a product read reports, beside its pricing: an update is confirmed by these only. */
const REPORTED = ["handle", "name", "description", "accountingCode", "taxCode", "requireCreditCard", "requestCreditCard"] as const;

/**
 * Whether a product read back holds every field of an update that a read reports (at least one): a PUT
 * applies whole or not at all, so those prove it. An update of unreported fields alone cannot be confirmed.
 */
function holdsUpdate(back: Product, update: Record<string, unknown>): boolean {
  let compared = 0;
  for (const [k, v] of Object.entries(update)) {
    if (v === undefined) continue;
    const held =
      back.pricing !== undefined && k in back.pricing
        ? back.pricing[k as keyof typeof back.pricing]
        : (REPORTED as readonly string[]).includes(k)
          ? k === "description"
            ? (back.description ?? "")
            : back[k as (typeof REPORTED)[number]]
          : NOT_REPORTED;
    if (held === NOT_REPORTED) continue;
    if (held !== v) return false;
    compared++;
  }
  return compared > 0;
}
const NOT_REPORTED = Symbol("not reported");
