import { z } from "zod";
import { isInt64Text, isWireId, webhookStatus, type WebhookId } from "./wire";

/**
 * Input schemas of the SDK's methods, in the camelCase users write. The Pulumi
 * providers validate their inputs with these same schemas in `check`, so a bad
 * value fails with one message whether it came through the SDK or a stack.
 */

const describe = (v: unknown): string => {
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === "number" || typeof v === "boolean" || v === null) return String(v);
  return Array.isArray(v) ? "an array" : typeof v;
};

/** A positive safe integer id, with a message that says what is accepted. */
export const positiveId = z.unknown().transform((v, ctx) => {
  if (typeof v === "number" && Number.isSafeInteger(v) && v > 0) return v;
  ctx.addIssue({ code: "custom", message: `must be a positive integer id, got ${describe(v)}` });
  return z.NEVER;
});

const handle = z.string({ error: (i) => `must be a non-empty handle string, got ${describe(i.input)}` })
  .min(1, "must be a non-empty handle string")
  .max(255, "must be at most 255 characters");

const flag = z.boolean({ error: (i) => `must be true or false, got ${describe(i.input)}` });

/** Migration target and options (`migrateSubscription`, `previewMigration`). */
export const migrationInput = z.object({
  productId: positiveId.optional(),
  productHandle: handle.optional(),
  pricePointId: positiveId.optional(),
  pricePointHandle: handle.optional(),
  includeTrial: flag.optional(),
  includeInitialCharge: flag.optional(),
  includeCoupons: flag.optional(),
  preservePeriod: flag.optional(),
}, { error: "must be an object" }).strict().superRefine((raw, ctx) => {
  // Runs even when a field failed (`when` below), so one bad field never hides a missing product.
  if (typeof raw !== "object" || raw === null) return;
  const m = raw as Record<string, unknown>;
  const hasId = m.productId !== undefined;
  const hasHandle = m.productHandle !== undefined;
  if (hasId === hasHandle) {
    ctx.addIssue({
      code: "custom", path: ["productId"],
      message: hasId
        ? "give exactly one of productId or productHandle, not both"
        : "give exactly one of productId or productHandle (the target product)",
    });
  }
  if (m.pricePointId !== undefined && m.pricePointHandle !== undefined) {
    ctx.addIssue({
      code: "custom", path: ["pricePointId"],
      message: "give at most one of pricePointId or pricePointHandle (neither selects the product's default price point)",
    });
  }
}, { when: () => true });
export type MigrationInput = z.input<typeof migrationInput>;

/**
 * Webhook ids to replay: any number of them; the SDK batches. Ids are int64:
 * give one above 2^53 as its decimal text ("9007199254740993") and it is
 * sent exactly; a number that large has already lost digits and is refused.
 * Decimal text of a smaller id becomes that number, so "5001" and 5001 are
 * the same id.
 */
// One pass over the array, not a schema per element: replays may carry millions of ids.
export const replayIdsInput = z.custom<unknown[]>((v) => Array.isArray(v), { error: "must be an array of webhook ids" })
  .superRefine((ids, ctx) => {
    const bad: string[] = [];
    for (let i = 0; i < ids.length; i++) {
      if (!isWireId(ids[i]) && !isInt64Text(ids[i])) bad.push(`[${i}] ${describe(ids[i])}`);
    }
    if (bad.length > 0) {
      const shown = bad.slice(0, 10).join(", ") + (bad.length > 10 ? `, … ${bad.length - 10} more` : "");
      ctx.addIssue({
        code: "custom",
        message: "must contain only webhook ids: positive integers, or decimal strings for ids above 2^53 " +
          `(int64, up to 9223372036854775807); bad entries: ${shown}`,
      });
    }
  })
  .transform((ids): WebhookId[] => {
    if (!ids.some((id) => typeof id === "string")) return ids as number[];
    return ids.map((id) => (typeof id === "string" && Number.isSafeInteger(Number(id)) ? Number(id) : (id as WebhookId)));
  });

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date as YYYY-MM-DD");

/** Filter of `listWebhooks`. */
export const webhookFilterInput = z.object({
  status: webhookStatus.optional(),
  sinceDate: isoDate.optional(),
  untilDate: isoDate.optional(),
  subscriptionId: positiveId.optional(),
}, { error: "must be an object" }).strict().superRefine((raw, ctx) => {
  if (typeof raw !== "object" || raw === null) return;
  const f = raw as Record<string, unknown>;
  const date = (v: unknown): v is string => typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v);
  if (date(f.sinceDate) && date(f.untilDate) && f.sinceDate > f.untilDate) {
    ctx.addIssue({ code: "custom", path: ["untilDate"], message: `must not be before sinceDate (${f.sinceDate})` });
  }
}, { when: () => true });
export type WebhookFilter = z.input<typeof webhookFilterInput>;
