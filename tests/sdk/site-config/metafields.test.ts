import { describe, expect, it } from "vitest";
import { BillingApiError, type BillingValidationError, CatalogOutcomeUnknownError } from "../../../sdk";
import { contractRequestCheck } from "../catalog/request-contract";
import { clientOf, rejection, scripted } from "../helpers";
import { configService } from "./config-service";

/**
 * Custom fields (sdk/site-config/metafields.ts) against a small service written from the contract: list, create,
 * rename, delete, what each sends, a create whose answer was lost making exactly one field, and every request
 * validating against the contract.
 */

describe("custom fields (metafields)", () => {
  it("creates, lists by name, renames by current_name, deletes: the requests as the contract publishes them", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    const made = await billing.createMetafield("subscriptions", {
      name: "Color",
      inputType: "dropdown",
      enum: ["red", "blue"],
      scope: { invoices: true, publicShow: true },
    });
    expect(made).toStrictEqual({
      id: expect.any(Number),
      name: "Color",
      inputType: "dropdown",
      enum: ["red", "blue"],
      scope: { csv: false, invoices: true, statements: false, portal: false, publicShow: true, publicEdit: false, hosted: [] },
      dataCount: 0,
    });
    const body = JSON.parse(svc.sent[0].text);
    expect(body.metafields).toStrictEqual({
      name: "Color",
      input_type: "dropdown",
      enum: ["red", "blue"],
      scope: { csv: "0", invoices: "1", statements: "0", portal: "0", public_show: "1", public_edit: "0" },
    });
    expect((await billing.listMetafields("subscriptions", { name: "Color" })).map((m) => m.name)).toStrictEqual(["Color"]);
    const renamed = await billing.updateMetafield("subscriptions", "Color", { name: "Colour" });
    expect(renamed.name).toBe("Colour");
    expect(JSON.parse(svc.sent[2].text)).toStrictEqual({ metafields: { current_name: "Color", name: "Colour" } });
    await billing.deleteMetafield("subscriptions", "Colour");
    expect(svc.metafields.subscriptions).toStrictEqual([]);
    expect(svc.sent.map((r) => `${r.method} ${r.url}`)).toStrictEqual([
      "POST /subscriptions/metafields.json",
      "GET /subscriptions/metafields.json?name=Color&page=1&per_page=200",
      "PUT /subscriptions/metafields.json",
      "DELETE /subscriptions/metafields.json?name=Colour",
    ]);
    expect((await contractRequestCheck(svc.sent)).problems).toStrictEqual([]);
  });

  it("a create whose answer is lost (applied, then the connection reset) makes exactly one field, found by name", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    svc.fault({ method: "POST", path: /metafields/, kind: "reset-after" });
    const made = await billing.createMetafield("customers", { name: "Region" });
    expect(made.name).toBe("Region");
    expect(svc.metafields.customers.map((m) => m.name)).toStrictEqual(["Region"]);
    expect(svc.seen()).toStrictEqual(["POST /customers/metafields.json", "GET /customers/metafields.json"]);
    expect((await contractRequestCheck(svc.sent)).problems).toStrictEqual([]);
  });

  it("a create lost before it applied is sent again with the same token: one field", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    svc.fault({ method: "POST", path: /metafields/, kind: "reset-before" });
    await billing.createMetafield("customers", { name: "Region" });
    const posts = svc.sent.filter((r) => r.method === "POST").map((r) => JSON.parse(r.text).uniqueness_token);
    expect(posts).toHaveLength(2);
    expect(posts[1]).toBe(posts[0]);
    expect(svc.metafields.customers).toHaveLength(1);
  });

  it("a field with the name that holds other values was there before: not taken as made, the outcome unknown", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url, { maxRetries: 0 });
    await billing.createMetafield("customers", { name: "Tier", inputType: "radio", enum: ["a", "b"] });
    svc.fault({ method: "POST", path: /metafields/, kind: "503-after" });
    const err = await rejection(billing.createMetafield("customers", { name: "Tier", inputType: "radio", enum: ["x"] }));
    expect(err).toBeInstanceOf(CatalogOutcomeUnknownError);
    expect((err as Error).message).toContain('a metafield this create did not make (it holds the values ["a","b"] where this asked ["x"])');
  });

  it("the service's refusal reads in its words", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    await billing.createMetafield("customers", { name: "Tier" });
    const err = await rejection(billing.createMetafield("customers", { name: "Tier" }));
    expect(err).toBeInstanceOf(BillingApiError);
    expect((err as Error).message).toBe(
      "POST /customers/metafields.json failed with 422: Metafield name must be unique for the Attachment Type",
    );
  });

  it("a rename whose answer is lost is read back by the new name", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    await billing.createMetafield("customers", { name: "Tier" });
    svc.fault({ method: "PUT", path: /metafields/, kind: "reset-after" });
    expect((await billing.updateMetafield("customers", "Tier", { name: "Level" })).name).toBe("Level");
    expect(svc.seen().slice(1)).toStrictEqual([
      "PUT /customers/metafields.json",
      "PUT /customers/metafields.json",
      "GET /customers/metafields.json",
    ]);
  });

  it("inputs are checked before any request, naming the property and what is accepted", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    const err = await rejection(billing.createMetafield("orders" as "customers", { name: " ", inputType: "radio", colour: 1 } as never));
    expect((err as BillingValidationError).problems).toStrictEqual([
      { property: "resourceType", message: 'must be "subscriptions" or "customers", got "orders"' },
    ]);
    const err2 = await rejection(billing.createMetafield("customers", { name: " ", inputType: "radio", colour: 1 } as never));
    expect((err2 as BillingValidationError).problems).toStrictEqual([
      { property: "name", message: "must not be only spaces (a name of 1 to 255 characters)" },
      { property: "colour", message: "is not a known property (accepted: name, inputType, enum, scope)" },
      { property: "enum", message: 'is required with inputType "radio": the values a customer chooses from' },
    ]);
    const err3 = await rejection(billing.createMetafield("customers", { name: "Notes", enum: ["a"] }));
    expect((err3 as BillingValidationError).problems).toStrictEqual([
      { property: "enum", message: 'must be left out with inputType "text" (or none): only "radio" and "dropdown" take values' },
    ]);
    expect(svc.sent).toStrictEqual([]);
  });
});

describe("a create answered without the field", () => {
  it("an empty list is not taken as the field: it is read back by name", async () => {
    const svc = await scripted([
      { status: 200, json: [] },
      { status: 200, json: { metafields: [{ id: 7, name: "Region", input_type: "text", enum: null }] } },
    ]);
    const billing = clientOf(svc.url);
    expect((await billing.createMetafield("customers", { name: "Region" })).id).toBe(7);
    expect(svc.requests.map((r) => `${r.method} ${r.path}`)).toStrictEqual([
      "POST /customers/metafields.json",
      "GET /customers/metafields.json",
    ]);
  });
});

describe("an update answered without the field", () => {
  it("is read back by name; none listed is a typed error, not undefined", async () => {
    const found = await scripted([
      { status: 200, json: [] },
      { status: 200, json: { metafields: [{ name: "Level" }] } },
    ]);
    expect((await clientOf(found.url).updateMetafield("customers", "Tier", { name: "Level" })).name).toBe("Level");
    const lost = await scripted([
      { status: 200, json: [] },
      { status: 200, json: { metafields: [] } },
    ]);
    const err = await rejection(clientOf(lost.url).updateMetafield("customers", "Tier", { name: "Level" }));
    expect(err).toBeInstanceOf(BillingApiError);
    expect((err as Error).message).toBe(
      'PUT /customers/metafields.json answered without the field, and no field named "Level" is listed: read the fields before relying on the update',
    );
  });
});
