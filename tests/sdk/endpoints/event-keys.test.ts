import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { closestEventKey, WEBHOOK_EVENTS } from "../../../sdk";
import { editDistance } from "../../../sdk/events";

/**
 * The webhook event keys an endpoint subscribes to (sdk/events.ts): WEBHOOK_EVENTS is the contract's enum, the
 * "did you mean" hint (editDistance, closestEventKey, where its steps differ) and the list of accepted events (built
 * when the module loads: those tests load a fresh copy).
 */

const CONTRACT = path.resolve(__dirname, "../../../contract/advanced-billing.openapi.json");

describe("WEBHOOK_EVENTS", () => {
  it("is the contract's enum of POST /endpoints.json and of PUT /endpoints/{endpoint_id}.json: 35 distinct keys, same order", () => {
    const contract = JSON.parse(readFileSync(CONTRACT, "utf8"));
    const enumOf = (p: string, m: string) =>
      contract.paths[p][m].requestBody.content["application/json"].schema.properties.endpoint.properties.webhook_subscriptions.items.enum;
    expect([...WEBHOOK_EVENTS]).toStrictEqual(enumOf("/endpoints.json", "post"));
    expect([...WEBHOOK_EVENTS]).toStrictEqual(enumOf("/endpoints/{endpoint_id}.json", "put"));
    expect(WEBHOOK_EVENTS).toHaveLength(35);
    expect(new Set(WEBHOOK_EVENTS).size).toBe(35);
  });
});

describe("closestEventKey", () => {
  it.each([
    ["payment_failed", "payment_failure"],
    ["payment_sucess", "payment_success"],
    ["Payment-Success", "payment_success"],
    ["renewal success", "renewal_success"],
    ["subscription_state_changed", "subscription_state_change"],
    ["card_expiring", "expiring_card"],
    ["invoice", "invoice_issued"],
    ["payment_success", "payment_success"],
    ["signup", undefined], // two keys start with it
    ["payment", undefined],
    ["zzzz", undefined],
    ["", undefined],
    ["x".repeat(300), undefined],
  ])("%j → %j", (s, expected) => {
    expect(closestEventKey(s)).toBe(expected);
  });
});

/** The accepted events as a user reads them: the contract's 35 keys, in its order. */
const LISTED =
  "the accepted events are billing_date_change, component_allocation_change, customer_create, customer_update, " +
  "dunning_step_reached, expiring_card, expiration_date_change, invoice_issued, metered_usage, payment_failure, " +
  "payment_success, direct_debit_payment_pending, direct_debit_payment_paid_out, direct_debit_payment_rejected, " +
  "prepaid_subscription_balance_changed, prepaid_usage, refund_failure, refund_success, renewal_failure, renewal_success, " +
  "signup_failure, signup_success, statement_closed, statement_settled, subscription_card_update, " +
  "subscription_group_card_update, subscription_product_change, subscription_state_change, trial_end_notice, " +
  "upcoming_renewal_notice, upgrade_downgrade_failure, upgrade_downgrade_success, pending_cancellation_change, " +
  "subscription_prepayment_account_balance_changed, subscription_service_credit_account_balance_changed";

describe("EVENT_KEYS_ARE_LISTED (built at load: each test loads a fresh copy)", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it("names every accepted event, comma-separated, after 'the accepted events are'", async () => {
    const { EVENT_KEYS_ARE_LISTED } = await import("../../../sdk/events");
    expect(EVENT_KEYS_ARE_LISTED).toBe(LISTED);
  });

  it("ends the message of an endpoint with no events, word for word", async () => {
    const { endpointBodyOf } = await import("../../../sdk/endpoints");
    let err: { name?: string; message?: string; problems?: unknown } = {};
    try {
      endpointBodyOf({ url: "https://example.com/hooks", events: [] });
    } catch (e) {
      err = e as typeof err;
    }
    const message = `must name at least one webhook event (an endpoint subscribed to nothing receives nothing); ${LISTED}`;
    expect({ name: err.name, message: err.message, problems: err.problems }).toStrictEqual({
      name: "BillingValidationError",
      message: `invalid webhook endpoint: endpoint.events: ${message}`,
      problems: [{ property: "endpoint.events", message }],
    });
  });
});

describe("editDistance", () => {
  it.each([
    ["", "", 0],
    ["a", "a", 0],
    ["a", "b", 1],
    ["", "abc", 3],
    ["abc", "", 3],
    ["ab", "abc", 1],
    ["abc", "ab", 1],
    ["kitten", "sitting", 3],
    ["flaw", "lawn", 2],
    ["payment_failed", "payment_failure", 3],
  ])("%j → %j: %i", (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe("closestEventKey where its steps differ", () => {
  const padded = (n: number) => `payment_failure${"_".repeat(n - "payment_failure".length)}`;

  it.each([
    // Read after trimming: a leading space is not an underscore that would spoil the prefix step.
    [" invoice", "invoice_issued"],
    ["invoice\t", "invoice_issued"],
    // A run of spaces and dashes is one underscore.
    ["trial  end", "trial_end_notice"],
    ["trial - end", "trial_end_notice"],
    ["trial end", "trial_end_notice"],
    // The prefix step: the text's trailing underscores, however many, are dropped, and only those.
    ["trial_end", "trial_end_notice"],
    ["invoice_", "invoice_issued"],
    ["invoice__", "invoice_issued"],
    // Same words in another order: empty words (a doubled underscore) do not count.
    ["card__expiring", "expiring_card"],
    ["_card_expiring_", "expiring_card"],
    // Words, not letters: an anagram of a key, or its letters cut into other words, is not that key.
    ["eruliaf_tnemyap", undefined],
    ["failurepay_ment", undefined],
    // The distance bound at its edge: 3 is a third of 11 characters, 4 is more than a third of 10.
    ["refund_succ", "refund_success"],
    ["refund_suc", undefined],
    // A tie (2 edits from customer_create and from customer_update): the key listed first.
    ["customer_rdate", "customer_create"],
    // At most 200 characters once read: 200 is read, 201 is not.
    [padded(200), "payment_failure"],
    [padded(201), undefined],
  ])("%j → %j", (s, expected) => {
    expect(closestEventKey(s)).toBe(expected);
  });

  it.each([
    ["a number", 42],
    ["null", null],
    ["undefined", undefined],
    ["an array", ["payment_failure"]],
  ])("%s is no key (undefined), not a TypeError", (_, v) => {
    expect(closestEventKey(v as never)).toBeUndefined();
  });
});
