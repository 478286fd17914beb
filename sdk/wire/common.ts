import { z } from "zod";

/**
 * Identifiers on the wire are JSON integers. The service's ids are 64-bit, but
 * every id this package handles is a JavaScript number, so anything past 2^53
 * is refused rather than silently rounded.
 */
export const wireId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** Money is integer cents; negative values are credits. */
export const cents = z.number().int();

/** ISO-8601 timestamp as the service sends it; `null` where the contract allows it. */
export const timestamp = z.string();
