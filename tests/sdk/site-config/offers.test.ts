import { describe, expect, it } from "vitest";
import { type BillingValidationError, CatalogOutcomeUnknownError } from "../../../sdk";
import { contractRequestCheck } from "../catalog/request-contract";
import { clientOf, rejection } from "../helpers";
import { configService } from "./config-service";

/** Offers (sdk/site-config/offers.ts) against the small contract service. */

const OFFER = {
  handle: "starter-bundle",
  name: "Starter bundle",
  productId: 1,
  productPricePointId: 10,
  components: [{ componentId: 2, pricePointId: 20, startingQuantity: 5 }],
  coupons: ["FLAT10"],
};

describe("offers", () => {
  it("creates, reads, lists, archives, unarchives: the requests as the contract publishes them", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    const made = await billing.createOffer(OFFER);
    expect(made).toStrictEqual({
      id: expect.any(Number),
      handle: "starter-bundle",
      name: "Starter bundle",
      description: undefined,
      productId: 1,
      productPricePointId: 10,
      productFamilyId: 3,
      components: [{ componentId: 2, pricePointId: 20, startingQuantity: 5 }],
      coupons: [{ code: "FLAT10", id: 30 }],
      signupPages: [],
      archivedAt: undefined,
    });
    expect(JSON.parse(svc.sent[0].text).offer).toStrictEqual({
      name: "Starter bundle",
      handle: "starter-bundle",
      product_id: 1,
      product_price_point_id: 10,
      components: [{ component_id: 2, price_point_id: 20, starting_quantity: 5 }],
      coupons: ["FLAT10"],
    });
    expect(await billing.readOffer(made.id)).toStrictEqual(made);
    expect((await billing.archiveOffer(made.id)).archivedAt).toBe("2026-12-02T09:00:00Z");
    expect(await billing.listOffers()).toStrictEqual([]);
    expect((await billing.listOffers({ includeArchived: true })).map((o) => o.id)).toStrictEqual([made.id]);
    expect(await billing.unarchiveOffer(made.id)).toStrictEqual(made);
    expect((await contractRequestCheck(svc.sent)).problems).toStrictEqual([]);
  });

  it("a create whose answer is lost (applied, then reset) makes exactly one offer, found by handle", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    svc.fault({ method: "POST", path: /offers/, kind: "reset-after" });
    expect((await billing.createOffer(OFFER)).handle).toBe("starter-bundle");
    expect(svc.offers).toHaveLength(1);
    expect(svc.sent.map((r) => `${r.method} ${r.url}`)).toStrictEqual([
      "POST /offers.json",
      "GET /offers.json?page=1&per_page=200&include_archived=true",
    ]);
  });

  it("an archived offer with the handle is not this create's: the resend's refusal follows", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url, { maxRetries: 0 });
    const old = await billing.createOffer(OFFER);
    await billing.archiveOffer(old.id);
    svc.fault({ method: "POST", path: /offers/, kind: "503-after" });
    const err = await rejection(billing.createOffer(OFFER));
    expect(err).toBeInstanceOf(CatalogOutcomeUnknownError);
    expect((err as Error).message).toContain(`(an archived offer (id ${old.id}, archived 2026-12-02T09:00:00Z))`);
    expect(svc.offers).toHaveLength(1);
  });

  it("inputs are checked before any request", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    const err = await rejection(
      billing.createOffer({ ...OFFER, handle: "Starter", components: [{ componentId: 2, startingQuantity: -1 }], coupons: ["A", "A"] }),
    );
    expect((err as BillingValidationError).problems).toStrictEqual([
      {
        property: "handle",
        message:
          "must be a lowercase letter or number first, then only lowercase letters, numbers, '-' and '_' (the service refuses '.' and ':' in an offer's handle), got \"Starter\"",
      },
      {
        property: "components.0.startingQuantity",
        message: "must be a whole number of units, 0 or more (an on/off component: 0 or 1), got -1",
      },
      { property: "coupons", message: "must not name a coupon twice" },
    ]);
    expect(svc.sent).toStrictEqual([]);
  });

  // The service's offer handles take no '.' or ':' (a catalog handle's do): refused before the create is sent.
  it("a handle with '.' or ':' is refused before any request", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    for (const handle of ["starter.annual", "starter:annual"]) {
      const err = await rejection(billing.createOffer({ ...OFFER, handle }));
      expect((err as BillingValidationError).problems.map((p) => p.property)).toEqual(["handle"]);
    }
    expect(svc.sent).toStrictEqual([]);
  });
});
