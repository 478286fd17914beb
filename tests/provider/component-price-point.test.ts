import { afterEach, describe, expect, it } from "vitest";
import { componentPricePointProvider } from "../../provider";
import type { Simulator } from "../../simulator";
import { quiet } from "../reliability/world";
import { captureOutput, configured, KEY, mutations } from "./support";

/**
 * The ComponentPricePoint provider object against the simulator over a real socket: tiers checked
 * before anything is sent, prices changed in place (what the service then holds), the default
 * promoted before anything that depended on the old one is archived, delete as archive (never the
 * component's default alone), adoption (an archived one unarchived), and refresh.
 */

const VOLUME = [
  { startingQuantity: 1, endingQuantity: 1000, unitPrice: "0.05" },
  { startingQuantity: 1001, unitPrice: "0.03" },
];
const volume = { component: "handle:texts", handle: "texts-volume", name: "Volume", pricingScheme: "volume", prices: VOLUME };
const OVERAGE = { pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice: "0.10" }] };
const prepaid = {
  component: "handle:credits",
  handle: "credits-bulk",
  name: "Bulk credits",
  pricingScheme: "per_unit",
  prices: [{ startingQuantity: 1, unitPrice: 2 }],
  overagePricing: OVERAGE,
};

const steps = (sim: Simulator) => mutations(sim).map((r) => `${r.method} ${r.path}`);
const auth = { authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}`, "content-type": "application/json" };

describe("ComponentPricePoint", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  /** A family with a metered component `texts` (its default "Original", per unit) and a prepaid one `credits`; the log emptied. */
  async function setup() {
    const c = await configured(componentPricePointProvider);
    sim = c.sim;
    sim.addProductFamily({ handle: "rockets", name: "Rockets" });
    const texts = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "texts", unitName: "message", unitPrice: "0.01" });
    const credits = sim.addComponent({
      familyHandle: "rockets",
      kind: "prepaid_usage",
      handle: "credits",
      unitName: "credit",
      unitPrice: 1,
      overagePricing: { pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice: "1.5" }] },
    });
    sim.reset();
    return { points: c.provider, texts, credits };
  }

  const held = (componentId: number, handle: string) =>
    sim
      .components()
      .find((c) => c.id === componentId)
      ?.pricePoints.find((pp) => pp.handle === handle);

  describe("check names prices or overagePricing.prices before anything is sent", () => {
    it.each([
      ["a first tier not at 1", { prices: [{ startingQuantity: 2, unitPrice: 1 }] }, "prices.0.startingQuantity", /must be 1/],
      [
        "a gap between tiers",
        {
          prices: [
            { startingQuantity: 1, endingQuantity: 10, unitPrice: 1 },
            { startingQuantity: 12, unitPrice: 1 },
          ],
        },
        "prices.1.startingQuantity",
        /leaves quantities 11–11 unpriced/,
      ],
      [
        "overlapping tiers",
        {
          prices: [
            { startingQuantity: 1, endingQuantity: 10, unitPrice: 1 },
            { startingQuantity: 5, unitPrice: 1 },
          ],
        },
        "prices.1.startingQuantity",
        /overlaps/,
      ],
      [
        "a closed last tier",
        { prices: [{ startingQuantity: 1, endingQuantity: 10, unitPrice: 1 }] },
        "prices.0.endingQuantity",
        /must be left out: the last tier/,
      ],
      [
        "an open tier before the last",
        {
          prices: [
            { startingQuantity: 1, unitPrice: 1 },
            { startingQuantity: 11, unitPrice: 1 },
          ],
        },
        "prices.0.endingQuantity",
        /only the last tier is open-ended/,
      ],
      ["per_unit with two tiers", { pricingScheme: "per_unit" }, "prices", /exactly one tier/],
      ["no tier", { prices: [] }, "prices", /at least one tier/],
      ["a price with 9 decimals", { prices: [{ startingQuantity: 1, unitPrice: "0.000000001" }] }, "prices.0.unitPrice", /8 decimal/],
      [
        "bad overage tiers",
        { overagePricing: { pricingScheme: "tiered", prices: [{ startingQuantity: 3, unitPrice: 1 }] } },
        "overagePricing.prices.0.startingQuantity",
        /must be 1/,
      ],
      ["a scheme the service lacks", { pricingScheme: "flat" }, "pricingScheme", /"per_unit", "volume", "tiered" or "stairstep"/],
      ["an interval without its unit", { interval: 2 }, "intervalUnit", /required with interval/],
      ["a component that is neither an id nor handle:", { component: "texts" }, "component", /handle:<handle>/],
    ])("%s", async (_, change, property, reason) => {
      const { points } = await setup();
      const { failures } = await points.check!({}, { ...volume, ...change });
      expect(failures?.map((f) => f.property)).toContain(property);
      expect(failures?.find((f) => f.property === property)?.reason).toMatch(reason);
      expect(sim.requests).toEqual([]);
    });

    it("every bad tier is named at once, with the bad handle", async () => {
      const { points } = await setup();
      const { failures } = await points.check!(
        {},
        {
          ...volume,
          handle: "Bad Handle",
          prices: [
            { startingQuantity: 0, endingQuantity: 5, unitPrice: -1 },
            { startingQuantity: 9, endingQuantity: 20, unitPrice: 1 },
          ],
        },
      );
      expect([...new Set(failures?.map((f) => f.property))].sort()).toEqual([
        "handle",
        "prices.0.startingQuantity",
        "prices.0.unitPrice",
        "prices.1.endingQuantity",
        "prices.1.startingQuantity",
      ]);
    });
  });

  it("creates with tiers, as the service then holds them", async () => {
    const { points, texts } = await setup();
    const { id, outs } = await points.create!(volume);
    expect(outs).toMatchObject({
      pricePointId: Number(id),
      componentId: texts.id,
      handle: "texts-volume",
      name: "Volume",
      isDefault: false,
      archivedAt: null,
      pricingScheme: "volume",
    });
    expect(
      outs.prices.map((t: { startingQuantity: number; endingQuantity: number | null }) => [t.startingQuantity, t.endingQuantity]),
    ).toEqual([
      [1, 1000],
      [1001, null],
    ]);
    const pp = held(texts.id, "texts-volume");
    expect(pp?.pricingScheme).toBe("volume");
    expect(pp?.prices.map((p) => [p.startingQuantity, p.endingQuantity, Number(p.unitPrice)])).toEqual([
      [1, 1000, 0.05],
      [1001, null, 0.03],
    ]);
    expect(steps(sim)).toEqual([`POST /components/${texts.id}/price_points.json`]);
    // "0.05" as declared and as held ("0.05" or "0.050"): no diff.
    expect(await points.diff!(id, outs, volume)).toMatchObject({ changes: false });
  });

  it("a price change is made in place: the same price point, its tiers rewritten at the service, the notice says whom it affects", async () => {
    const { points, texts } = await setup();
    const { id, outs } = await points.create!(volume);
    sim.reset();
    const news = {
      ...volume,
      pricingScheme: "tiered",
      prices: [
        { startingQuantity: 1, endingQuantity: 500, unitPrice: "0.06" },
        { startingQuantity: 501, endingQuantity: 5000, unitPrice: "0.04" },
        { startingQuantity: 5001, unitPrice: "0.02" },
      ],
    };
    const checked = await points.check!(volume, news);
    expect(checked.inputs.preview).toMatchObject({
      pricingChange: { fields: ["pricingScheme", "prices"], effect: expect.stringMatching(/next charge/) },
    });
    expect(await points.diff!(id, outs, news)).toMatchObject({ changes: true, replaces: [] });
    const updated = await captureOutput(() => points.update!(id, outs, news));
    expect(updated.error).toBeUndefined();
    expect(updated.text).toMatch(
      /changed the prices of component price point `texts-volume`.*in place: subscriptions on this price point pay the new prices from their next charge/,
    );
    expect(steps(sim)).toEqual([`PUT /components/${texts.id}/price_points/${id}.json`]);
    const pp = held(texts.id, "texts-volume");
    expect(pp?.id).toBe(Number(id));
    expect(pp?.pricingScheme).toBe("tiered");
    expect(pp?.prices.map((p) => [p.startingQuantity, p.endingQuantity, Number(p.unitPrice)])).toEqual([
      [1, 500, 0.06],
      [501, 5000, 0.04],
      [5001, null, 0.02],
    ]);
    // A retried up: the service holds it, nothing is sent.
    sim.reset();
    const again = await points.update!(id, updated.result!.outs, news);
    expect(mutations(sim)).toEqual([]);
    expect(await points.diff!(id, again.outs, news)).toMatchObject({ changes: false });
  });

  it("a handle or name change is an update in place", async () => {
    const { points, texts } = await setup();
    const { id, outs } = await points.create!(volume);
    sim.reset();
    const news = { ...volume, handle: "texts-bulk", name: "Bulk" };
    expect(await points.diff!(id, outs, news)).toMatchObject({ changes: true, replaces: [] });
    const { outs: after } = await points.update!(id, outs, news);
    expect(after).toMatchObject({ handle: "texts-bulk", name: "Bulk", pricePointId: Number(id) });
    expect(steps(sim)).toEqual([`PUT /components/${texts.id}/price_points/${id}.json`]);
    expect(held(texts.id, "texts-bulk")?.name).toBe("Bulk");
  });

  it("a create-only change replaces it in the safe order: handle freed, new one created and promoted, old one archived", async () => {
    const { points, credits } = await setup();
    const first = await points.create!({ ...prepaid, default: true });
    expect(first.outs.isDefault).toBe(true);
    // The simulator's answers leave the overage out: not shown is no drift.
    expect(await points.diff!(first.id, first.outs, { ...prepaid, default: true })).toMatchObject({ changes: false });
    sim.reset();
    const news = { ...prepaid, default: true, overagePricing: { ...OVERAGE, prices: [{ startingQuantity: 1, unitPrice: "0.20" }] } };
    expect((await points.diff!(first.id, first.outs, news)).replaces).toEqual(["overagePricing"]);
    const repriced = await points.check!({ ...prepaid, default: true }, { ...news, prices: [{ startingQuantity: 1, unitPrice: 3 }] });
    expect(repriced.inputs.preview).toMatchObject({
      pricingChange: { fields: ["prices"], effect: expect.stringMatching(/^replaced:.*keep its prices/) },
    });
    const created = await points.create!(news);
    expect(steps(sim)).toEqual([
      `PUT /components/${credits.id}/price_points/${first.id}.json`, // the old one's handle freed
      `POST /components/${credits.id}/price_points.json`, // the new one
      `PUT /components/${credits.id}/price_points/${created.id}/default.json`, // promoted
      `DELETE /components/${credits.id}/price_points/${first.id}.json`, // the old one archived
    ]);
    expect(created.outs).toMatchObject({ handle: "credits-bulk", isDefault: true });
    const c = sim.components().find((x) => x.id === credits.id);
    expect(c?.pricePoints.find((pp) => pp.default)?.id).toBe(Number(created.id));
    expect(c?.pricePoints.find((pp) => pp.id === Number(first.id))?.archivedAt).not.toBeNull();
    // The engine's delete of the replaced resource finds it archived: nothing more is sent.
    sim.reset();
    await points.delete!(first.id, first.outs);
    expect(mutations(sim)).toEqual([]);
  });

  it("moving the default: the new one is promoted by its update before the old one's delete archives it", async () => {
    const { points, texts } = await setup();
    const a = await points.create!({ ...volume, default: true });
    const b = await points.create!({ ...volume, handle: "texts-tiered", pricingScheme: "tiered" });
    sim.reset();
    // The old default alone cannot go: nothing is sent, and the message says how to proceed.
    await expect(points.delete!(a.id, a.outs)).rejects.toThrow(
      /is the default of component `texts`.*nothing was changed.*Promote another price point first/,
    );
    expect(mutations(sim)).toEqual([]);
    // The engine updates before it deletes: b is promoted, then a archived.
    const promoted = await points.update!(b.id, b.outs, { ...volume, handle: "texts-tiered", pricingScheme: "tiered", default: true });
    expect(promoted.outs.isDefault).toBe(true);
    await points.delete!(a.id, a.outs);
    expect(steps(sim)).toEqual([
      `PUT /components/${texts.id}/price_points/${b.id}/default.json`,
      `DELETE /components/${texts.id}/price_points/${a.id}.json`,
    ]);
    const c = sim.components().find((x) => x.id === texts.id);
    expect(c?.pricePoints.filter((pp) => pp.default).map((pp) => pp.id)).toEqual([Number(b.id)]);
  });

  it("its component named another way (the Component's id for handle:) replaces it by adoption, and the old one's delete leaves it live", async () => {
    const { points, texts } = await setup();
    const { id, outs } = await points.create!({ ...volume, default: true });
    const news = { ...volume, default: true, component: texts.id };
    expect((await points.diff!(id, outs, news)).replaces).toEqual(["component"]);
    sim.reset();
    const replacement = await captureOutput(() => points.create!(news));
    expect(replacement.result?.id).toBe(id);
    const deleted = await captureOutput(() => points.delete!(id, outs));
    expect(deleted.error).toBeUndefined();
    expect(deleted.text).toMatch(/stays live: its replacement adopted it/);
    expect(mutations(sim)).toEqual([]);
    expect(held(texts.id, "texts-volume")).toMatchObject({ archivedAt: null, default: true });
  });

  it("a create whose outcome is unknown is recorded pending with its token; the next up finds it by handle, never a second one", async () => {
    const c = await configured(componentPricePointProvider, {
      "billing:timeoutMs": "300",
      "billing:migrationSettleSeconds": "1",
      "billing:retryBudgetSeconds": "3",
    });
    sim = c.sim;
    sim.addProductFamily({ handle: "rockets", name: "Rockets" });
    const texts = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "texts", unitName: "message", unitPrice: "0.01" });
    // Accepted at once, applied after the client's timeout and whole settle window.
    sim.injectFault({ kind: "processing", ms: 2500, times: 1, match: { method: "POST" } });
    const failed = await captureOutput(() => c.provider.create!({ ...volume, default: true }));
    const partial = failed.error as { message: string; id?: string; properties?: Record<string, unknown> };
    expect(partial.message).toMatch(/looks for component price point `texts-volume` by its handle/);
    expect(partial.id).toMatch(/^pending-/);
    expect(partial.properties).toMatchObject({ handle: "texts-volume", componentId: texts.id, pendingToken: expect.any(String) });
    const token = partial.properties?.pendingToken;
    expect(sim.requests.filter((r) => r.method === "POST").every((r) => r.uniquenessToken === token)).toBe(true);
    await quiet([sim]);
    const { __provider: _, ...recorded } = partial.properties as Record<string, unknown>;
    const resumed = await c.provider.update!(partial.id as string, recorded, { ...volume, default: true });
    const made =
      sim
        .components()
        .find((x) => x.id === texts.id)
        ?.pricePoints.filter((pp) => pp.handle === "texts-volume") ?? [];
    expect(made).toHaveLength(1);
    expect(resumed.outs).toMatchObject({ pricePointId: made[0]?.id, isDefault: true });
    expect(resumed.outs.pendingToken).toBeUndefined();
    expect(made[0]?.default).toBe(true);
  });

  it("delete archives it (subscriptions keep it, its handle stays taken); the default goes with its component", async () => {
    const { points, texts } = await setup();
    const { id, outs } = await points.create!(volume);
    sim.reset();
    const { text } = await captureOutput(() => points.delete!(id, outs));
    expect(steps(sim)).toEqual([`DELETE /components/${texts.id}/price_points/${id}.json`]);
    expect(text).toMatch(/archived component price point `texts-volume`.*subscriptions on it keep it/);
    expect(held(texts.id, "texts-volume")?.archivedAt).not.toBeNull();

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

  it("an archived price point with the handle is unarchived and adopted; at preview it is announced", async () => {
    const { points, texts } = await setup();
    const { id, outs } = await points.create!(volume);
    await points.delete!(id, outs);
    const checked = await points.check!({}, volume);
    expect(checked.inputs.preview).toEqual({ adopt: { id: Number(id), handle: "texts-volume", unarchive: true } });
    sim.reset();
    const { result, text } = await captureOutput(() => points.create!(volume));
    expect(result?.id).toBe(id);
    expect(text).toMatch(/unarchived component price point `texts-volume`/);
    expect(steps(sim)).toEqual([`PUT /components/${texts.id}/price_points/${id}/unarchive.json`]);
    expect(held(texts.id, "texts-volume")?.archivedAt).toBeNull();
  });

  it("adopting one made in the web UI converges its prices in place; adopt: false makes the handle a preview error", async () => {
    const { points, texts } = await setup();
    const made = sim.addComponentPricePoint(
      { componentHandle: "texts" },
      { handle: "texts-volume", name: "Volume", pricingScheme: "volume", prices: [{ startingQuantity: 1, unitPrice: "0.07" }] },
    );
    const refused = await points.check!({}, { ...volume, adopt: false });
    expect(refused.failures?.[0]).toMatchObject({ property: "handle" });
    expect(refused.failures?.[0]?.reason).toMatch(/already exists at the service and adopt is false: choose another handle/);
    await expect(points.create!({ ...volume, adopt: false })).rejects.toThrow(/adopt is false: nothing was changed/);
    const previewed = await points.check!({}, volume);
    expect(previewed.inputs.preview).toMatchObject({ adopt: { id: made.id }, pricingChange: { fields: ["prices"] } });
    sim.reset();
    const { result, text } = await captureOutput(() => points.create!(volume));
    expect(result?.id).toBe(String(made.id));
    expect(text).toContain(`adopted component price point \`texts-volume\` (id ${made.id})`);
    expect(steps(sim)).toEqual([`PUT /components/${texts.id}/price_points/${made.id}.json`]);
    expect(held(texts.id, "texts-volume")?.prices.map((p) => Number(p.unitPrice))).toEqual([0.05, 0.03]);
  });

  it("refresh reads what the service holds: a web UI price change shows as drift, an in-place update restores it; gone is dropped", async () => {
    const { points, texts } = await setup();
    const { id, outs } = await points.create!(volume);
    const pp = held(texts.id, "texts-volume");
    const res = await fetch(`${sim.url}/components/${texts.id}/price_points/${id}.json`, {
      method: "PUT",
      headers: auth,
      body: JSON.stringify({ price_point: { prices: [{ id: pp?.prices[0]?.id, unit_price: "0.09" }] } }),
    });
    expect(res.status).toBe(200);
    const read = await points.read!(id, outs);
    expect(read.props?.prices[0]).toMatchObject({ startingQuantity: 1, endingQuantity: 1000 });
    expect(Number(read.props?.prices[0].unitPrice)).toBe(0.09);
    expect(await points.diff!(id, read.props, volume)).toMatchObject({ changes: true, replaces: [] });
    const { outs: restored } = await points.update!(id, read.props, volume);
    expect(Number(restored.prices[0].unitPrice)).toBe(0.05);
    // Read for a price point the component does not have: refresh drops it.
    const gone = await points.read!("999999", { ...outs, pricePointId: 999999 });
    expect(gone.id).toBe("");
  });
});
