import { z } from "zod";
import { maybe, timestamp, wireId } from "./common";
import { wireDecimal } from "./component";
import { productCurrencyPrice } from "./currency-price";

/**
 * Offers (a product and its price point, components with their starting quantities, coupons, as one thing a
 * customer signs up to), as read. Lenient where leniency cannot make a result wrong: names, prices and pages
 * may be null or absent. A component's starting quantity is decimal text in the contract ("1.0"), read exactly.
 */

/** An id that refers to another object; 0 (a placeholder) is read, and means none. */
const ref = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** `Offer Item`: one component of the offer, with its price point and starting quantity. */
export const offerItem = z.object({
  component_id: ref,
  price_point_id: maybe(ref),
  starting_quantity: maybe(wireDecimal),
  editable: maybe(z.boolean()),
  component_unit_price: maybe(z.string()),
  component_name: maybe(z.string()),
  price_point_name: maybe(z.string()),
  currency_prices: maybe(z.array(productCurrencyPrice)),
  interval: maybe(z.number().int()),
  interval_unit: maybe(z.string()),
});
/** An offer item as {@link offerItem} reads it. */
export type OfferItem = z.infer<typeof offerItem>;

/** `Offer Discount`: one coupon of the offer. */
export const offerDiscount = z.object({
  coupon_code: maybe(z.string()),
  coupon_id: maybe(ref),
  coupon_name: maybe(z.string()),
});
/** An offer discount as {@link offerDiscount} reads it. */
export type OfferDiscount = z.infer<typeof offerDiscount>;

/** `Offer Signup Page`: a public signup page of the offer (the service makes them; no request sets them). */
export const offerSignupPage = z.object({
  id: maybe(z.number().int()),
  nickname: maybe(z.string()),
  enabled: maybe(z.boolean()),
  return_url: maybe(z.string()),
  return_params: maybe(z.string()),
  url: maybe(z.string()),
});
/** An offer's signup page as {@link offerSignupPage} reads it. */
export type OfferSignupPage = z.infer<typeof offerSignupPage>;

/** `Offer`. */
export const offer = z.object({
  id: wireId,
  site_id: maybe(z.number().int()),
  product_family_id: maybe(ref),
  product_family_name: maybe(z.string()),
  product_id: maybe(ref),
  product_name: maybe(z.string()),
  product_price_point_id: maybe(ref),
  product_price_point_name: maybe(z.string()),
  product_price_in_cents: maybe(z.number().int()),
  product_revisable_number: maybe(z.number().int()),
  name: maybe(z.string()),
  handle: maybe(z.string()),
  description: maybe(z.string()),
  created_at: maybe(timestamp),
  updated_at: maybe(timestamp),
  archived_at: maybe(timestamp),
  offer_items: maybe(z.array(offerItem)),
  offer_discounts: maybe(z.array(offerDiscount)),
  offer_signup_pages: maybe(z.array(offerSignupPage)),
});
/** An offer as {@link offer} reads it, before the SDK turns it into its `Offer` result. */
export type Offer = z.infer<typeof offer>;

/** `Offer Response`: `{ offer }` (create, read). */
export const offerResponse = z.object({ offer });
/** The answer {@link offerResponse} reads. */
export type OfferResponse = z.infer<typeof offerResponse>;

/** `List Offers Response`: `{ offers }`; an entry with id 0 (a placeholder) is read, then left out. */
export const offerListResponse = z.object({ offers: z.array(offer.extend({ id: z.number().int().nonnegative() })) });
/** The answer {@link offerListResponse} reads. */
export type OfferListResponse = z.infer<typeof offerListResponse>;

/** Archive and unarchive answer 200 with no body in the contract: any 2xx is the change, whatever it carries. */
export const offerArchiveResponse = z.unknown();

/** The contract's `per_page` maximum for offers. */
export const MAX_OFFERS_PER_PAGE = 200;

/** `POST /offers.json` body (`Create Offer Request`), with the SDK's `uniqueness_token`. */
export const offerCreateRequest = z.object({
  offer: z.object({
    name: z.string().min(1),
    handle: z.string().min(1),
    description: z.string().optional(),
    product_id: z.number().int(),
    product_price_point_id: z.number().int().optional(),
    components: z
      .array(z.object({ component_id: z.number().int(), price_point_id: z.number().int().optional(), starting_quantity: z.number().int() }))
      .optional(),
    coupons: z.array(z.string()).optional(),
  }),
  uniqueness_token: z.string().optional(),
});
