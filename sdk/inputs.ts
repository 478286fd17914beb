import { z } from "zod";
import { closestEventKey, EVENT_KEYS_ARE_LISTED, isWebhookEvent } from "./events";
import { flag, valueText } from "./input-values";
import { isInt64Text, isWireId, type WebhookEvent, type WebhookId, webhookStatus } from "./wire";

export * from "./catalog/inputs";
/** The input types, each field documented: generated from the schemas below by `npm run docs`. */
export type {
  MigrationInput,
  PricePointInput,
  PricePointUpdateInput,
  PricingInput,
  ProductFamilyInput,
  ProductInput,
  ProductUpdateInput,
  WebhookFilter,
} from "./generated/inputs";
export { flag, valueText } from "./input-values";

/**
 * Input schemas of the SDK's methods, in the camelCase users write. The Pulumi
 * providers validate their inputs with these same schemas in `check`, so a bad
 * value fails with one message whether it came through the SDK or a stack.
 */

/** A positive safe integer id, with a message that says what is accepted. */
export const positiveId = z
  .unknown()
  .transform((v, ctx) => {
    if (typeof v === "number" && Number.isSafeInteger(v) && v > 0) return v;
    ctx.addIssue({ code: "custom", message: `must be a positive integer id, got ${valueText(v)}` });
    return z.NEVER;
  })
  // What it accepts, for JSON Schema (docs, the plugin's schema): the transform hides it from zod's own conversion.
  .meta({ type: "integer", minimum: 1 });

const handle = z
  .string({ error: (i) => `must be a non-empty handle string, got ${valueText(i.input)}` })
  .min(1, "must be a non-empty handle string")
  .max(255, "must be at most 255 characters");

/**
 * The migration's cross-field rules: exactly one product, at most one price
 * point. They depend on which fields are present, not on their values, so the
 * providers keep them when a value is still unknown at preview (`presence`).
 */
export function migrationTargetRule(raw: unknown, ctx: z.RefinementCtx): void {
  if (typeof raw !== "object" || raw === null) return;
  const m = raw as Record<string, unknown>;
  const hasId = m.productId !== undefined;
  const hasHandle = m.productHandle !== undefined;
  if (hasId === hasHandle) {
    ctx.addIssue({
      code: "custom",
      path: ["productId"],
      params: { presence: true },
      message: hasId
        ? "give exactly one of productId or productHandle, not both"
        : "give exactly one of productId or productHandle (the target product)",
    });
  }
  if (m.pricePointId !== undefined && m.pricePointHandle !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["pricePointId"],
      params: { presence: true },
      message: "give at most one of pricePointId or pricePointHandle (neither selects the product's default price point)",
    });
  }
}

/** Migration target and options (`migrateSubscription`, `previewMigration`). */
export const migrationInput = z
  .object(
    {
      productId: positiveId.optional().describe("The target product's id (in any family); give this or productHandle, not both."),
      productHandle: handle
        .optional()
        .describe(
          "The target product's handle; give this or productId. Moving to another family does not carry components or coupons along.",
        ),
      pricePointId: positiveId
        .optional()
        .describe("The target price point's id; with neither this nor pricePointHandle, the product's default."),
      pricePointHandle: handle.optional().describe("The target price point's handle; give at most one of this and pricePointId."),
      includeTrial: flag
        .optional()
        .describe("Start the new period with the price point's trial (default false); ignored with preservePeriod."),
      includeInitialCharge: flag.optional().describe("Assess the price point's initial charge (default false)."),
      includeCoupons: flag.optional().describe("Apply the subscription's coupons to the migration (default true)."),
      preservePeriod: flag
        .optional()
        .describe(
          "Keep the billing period and charge a prorated amount (default false), instead of restarting the period today at the full price.",
        ),
    },
    { error: "must be an object" },
  )
  .strict()
  // Runs even when a field failed (`when`), so one bad field never hides a missing product.
  .superRefine(migrationTargetRule, { when: () => true });

/**
 * Webhook ids to replay: any number of them; the SDK batches. Ids are int64:
 * give one above 2^53 as its decimal text ("9007199254740993") and it is
 * sent exactly; a number that large has already lost digits and is refused.
 * Decimal text of a smaller id becomes that number, so "5001" and 5001 are
 * the same id.
 */
// One pass over the array, not a schema per element: replays may carry millions of ids. An array of
// unknown, not z.custom: zod 4 aborts the enclosing object on a failed custom check, which would skip the
// replay's "exactly one of ids or selector" rule (`when: () => true` notwithstanding) when ids is bad or
// still unknown at preview.
export const replayIdsInput = z
  .array(z.unknown(), { error: "must be an array of webhook ids" })
  .superRefine((ids, ctx) => {
    const bad: string[] = [];
    for (let i = 0; i < ids.length; i++) {
      if (!isWireId(ids[i]) && !isInt64Text(ids[i])) bad.push(`[${i}] ${valueText(ids[i])}`);
    }
    if (bad.length > 0) {
      const shown = bad.slice(0, 10).join(", ") + (bad.length > 10 ? `, … ${bad.length - 10} more` : "");
      ctx.addIssue({
        code: "custom",
        message:
          "must contain only webhook ids: positive integers, or decimal strings for ids above 2^53 " +
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
export const webhookFilterInput = z
  .object(
    {
      status: webhookStatus.optional().describe("Webhooks in this delivery status."),
      sinceDate: isoDate.optional().describe("Webhooks created on or after this date (YYYY-MM-DD)."),
      untilDate: isoDate.optional().describe("Webhooks created on or before this date (YYYY-MM-DD)."),
      subscriptionId: positiveId.optional().describe("Only this subscription's webhooks."),
    },
    { error: "must be an object" },
  )
  .strict()
  .superRefine(
    (raw, ctx) => {
      if (typeof raw !== "object" || raw === null) return;
      const f = raw as Record<string, unknown>;
      const date = (v: unknown): v is string => typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v);
      if (date(f.sinceDate) && date(f.untilDate) && f.sinceDate > f.untilDate) {
        ctx.addIssue({ code: "custom", path: ["untilDate"], message: `must not be before sinceDate (${f.sinceDate})` });
      }
    },
    { when: () => true },
  );

/** Longest endpoint url accepted (the contract sets none; URLs past 2048 characters are not reliably handled anywhere). */
export const MAX_ENDPOINT_URL_LENGTH = 2048;

/** Hosts an endpoint may be reached at over plain http: local receivers and the simulator. */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * A webhook endpoint's url: an absolute https URL, sent exactly as written (the
 * service stores it as given, and a read-back compares it as text). http only for
 * localhost, 127.0.0.1 and [::1].
 */
export const endpointUrl = z.unknown().transform((v, ctx): string => {
  const fail = (message: string): never => {
    ctx.addIssue({ code: "custom", message });
    return z.NEVER as never;
  };
  if (v === undefined) return fail("is required: an absolute https URL such as https://example.com/webhooks");
  if (typeof v !== "string") return fail(`must be an absolute https URL such as https://example.com/webhooks, got ${valueText(v)}`);
  if (v.length > MAX_ENDPOINT_URL_LENGTH) return fail(`must be at most ${MAX_ENDPOINT_URL_LENGTH} characters, got ${v.length}`);
  // The URL parser would quietly drop or encode these; the service would get something else than what was written.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point (they are refused)
  if (/[\s\u0000-\u001f\u007f-\u009f]/.test(v)) return fail(`must not contain spaces or control characters, got ${valueText(v)}`);
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    return fail(`must be an absolute URL such as https://example.com/webhooks, got ${valueText(v)}`);
  }
  // "https:/host/x" and "https:///host/x" parse (the parser mends the slashes): refused, since they are sent as written.
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/]/i.test(v)) return fail(`must start with https:// and a host, got ${valueText(v)}`);
  if (url.protocol === "https:") return v;
  if (url.protocol === "http:") {
    if (LOOPBACK_HOSTS.has(url.hostname)) return v;
    return fail(`must use https (http only for localhost, 127.0.0.1 or [::1]), got http for ${valueText(url.hostname)}`);
  }
  return fail(`must be an https URL, got a ${url.protocol.slice(0, -1)} URL`);
});

/**
 * The events of an endpoint: keys of {@link WEBHOOK_EVENTS}, order and duplicates
 * ignored; the output is sorted and distinct. An unknown key is named, with the
 * closest valid one.
 */
const eventKeys = (allowEmpty: boolean) =>
  z.unknown().transform((v, ctx): WebhookEvent[] => {
    if (!Array.isArray(v)) {
      ctx.addIssue({
        code: "custom",
        message: `must be an array of webhook event keys such as ["payment_success"], got ${valueText(v)}; ${EVENT_KEYS_ARE_LISTED}`,
      });
      return z.NEVER as never;
    }
    if (v.length === 0 && !allowEmpty) {
      ctx.addIssue({
        code: "custom",
        message: `must name at least one webhook event (an endpoint subscribed to nothing receives nothing); ${EVENT_KEYS_ARE_LISTED}`,
      });
      return z.NEVER as never;
    }
    // Every bad entry is named at its index, without a cap: a cap counted entries a caller cannot judge yet (a
    // provider's values unknown at preview) and hid a bad key behind them; a list of event keys is short anyway.
    let bad = 0;
    v.forEach((key: unknown, i) => {
      if (isWebhookEvent(key)) return;
      bad++;
      const hint = typeof key === "string" ? closestEventKey(key) : undefined;
      ctx.addIssue({
        code: "custom",
        path: [i],
        message:
          typeof key === "string"
            ? `${valueText(key)} is not a webhook event key${hint ? `; did you mean "${hint}"?` : ""} (${EVENT_KEYS_ARE_LISTED})`
            : `must be a webhook event key (a string), got ${valueText(key)}; ${EVENT_KEYS_ARE_LISTED}`,
      });
    });
    if (bad > 0) return z.NEVER as never;
    return [...new Set(v as WebhookEvent[])].sort();
  });

const endpointShape = (allowEmptyEvents: boolean) =>
  z
    .object(
      {
        url: endpointUrl,
        events: eventKeys(allowEmptyEvents),
      },
      { error: "must be an object { url, events }" },
    )
    .strict();

/**
 * A webhook endpoint to create (`createEndpoint`): `url`, an absolute https URL
 * (http only for localhost, 127.0.0.1, [::1]) of at most 2048 characters, and
 * `events`, a non-empty array of keys of {@link WEBHOOK_EVENTS}.
 */
export const endpointInput = endpointShape(false);

/**
 * The same for `updateEndpoint`, which sends the complete list: there `events`
 * may be empty, which unsubscribes the endpoint from every event.
 */
export const endpointUpdateInput = endpointShape(true);

/** What `createEndpoint` and `updateEndpoint` take. */
export interface EndpointInput {
  /**
   * Where the service sends the webhooks: an absolute https URL (http only for localhost, 127.0.0.1 and
   * [::1]), at most 2048 characters, no spaces. Sent and stored exactly as written.
   */
  readonly url: string;
  /** Event keys ({@link WEBHOOK_EVENTS}); order and duplicates do not matter. */
  readonly events: readonly (WebhookEvent | (string & {}))[];
}
