import type { Simulator } from "../simulator";

/**
 * What a kind's declared example refers to beyond the demo seed, made at a site before the example is created
 * there: the examples name the objects the other kinds' examples make (a price point of the `text-messages`
 * component, a coupon for the `launch-pro` product, an offer of both with the SPRING25 coupon). Shared by the
 * tests that create each kind's example on a fresh demo site (tests/engine/serialization.test.ts,
 * tests/provider/site-routing.test.ts), so an example that names something new is given it once.
 */
export const textMessages = (sim: Simulator) =>
  sim.addComponent({
    familyHandle: "plans",
    kind: "metered",
    handle: "text-messages",
    name: "Text messages",
    unitName: "message",
    pricingScheme: "per_unit",
    unitPrice: "0.02",
  });

export const launchPro = (sim: Simulator) =>
  sim.addProduct({ handle: "launch-pro", name: "Launch Pro", familyHandle: "plans", priceInCents: 4900 });

/** By the kind's registry key. */
export const EXAMPLE_PREREQUISITES: Partial<Record<string, (sim: Simulator) => void>> = {
  componentPricePoint: textMessages,
  coupon: launchPro,
  offer: (sim) => {
    launchPro(sim);
    textMessages(sim);
    sim.addCoupon({ familyHandle: "plans", code: "SPRING25", name: "Spring", percentage: 25 });
  },
};
