import { describe, expect, it } from "vitest";
import { captureOutput, KEY } from "../support";
import { couponSite, type Props, spring } from "./site";

/**
 * Coupon under the service's failures: a create whose outcome is unknown is recorded pending (with its site), and
 * the next up looks for the coupon by its code before it re-sends the create, with the same token, once; a
 * replacement whose last step (archiving the replaced coupon) fails is recorded with what is left, which the
 * next up finishes.
 */

describe("Coupon under the service's failures", () => {
  const { setup, held, addons } = couponSite();

  it("a create whose outcome is unknown is recorded pending; the next up re-sends it with the same token, once", async () => {
    const { coupons, sim } = await setup();
    sim.injectFault({ kind: "status", status: 503, rate: 1, match: { method: "POST" } });
    const { error } = await captureOutput(() => coupons.create(spring));
    const partial = error as { message: string; id?: string; properties?: Record<string, unknown> };
    expect(partial.message).toMatch(/next `pulumi up` looks for coupon `SPRING25` by its code/);
    expect(partial.id).toMatch(/^pending-/);
    const token = partial.properties?.pendingToken;
    expect(token).toEqual(expect.any(String));
    expect(held("SPRING25")).toEqual([]);
    sim.clearFaults();
    const { __provider: _, ...recorded } = partial.properties ?? {};
    expect(await coupons.diff!(partial.id ?? "", recorded, spring)).toMatchObject({ changes: true, replaces: [] });
    const { outs } = await captureOutput(() => coupons.update!(partial.id ?? "", recorded, spring)).then((r) => r.result ?? { outs: {} });
    expect(held("SPRING25")).toHaveLength(1);
    expect(outs).toMatchObject({ couponId: held("SPRING25")[0]?.id, code: "SPRING25" });
    expect(outs.pendingToken).toBeUndefined();
    expect(new Set(sim.requests.filter((r) => r.method === "POST").map((r) => r.uniquenessToken))).toEqual(new Set([token]));
  });

  it("a create whose outcome is unknown, at a named site, records the site with the pending create", async () => {
    const { coupons, sim } = await setup((url) => ({ "billing:sites": JSON.stringify({ eu: { baseUrl: url, apiKey: KEY } }) }));
    sim.injectFault({ kind: "status", status: 503, rate: 1, match: { method: "POST" } });
    const inputs = { ...spring, site: "eu" };
    const { error } = await captureOutput(() => coupons.create(inputs));
    const partial = error as { id: string; properties: Props };
    const { __provider: _, ...recorded } = partial.properties;
    expect(recorded).toEqual({ code: "SPRING25", args: inputs, site: "eu", pendingToken: partial.id.slice("pending-".length) });
    sim.clearFaults();
  });

  it("a replacement whose archive of the replaced coupon fails is recorded with it left to do; the next up archives it", async () => {
    const { coupons, sim } = await setup();
    await addons();
    const old = await coupons.create(spring);
    const news = { ...spring, productFamily: "handle:addons" };
    sim.injectFault({ kind: "status", status: 500, rate: 1, match: { method: "DELETE" } });
    const { error } = await captureOutput(() => coupons.create(news));
    const partial = error as { message: string; id: string; properties: Props };
    expect(partial.message).toMatch(
      /^coupon `SPRING25` \(id \d+\) was created and recorded; what is left \(archive the replaced coupon\(s\) \{"couponId":\d+,"productFamilyId":\d+\}\) failed: .*The next `pulumi up` finishes it\.$/,
    );
    const made = held("SPRING25")[0];
    expect(partial.id).toBe(String(made?.id));
    const { __provider: _, ...recorded } = partial.properties;
    expect(recorded.todo).toMatchObject({ archive: [{ couponId: Number(old.id), productFamilyId: old.outs.productFamilyId }] });
    expect(sim.coupons().find((c) => c.id === Number(old.id))?.archivedAt).toBe(null);
    sim.clearFaults();
    expect(await coupons.diff!(partial.id, recorded, news)).toMatchObject({ changes: true, replaces: [] });
    const { result, text } = await captureOutput(() => coupons.update!(partial.id, recorded, news));
    expect(text).toContain(`archived the replaced coupon \`SPRING25-REPLACED-${old.id}\` (id ${old.id})`);
    expect(result?.outs.todo).toBeUndefined();
    expect(sim.coupons().find((c) => c.id === Number(old.id))?.archivedAt).toEqual(expect.any(String));
  });
});
