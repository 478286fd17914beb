import { describe, expect, it } from "vitest";
import { catalogErrorMessages, wire } from "../../../sdk";
import { toMetafield, toOffer, toReasonCode } from "../../../sdk/site-config/results";
import { responseExamples } from "../../contract/examples";

/**
 * The vendor's published answers for custom fields, reason codes and offers (the contract's examples, read from
 * contract/ directly) parse with the SDK's wire schemas and read as its results; refusals read in the service's
 * words; nulls and omitted fields are tolerated where the result stays right.
 */

const only = (operationId: string, status: number) => Object.values(responseExamples(operationId, status));

describe("custom fields", () => {
  it("createMetafields 200: the fields written, known by name (the example has no id)", () => {
    const [example] = only("createMetafields", 200);
    const r = wire.metafieldsResponse.parse(example).map(toMetafield);
    expect(r.map((m) => [m.id, m.name, m.inputType, m.enum, m.scope.csv, m.scope.publicShow, m.dataCount])).toStrictEqual([
      [undefined, "Color", "text", [], false, undefined, 0],
      [undefined, "Brand", "text", [], false, undefined, 0],
    ]);
  });

  it("listMetafields 200 reads (id 0 is a placeholder: none)", () => {
    const [example] = only("listMetafields", 200);
    const r = wire.metafieldListResponse.parse(example);
    expect(toMetafield(r.metafields[0])).toStrictEqual({
      id: undefined,
      name: "string",
      inputType: "text",
      enum: [],
      scope: { csv: false, invoices: false, statements: false, portal: false, publicShow: false, publicEdit: false, hosted: [] },
      dataCount: 0,
    });
  });

  it("enum as one string, and a field with nothing but its name, read", () => {
    expect(toMetafield(wire.metafield.parse({ name: "Size", enum: "S", input_type: "radio" })).enum).toStrictEqual(["S"]);
    expect(toMetafield(wire.metafield.parse({ name: "Size", scope: null, enum: null, data_count: null })).scope.hosted).toStrictEqual([]);
    expect(wire.metafield.safeParse({ id: 1 }).success).toBe(false);
  });

  it.each([
    ["createMetafields", "'name' must be present to create or update metafields"],
    ["updateMetafield", "Metafield name must be unique for the Attachment Type"],
  ])("%s 422 reads in the service's words", (operationId, message) => {
    expect(catalogErrorMessages(only(operationId, 422)[0])).toStrictEqual([message]);
  });
});

describe("reason codes", () => {
  it("listReasonCodes 200 reads in order", () => {
    const r = wire.reasonCodeListResponse.parse(only("listReasonCodes", 200)[0]).map((x) => toReasonCode(x.reason_code));
    expect(r.map((c) => [c.id, c.code, c.position])).toStrictEqual([
      [2, "LARGE", 1],
      [1, "CH1", 2],
      [5, "HAN99", 3],
    ]);
  });

  it("createReasonCode 422 reads as the caller's properties; deleteReasonCode 200 is any body", () => {
    expect(catalogErrorMessages(only("createReasonCode", 422)[0])).toStrictEqual([
      "code: cannot be blank.",
      "code: This code is already in use.",
      "description: cannot be blank.",
    ]);
    expect(wire.reasonCodeDeleteResponse.safeParse(only("deleteReasonCode", 200)[0]).success).toBe(true);
  });

  it("a code with nulls reads; one without an id is refused (nothing could name it)", () => {
    expect(toReasonCode(wire.reasonCode.parse({ id: 3, code: null, description: null, position: null }))).toStrictEqual({
      id: 3,
      code: undefined,
      description: undefined,
      position: undefined,
    });
    expect(wire.reasonCode.safeParse({ code: "X" }).success).toBe(false);
  });
});

describe("offers", () => {
  it("createOffer 201 reads: components with their starting quantities, coupons", () => {
    const o = toOffer(wire.offerResponse.parse(only("createOffer", 201)[0]).offer);
    expect(o).toStrictEqual({
      id: 3,
      handle: "han_shot_first",
      name: "Solo",
      description: "A Star Wars Story",
      productId: 31,
      productPricePointId: undefined,
      productFamilyId: 4,
      components: [{ componentId: 24, pricePointId: 104, startingQuantity: 1 }],
      coupons: [{ code: "DEF456", id: 3 }],
      signupPages: [],
      archivedAt: undefined,
    });
  });

  it("listOffers 200 reads, signup pages included", () => {
    const [o] = wire.offerListResponse.parse(only("listOffers", 200)[0]).offers.map(toOffer);
    expect(o.signupPages).toStrictEqual([
      { id: 356482, url: "https://general-goods.chargifypay.com/subscribe/hjpvhnw63tzy", nickname: "ggoods", enabled: true },
    ]);
    expect(o.components).toStrictEqual([{ componentId: 426665, pricePointId: 149438, startingQuantity: 0 }]);
  });

  it("createOffer 422 reads in the caller's words", () => {
    expect(catalogErrorMessages(only("createOffer", 422)[0])).toStrictEqual([
      "components: starting_quantity for an On/Off component can only be '1' or '0': 24",
    ]);
  });

  it("an offer of nulls reads as an empty offer; a starting quantity that is not a number is refused", () => {
    const o = toOffer(wire.offer.parse({ id: 9, offer_items: null, offer_discounts: null, offer_signup_pages: null, archived_at: null }));
    expect([o.components, o.coupons, o.signupPages, o.archivedAt]).toStrictEqual([[], [], [], undefined]);
    expect(wire.offerItem.safeParse({ component_id: 1, starting_quantity: "one" }).success).toBe(false);
  });
});
