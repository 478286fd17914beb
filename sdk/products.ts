import { toPricePoint, toProduct } from "./catalog/to-results";
import { BillingError, BillingValidationError } from "./errors";
import { positiveId } from "./inputs";
import { allPages } from "./pages";
import type { PricePoint, Product, Subscription } from "./results";
import type { Transport } from "./transport";
import { problemsOf } from "./validation";
import { MAX_PRICE_POINTS_PER_PAGE, type MigrationBody, pricePointListResponse, productResponse } from "./wire";

/** A product by id, or by handle (`GET /products/handle/{handle}.json`). */
export async function readProduct(t: Transport, idOrHandle: unknown): Promise<Product> {
  let path: string;
  if (typeof idOrHandle === "string" && !/^\d+$/.test(idOrHandle)) {
    if (idOrHandle.length === 0 || idOrHandle.length > 255) {
      throw new BillingValidationError("invalid product", [{ property: "product", message: "must be a product id or a non-empty handle" }]);
    }
    path = `/products/handle/${encodeURIComponent(idOrHandle)}.json`;
  } else {
    const id = positiveId.safeParse(typeof idOrHandle === "string" ? Number(idOrHandle) : idOrHandle);
    if (!id.success) throw new BillingValidationError("invalid product", problemsOf(id.error, "product"));
    path = `/products/${id.data}.json`;
  }
  const { product: p } = await t.call({ method: "GET", path, repeatable: true }, productResponse);
  return toProduct(p);
}

/**
 * A product by handle, always (`GET /products/handle/{handle}.json`), archived ones too: also a
 * handle of digits only, which {@link readProduct} takes for an id.
 */
export async function readProductByHandle(t: Transport, handle: string): Promise<Product> {
  const path = `/products/handle/${encodeURIComponent(handle)}.json`;
  const { product: p } = await t.call({ method: "GET", path, repeatable: true }, productResponse);
  return toProduct(p);
}

/** Options of {@link BillingClient.readProduct}. */
export interface ReadProductOptions {
  /** The family the product is in, when known: reads of one family's products may then be answered by one list. */
  readonly familyId?: number;
}

/** Options of {@link BillingClient.listPricePoints}. */
export interface ListPricePointsOptions {
  /** Archived price points too (default false: the service leaves them out). */
  readonly includeArchived?: boolean;
}

/** Every price point of a product, across pages. */
export async function listPricePoints(t: Transport, productId: unknown, opts: ListPricePointsOptions = {}): Promise<PricePoint[]> {
  const id = positiveId.safeParse(productId);
  if (!id.success) throw new BillingValidationError("invalid product", problemsOf(id.error, "productId"));
  const rows = await allPages(
    MAX_PRICE_POINTS_PER_PAGE,
    async (page) =>
      (
        await t.call(
          {
            method: "GET",
            path: `/products/${id.data}/price_points.json`,
            repeatable: true,
            // archived=true: how the vendor's own SDK (@maxio-com/advanced-billing-sdk, listProductPricePoints) asks for archived
            // price points; the vendored contract has no parameter for it. Sent only when asked.
            query: { page, per_page: MAX_PRICE_POINTS_PER_PAGE, archived: opts.includeArchived ? "true" : undefined },
          },
          pricePointListResponse,
        )
      ).price_points,
  );
  return rows.map(toPricePoint);
}

/**
 * The price point a migration left the subscription on, when the answer does
 * not say (most of the service's answers carry no `product_price_point_id`):
 * the one named by id; the one named by handle, looked up among the
 * product's price points; or the product's default. A lookup that still
 * fails after a few rounds leaves it undefined rather than failing a
 * migration that was applied (the provider resolves it again on refresh).
 */
export async function resolvePricePoint(t: Transport, sub: Subscription, body: MigrationBody): Promise<Subscription> {
  if (sub.pricePointId !== undefined) return sub;
  if (body.product_price_point_id !== undefined) return { ...sub, pricePointId: body.product_price_point_id };
  // Each round already has the transport's retries; a few more rounds ride out a burst of failures,
  // since the migration itself is done and only its record is at stake.
  for (let round = 1; ; round++) {
    try {
      return await lookUpPricePoint(t, sub, body);
    } catch (err) {
      if (round >= RESOLVE_ROUNDS || !(err instanceof BillingError)) return sub;
    }
  }
}

const RESOLVE_ROUNDS = 3;

async function lookUpPricePoint(t: Transport, sub: Subscription, body: MigrationBody): Promise<Subscription> {
  if (body.product_price_point_handle !== undefined) {
    const pp = (await listPricePoints(t, sub.product.id)).find((p) => p.handle === body.product_price_point_handle);
    return { ...sub, pricePointId: pp?.id, pricePointHandle: pp?.handle ?? body.product_price_point_handle };
  }
  const product = await readProduct(t, sub.product.id);
  // An answer about another product resolves nothing.
  if (product.id !== sub.product.id) return sub;
  if (product.defaultPricePointId !== undefined) {
    return { ...sub, pricePointId: product.defaultPricePointId, pricePointHandle: product.defaultPricePointHandle ?? sub.pricePointHandle };
  }
  const pp = (await listPricePoints(t, sub.product.id)).find((p) => p.type === "default");
  return pp ? { ...sub, pricePointId: pp.id, pricePointHandle: pp.handle } : sub;
}
