import { afterEach, describe, expect, it } from "vitest";
import { componentPricePointProvider } from "../../provider";
import { notice, partialFailure } from "../../provider/engine";
import { componentPricePoint } from "../../provider/kinds/component-price-point";
import type { Context } from "../../provider/kinds/kind";
import { clientFor, configure, siteLabel } from "../../provider/runtime/config";
import { type Simulator, startSimulator } from "../../simulator";
import { captureOutput, configureRequest, KEY, mutations, type Redirect, redirectingProxy, UNKNOWN } from "./support";

/**
 * ComponentPricePoint behaviour the mutation run found unchecked (mutants that survived the other test files):
 * a pending create resumed (its token re-sent, its own price point found without an adoption or an adopt: false
 * refusal, the replaced ones still archived), the steps after a create or an update (a replaced default promoted
 * over, a replaced one that is still the default left live), the freed handle chosen among archived ones too, the
 * exact preview annotations (adoption, prices unknown at preview), the ids an update's check looks up, a list
 * refused at preview, refresh and delete of a pending create, what diff calls unfinished, and the exact notices.
 * Against the simulator over a real socket; where it must answer what it never would, a proxy in front of it sends
 * that one request to another path, so the simulator answers. Also: the state the kind itself hands back (the
 * runtime drops undefined values on its way to the engine, so only the kind's own operations show them), and the
 * resource class's `deletedWith` when given the Component resource.
 */

const VOLUME = [
  { startingQuantity: 1, endingQuantity: 1000, unitPrice: "0.05" },
  { startingQuantity: 1001, unitPrice: "0.03" },
];
const volume = { component: "handle:texts", handle: "texts-volume", name: "Volume", pricingScheme: "volume" as const, prices: VOLUME };
const OVERAGE = { pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice: "0.10" }] };
const bulk = {
  handle: "credits-bulk",
  name: "Bulk credits",
  pricingScheme: "per_unit" as const,
  prices: [{ startingQuantity: 1, unitPrice: 2 }],
};
const prepaid = { component: "handle:credits", ...bulk };
const AFFECTS = "subscriptions on this price point pay the new prices from their next charge; charges already made stay as they were";
const label = (handle: string, id: number | string) => `component price point \`${handle}\` (id ${id})`;
const steps = (sim: Simulator) => mutations(sim).map((r) => `${r.method} ${r.path}`);

describe("ComponentPricePoint, behaviour the mutation run found unchecked", () => {
  let sim: Simulator;
  afterEach(async () => {
    await sim?.close();
  });

  /** Metered `texts` (made first) and prepaid `credits` in family `rockets`; the provider configured for the simulator. */
  async function setup() {
    sim = await startSimulator({ apiKey: KEY });
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
    const original = texts.pricePoints[0] as { id: number; handle: string };
    const points = { ...componentPricePointProvider };
    const connect = (url: string) => points.configure!(configureRequest({ "billing:apiKey": KEY, "billing:baseUrl": url }));
    await connect(sim.url);
    sim.reset();
    return { points, texts, credits, original, connect };
  }

  /** The simulator behind a proxy that sends the requests `to` names elsewhere (support.ts). */
  const proxy = (to: Redirect) => redirectingProxy(sim.url, to);

  const held = (componentId: number, id: number | string) =>
    sim
      .components()
      .find((c) => c.id === componentId)
      ?.pricePoints.find((pp) => pp.id === Number(id));

  it("a create naming a component handle no component has: an error naming the handle and the site, nothing sent", async () => {
    const { points } = await setup();
    const failed = await points.create!({ ...volume, component: "handle:nope" }).then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(failed).toBe(
      `component: no component has the handle \`nope\` at site ${new URL(sim.url).host}: declare a Component and pass it`,
    );
    expect(mutations(sim)).toEqual([]);
  });

  describe("a pending create resumed", () => {
    const pending = (componentId: number, args: Record<string, unknown>, token: string, archive: number[] = []) => ({
      handle: String(args.handle),
      args,
      componentId,
      pendingToken: token,
      todo: { promote: false, archive },
    });

    it("that made nothing: the create re-sent with the recorded token, then the replaced one archived", async () => {
      const { points, texts } = await setup();
      const old = await points.create!({ ...volume, handle: "texts-old" });
      sim.reset();
      const { result, error, text } = await captureOutput(() =>
        points.update!("pending-tok-resumed", pending(texts.id, volume, "tok-resumed", [Number(old.id)]), volume),
      );
      expect(error).toBeUndefined();
      const made = sim
        .components()
        .find((c) => c.id === texts.id)
        ?.pricePoints.find((pp) => pp.handle === "texts-volume");
      expect(result?.outs.pricePointId).toBe(made?.id);
      expect(steps(sim)).toEqual([
        `POST /components/${texts.id}/price_points.json`,
        `DELETE /components/${texts.id}/price_points/${old.id}.json`,
      ]);
      expect(sim.requests.filter((r) => r.method === "POST").map((r) => r.uniquenessToken)).toEqual(["tok-resumed"]);
      expect(text).toBe(`ComponentPricePoint: archived the replaced ${label("texts-old", old.id)}; subscriptions on it keep it.\n`);
      expect(held(texts.id, old.id)?.archivedAt).not.toBeNull();
    });

    it("that made its price point, declared adopt: false: it is recorded, neither refused nor announced as adopted", async () => {
      const { points, texts } = await setup();
      const made = sim.addComponentPricePoint(
        { componentHandle: "texts" },
        { handle: "texts-volume", name: "Volume", pricingScheme: "volume", prices: VOLUME },
      );
      sim.reset();
      const inputs = { ...volume, adopt: false };
      const { result, error, text } = await captureOutput(() =>
        points.update!("pending-tok-1", pending(texts.id, inputs, "tok-1"), inputs),
      );
      expect(error).toBeUndefined();
      expect(result?.outs).toMatchObject({ pricePointId: made.id, componentId: texts.id, handle: "texts-volume", args: inputs });
      expect(result?.outs.pendingToken).toBeUndefined();
      expect(result?.outs.todo).toBeUndefined();
      expect(text).toBe("");
      expect(mutations(sim)).toEqual([]);
    });

    it("that made its price point: not an adoption, so the old resource's delete still archives it", async () => {
      const { points, texts } = await setup();
      const made = sim.addComponentPricePoint(
        { componentHandle: "texts" },
        { handle: "texts-volume", name: "Volume", pricingScheme: "volume", prices: VOLUME },
      );
      sim.reset();
      const resumed = await captureOutput(() => points.update!("pending-tok-2", pending(texts.id, volume, "tok-2"), volume));
      expect(resumed.error).toBeUndefined();
      expect(resumed.text).toBe("");
      const deleted = await captureOutput(() => points.delete!("pending-tok-2", resumed.result!.outs));
      expect(deleted.error).toBeUndefined();
      expect(deleted.text).toBe(
        `ComponentPricePoint: archived ${label("texts-volume", made.id)}; subscriptions on it keep it, and its handle stays taken.\n`,
      );
      expect(steps(sim)).toEqual([`DELETE /components/${texts.id}/price_points/${made.id}.json`]);
    });

    it("of a prepaid price point declaring a prepaid term the answer does not show: its own, so not replaced", async () => {
      const { points, credits } = await setup();
      const made = sim.addComponentPricePoint({ componentHandle: "credits" }, { ...bulk, rolloverPrepaidRemainder: true });
      sim.reset();
      const inputs = { ...prepaid, rolloverPrepaidRemainder: true };
      const { result, error, text } = await captureOutput(() =>
        points.update!("pending-tok-3", pending(credits.id, inputs, "tok-3"), inputs),
      );
      expect(error).toBeUndefined();
      expect(result?.outs.pricePointId).toBe(made.id);
      expect(text).toBe("");
      expect(mutations(sim)).toEqual([]);
    });
  });

  it("a replacement of the default not declared default: the new one still promoted before the old one is archived", async () => {
    const { points, credits } = await setup();
    const first = await points.create!({ ...prepaid, overagePricing: OVERAGE, default: true });
    sim.reset();
    const news = { ...prepaid, overagePricing: { ...OVERAGE, prices: [{ startingQuantity: 1, unitPrice: "0.20" }] } };
    const { result, error } = await captureOutput(() => points.create!(news));
    expect(error).toBeUndefined();
    expect(steps(sim)).toEqual([
      `PUT /components/${credits.id}/price_points/${first.id}.json`,
      `POST /components/${credits.id}/price_points.json`,
      `PUT /components/${credits.id}/price_points/${result?.id}/default.json`,
      `DELETE /components/${credits.id}/price_points/${first.id}.json`,
    ]);
    expect(result?.outs.isDefault).toBe(true);
    expect(held(credits.id, first.id)?.archivedAt).not.toBeNull();
  });

  it("the handle freed for a replacement is one no price point has, archived ones included", async () => {
    const { points, credits } = await setup();
    const made = sim.addComponentPricePoint({ componentHandle: "credits" }, bulk);
    sim.addComponentPricePoint({ componentHandle: "credits" }, { ...bulk, handle: `credits-bulk-replaced-${made.id}`, archived: true });
    sim.reset();
    const { error, text } = await captureOutput(() => points.create!({ ...prepaid, overagePricing: OVERAGE }));
    expect(error).toBeUndefined();
    expect(text).toContain(
      `ComponentPricePoint: ${label("credits-bulk", made.id)} is renamed \`credits-bulk-replaced-${made.id}-1\` to free its handle for its replacement (overagePricing); it is archived once the new one exists.`,
    );
    expect(held(credits.id, made.id)?.handle).toBe(`credits-bulk-replaced-${made.id}-1`);
  });

  describe("update", () => {
    it("a replaced one left to archive that is still the default: left live, said so in the kind's and parent's words", async () => {
      const { points, texts, original } = await setup();
      const { id, outs } = await points.create!(volume);
      sim.reset();
      const { result, error, text } = await captureOutput(() => points.update!(id, { ...outs, todo: { archive: [original.id] } }, volume));
      expect(error).toBeUndefined();
      expect(text).toBe(
        `ComponentPricePoint: ${label(original.handle, original.id)} stays live: it is still the component's default, which the service cannot archive; promote another price point, then remove it.\n`,
      );
      expect(result?.outs.todo).toBeUndefined();
      expect(mutations(sim)).toEqual([]);
      expect(held(texts.id, original.id)?.archivedAt).toBeNull();
    });

    it("a name change alone: no notice about prices", async () => {
      const { points, texts } = await setup();
      const { id, outs } = await points.create!(volume);
      sim.reset();
      const { error, text } = await captureOutput(() => points.update!(id, outs, { ...volume, name: "Renamed" }));
      expect(error).toBeUndefined();
      expect(text).toBe("");
      expect(steps(sim)).toEqual([`PUT /components/${texts.id}/price_points/${id}.json`]);
    });

    it("of one archived outside the stack: unarchived, said so", async () => {
      const { points, texts } = await setup();
      const { id, outs } = await points.create!(volume);
      await captureOutput(() => points.delete!(id, outs));
      sim.reset();
      const { result, error, text } = await captureOutput(() => points.update!(id, outs, volume));
      expect(error).toBeUndefined();
      expect(text).toBe(`ComponentPricePoint: ${label("texts-volume", id)} was archived outside the stack; unarchived it.\n`);
      expect(result?.outs.archivedAt).toBeNull();
      expect(steps(sim)).toEqual([`PUT /components/${texts.id}/price_points/${id}/unarchive.json`]);
    });

    it("declared default and already the default: not promoted again", async () => {
      const { points, texts } = await setup();
      const { id, outs } = await points.create!({ ...volume, default: true });
      sim.reset();
      const { result } = await captureOutput(() => points.update!(id, outs, { ...volume, default: true, name: "Renamed" }));
      expect(result?.outs.isDefault).toBe(true);
      expect(steps(sim)).toEqual([`PUT /components/${texts.id}/price_points/${id}.json`]);
    });
  });

  describe("check", () => {
    it("adopting one with other prices: the exact preview (no unarchive for a live one; from and to as declared)", async () => {
      const { points } = await setup();
      const made = sim.addComponentPricePoint(
        { componentHandle: "texts" },
        {
          handle: "texts-volume",
          name: "Volume",
          pricingScheme: "volume",
          prices: [
            { startingQuantity: 1, endingQuantity: 10, unitPrice: "0.07" },
            { startingQuantity: 11, unitPrice: "0.06" },
          ],
        },
      );
      const checked = await points.check!({}, volume);
      expect(checked.failures).toEqual([]);
      expect(checked.inputs.preview).toStrictEqual({
        adopt: { id: made.id, handle: "texts-volume" },
        pricingChange: {
          fields: ["prices"],
          from: {
            prices: [
              { startingQuantity: 1, endingQuantity: 10, unitPrice: "0.07" },
              { startingQuantity: 11, unitPrice: "0.06" },
            ],
          },
          to: { prices: VOLUME },
          effect: `the adopted price point's prices are changed in place: ${AFFECTS}`,
        },
      });
    });

    it("prices unknown at preview (the scheme known): no pricing change annotated", async () => {
      const { points, texts } = await setup();
      const { id } = await points.create!(volume);
      const news = { ...volume, prices: UNKNOWN };
      expect(await points.check!(volume, news)).toEqual({
        inputs: { ...news, pricePointId: Number(id), componentId: texts.id },
        failures: [],
      });
    });

    it.each([
      ["a price point id but no component id", () => ({ pricePointId: 999999 })],
      ["a component id but no price point id", () => ({ componentId: 424242 })],
      ["its component as an id, no ids", (textsId: number) => ({ component: textsId })],
    ])("earlier inputs with %s: the ids looked up by handle", async (_, extra) => {
      const { points, texts } = await setup();
      const { id } = await points.create!(volume);
      const olds: Record<string, unknown> = { ...volume, ...extra(texts.id) };
      const news = { ...volume, component: olds.component, name: "Renamed" };
      expect(await points.check!(olds, news)).toEqual({
        inputs: { ...news, pricePointId: Number(id), componentId: texts.id },
        failures: [],
      });
    });

    it("a list of the component's price points refused otherwise than 404: that error, not 'no component has the id'", async () => {
      const { points, texts, original, connect } = await setup();
      const url = await proxy((method, path) =>
        method === "GET" && path === `/components/${texts.id}/price_points.json`
          ? `/components/${texts.id}/price_points/${original.id}/default.json`
          : undefined,
      );
      await connect(url);
      const failed = await points.check!({}, { ...volume, component: texts.id }).then(
        () => undefined,
        (e: Error) => e.message,
      );
      expect(failed).toBe(
        `GET /components/${texts.id}/price_points.json failed with 405: Method GET not allowed on /components/${texts.id}/price_points/${original.id}/default.json; allowed: PUT`,
      );
    });
  });

  it("refresh of a pending create under a numeric id: kept as recorded, nothing read", async () => {
    const { points, texts } = await setup();
    const { id } = await points.create!(volume);
    sim.reset();
    const recorded = {
      handle: "texts-volume",
      args: volume,
      componentId: texts.id,
      pendingToken: "tok-4",
      todo: { promote: false, archive: [] },
    };
    expect(await points.read!(id, recorded)).toEqual({ id, props: recorded });
    expect(sim.requests).toEqual([]);
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

  describe("diff: unchanged inputs still call for an update while the recorded work is unfinished", () => {
    it.each([
      ["a pending create", { pendingToken: "tok" }, true],
      ["steps left after a create", { todo: { archive: [7] } }, true],
      ["an archive made outside", { archivedAt: "2024-01-01T00:00:00Z" }, true],
      ["nothing left", {}, false],
    ])("%s", async (_, extra, changes) => {
      const { points } = await setup();
      const recorded = { handle: "texts-volume", args: volume, ...extra };
      expect(await points.diff!("7", recorded, volume)).toEqual({ changes, replaces: [], deleteBeforeReplace: false });
    });
  });
});

describe("recordedInputs: a held value replaces the declared one only when the service holds one", () => {
  it.each([
    ["a held name", "Held", "Held"],
    ["no name held (null)", null, "Volume"],
  ])("%s", (_, name, recorded) => {
    expect(componentPricePoint.operations.recordedInputs({ handle: "texts-volume", name, args: volume })).toEqual({
      ...volume,
      name: recorded,
    });
  });
});

describe("the state the kind's own create returns: only what was declared and held", () => {
  let sim: Simulator | undefined;
  afterEach(async () => sim?.close());

  it("its args hold the declared inputs only (no key for one left out), and no site key without a site", async () => {
    sim = await startSimulator({ apiKey: KEY });
    sim.addProductFamily({ handle: "rockets", name: "Rockets" });
    const texts = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "texts", unitName: "message", unitPrice: "0.01" });
    // The context the runtime gives each operation, from the runtime's own parts.
    const provider = {};
    configure(provider, configureRequest({ "billing:apiKey": KEY, "billing:baseUrl": sim.url }));
    const ctx: Context = {
      client: (site) => clientFor(provider, site),
      siteLabel: (site) => siteLabel(provider, site),
      partialFailure: (message, id, recorded) => partialFailure(message, id, { ...recorded }, undefined),
      notice,
    };
    const { id, state } = await componentPricePoint.operations.create(ctx, componentPricePoint.kind.inputs.parse(volume));
    expect(Object.keys(state.args).sort()).toEqual(["component", "handle", "name", "prices", "pricingScheme"]);
    expect(Object.hasOwn(state, "site")).toBe(false);
    expect(state).toMatchObject({ pricePointId: Number(id), componentId: texts.id, handle: "texts-volume", args: volume });
  });
});
