import { afterEach, describe, expect, it } from "vitest";
import { componentWithHandle } from "../../../provider/kinds/component-fields";
import { BillingClient } from "../../../sdk/client";
import type { Simulator } from "../../../simulator";
import { captureOutput, KEY, mutations, type Redirect, redirectingProxy } from "../support";
import { inputsOf, KINDS, label, ops, sms, startSite } from "./fixtures";

/**
 * Component's adoption: a component the site already holds with the handle is adopted and converged (announced at
 * preview), a second create adopts what the first made, adopt: false and an archived component (no unarchive) are
 * refused before anything is sent; the component with a handle is found where the lookup does not answer archived ones.
 */

describe("Component: adoption", () => {
  let sim: Simulator;
  const clients: BillingClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    await sim?.close();
  });

  /** Family `rockets`, the provider object and a direct context (fixtures.ts). */
  async function setup() {
    const site = await startSite();
    sim = site.sim;
    return site;
  }
  const held = (handle: string) => sim.components().find((c) => c.handle === handle);
  /** The simulator behind a proxy that sends the requests `to` names elsewhere (support.ts). */
  const proxy = (to: Redirect) => redirectingProxy(sim.url, to);

  it.each(KINDS)("a second create of a %s component (a resumed create, a new stack) adopts it: nothing is sent", async (_, inputs) => {
    const { components } = await setup();
    const first = await components.create(inputs);
    sim.reset();
    const again = await components.create(inputs);
    expect(again.id).toBe(first.id);
    expect(mutations(sim)).toEqual([]);
  });

  it("a component adopted by a create is archived by that same resource's delete later in the process", async () => {
    const { components } = await setup();
    sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "sms", name: "Text messages", unitName: "message" });
    const adopted = await components.create(sms);
    await components.delete!(adopted.id, adopted.outs);
    expect(held("sms")?.archivedAt).not.toBeNull();
  });

  it("adopts a component made in the web UI and converges it; at preview it is announced", async () => {
    const { components } = await setup();
    const made = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "sms", name: "Old name", unitName: "message" });
    const checked = await components.check!({}, sms);
    // The web UI's component holds $1.00 per unit: converging it to the declared tiers is a price change, said in money (issue 42).
    expect(checked.inputs.preview).toMatchObject({
      adopt: { id: made.id, handle: "sms" },
      pricingChange: { fields: ["pricingScheme", "prices"], from: { pricingScheme: "per_unit" }, to: { pricingScheme: "tiered" } },
    });
    const announced = await captureOutput(() => components.check!({}, sms));
    expect(announced.text).toContain(
      "Component `sms`: pricing change (pricingScheme per_unit → tiered, prices 1+ at $1.00 → 1–100 at $0.50; 101+ at $0.25): the adopted component's default price point's prices are changed in place",
    );
    const { result, text } = await captureOutput(() => components.create(sms));
    expect(result?.id).toBe(String(made.id));
    expect(text).toContain(`adopted component \`sms\` (id ${made.id})`);
    const c = held("sms");
    expect(c?.name).toBe("Text messages");
    expect(c?.pricePoints.find((pp) => pp.default)?.pricingScheme).toBe("tiered");
    expect(sim.components()).toHaveLength(1);
  });

  it("an archived component with the handle is refused at preview and at create: the service has no unarchive", async () => {
    const { components } = await setup();
    sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "sms", unitName: "message", archived: true });
    const checked = await components.check!({}, sms);
    expect(checked.failures?.[0]).toMatchObject({ property: "handle" });
    expect(checked.failures?.[0]?.reason).toMatch(/archived.*no unarchive for components.*another handle/);
    await expect(components.create(sms)).rejects.toThrow(/no unarchive for components/);
    expect(mutations(sim)).toEqual([]);
  });

  it("adopt: false makes an existing handle a preview failure", async () => {
    const { components } = await setup();
    await components.create(sms);
    sim.reset();
    const { failures } = await components.check!({}, { ...sms, adopt: false });
    expect(failures?.[0]).toMatchObject({ property: "handle" });
    expect(failures?.[0]?.reason).toMatch(/already exists at the service and adopt is false/);
    expect(mutations(sim)).toEqual([]);
  });

  it("adopt: false and a component with the handle: refused, nothing sent", async () => {
    const { ctx } = await setup();
    const made = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "sms", unitName: "message" });
    await expect(ops.create(ctx, inputsOf({ ...sms, adopt: false }))).rejects.toThrow(
      new Error(`${label("sms", made.id)} already exists and adopt is false: nothing was changed`),
    );
    expect(mutations(sim)).toEqual([]);
  });

  describe("the component with a handle, where the lookup does not answer archived ones (404)", () => {
    it("is found in the site's list, archived ones included", async () => {
      await setup();
      sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "live", unitName: "message" });
      const gone = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "sms", unitName: "message", archived: true });
      const url = await proxy((method, path) =>
        method === "GET" && path === "/components/lookup.json" ? "/product_families/999999/components/999999.json" : undefined,
      );
      const client = new BillingClient({ baseUrl: url, apiKey: KEY, maxRetries: 0 });
      clients.push(client);
      const found = await componentWithHandle(client, "sms");
      expect({ id: found?.id, handle: found?.handle, archivedAt: found?.archivedAt }).toEqual({
        id: gone.id,
        handle: "sms",
        archivedAt: gone.archivedAt,
      });
      expect(await componentWithHandle(client, "none")).toBeUndefined();
    });
  });
});
