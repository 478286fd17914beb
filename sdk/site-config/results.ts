import type { Metafield as WireMetafield, Offer as WireOffer, ReasonCode as WireReasonCode } from "../wire";

/** The site configuration's results, and the wire answers turned into them (nulls read as undefined). */

/** A custom field (the API's metafield) of subscriptions or customers. */
export interface Metafield {
  /** The field's id, when the answer carries one (the create's answer, in the vendor's example, does not). */
  readonly id: number | undefined;
  /** The field's name: its key, and what update and delete name it by. */
  readonly name: string;
  /** "text", "radio", "dropdown" (or the service's own "balance_tracker"), as sent; undefined when not answered. */
  readonly inputType: string | undefined;
  /** The values a customer chooses from ("radio", "dropdown"); empty for a text field. */
  readonly enum: readonly string[];
  /** Where the field shows; a flag the answer leaves out is undefined. */
  readonly scope: {
    /** In the CSV export. */
    readonly csv: boolean | undefined;
    /** On invoices. */
    readonly invoices: boolean | undefined;
    /** On statements. */
    readonly statements: boolean | undefined;
    /** In the customer portal. */
    readonly portal: boolean | undefined;
    /** Viewable by your ecosystem. */
    readonly publicShow: boolean | undefined;
    /** Editable by your ecosystem. */
    readonly publicEdit: boolean | undefined;
    /** The public signup pages that show it. */
    readonly hosted: readonly string[];
  };
  /** How many subscriptions or customers hold data in it: deleting the field deletes that data. */
  readonly dataCount: number | undefined;
}

/** A churn reason code. */
export interface ReasonCode {
  /** The code's id. */
  readonly id: number;
  /** Its unique identifier. */
  readonly code: string | undefined;
  /** What it signifies, as customers read it. */
  readonly description: string | undefined;
  /** Its place in lists (1 first). */
  readonly position: number | undefined;
}

/** An offer: a product at a price point, components and coupons, signed up to as one. */
export interface Offer {
  /** The offer's id. */
  readonly id: number;
  /** Its API handle. */
  readonly handle: string | undefined;
  /** Its name. */
  readonly name: string | undefined;
  /** Its description. */
  readonly description: string | undefined;
  /** The product's id. */
  readonly productId: number | undefined;
  /** The product's price point. */
  readonly productPricePointId: number | undefined;
  /** The product's family. */
  readonly productFamilyId: number | undefined;
  /** The components, each with its price point and starting quantity. */
  readonly components: readonly {
    /** The component's id. */
    readonly componentId: number;
    /** Its price point. */
    readonly pricePointId: number | undefined;
    /** The quantity a subscription starts with (the service answers it as decimal text, "1.0"). */
    readonly startingQuantity: number | undefined;
  }[];
  /** The coupons the offer applies. */
  readonly coupons: readonly {
    /** The coupon's code. */
    readonly code: string | undefined;
    /** The coupon's id. */
    readonly id: number | undefined;
  }[];
  /** Its public signup pages (the service makes them). */
  readonly signupPages: readonly {
    /** The page's id. */
    readonly id: number | undefined;
    /** Its address. */
    readonly url: string | undefined;
    /** Its nickname. */
    readonly nickname: string | undefined;
    /** Whether it takes signups. */
    readonly enabled: boolean | undefined;
  }[];
  /** When it was archived; undefined for a live offer. */
  readonly archivedAt: string | undefined;
}

const u = <T>(v: T | null | undefined): T | undefined => v ?? undefined;
const ref = (v: number | null | undefined): number | undefined => (v != null && v > 0 ? v : undefined);
/** A scope flag: the text "1" is on, "0" off; anything else is not known. */
const on = (v: string | null | undefined): boolean | undefined => (v === "1" ? true : v === "0" ? false : undefined);

export function toMetafield(m: WireMetafield): Metafield {
  const s = m.scope ?? {};
  return {
    id: ref(m.id),
    name: m.name,
    inputType: u(m.input_type),
    // The contract publishes null, one string or a list.
    enum: m.enum == null ? [] : typeof m.enum === "string" ? [m.enum] : m.enum,
    scope: {
      csv: on(s.csv),
      invoices: on(s.invoices),
      statements: on(s.statements),
      portal: on(s.portal),
      publicShow: on(s.public_show),
      publicEdit: on(s.public_edit),
      hosted: s.hosted ?? [],
    },
    dataCount: u(m.data_count),
  };
}

export function toReasonCode(r: WireReasonCode): ReasonCode {
  return { id: r.id, code: u(r.code), description: u(r.description), position: u(r.position) };
}

export function toOffer(o: WireOffer): Offer {
  return {
    id: o.id,
    handle: u(o.handle),
    name: u(o.name),
    description: u(o.description),
    productId: ref(o.product_id),
    productPricePointId: ref(o.product_price_point_id),
    productFamilyId: ref(o.product_family_id),
    components: (o.offer_items ?? [])
      .filter((i) => i.component_id > 0)
      .map((i) => ({
        componentId: i.component_id,
        pricePointId: ref(i.price_point_id),
        startingQuantity: i.starting_quantity == null ? undefined : Number(i.starting_quantity),
      })),
    coupons: (o.offer_discounts ?? []).map((d) => ({ code: u(d.coupon_code), id: ref(d.coupon_id) })),
    signupPages: (o.offer_signup_pages ?? []).map((p) => ({
      id: ref(p.id),
      url: u(p.url),
      nickname: u(p.nickname),
      enabled: u(p.enabled),
    })),
    archivedAt: u(o.archived_at),
  };
}
