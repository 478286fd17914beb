import { z } from "zod";
import { maybe, timestamp, wireId } from "./common";

/**
 * `Product Family`, as read. Only the id is needed to address one; the vendor's examples leave out
 * `created_at` or send `null` for the text fields, read here as absent.
 */
export const productFamily = z.object({
  id: wireId,
  name: maybe(z.string()),
  handle: maybe(z.string()),
  description: maybe(z.string()),
  accounting_code: maybe(z.string()),
  created_at: maybe(timestamp),
  updated_at: maybe(timestamp),
});
/** A family as {@link productFamily} reads it, before the SDK turns it into its `ProductFamily` result. */
export type ProductFamily = z.infer<typeof productFamily>;

/** `Product Family Response`: `{ product_family }`, the answer of create and read. */
export const productFamilyResponse = z.object({ product_family: productFamily });
/** The answer {@link productFamilyResponse} reads: `{ product_family }`. */
export type ProductFamilyResponse = z.infer<typeof productFamilyResponse>;

/**
 * `GET /product_families.json`: a bare array of `{ product_family }` (the contract lists no paging
 * parameters for it). An entry without a real id (id 0, as in a placeholder example) is read, then
 * left out by the SDK: one odd entry must not make the whole list unreadable.
 */
export const productFamilyListResponse = z.array(
  z.object({ product_family: productFamily.extend({ id: z.number().int().nonnegative() }) }),
);
/** The answer {@link productFamilyListResponse} reads, placeholder entries (id 0) included. */
export type ProductFamilyListResponse = z.infer<typeof productFamilyListResponse>;

/** `POST /product_families.json` body (`Create Product Family Request`), with the SDK's `uniqueness_token`. */
export const productFamilyRequest = z.object({
  product_family: z.object({
    name: z.string().min(1),
    handle: z.string().min(1).optional(),
    description: z.string().optional(),
  }),
  uniqueness_token: z.string().optional(),
});
/** The body {@link productFamilyRequest} checks: what the SDK sends to create a family. */
export type ProductFamilyRequest = z.infer<typeof productFamilyRequest>;
