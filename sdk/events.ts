import { WEBHOOK_EVENTS, type WebhookEvent } from "./wire";

/**
 * The accepted event keys, for messages: listed in full, as a Pulumi user reads the message in the
 * CLI's output, where a name in this package's source (WEBHOOK_EVENTS, a file path) means nothing.
 */
export const EVENT_KEYS_ARE_LISTED = `the accepted events are ${WEBHOOK_EVENTS.join(", ")}`;

const KNOWN: ReadonlySet<string> = new Set(WEBHOOK_EVENTS);

export const isWebhookEvent = (v: unknown): v is WebhookEvent => typeof v === "string" && KNOWN.has(v);

/** Levenshtein distance (insertions, deletions, substitutions), two rows. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}

const words = (key: string): string => key.split("_").filter(Boolean).sort().join("_");

/**
 * The webhook event key closest to `s`, for a "did you mean" hint. `s` is read
 * in lower case with spaces and dashes as underscores; then, in this order:
 * the key with the same words in another order ("card_expiring" →
 * "expiring_card"); the key at the smallest edit distance, when that distance
 * is small for the text (at most 2, or a third of its length; ties go to the
 * key listed first in {@link WEBHOOK_EVENTS}): "payment_failed" →
 * "payment_failure"; the only key that starts with the text's words
 * ("invoice" → "invoice_issued"). Otherwise undefined.
 */
export function closestEventKey(s: string): WebhookEvent | undefined {
  if (typeof s !== "string") return undefined;
  const text = s
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
  if (text.length === 0 || text.length > 200) return undefined;
  const sameWords = WEBHOOK_EVENTS.find((key) => words(key) === words(text));
  if (sameWords) return sameWords;
  let best: WebhookEvent | undefined;
  let bestDistance = Infinity;
  for (const key of WEBHOOK_EVENTS) {
    const d = editDistance(text, key);
    if (d < bestDistance) {
      best = key;
      bestDistance = d;
    }
  }
  if (bestDistance <= Math.max(2, Math.floor(text.length / 3))) return best;
  const prefixed = WEBHOOK_EVENTS.filter((key) => key.startsWith(`${text.replace(/_+$/, "")}_`));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}
