import type { Simulator } from "../../simulator";

/**
 * What a CI job's test site holds after a run: a catalogue (a family, a product and an archived one, a component,
 * a coupon, an offer), two subscriptions with a custom field's values on them and one on a customer, a reason code.
 */
export function seedUsedTestSite(sim: Simulator): Simulator {
  sim.addProductFamily({ id: 9001, handle: "saas" });
  sim.addProduct({ id: 1, handle: "pro", familyHandle: "saas" });
  sim.addProduct({ id: 2, handle: "legacy", familyHandle: "saas", archived: true });
  sim.addComponent({ familyHandle: "saas", kind: "on_off", handle: "support" });
  sim.addCoupon({ familyHandle: "saas", code: "TEN", amountInCents: 1000 });
  sim.addOffer({ handle: "solo", productHandle: "pro" });
  sim.addSubscription({ id: 1001, productHandle: "pro", state: "active" });
  sim.addSubscription({ id: 1002, productHandle: "pro", state: "trialing" });
  sim.addMetafield({ resourceType: "subscriptions", name: "Color", dataCount: 2 });
  sim.addMetafield({ resourceType: "customers", name: "Tier", dataCount: 1 });
  sim.addReasonCode({ code: "PRICE", description: "Too dear" });
  return sim;
}

/** What the reset tests look at: what each scope clears, and the reason code neither does. */
export const held = (sim: Simulator) => ({
  subscriptions: [1001, 1002].filter((id) => sim.getSubscription(id) !== undefined).length,
  fieldValues: sim.metafields().map((m) => m.dataCount),
  offers: sim.offers().length,
  coupons: sim.coupons().length,
  components: sim.components().length,
  reasonCodes: sim.reasonCodes().length,
});
