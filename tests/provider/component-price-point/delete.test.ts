import { afterEach, describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput, mutations, type Redirect, redirectingProxy } from "../support";
import { auth, heldIn, label, OVERAGE, prepaid, startSite, steps, VOLUME, volume } from "./site";

/**
 * ComponentPricePoint's delete: it archives (subscriptions keep it, the handle stays taken); the default goes only
 * with its component; a pending create's price point found by handle; a 404 is done, another refusal that error.
 */

describe("ComponentPricePoint: delete", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  /** Metered `texts` and prepaid `credits` in family `rockets`, the provider configured for the site (site.ts). */
  async function setup(config?: (url: string) => Record<string, string>) {
    const site = await startSite(config);
    sim = site.sim;
    return site;
  }
  const heldByHandle = (componentId: number, handle: string) => heldIn(sim, componentId, { handle });
  /** The simulator behind a proxy that sends the requests `to` names elsewhere (support.ts). */
  const proxy = (to: Redirect) => redirectingProxy(sim.url, to);

  it("delete archives it (subscriptions keep it, its handle stays taken); the default goes with its component", async () => {
    const { points, texts } = await setup();
    const { id, outs } = await points.create!(volume);
    sim.reset();
    const { text } = await captureOutput(() => points.delete!(id, outs));
    expect(steps(sim)).toEqual([`DELETE /components/${texts.id}/price_points/${id}.json`]);
    expect(text).toMatch(/archived component price point `texts-volume`.*subscriptions on it keep it/);
    expect(heldByHandle(texts.id, "texts-volume")?.archivedAt).not.toBeNull();

    const def = await points.create!({ ...volume, handle: "texts-default", default: true });
    const archived = await fetch(`${sim.url}/product_families/${texts.familyId}/components/${texts.id}.json`, {
      method: "DELETE",
      headers: auth,
    });
    expect(archived.status).toBe(200);
    sim.reset();
    await points.delete!(def.id, def.outs);
    expect(mutations(sim)).toEqual([]);
  });

  it("a pending create that made no price point: nothing to archive, said so", async () => {
    const { points, texts } = await setup();
    const { text, error } = await captureOutput(() =>
      points.delete!("pending-tok", {
        handle: "texts-never",
        args: { ...volume, handle: "texts-never" },
        componentId: texts.id,
        pendingToken: "tok",
      }),
    );
    expect(error).toBeUndefined();
    expect(text).toBe("ComponentPricePoint: the pending create of `texts-never` made no component price point; nothing to archive.\n");
    expect(mutations(sim)).toEqual([]);
  });

  it("an archive answered 404 (gone meanwhile): done, nothing said", async () => {
    const { points, texts, connect } = await setup();
    const { id, outs } = await points.create!(volume);
    const url = await proxy((method, path) =>
      method === "DELETE" && path === `/components/${texts.id}/price_points/${id}.json`
        ? `/components/${texts.id}/price_points/999999.json`
        : undefined,
    );
    await connect(url);
    const { text, error } = await captureOutput(() => points.delete!(id, outs));
    expect(error).toBeUndefined();
    expect(text).toBe("");
  });

  it("an archive refused otherwise (422): that error", async () => {
    const { points, texts, original, connect } = await setup();
    const { id, outs } = await points.create!(volume);
    // Sent to the component's default instead, which the service refuses to archive.
    const url = await proxy((method, path) =>
      method === "DELETE" && path === `/components/${texts.id}/price_points/${id}.json`
        ? `/components/${texts.id}/price_points/${original.id}.json`
        : undefined,
    );
    await connect(url);
    const { text, error } = await captureOutput(() => points.delete!(id, outs));
    expect((error as Error).message).toBe(
      `DELETE /components/${texts.id}/price_points/${id}.json failed with 422: Cannot archive the default price point.`,
    );
    expect(text).toBe("");
  });

  it("delete of a pending create whose price point was made: found by handle and archived", async () => {
    const { points, texts } = await setup();
    const made = sim.addComponentPricePoint(
      { componentHandle: "texts" },
      { handle: "texts-volume", name: "Volume", pricingScheme: "volume", prices: VOLUME },
    );
    sim.reset();
    const { error, text } = await captureOutput(() =>
      points.delete!("pending-tok-5", { handle: "texts-volume", args: volume, componentId: texts.id, pendingToken: "tok-5" }),
    );
    expect(error).toBeUndefined();
    expect(text).toBe(
      `ComponentPricePoint: archived ${label("texts-volume", made.id)}; subscriptions on it keep it, and its handle stays taken.\n`,
    );
    expect(steps(sim)).toEqual([`DELETE /components/${texts.id}/price_points/${made.id}.json`]);
  });

  it("delete of the default of a component listed after another: the error names its own component", async () => {
    const { points } = await setup();
    const { id, outs } = await points.create!({ ...prepaid, overagePricing: OVERAGE, default: true });
    sim.reset();
    const failed = await points.delete!(id, outs).then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(failed).toBe(
      `${label("credits-bulk", id)} is the default of component \`credits\`: the service cannot archive a default price point, so nothing was changed. ` +
        "Promote another price point first (declare it with default: true and run `pulumi up`), then remove this one; or remove the component in the same update (its price points stay with it, archived).",
    );
    expect(mutations(sim)).toEqual([]);
  });
});
