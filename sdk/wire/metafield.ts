import { z } from "zod";
import { maybe } from "./common";

/**
 * Custom fields (the API's metafields) of subscriptions or customers, as read. A metafield is known by its
 * name (the API's only key: update and delete name it, and the vendor's create answer has no id), so the
 * name is required; everything else may be null or absent. `input_type` is read as text (the contract's enum
 * has `balance_tracker` besides the three a caller may create), and `enum` as the contract publishes it:
 * null, one string, or a list.
 */

/** `Metafield Scope`: where the field shows; each flag is the text "0" or "1" (read as sent). */
export const metafieldScope = z.object({
  csv: maybe(z.string()),
  invoices: maybe(z.string()),
  statements: maybe(z.string()),
  portal: maybe(z.string()),
  public_show: maybe(z.string()),
  public_edit: maybe(z.string()),
  hosted: maybe(z.array(z.string())),
});
/** A scope as {@link metafieldScope} reads it. */
export type MetafieldScope = z.infer<typeof metafieldScope>;

/** `Metafield`. */
export const metafield = z.object({
  id: maybe(z.number().int()),
  name: z.string(),
  scope: maybe(metafieldScope),
  data_count: maybe(z.number().int()),
  input_type: maybe(z.string()),
  enum: maybe(z.union([z.string(), z.array(z.string())])),
});
/** A metafield as {@link metafield} reads it, before the SDK turns it into its `Metafield` result. */
export type Metafield = z.infer<typeof metafield>;

/** The create's and the update's answer: a bare array of the metafields written. */
export const metafieldsResponse = z.array(metafield);
/** The answer {@link metafieldsResponse} reads. */
export type MetafieldsResponse = z.infer<typeof metafieldsResponse>;

/** `List Metafields Response`: one page, with counts (read, not relied on: paging ends on a short page). */
export const metafieldListResponse = z.object({
  total_count: maybe(z.number().int()),
  current_page: maybe(z.number().int()),
  total_pages: maybe(z.number().int()),
  per_page: maybe(z.number().int()),
  metafields: z.array(metafield),
});
/** The answer {@link metafieldListResponse} reads. */
export type MetafieldListResponse = z.infer<typeof metafieldListResponse>;

/** The contract's `per_page` maximum for metafields. */
export const MAX_METAFIELDS_PER_PAGE = 200;

const includeOption = z.enum(["0", "1"]);

/** The scope a request sends (`Metafield Scope`). */
export const metafieldScopeRequest = z.object({
  csv: includeOption.optional(),
  invoices: includeOption.optional(),
  statements: includeOption.optional(),
  portal: includeOption.optional(),
  public_show: includeOption.optional(),
  public_edit: includeOption.optional(),
  hosted: z.array(z.string()).optional(),
});

/** `POST /{resource_type}/metafields.json` body (`Create Metafields Request`), one metafield, with the SDK's `uniqueness_token`. */
export const metafieldCreateRequest = z.object({
  metafields: z.object({
    name: z.string().min(1),
    input_type: z.enum(["text", "radio", "dropdown"]).optional(),
    enum: z.array(z.string()).optional(),
    scope: metafieldScopeRequest.optional(),
  }),
  uniqueness_token: z.string().optional(),
});

/** `PUT /{resource_type}/metafields.json` body (`Update Metafields Request`): the field by `current_name`, its new values. */
export const metafieldUpdateRequest = z.object({
  metafields: z.object({
    current_name: z.string().min(1),
    name: z.string().min(1).optional(),
    input_type: z.enum(["text", "radio", "dropdown"]).optional(),
    enum: z.array(z.string()).optional(),
    scope: metafieldScopeRequest.optional(),
  }),
});
