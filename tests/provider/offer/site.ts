import { offerProvider } from "../../../provider";
import type { Simulator } from "../../../simulator";
import { mutations, sitePerTest } from "../support";

/**
 * What the Offer kind's tests share: a site whose catalog an offer can name (a product with a second price point, a
 * component with a second price point, an on/off component, two coupons), the offer they declare, how they read the
 * requests a step sent, and a fresh simulator per test with the offer provider configured for it over a real
 * socket, at the top level and as billing:sites entry `eu`.
 */

export const declared = {
  handle: "launch-bundle",
  name: "Launch bundle",
  product: "handle:launch-pro",
  productPricePoint: "handle:launch-pro-annual",
  components: [{ component: "handle:seats", pricePoint: "handle:seats-bulk", startingQuantity: 5 }],
  coupons: ["SPRING25"],
};
export type Json = Record<string, unknown>;

/** The requests that change something, as `METHOD path`. */
export const steps = (sim: Simulator) => mutations(sim).map((r) => `${r.method} ${r.path}`);

/** The catalog an offer names, made in the web UI; its ids. */
export function seedCatalog(sim: Simulator) {
  const family = sim.addProductFamily({ handle: "plans" });
  const product = sim.addProduct({
    handle: "launch-pro",
    familyId: family.id,
    priceInCents: 4900,
    interval: 1,
    intervalUnit: "month",
    pricePoints: [{ handle: "launch-pro-annual", priceInCents: 49000, interval: 12, intervalUnit: "month" }],
  });
  const seats = sim.addComponent({ kind: "quantity_based", handle: "seats", familyId: family.id, unitPrice: 10 });
  const bulk = sim.addComponentPricePoint({ componentId: seats.id }, { handle: "seats-bulk", unitPrice: 8 });
  const support = sim.addComponent({ kind: "on_off", handle: "support", familyId: family.id, unitPrice: 20 });
  const spring = sim.addCoupon({ familyId: family.id, code: "SPRING25", percentage: 25 });
  const welcome = sim.addCoupon({ familyId: family.id, code: "WELCOME", amountInCents: 500 });
  const annual = product.pricePoints.find((p) => p.handle === "launch-pro-annual");
  return { family, product, annual: annual?.id as number, seats, bulk, support, spring, welcome };
}

/** A site per test, closed after it (call at a test file's top level; `started` is given each test's simulator). */
export function offerSite(started: (sim: Simulator) => void) {
  const site = sitePerTest(offerProvider, started);

  /** A site with the catalog an offer names, and the provider configured for it. */
  async function setup() {
    const offers = await site.setup();
    return { offers, catalog: seedCatalog(site.current() as Simulator) };
  }

  /** The offer with this handle, as the site holds it; undefined when none has it. */
  const held = (handle: string) =>
    site
      .current()
      ?.offers()
      .find((o) => o.handle === handle);

  return { setup, held };
}
