import { z } from "zod";
import { integer, valueText } from "../input-values";

/**
 * A component's prices: the pricing scheme and its tiers, and the tier rules checked before
 * anything is sent. The service's own rules (the vendor's "Price Bracket Rules", which the contract
 * links): tiers ascend without gap or overlap, each starting one past the previous one's end, the
 * first at 1, and only the last open-ended.
 */

/** The pricing schemes the contract lists. */
export const PRICING_SCHEMES = ["per_unit", "volume", "tiered", "stairstep"] as const;

/** A component's pricing scheme. */
export const pricingScheme = z.enum(PRICING_SCHEMES, {
  error: (i) => `must be "per_unit", "volume", "tiered" or "stairstep", got ${valueText(i.input)}`,
});

const PRICE = 'a price of at least 0 with at most 8 decimal places, as a number (2.5) or decimal text ("0.00000065")';

/**
 * A unit price: a number or decimal text, at least 0, at most 8 decimal places (the contract's
 * "The price can contain up to 8 decimal places"). Text is sent as given, so no float rounds it.
 */
// A number's 8th decimal place is its last: 6.5e-7 (0.00000065) is accepted, 1e-9 is not.
export const unitPrice = z
  .union([z.number(), z.string()], { error: (i) => `must be ${PRICE}, got ${valueText(i.input)}` })
  .refine((v) => (typeof v === "number" ? Number.isFinite(v) && v >= 0 && Number(v.toFixed(8)) === v : /^\d+(\.\d{1,8})?$/.test(v)), {
    error: (i) => `must be ${PRICE}, got ${valueText(i.input)}`,
  });

/** One tier. */
export const priceTier = z
  .object(
    {
      startingQuantity: integer(1, "a whole number, 1 or more").describe(
        "The first quantity this tier prices: 1 for the first tier, one past the previous tier's endingQuantity for the others.",
      ),
      endingQuantity: integer(1, "a whole number, 1 or more")
        .optional()
        .describe(
          "The last quantity this tier prices (at least its startingQuantity); left out on the last tier only, which is open-ended.",
        ),
      unitPrice: unitPrice.describe(
        'The price per unit in this tier, in the site\'s currency (not cents): a number or decimal text ("0.0012"), at most 8 decimal places.',
      ),
    },
    { error: "must be an object { startingQuantity, endingQuantity?, unitPrice }" },
  )
  .strict();

const isInt = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v);

/**
 * The tier rules, on the raw `prices` (so they run even when another field failed, and one bad
 * value never hides another rule): at least one tier; the first starts at 1; each starts at the
 * previous one's end + 1 (no gap, no overlap, ascending); each ends after its start (the service's rule); only the
 * last is open-ended, and it is; per_unit takes exactly one tier. Issues are placed at
 * `[...at, i, field]` and name the tier as `prices[i]`.
 */
export function tierRule(raw: unknown, scheme: unknown, ctx: z.RefinementCtx, at: (string | number)[] = ["prices"]): void {
  if (!Array.isArray(raw)) return;
  const name = at.join(".");
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path: [...at, ...path], message });
  if (raw.length === 0) {
    issue([], `must hold at least one tier: { startingQuantity: 1, unitPrice } (open-ended) for one price for every quantity`);
    return;
  }
  if (scheme === "per_unit" && raw.length > 1)
    issue(
      [],
      `must hold exactly one tier with pricingScheme "per_unit" ({ startingQuantity: 1, unitPrice }), got ${raw.length}: tiers need "volume", "tiered" or "stairstep"`,
    );
  const last = raw.length - 1;
  raw.forEach((t, i) => {
    if (typeof t !== "object" || t === null) return;
    const { startingQuantity: start, endingQuantity: end } = t as Record<string, unknown>;
    const tier = `${name}[${i}]`;
    if (i === 0 && isInt(start) && start !== 1)
      issue([0, "startingQuantity"], `must be 1: the first tier (${tier}) starts at 1, got ${start}`);
    if (i > 0) {
      const prev = raw[i - 1] as Record<string, unknown> | null;
      const prevEnd = typeof prev === "object" && prev !== null ? prev.endingQuantity : undefined;
      if (isInt(prevEnd) && isInt(start) && start !== prevEnd + 1)
        issue(
          [i, "startingQuantity"],
          start <= prevEnd
            ? `must be ${prevEnd + 1} (one past ${name}[${i - 1}]'s endingQuantity ${prevEnd}): ${tier} starting at ${start} overlaps ${name}[${i - 1}]`
            : `must be ${prevEnd + 1} (one past ${name}[${i - 1}]'s endingQuantity ${prevEnd}): ${tier} starting at ${start} leaves quantities ${prevEnd + 1}–${start - 1} unpriced`,
        );
    }
    // Greater, not equal: the service's own refusal (the contract's update-price-point 422 example) is
    // "Ending quantity: must be greater than the low end bracket quantity, if given".
    if (isInt(start) && isInt(end) && end <= start)
      issue(
        [i, "endingQuantity"],
        `must be greater than ${tier}'s startingQuantity ${start} (a tier spans at least two quantities; tiers ascend), got ${end}`,
      );
    if (i < last && end === undefined) {
      const next = raw[i + 1] as Record<string, unknown> | null;
      const nextStart = typeof next === "object" && next !== null ? next.startingQuantity : undefined;
      issue(
        [i, "endingQuantity"],
        `is required: only the last tier is open-ended, and ${tier} is followed by ${name}[${i + 1}]${isInt(nextStart) ? ` (starting at ${nextStart}, so ${tier} would end at ${nextStart - 1})` : ""}`,
      );
    }
    if (i === last && end !== undefined)
      issue(
        [i, "endingQuantity"],
        `must be left out: the last tier (${tier}) is open-ended, pricing every quantity from its startingQuantity up`,
      );
  });
}
