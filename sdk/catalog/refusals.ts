import { BillingApiError, type BillingError } from "../errors";
import { serviceMessages } from "../outcome";
import { type ApiRequest, type Exchange, failureOf } from "../transport";

/**
 * The service's refusals of a catalog write, in the caller's words. The service answers a 422 in
 * three shapes (the vendor's published examples):
 *
 * - a list: `{"errors":["Name: cannot be blank."]}`, each message led by the field's label;
 * - fields: `{"errors":{"interval":["Recurring Interval: must be greater than or equal to 1."]}}`
 *   (a value may also be a single string: `{"errors":{"price_point":"can't be blank"}}`);
 * - a bulk create's indexed keys, at the top level: `{"price_points[1].interval":["…"]}`.
 *
 * Each message comes out as `property: message`, the property named as the caller gave it
 * (`priceInCents`, `[1].handle`) where a mapping exists, the label dropped when it names the same field.
 */

/** The service's field labels (as its messages begin) and keys, to the caller's property. */
const LABELS: Readonly<Record<string, string>> = {
  name: "name",
  handle: "handle",
  "api handle": "handle",
  description: "description",
  "accounting code": "accountingCode",
  "tax code": "taxCode",
  price: "priceInCents",
  "price in cents": "priceInCents",
  interval: "interval",
  "recurring interval": "interval",
  "interval unit": "intervalUnit",
  "trial price": "trialPriceInCents",
  "trial price in cents": "trialPriceInCents",
  "trial interval": "trialInterval",
  "trial interval unit": "trialIntervalUnit",
  "trial type": "trialType",
  "initial charge": "initialChargeInCents",
  "initial charge in cents": "initialChargeInCents",
  "expiration interval": "expirationInterval",
  "expiration interval unit": "expirationIntervalUnit",
  "unit name": "unitName",
  "pricing scheme": "pricingScheme",
  "starting quantity": "startingQuantity",
  "ending quantity": "endingQuantity",
  "unit price": "unitPrice",
  code: "code",
  percentage: "percentage",
  "amount in cents": "amountInCents",
  currency: "currency",
};

/** Wire keys whose caller property is not their camelCase. */
const KEYS: Readonly<Record<string, string>> = { price: "priceInCents" };

const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** A wire key as the caller's property: `price_in_cents` → `priceInCents`, `price_points[1].handle` → `[1].handle`. */
export function propertyOfKey(key: string): string {
  const indexed = /^[a-z_]+\[(\d+)\]\.(.+)$/.exec(key);
  if (indexed) return `[${indexed[1]}].${propertyOfKey(indexed[2])}`;
  return KEYS[key] ?? camel(key);
}

/**
 * `Label: message` → the label's property and the message, when the label is one the service uses; also the
 * unlabelled `Label must …` a component create answers for a taken handle ("Handle must be unique within a Site.",
 * the contract's createPrepaidUsageComponent example, beside "Name: must be unique - that value has been taken.").
 */
function labelled(message: string): { property: string; rest: string } | undefined {
  const m = /^([A-Za-z][A-Za-z ]{0,40}): (.+)$/s.exec(message) ?? /^([A-Za-z][A-Za-z ]{0,40}?) (must .+)$/s.exec(message);
  const property = m ? LABELS[m[1].toLowerCase()] : undefined;
  return m && property ? { property, rest: m[2] } : undefined;
}

/** A field's messages, each as `property: message`, its label dropped when it names the same field. */
function fieldMessages(key: string, value: unknown): string[] {
  const messages = (Array.isArray(value) ? value : [value]).filter((m): m is string => typeof m === "string");
  // Rails' "base": the object as a whole, no field to name.
  if (key === "base") return messages;
  const property = propertyOfKey(key);
  // The field itself: `[1].handle` → handle, `prices.endingQuantity` (a nested key) → endingQuantity.
  const leaf = property.replace(/^\[\d+\]\./, "").replace(/^.*\./, "");
  return messages.map((m) => {
    const l = labelled(m);
    return `${property}: ${l && l.property === leaf ? l.rest : m}`;
  });
}

/** The messages of a refusal's body in the caller's words; empty when the body has none of the three shapes. */
export function catalogErrorMessages(body: unknown): string[] {
  if (typeof body === "string") return body.trim() ? [body.trim()] : [];
  if (typeof body !== "object" || body === null || Array.isArray(body)) return [];
  const b = body as Record<string, unknown>;
  if (Array.isArray(b.errors)) {
    return b.errors
      .filter((e): e is string => typeof e === "string")
      .map((e) => {
        const l = labelled(e);
        return l ? `${l.property}: ${l.rest}` : e;
      });
  }
  if (typeof b.errors === "object" && b.errors !== null) return Object.entries(b.errors).flatMap(([k, v]) => fieldMessages(k, v));
  if (typeof b.errors === "string") return [b.errors];
  if (typeof b.error === "string") return [b.error];
  // The bulk create's shape: field keys at the top level.
  return Object.entries(b).flatMap(([k, v]) => fieldMessages(k, v));
}

/**
 * The typed error for a catalog write that did not succeed: a refusal's messages in the caller's
 * words, anything else as the transport words it.
 */
export function catalogFailure(req: Pick<ApiRequest, "method" | "path">, x: Exchange): BillingError {
  const o = x.outcome;
  if (o.kind !== "refused") return failureOf(req, x);
  const mapped = catalogErrorMessages(o.body);
  return new BillingApiError({
    status: o.status,
    errors: mapped.length > 0 ? mapped : serviceMessages(o),
    method: req.method,
    path: req.path,
    mayHaveApplied: x.mayHaveApplied,
  });
}
