import { afterEach } from "vitest";
import { couponProvider, productFamilyProvider } from "../../../provider";
import { partialFailure } from "../../../provider/engine";
import { coupon } from "../../../provider/kinds/coupon";
import type { Context } from "../../../provider/kinds/kind";
import { BillingClient } from "../../../sdk/client";
import type { Simulator } from "../../../simulator";
import { configured, configureRequest, KEY, mutations } from "../support";

/**
 * What the Coupon kind's tests share: a declaration, how they read the requests a step sent, and a fresh
 * simulator site per test (products basic (1), pro (2), launch (3) and component "support" in family "plans"),
 * with the coupon provider configured for it over a real socket.
 */

export const spring = { productFamily: "handle:plans", code: "SPRING25", name: "Spring sale", percentage: 25 };
export type Props = Record<string, unknown>;

/** The requests that change something, as `METHOD path`. */
export const steps = (sim: Simulator) => mutations(sim).map((r) => `${r.method} ${r.path}`);
/** How the kind's messages name a coupon. */
export const label = (code: string, id: number | string) => `coupon \`${code}\` (id ${id})`;
/** The inputs the kind records for a state, as diff compares them. */
export const recorded = (s: Props) => coupon.operations.recordedInputs(s as never) as Props;

/** The kind's operations called directly (the provider shell drops undefined values, which hides them). */
export const context = (c: BillingClient): Context => ({
  client: () => c,
  siteLabel: () => "default",
  partialFailure: (message, resourceId, kept) => partialFailure(message, resourceId, { ...kept }, undefined),
  notice: () => undefined,
});

/**
 * A site per test, closed after it (call at a test file's top level). `setup` starts it; `held`, `restricted`
 * and `addons` read or change the site of the running test.
 */
export function couponSite() {
  let current: { sim: Simulator; client: BillingClient } | undefined;
  afterEach(async () => {
    await current?.client.close();
    await current?.sim.close();
    current = undefined;
  });
  const sim = (): Simulator => {
    if (!current) throw new Error("couponSite: call setup() first");
    return current.sim;
  };
  /** A provider of another kind, configured for the running test's site. */
  const familiesOf = async (url: string) => {
    const families = { ...productFamilyProvider };
    await families.configure!(configureRequest({ "billing:baseUrl": url, "billing:apiKey": KEY }));
    return families;
  };

  return {
    /** The coupon provider against a new site (`extra`: more provider config, e.g. billing:sites); the site's host. */
    async setup(extra: (url: string) => Record<string, string> = () => ({})) {
      const c = await configured(couponProvider);
      const client = new BillingClient({ baseUrl: c.sim.url, apiKey: KEY, maxRetries: 0 });
      current = { sim: c.sim, client };
      await c.provider.configure!(configureRequest({ "billing:baseUrl": c.sim.url, "billing:apiKey": KEY, ...extra(c.sim.url) }));
      const support = c.sim.addComponent({ familyHandle: "plans", kind: "on_off", handle: "support" });
      return { sim: c.sim, coupons: c.provider, families: await familiesOf(c.sim.url), support, client, host: new URL(c.sim.url).host };
    },
    /** The coupons the site holds with this code. */
    held: (code: string) =>
      sim()
        .coupons()
        .filter((c) => c.code === code),
    /** The ids a coupon is restricted to, of one type, ascending. */
    restricted: (code: string, type: string) =>
      (
        sim()
          .coupons()
          .find((c) => c.code === code)?.restrictions ?? []
      )
        .filter((r) => r.itemType === type)
        .map((r) => r.itemId)
        .sort((a, b) => a - b),
    /** A second family, "addons", made through its own provider (as a program would); its id. */
    addons: async () => Number((await (await familiesOf(sim().url)).create({ handle: "addons", name: "Add-ons" })).id),
  };
}
