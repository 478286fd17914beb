import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { Component, ComponentPricePoint } from "../../../provider";
import { thrown } from "../support";

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

// Issue 42: two price points declared default: true for one component promoted each other on every up --refresh.
describe("the resource class: one price point declared default: true per component", () => {
  it("a second for the Component resource, or for one handle on one site: refused, naming both; on another site: accepted", async () => {
    await pulumi.runtime.setMocks(
      { newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }), call: (a) => a.inputs },
      "billing-app",
      "dev",
      true,
    );
    const component = new Component("sms", {
      productFamily: "handle:rockets",
      kind: "metered",
      handle: "sms",
      name: "SMS",
      unitName: "message",
      unitPrice: "0.01",
    });
    new ComponentPricePoint("sms-volume", { ...volume, handle: "sms-volume", component, default: true });
    const second = thrown(() => new ComponentPricePoint("sms-bulk", { ...volume, handle: "sms-bulk", component, default: true }));
    expect(second).toBeInstanceOf(pulumi.RunError);
    expect((second as Error).message).toBe(
      'ComponentPricePoint "sms-bulk" and ComponentPricePoint "sms-volume" both declare default: true for Component "sms": ' +
        "a component has one default price point, and each would promote itself again on every `pulumi up --refresh`. Keep default: true on one of them.",
    );
    new ComponentPricePoint("texts-volume", { ...volume, default: true });
    new ComponentPricePoint("texts-volume-eu", { ...volume, default: true, site: "eu" });
    const literal = thrown(() => new ComponentPricePoint("texts-bulk", { ...volume, handle: "texts-bulk", default: true }));
    expect((literal as Error).message).toMatch(
      /^ComponentPricePoint "texts-bulk" and ComponentPricePoint "texts-volume" both declare default: true for component "handle:texts"/,
    );
    expect(thrown(() => new ComponentPricePoint("texts-other", { ...volume, handle: "texts-other", default: false }))).toBeUndefined();
  });
});
