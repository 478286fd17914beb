import { z } from "zod";

/**
 * Identifiers of subscriptions, products and price points are JSON integers.
 * The service's ids are 64-bit, but these stay well below 2^53 in practice;
 * one past it is refused rather than silently rounded.
 */
export const wireId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** What {@link wireId} accepts, as a plain predicate. */
export const isWireId = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v > 0;

/** Largest int64: the contract's `format: int64` for webhook ids. */
export const MAX_INT64 = 2n ** 63n - 1n;

/**
 * A webhook id (int64). Below 2^53 it is a number; above, the decimal text
 * the transport kept from the answer's source (see `parseJsonExact`), so it is
 * sent back exactly.
 */
export type WebhookId = number | string;

/** A positive int64 as decimal text: what a big webhook id looks like here. */
export const isInt64Text = (v: unknown): v is string => typeof v === "string" && /^[1-9]\d{0,18}$/.test(v) && BigInt(v) <= MAX_INT64;

/** A webhook id as read and sent: {@link wireId}'s number, or the decimal text of one above 2^53. */
export const wireWebhookId = z.custom<WebhookId>((v) => isWireId(v) || isInt64Text(v), {
  error: "must be a positive int64 webhook id",
});

/**
 * A list of ids, checked in one pass. A per-element schema costs about 0.3 µs
 * an id, which a 1000-id replay body paid on both sides of every request.
 */
export const wireIdList = (min: number, max: number) =>
  z.custom<WebhookId[]>((v) => Array.isArray(v) && v.length >= min && v.length <= max && v.every((x) => isWireId(x) || isInt64Text(x)), {
    error: `must be an array of ${min} to ${max} positive integer ids`,
  });

/** Money is integer cents; negative values are credits. */
export const cents = z.number().int();

/** ISO-8601 timestamp as the service sends it. Not parsed: nothing here computes with it. */
export const timestamp = z.string();

/**
 * A field this package reads but can live without: the vendor's examples send
 * `null` or leave out most fields, and a field being absent must never make a
 * whole answer unreadable.
 */
export const maybe = <T extends z.ZodType>(t: T) => t.nullable().optional();
