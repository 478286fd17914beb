import { describe, expect, it } from "vitest";
import { BillingApiError, type BillingValidationError } from "../../../sdk";
import { contractRequestCheck } from "../catalog/request-contract";
import { clientOf, rejection } from "../helpers";
import { configService } from "./config-service";

/** Churn reason codes (sdk/site-config/reason-codes.ts) against the small contract service. */

describe("reason codes", () => {
  it("creates, lists, reads, updates, deletes: the requests as the contract publishes them", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    const made = await billing.createReasonCode({ code: "PRICE", description: "Too expensive", position: 1 });
    expect(made).toStrictEqual({ id: expect.any(Number), code: "PRICE", description: "Too expensive", position: 1 });
    expect(JSON.parse(svc.sent[0].text).reason_code).toStrictEqual({ code: "PRICE", description: "Too expensive", position: 1 });
    expect(await billing.listReasonCodes()).toStrictEqual([made]);
    expect(await billing.readReasonCode(made.id)).toStrictEqual(made);
    expect(await billing.updateReasonCode(made.id, { description: "Costs too much" })).toStrictEqual({
      ...made,
      description: "Costs too much",
    });
    expect(JSON.parse(svc.sent[3].text)).toStrictEqual({ reason_code: { description: "Costs too much" } });
    await billing.deleteReasonCode(made.id);
    expect(svc.reasonCodes).toStrictEqual([]);
    expect((await contractRequestCheck(svc.sent)).problems).toStrictEqual([]);
  });

  it("a create whose answer is lost (applied, then reset) makes exactly one code, found by code", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    svc.fault({ method: "POST", path: /reason_codes/, kind: "reset-after" });
    const made = await billing.createReasonCode({ code: "GONE", description: "Moved on" });
    expect(made.code).toBe("GONE");
    expect(svc.reasonCodes.map((r) => r.code)).toStrictEqual(["GONE"]);
    expect(svc.seen()).toStrictEqual(["POST /reason_codes.json", "GET /reason_codes.json"]);
  });

  it("a delete whose answer is lost is found done by a read that finds nothing", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    const made = await billing.createReasonCode({ code: "GONE", description: "Moved on" });
    svc.fault({ method: "DELETE", path: /reason_codes/, kind: "reset-after" });
    await billing.deleteReasonCode(made.id);
    expect(svc.seen().slice(1)).toStrictEqual([
      `DELETE /reason_codes/${made.id}.json`,
      `DELETE /reason_codes/${made.id}.json`,
      `GET /reason_codes/${made.id}.json`,
    ]);
  });

  it("the service's refusals read in its words; inputs are checked before any request", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    await billing.createReasonCode({ code: "GONE", description: "Moved on" });
    const err = await rejection(billing.createReasonCode({ code: "GONE", description: "Again" }));
    expect(err).toBeInstanceOf(BillingApiError);
    expect((err as Error).message).toBe("POST /reason_codes.json failed with 422: code: This code is already in use.");
    const bad = await rejection(billing.createReasonCode({ code: "", description: "", position: 0 }));
    expect((bad as BillingValidationError).problems).toStrictEqual([
      { property: "code", message: "must not be empty: a reason code: 1 to 255 characters, not only spaces" },
      { property: "description", message: "must not be empty (the service refuses a blank description)" },
      { property: "position", message: "must be a whole number, 1 or more, got 0" },
    ]);
    expect(svc.sent).toHaveLength(2);
  });
});
