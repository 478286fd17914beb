import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { Component, Coupon, Product } from "../../../provider";

// A program's Coupon given the Product and Component resources themselves in its restrictions: the
// engine gets each as its id output (so it creates them first), mixed with handles and ids as written.

/** An Output's value, as a program's apply would see it. */
const resolved = <T>(o: pulumi.Output<T>): Promise<T> => new Promise((resolve) => o.apply(resolve));

describe("a program's Coupon", () => {
  const registered = new Map<string, Record<string, unknown>>();
  beforeAll(async () => {
    await pulumi.runtime.setMocks(
      {
        newResource: (a) => {
          registered.set(a.name, a.inputs);
          const ids = a.type.endsWith("Product") ? { productId: 42 } : a.type.endsWith("Component") ? { componentId: 77 } : {};
          return { id: `${a.name}-id`, state: { ...a.inputs, ...ids } };
        },
        call: (a) => a.inputs,
      },
      "billing-app",
      "dev",
      true,
    );
  });

  it("takes a Product as its productId and a Component as its componentId, beside handles and ids", async () => {
    const product = new Product("pro", {
      productFamily: "handle:plans",
      handle: "pro",
      name: "Pro",
      priceInCents: 4900,
      interval: 1,
      intervalUnit: "month",
    });
    const component = new Component("support", {
      productFamily: "handle:plans",
      kind: "on_off",
      handle: "support",
      name: "Support",
      unitPrice: 10,
    });
    const coupon = new Coupon("spring", {
      productFamily: "handle:plans",
      code: "SPRING25",
      name: "Spring sale",
      percentage: 25,
      restrictedProducts: [product, "handle:basic", 3],
      restrictedComponents: [component],
    });
    await resolved(coupon.urn);
    expect(registered.get("spring")).toMatchObject({ restrictedProducts: [42, "handle:basic", 3], restrictedComponents: [77] });
  });
});
