import { createRequire } from "node:module";
import { afterEach, describe, expect, it } from "vitest";
import { couponProvider, productPricePointProvider } from "../../../provider";
import type { Simulator } from "../../../simulator";
import { configured } from "../support";

/**
 * Issue 42: no internal input appears in a diff users read. check() adds `preview` (and the ids `stable` gives) to the
 * checked inputs; the engine, given no detailed diff, shows old inputs against those (`[diff: +preview~priceInCents]`).
 * The runtime's diff names the changed declared inputs, and the host's DiffResponse carries them: built as the
 * dynamic-provider host and the SDK's provider server build it (read `changes`, then `setChanges` at once).
 */

// The message classes the hosts use (@pulumi/pulumi's generated protobuf), untyped: internal to the SDK.
const proto = createRequire(__filename)("@pulumi/pulumi/proto/provider_pb") as {
  DiffResponse: new () => {
    setChanges(v: number): void;
    toObject(): { diffsList: string[]; hasdetaileddiff: boolean; detaileddiffMap: [string, { kind: number; inputdiff: boolean }][] };
  };
};
const DIFF_SOME = 2;

/** The response a host builds from a diff's result: the keys it names, and each one's kind of change. */
function asHost(result: { changes?: boolean }) {
  const resp = new proto.DiffResponse();
  if (result.changes === true) resp.setChanges(DIFF_SOME);
  const o = resp.toObject();
  const detailed = Object.fromEntries(o.detaileddiffMap.map(([k, v]) => [k, { kind: v.kind, input: v.inputdiff }]));
  return { diffs: o.diffsList, has: o.hasdetaileddiff, detailed };
}

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const COUPON = { productFamily: "handle:plans", code: "SPRING", name: "Spring", amountInCents: 500 };

describe("a diff's detail: the changed declared inputs only", () => {
  it("a coupon's amount: `amountInCents` updated in place; not `preview`, not the ids check() adds", async () => {
    const made = await configured(couponProvider);
    sim = made.sim;
    sim.addComponent({ familyHandle: "plans", kind: "metered", handle: "sms", unitName: "message" });
    const { id, outs } = await made.provider.create(COUPON);
    const news = { ...COUPON, amountInCents: 600, couponId: outs.couponId, preview: { pricingChange: { fields: ["amountInCents"] } } };
    const result = await made.provider.diff!(id, outs, news);
    expect(asHost(result)).toEqual({ diffs: ["amountInCents"], has: true, detailed: { amountInCents: { kind: 4, input: true } } });
  });

  it("a replacing change is marked so: a price point's price (UPDATE_REPLACE)", async () => {
    const made = await configured(productPricePointProvider);
    sim = made.sim;
    const point = {
      product: "handle:pro",
      handle: "pro-biennial",
      name: "Two years",
      priceInCents: 90000,
      interval: 24,
      intervalUnit: "month",
    };
    const { id, outs } = await made.provider.create(point);
    const result = await made.provider.diff!(id, outs, { ...point, priceInCents: 95000, preview: { pricingChange: {} } });
    expect(result.replaces).toEqual(["priceInCents"]);
    expect(asHost(result)).toEqual({ diffs: ["priceInCents"], has: true, detailed: { priceInCents: { kind: 5, input: true } } });
  });

  it("read elsewhere than by a host, the detail goes to no later response; nor to another provider's", async () => {
    const made = await configured(couponProvider);
    sim = made.sim;
    sim.addComponent({ familyHandle: "plans", kind: "metered", handle: "sms", unitName: "message" });
    const { id, outs } = await made.provider.create(COUPON);
    const result = await made.provider.diff!(id, outs, { ...COUPON, name: "Spring sale" });
    expect(result.changes).toBe(true);
    await Promise.resolve();
    // Another provider's diff (the dynamic host serves them all): a plain result, no detail of ours.
    expect(asHost({ changes: true })).toEqual({ diffs: [], has: false, detailed: {} });
  });

  it("no change: nothing added", async () => {
    const made = await configured(couponProvider);
    sim = made.sim;
    sim.addComponent({ familyHandle: "plans", kind: "metered", handle: "sms", unitName: "message" });
    const { id, outs } = await made.provider.create(COUPON);
    const result = await made.provider.diff!(id, outs, COUPON);
    expect(asHost(result)).toEqual({ diffs: [], has: false, detailed: {} });
  });
});
