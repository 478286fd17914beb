import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { UNKNOWN, unnested } from "../support";
import { replaySite } from "./site";

/**
 * WebhookReplay check(): exactly one of ids or selector (also when one of them is unknown or no array), ids that are
 * positive integers, a selector that is an object with a known status and dates, triggers that are a list: each
 * fails on its property, sending nothing. Unknown values pass.
 */

describe("WebhookReplay check", () => {
  let sim: Simulator;
  const { setup } = replaySite((started) => {
    sim = started;
  });

  it.each([
    [{}, "ids", /exactly one of ids .* or selector/],
    [{ ids: [1], selector: { status: "failed" } }, "ids", /exactly one/],
    [{ ids: [1, -2] }, "ids", /positive integer/],
    [{ selector: {} }, "selector.status", /required/],
    [{ selector: { status: "lost" } }, "selector.status", /./],
    [{ selector: { status: "failed", sinceDate: "yesterday" } }, "selector.sinceDate", /./],
    [{ ids: [1], triggers: "again" }, "triggers", /array/],
  ])("check %o fails on %s, sending nothing", async (news, property, reason) => {
    const p = await setup();
    const { failures } = await p.check!({}, news);
    const f = unnested(failures).find((x) => x.property === property || x.property.startsWith(`${property}`));
    expect(f, JSON.stringify(failures)).toBeDefined();
    expect(f!.reason).toMatch(reason);
    expect(sim.requests).toHaveLength(0);
  });

  it("unknown values pass check", async () => {
    const p = await setup();
    expect((await p.check!({}, { ids: UNKNOWN })).failures).toEqual([]);
    expect((await p.check!({}, { selector: UNKNOWN })).failures).toEqual([]);
  });

  // Whatever an unknown (or a wrong) ids turns out to be, ids and selector together are refused at preview.
  it.each([
    ["ids unknown", { ids: UNKNOWN, selector: { status: "failed" } }],
    ["selector unknown", { ids: [1], selector: UNKNOWN }],
    ["ids not an array", { ids: "5001", selector: { status: "failed" } }],
  ])("check: %s beside the other still fails on exactly one of ids or selector", async (_, news) => {
    const p = await setup();
    const { failures } = await p.check!({}, news);
    expect(failures?.filter((f) => f.property === "ids").map((f) => f.reason)).toContainEqual(
      expect.stringMatching(/^give exactly one of ids \(webhook ids to replay\) or selector/),
    );
    expect(sim.requests).toHaveLength(0);
  });

  it.each(["failed", null])("a selector that is no object (%o) fails only as such", async (selector) => {
    const p = await setup();
    expect((await p.check!({}, { selector })).failures).toEqual([{ property: "selector", reason: "must be an object" }]);
  });
});
