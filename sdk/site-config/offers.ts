import { randomUUID } from "node:crypto";
import { idOf, parsed, tokenProblems } from "../catalog/checks";
import { type CreateOptions, createOnce, differsFrom, type Sighting } from "../catalog/create";
import { settledWrite } from "../catalog/settle";
import { allPages } from "../pages";
import type { Transport } from "../transport";
import { MAX_OFFERS_PER_PAGE, offerArchiveResponse, offerListResponse, offerResponse } from "../wire";
import type { OfferInput } from "./input-types";
import { offerInput } from "./inputs";
import { type Offer, toOffer } from "./results";

/**
 * Offers: list, read, create (once, read back by handle), archive, unarchive. The contract has no update of an
 * offer: a changed offer is created anew under another handle and the old one archived. Archive and unarchive
 * answer with no body, so the offer is read after them.
 */

/** Options of `listOffers`. */
export interface ListOffersOptions {
  /** Archived offers too (the contract's `include_archived`; default false). */
  readonly includeArchived?: boolean;
}

/** Every offer of the site, across pages; archived ones only with `includeArchived`. */
export async function listOffers(t: Transport, opts: ListOffersOptions = {}): Promise<Offer[]> {
  const rows = await allPages(
    MAX_OFFERS_PER_PAGE,
    async (page) =>
      (
        await t.call(
          {
            method: "GET",
            path: "/offers.json",
            repeatable: true,
            query: { page, per_page: MAX_OFFERS_PER_PAGE, include_archived: opts.includeArchived ? "true" : undefined },
          },
          offerListResponse,
        )
      ).offers,
  );
  return rows.map(toOffer).filter((o) => opts.includeArchived || o.archivedAt === undefined);
}

/** An offer by id. A 404 is a {@link BillingApiError} with status 404. */
export async function readOffer(t: Transport, offerId: unknown): Promise<Offer> {
  const id = idOf(offerId, "offerId", "invalid offer");
  const { offer } = await t.call({ method: "GET", path: `/offers/${id}.json`, repeatable: true }, offerResponse);
  return toOffer(offer);
}

/**
 * Creates an offer once (see {@link createOnce}): after an ambiguous failure it is read back by handle (archived
 * ones listed too: an archived offer with the handle is not this create's), and only when none has it is the POST
 * sent again, with the same token. One with the handle for another product or name was there before.
 */
export async function createOffer(
  t: Transport,
  input: OfferInput,
  opts: Omit<CreateOptions, "uniquenessToken"> & { uniquenessToken?: unknown },
): Promise<Offer> {
  const o = parsed(offerInput, input, "invalid offer", undefined, tokenProblems(opts.uniquenessToken));
  const token = (opts.uniquenessToken as string | undefined) ?? randomUUID();
  const find = async (): Promise<Sighting<Offer>> => {
    const found = (await listOffers(t, { includeArchived: true })).find((x) => x.handle === o.handle);
    if (!found) return { seen: "not listed" };
    if (found.archivedAt !== undefined) return { seen: `an archived offer (id ${found.id}, archived ${found.archivedAt})` };
    return { found };
  };
  return createOnce(
    t,
    {
      kind: "offer",
      handle: o.handle,
      uniquenessToken: token,
      request: {
        method: "POST",
        path: "/offers.json",
        repeatable: false,
        body: {
          offer: {
            name: o.name,
            handle: o.handle,
            ...(o.description === undefined ? {} : { description: o.description }),
            product_id: o.productId,
            ...(o.productPricePointId === undefined ? {} : { product_price_point_id: o.productPricePointId }),
            ...(o.components === undefined
              ? {}
              : {
                  components: o.components.map((c) => ({
                    component_id: c.componentId,
                    ...(c.pricePointId === undefined ? {} : { price_point_id: c.pricePointId }),
                    starting_quantity: c.startingQuantity,
                  })),
                }),
            ...(o.coupons === undefined ? {} : { coupons: [...o.coupons] }),
          },
          uniqueness_token: token,
        },
      },
      answer: offerResponse,
      result: (a) => toOffer(a.offer),
      find,
      differs: (f) =>
        differsFrom(f.id, [
          ["name", o.name, f.name],
          ["productId", o.productId, f.productId],
        ]),
    },
    { ...opts, uniquenessToken: token },
  );
}

/** Archives an offer (`PUT …/archive.json`), then reads it; after an attempt that may have applied, one read back archived is the result. */
export async function archiveOffer(t: Transport, offerId: unknown): Promise<Offer> {
  const id = idOf(offerId, "offerId", "invalid offer");
  await settledWrite(
    t,
    { method: "PUT", path: `/offers/${id}/archive.json`, repeatable: true },
    offerArchiveResponse,
    () => true,
    async () => ((await readOffer(t, id)).archivedAt !== undefined ? true : undefined),
  );
  return readOffer(t, id);
}

/** Unarchives an offer (`PUT …/unarchive.json`), then reads it. */
export async function unarchiveOffer(t: Transport, offerId: unknown): Promise<Offer> {
  const id = idOf(offerId, "offerId", "invalid offer");
  await settledWrite(
    t,
    { method: "PUT", path: `/offers/${id}/unarchive.json`, repeatable: true },
    offerArchiveResponse,
    () => true,
    async () => ((await readOffer(t, id)).archivedAt === undefined ? true : undefined),
  );
  return readOffer(t, id);
}
