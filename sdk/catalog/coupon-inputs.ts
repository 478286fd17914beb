import { z } from "zod";
import { flag, integer, valueText } from "../input-values";
import { name as catalogName, text } from "./text";

/** What callers give to create and change coupons. */

const CODE_RULE = 'uppercase letters, digits and "%", "@", "+", "-", "_", "."';

/**
 * A coupon's code: 1 or more of {@link CODE_RULE} (the contract's `code`: "may contain uppercase
 * alphanumeric characters and these special characters (which allow for email addresses to be
 * used): “%”, “@”, “+”, “-”, “_”, and “.”"). The contract states no length limit; 255 is assumed, as
 * for the service's other text fields.
 */
export const couponCode = z
  .string({ error: (i) => `must be a coupon code (a string of ${CODE_RULE}), got ${valueText(i.input)}` })
  .min(1, `must not be empty: a code is ${CODE_RULE}`)
  .max(255, "must be at most 255 characters")
  .regex(/^[A-Z0-9%@+\-_.]+$/, {
    error: (i) => {
      const s = String(i.input);
      const hint = s.toUpperCase() !== s && /^[A-Z0-9%@+\-_.]+$/.test(s.toUpperCase()) ? ` (uppercase: "${s.toUpperCase()}")` : "";
      return `must be only ${CODE_RULE}${hint}, got ${valueText(i.input)}`;
    },
  });

const ids = (what: string) =>
  z
    .array(integer(1, `a ${what} id, a whole number, 1 or more`), { error: `must be an array of ${what} ids` })
    .refine((a) => new Set(a).size === a.length, { error: `must not name a ${what} twice` });

const PERCENT = "a percentage above 0 and at most 100 (15 for 15%)";

const couponObject = z
  .object(
    {
      code: couponCode.describe(`The code customers enter: ${CODE_RULE}. Unique among the site's coupons.`),
      name: catalogName().describe("The coupon's name."),
      description: text("a description").optional().describe("The coupon's description."),
      percentage: z
        .number({ error: (i) => `must be ${PERCENT}, got ${valueText(i.input)}` })
        .refine((v) => Number.isFinite(v) && v > 0 && v <= 100, { error: (i) => `must be ${PERCENT}, got ${valueText(i.input)}` })
        .optional()
        .describe("A percentage discount (15 for 15%); exactly one of percentage and amountInCents."),
      amountInCents: integer(1, "a whole number of cents, 1 or more (1000 for 10.00)")
        .optional()
        .describe("A flat discount in integer cents; exactly one of percentage and amountInCents."),
      recurring: flag.optional().describe("Whether the discount applies every period (true) or only to the first charge."),
      durationPeriodCount: integer(1, "a whole number of periods, 1 or more")
        .optional()
        .describe(
          "With recurring: for how many periods the discount applies (default: indefinitely). The contract's answers carry it (duration_period_count); its request schema does not list it, the service's older documentation does.",
        ),
      endDate: z
        .string({ error: (i) => `must be an ISO-8601 date-time (a string), got ${valueText(i.input)}` })
        .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/, {
          error: (i) => `must be an ISO-8601 date or date-time ("2026-12-31" or "2026-12-31T23:59:59Z"), got ${valueText(i.input)}`,
        })
        .optional()
        .describe("When the coupon stops being accepted (ISO-8601)."),
      stackable: flag.optional().describe("Whether the coupon combines with other coupons on a subscription."),
      compoundingStrategy: z
        .enum(["compound", "full-price"], { error: (i) => `must be "compound" or "full-price", got ${valueText(i.input)}` })
        .optional()
        .describe('With stackable: "compound" (applied after other coupons) or "full-price" (on the full price).'),
      allowNegativeBalance: flag.optional().describe("Whether a flat discount may exceed the charge (a credit)."),
      excludeMidPeriodAllocations: flag.optional().describe("Whether mid-period component allocations are left undiscounted."),
      applyOnCancelAtEndOfPeriod: flag
        .optional()
        .describe("Whether the discount applies to the last period of a subscription canceled at its end."),
      applyOnSubscriptionExpiration: flag.optional().describe("Whether the discount applies to the charge at a subscription's expiration."),
      restrictedProducts: ids("product")
        .optional()
        .describe("The site's product ids the coupon is limited to (ids differ per site: resolve handles first). Default: all."),
      restrictedComponents: ids("component")
        .optional()
        .describe("The site's component ids the coupon is limited to (ids differ per site). Default: all."),
    },
    { error: "must be an object { code, name, percentage | amountInCents, … }" },
  )
  .strict();

/** Exactly one of `percentage` and `amountInCents`; a duration only on a recurring coupon. */
export function couponRule(raw: unknown, ctx: z.RefinementCtx): void {
  if (typeof raw !== "object" || raw === null) return;
  const o = raw as Record<string, unknown>;
  const p = o.percentage !== undefined;
  const a = o.amountInCents !== undefined;
  if (p && a)
    ctx.addIssue({
      code: "custom",
      path: ["amountInCents"],
      message: "must be left out with percentage: a coupon is a percentage or an amount, not both",
    });
  if (!p && !a)
    ctx.addIssue({
      code: "custom",
      path: ["percentage"],
      params: { presence: true },
      message: "or amountInCents is required: a percentage (15 for 15%) or an amount in integer cents",
    });
  if (o.durationPeriodCount !== undefined && o.recurring !== true)
    ctx.addIssue({
      code: "custom",
      path: ["recurring"],
      message: "must be true with durationPeriodCount: only a recurring coupon lasts several periods",
    });
}

/**
 * A coupon to create (`createCoupon`) or the whole of one to update (`updateCoupon`: the service's
 * update takes the create's body).
 */
export const couponInput = couponObject.superRefine(couponRule, { when: () => true });
