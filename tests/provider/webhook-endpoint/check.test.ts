import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { pathsOf, UNKNOWN } from "../support";
import { EVENTS, endpointSite, HOOK } from "./site";

/**
 * WebhookEndpoint check(): a url that is no absolute https one (http only for localhost), too long, or missing;
 * events that are no list of webhook event keys (a near miss named with its fix, the accepted events listed); an
 * unknown input or site: each fails on that property alone, saying what is accepted, and nothing is sent. Unknown
 * values pass.
 */

describe("WebhookEndpoint check", () => {
  let sim: Simulator;
  const { setup } = endpointSite((started) => {
    sim = started;
  });

  const tooLong = `${HOOK}/${"a".repeat(2048 - HOOK.length)}`; // 2049 characters
  it.each([
    [{ events: EVENTS }, "url", /is required: an absolute https URL/],
    [{ url: 42, events: EVENTS }, "url", /must be an absolute https URL such as https:\/\/example\.com\/webhooks, got 42/],
    [{ url: "/billing/webhooks", events: EVENTS }, "url", /must be an absolute URL such as https:\/\/example\.com\/webhooks/],
    [{ url: "hooks.example.com/billing", events: EVENTS }, "url", /must be an absolute URL/],
    [
      { url: "http://hooks.example.com/billing", events: EVENTS },
      "url",
      /must use https \(http only for localhost, 127\.0\.0\.1 or \[::1\]\), got http for "hooks\.example\.com"/,
    ],
    [{ url: tooLong, events: EVENTS }, "url", /must be at most 2048 characters, got 2049/],
    [
      { url: HOOK },
      "events",
      /must be an array of webhook event keys such as \["payment_success"\], got undefined.*the accepted events are billing_date_change, /,
    ],
    [{ url: HOOK, events: [] }, "events", /must name at least one webhook event.*the accepted events are billing_date_change, /],
    [{ url: HOOK, events: "payment_failure" }, "events", /must be an array of webhook event keys.*got "payment_failure"/],
    [
      { url: HOOK, events: ["subscription_state_change", "payment_failur"] },
      "events.1",
      /"payment_failur" is not a webhook event key; did you mean "payment_failure"\?.*the accepted events are billing_date_change, /,
    ],
    [{ url: HOOK, events: EVENTS, colour: "red" }, "colour", /^is not an input of WebhookEndpoint \(accepted: url, events, site\)$/],
    [
      { url: HOOK, events: EVENTS, site: "" },
      "site",
      /must be the name of an entry of the stack config billing:sites \(a non-empty string\)/,
    ],
    [{ url: HOOK, events: EVENTS, site: "mars" }, "site", /site "mars" is not an entry of the stack config billing:sites/],
  ])("%o fails on %s alone, saying what is accepted, and sends nothing", async (news, property, reason) => {
    const p = await setup();
    const { failures } = await p.check!({}, news);
    expect(pathsOf(failures)).toEqual([property]);
    expect(failures![0].reason).toMatch(reason);
    expect(sim.requests).toHaveLength(0);
  });

  it.each([
    ["http to localhost", { url: "http://localhost:8080/hooks", events: EVENTS }],
    ["http to 127.0.0.1", { url: "http://127.0.0.1/hooks", events: EVENTS }],
    ["http to [::1]", { url: "http://[::1]:9000/hooks", events: EVENTS }],
    ["a url of exactly 2048 characters", { url: `${HOOK}/${"a".repeat(2047 - HOOK.length)}`, events: EVENTS }],
    ["events with duplicates, out of order", { url: HOOK, events: ["refund_success", "payment_failure", "refund_success"] }],
    ["an unknown url", { url: UNKNOWN, events: EVENTS }],
    ["unknown events", { url: HOOK, events: UNKNOWN }],
    ["an unknown event among known ones", { url: HOOK, events: [UNKNOWN, "payment_failure"] }],
    ["an unknown site", { url: HOOK, events: EVENTS, site: UNKNOWN }],
    ["everything unknown", { url: UNKNOWN, events: UNKNOWN, site: UNKNOWN }],
  ])("%s passes, sending nothing", async (_, news) => {
    const p = await setup();
    expect((await p.check!({}, news)).failures).toEqual([]);
    expect(sim.requests).toHaveLength(0);
  });
});
