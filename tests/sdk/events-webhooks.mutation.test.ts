import { beforeEach, describe, expect, it, vi } from "vitest";
import { BillingValidationError } from "../../sdk";
import { closestEventKey, editDistance } from "../../sdk/events";
import { recordingProxy } from "../contract/recorder";
import { clientOf, scripted, site } from "./helpers";

// sdk/events.ts (the "did you mean" hint and the list of accepted events) and sdk/webhooks.ts, pinned exactly:
// the mutation run left mutants of both alive. endpoints.test.ts checks the hint on words that every variant of
// closestEventKey gets right; these inputs sit where the steps differ (separators, the length bounds, the distance
// bound at its edge, ties, the prefix step). EVENT_KEYS_ARE_LISTED is built when the module loads, so its tests load
// a fresh copy. For webhooks: the refusals' exact words, and a page that repeats the end of the one before.

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
    const { EVENT_KEYS_ARE_LISTED } = await import("../../sdk/events");
    expect(EVENT_KEYS_ARE_LISTED).toBe(LISTED);
  });

  it("ends the message of an endpoint with no events, word for word", async () => {
    const { endpointBodyOf } = await import("../../sdk/endpoints");
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

describe("setWebhooksEnabled: the refusal's exact words", () => {
  it.each([
    ["a string", "true", "string"],
    ["a number", 1, "number"],
    ["undefined", undefined, "undefined"],
    ["null", null, "object"],
  ])("%s: invalid webhook settings, webhooksEnabled named; nothing sent", async (_, v, type) => {
    const s = await site();
    const err = await s.billing.setWebhooksEnabled(v as never).catch((e) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect(err.message).toBe(`invalid webhook settings: webhooksEnabled: must be true or false, got ${type}`);
    expect(err.problems).toStrictEqual([{ property: "webhooksEnabled", message: `must be true or false, got ${type}` }]);
    expect(s.sim.requests).toStrictEqual([]);
  });
});

describe("listWebhooks", () => {
  it.each([
    [
      "an unknown key: the accepted ones listed",
      { since: "2026-10-01" },
      [{ property: "filter.since", message: "is not a known property (accepted: status, sinceDate, untilDate, subscriptionId)" }],
    ],
    [
      "until before since",
      { sinceDate: "2026-10-05", untilDate: "2026-10-01" },
      [{ property: "filter.untilDate", message: "must not be before sinceDate (2026-10-05)" }],
    ],
  ])("%s: invalid webhook filter, each problem under filter.; nothing sent", async (_, filter, problems) => {
    const s = await site();
    const err = await s.billing.listWebhooks(filter as never).catch((e) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect(err.message).toBe(`invalid webhook filter: ${problems.map((p) => `${p.property}: ${p.message}`).join("; ")}`);
    expect(err.problems).toStrictEqual(problems);
    expect(s.sim.requests).toStrictEqual([]);
  });

  it("a page that repeats the end of the one before (the list moved between reads): each webhook once, in order", async () => {
    const row = (id: number) => ({ webhook: { id, event: "payment_success", successful: true } });
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => row(from + i));
    // Page 1 is full (200); page 2 starts with the last 50 of page 1 again, then 50 new ones: short, the last.
    const server = await scripted([
      { status: 200, json: range(1, 200) },
      { status: 200, json: range(151, 250) },
    ]);
    const proxy = await recordingProxy(server.url);
    try {
      const all = await clientOf(proxy.url).listWebhooks({ status: "successful" });
      expect(all.map((w) => w.id)).toStrictEqual(Array.from({ length: 250 }, (_, i) => i + 1));
      expect(all[249]).toStrictEqual({
        id: 250,
        event: "payment_success",
        successful: true,
        createdAt: undefined,
        acceptedAt: undefined,
        lastError: undefined,
        lastErrorAt: undefined,
        lastSentAt: undefined,
        lastSentUrl: undefined,
      });
      expect(proxy.exchanges.map((x) => [x.method, x.url, x.requestBody])).toStrictEqual([
        ["GET", "/webhooks.json?status=successful&page=1&per_page=200&order=oldest_first", undefined],
        ["GET", "/webhooks.json?status=successful&page=2&per_page=200&order=oldest_first", undefined],
      ]);
    } finally {
      await proxy.close();
    }
  });

  it("a service that ignores page (page 2 is page 1 again, full): the list ends there, each webhook once", async () => {
    const row = (id: number) => ({ webhook: { id, event: "payment_success", successful: true } });
    const page = Array.from({ length: 200 }, (_, i) => row(i + 1));
    // Three scripted answers: a list that read on after the repeated page would ask for page 3 (and, against a real
    // service that ignores page, for ever).
    const server = await scripted([
      { status: 200, json: page },
      { status: 200, json: page },
      { status: 200, json: page },
    ]);
    const proxy = await recordingProxy(server.url);
    try {
      const all = await clientOf(proxy.url).listWebhooks();
      expect(all.map((w) => w.id)).toStrictEqual(Array.from({ length: 200 }, (_, i) => i + 1));
      expect(proxy.exchanges.map((x) => x.url)).toStrictEqual([
        "/webhooks.json?page=1&per_page=200&order=oldest_first",
        "/webhooks.json?page=2&per_page=200&order=oldest_first",
      ]);
    } finally {
      await proxy.close();
    }
  });
});
