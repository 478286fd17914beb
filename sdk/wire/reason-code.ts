import { z } from "zod";
import { maybe, timestamp, wireId } from "./common";

/** Churn reason codes, as read: `code`, `description` and `position` may be null or absent. */

/** `Reason Code`. */
export const reasonCode = z.object({
  id: wireId,
  site_id: maybe(z.number().int()),
  code: maybe(z.string()),
  description: maybe(z.string()),
  position: maybe(z.number().int()),
  created_at: maybe(timestamp),
  updated_at: maybe(timestamp),
});
/** A reason code as {@link reasonCode} reads it, before the SDK turns it into its `ReasonCode` result. */
export type ReasonCode = z.infer<typeof reasonCode>;

/** `Reason Code Response`: `{ reason_code }` (create, read, update). */
export const reasonCodeResponse = z.object({ reason_code: reasonCode });
/** The answer {@link reasonCodeResponse} reads. */
export type ReasonCodeResponse = z.infer<typeof reasonCodeResponse>;

/** `GET /reason_codes.json`: a bare array of `{ reason_code }`; an entry with id 0 (a placeholder) is read, then left out. */
export const reasonCodeListResponse = z.array(z.object({ reason_code: reasonCode.extend({ id: z.number().int().nonnegative() }) }));
/** The answer {@link reasonCodeListResponse} reads. */
export type ReasonCodeListResponse = z.infer<typeof reasonCodeListResponse>;

/**
 * `DELETE /reason_codes/{id}.json`: the contract's `{ "ok": "ok" }`. Any 2xx is the deletion: its body says
 * nothing else, so none is required.
 */
export const reasonCodeDeleteResponse = z.unknown();

/** The contract's `per_page` maximum for reason codes. */
export const MAX_REASON_CODES_PER_PAGE = 200;

/** `POST /reason_codes.json` body (`Create Reason Code Request`), with the SDK's `uniqueness_token`. */
export const reasonCodeCreateRequest = z.object({
  reason_code: z.object({ code: z.string().min(1), description: z.string().min(1), position: z.number().int().optional() }),
  uniqueness_token: z.string().optional(),
});

/** `PUT /reason_codes/{id}.json` body (`Update Reason Code Request`): the fields given. */
export const reasonCodeUpdateRequest = z.object({
  reason_code: z.object({ code: z.string().optional(), description: z.string().optional(), position: z.number().int().optional() }),
});
