import fc from "fast-check";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { BillingApiError, catalogErrorMessages } from "../../../sdk";
import { clientOf, rejection, scripted } from "../helpers";
import { RUNS } from "./inputs/arbitraries";
import { fresh } from "./inputs/reloaded-product-inputs";

/**
 * The service's refusals in the caller's words (sdk/catalog/refusals.ts, catalogErrorMessages, and wire/errors.ts):
 * each wire key becomes the caller's property, a label naming the same field is dropped, and the error bodies in the
 * service's rarer shapes still give their message. The label table is built when its module loads: those tests load
 * it afresh (vi.resetModules, then import).
 */

describe("the service's refusals in the caller's words (catalogErrorMessages)", () => {
  const snake = fc.stringMatching(/^[a-z]{1,8}(_[a-z]{1,8}){0,3}$/).filter((k) => k !== "base");
  it("a field key becomes its camelCase property; an indexed key [i].property", () => {
    fc.assert(
      fc.property(
        snake,
        fc.nat(50),
        fc.string({ minLength: 1, maxLength: 30 }).filter((m) => !m.includes(":")),
        (key, i, message) => {
          const camel = key === "price" ? "priceInCents" : key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
          expect(catalogErrorMessages({ errors: { [key]: [message] } })).toStrictEqual([`${camel}: ${message}`]);
          expect(catalogErrorMessages({ [`price_points[${i}].${key}`]: [message] })).toStrictEqual([`[${i}].${camel}: ${message}`]);
        },
      ),
      RUNS,
    );
  });

  it("a label that names the same field is dropped; one that names another is kept; unknown labels are left as they are", () => {
    expect(catalogErrorMessages({ errors: { price_in_cents: ["Price in cents: must be greater than 0"] } })).toStrictEqual([
      "priceInCents: must be greater than 0",
    ]);
    expect(catalogErrorMessages({ errors: { price_in_cents: ["must be greater than 0"] } })).toStrictEqual([
      "priceInCents: must be greater than 0",
    ]);
    expect(catalogErrorMessages({ errors: { interval: ["Name: odd"] } })).toStrictEqual(["interval: Name: odd"]);
    expect(
      catalogErrorMessages({ errors: ["API Handle: must be unique - that value has been taken.", "Something: else", "No label"] }),
    ).toStrictEqual(["handle: must be unique - that value has been taken.", "Something: else", "No label"]);
    expect(catalogErrorMessages({ error: "one" })).toStrictEqual(["one"]);
    expect(catalogErrorMessages({ errors: { base: ["Product 'pro' is archived."] } })).toStrictEqual(["Product 'pro' is archived."]);
    expect(catalogErrorMessages("A valid product_family_id is required")).toStrictEqual(["A valid product_family_id is required"]);
    expect(catalogErrorMessages(undefined)).toStrictEqual([]);
  });
});

describe("the refusals of a taken handle or name, in each shape the service words them", () => {
  it("a component create's list (the contract's example): the unlabelled handle message and the labelled name one", () => {
    expect(
      catalogErrorMessages({ errors: ["Handle must be unique within a Site.", "Name: must be unique - that value has been taken."] }),
    ).toStrictEqual(["handle: must be unique within a Site.", "name: must be unique - that value has been taken."]);
  });

  it("a component price point create's object of field lists (the vendor's client's ErrorArrayMapResponse), and the older list", () => {
    expect(catalogErrorMessages({ errors: { handle: ["Handle: This handle is already in use."] } })).toStrictEqual([
      "handle: This handle is already in use.",
    ]);
    expect(catalogErrorMessages({ errors: { handle: ["Handle must be unique within a Site."] } })).toStrictEqual([
      "handle: must be unique within a Site.",
    ]);
    expect(catalogErrorMessages({ errors: ["Handle: This handle is already in use."] })).toStrictEqual([
      "handle: This handle is already in use.",
    ]);
  });

  it("a message that only starts with a word that is no label stays as it is", () => {
    expect(
      catalogErrorMessages({ errors: ["Metafield name must be unique for the Attachment Type", "Price point must be live"] }),
    ).toStrictEqual(["Metafield name must be unique for the Attachment Type", "Price point must be live"]);
  });
});

describe("the service's field labels, each mapped to the caller's property", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  // The labels the service's 422 messages begin with (its published examples, and the same wording for the other
  // fields), each as a caller names the field. A label naming the field the message is filed under is dropped.
  it.each<[string, string]>([
    ["Name", "name"],
    ["Handle", "handle"],
    ["API Handle", "handle"],
    ["Description", "description"],
    ["Accounting Code", "accountingCode"],
    ["Tax Code", "taxCode"],
    ["Price", "priceInCents"],
    ["Price in cents", "priceInCents"],
    ["Interval", "interval"],
    ["Recurring Interval", "interval"],
    ["Interval unit", "intervalUnit"],
    ["Trial Price", "trialPriceInCents"],
    ["Trial price in cents", "trialPriceInCents"],
    ["Trial Interval", "trialInterval"],
    ["Trial Interval Unit", "trialIntervalUnit"],
    ["Trial Type", "trialType"],
    ["Initial Charge", "initialChargeInCents"],
    ["Initial charge in cents", "initialChargeInCents"],
    ["Expiration Interval", "expirationInterval"],
    ["Expiration Interval Unit", "expirationIntervalUnit"],
    ["Unit Name", "unitName"],
    ["Pricing Scheme", "pricingScheme"],
    ["Starting Quantity", "startingQuantity"],
    ["Ending Quantity", "endingQuantity"],
    ["Unit Price", "unitPrice"],
    ["Code", "code"],
    ["Percentage", "percentage"],
    ["Amount in cents", "amountInCents"],
  ])('"%s: …" in a list names %s', async (label, property) => {
    const { catalogErrorMessages } = await fresh();
    expect(catalogErrorMessages({ errors: [`${label}: cannot be blank.`] })).toStrictEqual([`${property}: cannot be blank.`]);
  });

  it("the wire key price is the caller's priceInCents, and its own label is dropped", async () => {
    const { catalogErrorMessages } = await fresh();
    expect(catalogErrorMessages({ errors: { price: ["Price: must be greater than or equal to 0."] } })).toStrictEqual([
      "priceInCents: must be greater than or equal to 0.",
    ]);
    expect(catalogErrorMessages({ "price_points[2].price": ["Price: is not a number."] })).toStrictEqual([
      "[2].priceInCents: is not a number.",
    ]);
  });

  it("an indexed key below another key keeps its whole path (only a top-level list's index leads a property)", async () => {
    const { catalogErrorMessages } = await fresh();
    expect(catalogErrorMessages({ errors: { "component.prices[1].ending_quantity": ["must be greater than 5"] } })).toStrictEqual([
      "component.prices[1].endingQuantity: must be greater than 5",
    ]);
  });
});

describe("catalogErrorMessages: the shapes that carry one message or none", () => {
  it.each([
    ["a blank text", " \n\t ", []],
    ["an empty text", "", []],
    ["a text", "  Gateway said no \n", ["Gateway said no"]],
    ["errors as one string", { errors: "Coupon is archived." }, ["Coupon is archived."]],
    ["errors as one labelled string, kept as sent", { errors: "Code: must be unique." }, ["Code: must be unique."]],
    ["error as one string", { error: "Not allowed." }, ["Not allowed."]],
  ] as const)("%s", (_, body, messages) => {
    expect(catalogErrorMessages(body)).toStrictEqual(messages);
  });
});

describe("the service's messages in its rarer error shapes", () => {
  it.each<[string, unknown, string]>([
    ["a bare JSON string, trimmed", "  A valid product_family_id is required  ", "A valid product_family_id is required"],
    ["errors as one string", { errors: "Handle is taken" }, "Handle is taken"],
    // No message in any known shape: the body's own text stands for it.
    ["an object with none", { foo: 1 }, '{"foo":1}'],
  ])("%s", async (_, json, message) => {
    const server = await scripted([{ status: 422, json }]);
    const b = clientOf(server.url, { maxRetries: 0 });
    const err = await rejection(b.readProductFamily(1));
    expect(err).toBeInstanceOf(BillingApiError);
    expect((err as BillingApiError).errors).toStrictEqual([message]);
    expect((err as Error).message).toBe(`GET /product_families/1.json failed with 422: ${message}`);
  });
});
