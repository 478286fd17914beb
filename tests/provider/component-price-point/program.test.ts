import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { Component, ComponentPricePoint } from "../../../provider";

// A program's ComponentPricePoint given its Component resource goes with it (deletedWith); given a handle, it does not.
// (Moved out of component-price-point.survivors.mutation.test.ts: the mutation run leaves this file out, see
// mutation/vitest.config.mts.)

const VOLUME = [
  { startingQuantity: 1, endingQuantity: 1000, unitPrice: "0.05" },
  { startingQuantity: 1001, unitPrice: "0.03" },
];
const volume = { component: "handle:texts", handle: "texts-volume", name: "Volume", pricingScheme: "volume" as const, prices: VOLUME };

describe("the resource class: given the Component resource, it goes with it (deletedWith)", () => {
  /** An Output's value, as a program's apply would see it. */
  const resolved = <T>(o: pulumi.Output<T>): Promise<T> => new Promise((resolve) => o.apply(resolve));

  it("deletedWith the Component when given it; none when given a handle", async () => {
    await pulumi.runtime.setMocks(
      {
        newResource: (a) => ({
          id: `${a.name}-id`,
          state: { ...a.inputs, ...(a.type.endsWith(":Component") ? { componentId: 77 } : {}) },
        }),
        call: (a) => a.inputs,
      },
      "billing-app",
      "dev",
      true,
    );
    // What each registration asked the engine for: the mocks' newResource is not given the options.
    const deletedWith = new Map<string, string>();
    const monitor = pulumi.runtime.getMonitor() as unknown as { registerResource: (req: RegisterRequest, cb: unknown) => unknown };
    type RegisterRequest = { getName(): string; getDeletedwith(): string };
    const register = monitor.registerResource.bind(monitor);
    monitor.registerResource = (req, cb) => {
      deletedWith.set(req.getName(), req.getDeletedwith());
      return register(req, cb);
    };
    const component = new Component("texts", {
      productFamily: "handle:rockets",
      kind: "metered",
      handle: "texts",
      name: "Texts",
      unitName: "message",
      unitPrice: "0.01",
    });
    const owned = new ComponentPricePoint("texts-volume", { ...volume, component });
    const named = new ComponentPricePoint("texts-named", { ...volume, handle: "texts-named" });
    const [componentUrn] = await Promise.all([resolved(component.urn), resolved(owned.urn), resolved(named.urn)]);
    expect(Object.fromEntries(deletedWith)).toEqual({ texts: "", "texts-volume": componentUrn, "texts-named": "" });
  });
});
