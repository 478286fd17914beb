import { afterEach, describe, expect, it } from "vitest";
import { componentPricePointProvider } from "../../provider";
import { componentPricePoint } from "../../provider/kinds/component-price-point";
import { type Simulator, startSimulator } from "../../simulator";
import { quiet } from "../reliability/world";
import { captureOutput, configureRequest, KEY, mutations, type Redirect, redirectingProxy } from "./support";

/**
 * ComponentPricePoint paths the main test file (component-price-point.test.ts) does not take, against the
 * simulator over a real socket: the ids an update's check carries, an update or delete that finds the price
 * point gone or its archive refused, a converge that fails (what is recorded), an id that is not one, the
 * prepaid terms of an adoption, the default left as it is, and the recorded inputs of held overage tiers.
 * Where the service must answer what the simulator never would at that moment (a price point gone between
 * two requests), a proxy in front of it sends that one request to another path, so the simulator answers.
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
};
const steps = (sim: Simulator) => mutations(sim).map((r) => `${r.method} ${r.path}`);
const label = (handle: string, id: number | string) => `component price point \`${handle}\` (id ${id})`;

describe("ComponentPricePoint, its less travelled paths", () => {
  let sim: Simulator;
  afterEach(async () => {
    await sim?.close();
  });

  /** The simulator behind a proxy that sends the requests `to` names elsewhere (support.ts). */
  const proxy = (to: Redirect) => redirectingProxy(sim.url, to);

  /** Metered `texts` and prepaid `credits` in family `rockets`; the provider configured for `baseUrl` (the simulator unless given). */
  async function setup(config: (url: string) => Record<string, string> = (url) => ({ "billing:baseUrl": url })) {
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
    const original = texts.pricePoints[0]?.id as number;
    const points = { ...componentPricePointProvider };
    const connect = async (url: string, extra: Record<string, string> = {}) =>
      points.configure!(configureRequest({ "billing:apiKey": KEY, ...config(url), ...extra }));
    await connect(sim.url);
    sim.reset();
    return { points, texts, credits, original, connect };
  }

  const held = (componentId: number, id: number | string) =>
    sim
      .components()
      .find((c) => c.id === componentId)
      ?.pricePoints.find((pp) => pp.id === Number(id));

  describe("check of an update carries its ids (stable)", () => {
    it("from the earlier checked inputs, without asking the service", async () => {
      const { points, texts } = await setup();
      const { id } = await points.create!(volume);
      sim.reset();
      const olds = { ...volume, pricePointId: Number(id), componentId: texts.id };
      const news = { ...volume, name: "Renamed" };
      expect(await points.check!(olds, news)).toEqual({
        inputs: { ...news, pricePointId: Number(id), componentId: texts.id },
        failures: [],
      });
      expect(sim.requests).toEqual([]);
    });

    it("looked up by handle when the earlier inputs do not carry them", async () => {
      const { points, texts } = await setup();
      const { id } = await points.create!(volume);
      const news = { ...volume, name: "Renamed" };
      expect(await points.check!(volume, news)).toEqual({
        inputs: { ...news, pricePointId: Number(id), componentId: texts.id },
        failures: [],
      });
    });
  });

  describe("update", () => {
    it("of a price point the service no longer has: an error that says to refresh, nothing sent", async () => {
      const { points, texts } = await setup();
      const { outs } = await points.create!(volume);
      sim.reset();
      await expect(points.update!("999999", { ...outs, pricePointId: 999999 }, volume)).rejects.toThrow(
        new Error(
          `${label("texts-volume", 999999)} no longer exists at the service: run \`pulumi refresh\` to drop it (nothing was changed)`,
        ),
      );
      expect(mutations(sim)).toEqual([]);
      expect(held(texts.id, outs.pricePointId)?.archivedAt).toBeNull();
    });

    it("a read refused otherwise (not a 404) is that error, not 'no longer exists'", async () => {
      const { points, texts, connect } = await setup();
      const { id, outs } = await points.create!(volume);
      // Sent to a path that takes no GET: the simulator's own refusal, not a 404.
      const url = await proxy((method, path) =>
        method === "GET" && path === `/components/${texts.id}/price_points/${id}.json`
          ? `/components/${texts.id}/price_points/${id}/default.json`
          : undefined,
      );
      await connect(url);
      const failed = await points.update!(id, outs, volume).then(
        () => undefined,
        (e: Error) => e.message,
      );
      expect(failed).toBe(
        `GET /components/${texts.id}/price_points/${id}.json failed with 405: Method GET not allowed on /components/${texts.id}/price_points/${id}/default.json; allowed: PUT`,
      );
    });

    it("a converge that fails records the price point as it was read, its old handle, what was declared, and names what failed", async () => {
      const { points, texts, connect } = await setup();
      const { id, outs } = await points.create!(volume);
      const url = await proxy((method, path) =>
        method === "PUT" && path === `/components/${texts.id}/price_points/${id}.json`
          ? `/components/${texts.id}/price_points/999999.json`
          : undefined,
      );
      await connect(url);
      sim.reset();
      const news = { ...volume, handle: "texts-bulk", name: "Bulk" };
      const failed = (await points.update!(id, outs, news).then(
        () => undefined,
        (e: Error & { id: string; properties: Record<string, unknown> }) => e,
      )) as Error & { id: string; properties: Record<string, unknown> };
      expect({ message: failed.message, id: failed.id, properties: failed.properties }).toEqual({
        message: `${label("texts-volume", id)} is recorded, but converging it (handle, name) failed: ${notFound("PUT", texts.id, Number(id))}. The next \`pulumi up\` tries again.`,
        id,
        properties: { ...outs, args: news, handle: "texts-volume" },
      });
      expect(steps(sim)).toEqual([`PUT /components/${texts.id}/price_points/999999.json`]);
      expect(held(texts.id, id)).toMatchObject({ handle: "texts-volume", name: "Volume" });
    });

    describe("declared default: false on the component's default: said to stay the default only when it was declared default: true", () => {
      const stays = (id: string) =>
        `ComponentPricePoint: ${label("texts-volume", id)} stays the component's default until another price point is promoted (the service cannot demote one).`;
      it.each([
        ["declared true, now false, still the default", { default: true }, true, { default: false }, true],
        ["declared true, now left out", { default: true }, true, {}, false],
        ["declared false, promoted outside, still false", { default: false }, true, { default: false }, false],
        ["declared true, another promoted outside since, now false", { default: true }, false, { default: false }, false],
      ])("%s", async (_, before, isDefault, after, said) => {
        const { points, texts, original } = await setup();
        const { id, outs } = await points.create!({ ...volume, ...before });
        const promote = isDefault ? Number(id) : original;
        await fetch(`${sim.url}/components/${texts.id}/price_points/${promote}/default.json`, {
          method: "PUT",
          headers: { authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}` },
        });
        sim.reset();
        const { result, error, text } = await captureOutput(() => points.update!(id, outs, { ...volume, ...after }));
        expect(error).toBeUndefined();
        expect(result?.outs.isDefault).toBe(isDefault);
        expect(text).toBe(said ? `${stays(id)}\n` : "");
        expect(mutations(sim)).toEqual([]);
      });
    });
  });

  describe("a converge of an adopted price point that fails records it as found, with the declared args", () => {
    it("the web UI's prices differ; the update is refused", async () => {
      const { points, texts, connect } = await setup();
      const made = sim.addComponentPricePoint(
        { componentHandle: "texts" },
        { handle: "texts-volume", name: "Volume", pricingScheme: "volume", prices: [{ startingQuantity: 1, unitPrice: "0.07" }] },
      );
      const url = await proxy((method, path) =>
        method === "PUT" && path === `/components/${texts.id}/price_points/${made.id}.json`
          ? `/components/${texts.id}/price_points/999999.json`
          : undefined,
      );
      await connect(url);
      const failed = (await points.create!(volume).then(
        () => undefined,
        (e: Error & { id: string; properties: Record<string, unknown> }) => e,
      )) as Error & { id: string; properties: Record<string, unknown> };
      expect({ message: failed.message, id: failed.id, properties: failed.properties }).toEqual({
        message: `${label("texts-volume", made.id)} was adopted and recorded; converging it failed: ${notFound("PUT", texts.id, made.id)}. The next \`pulumi up\` sends what still differs.`,
        id: String(made.id),
        properties: {
          handle: "texts-volume",
          args: volume,
          pricePointId: made.id,
          componentId: texts.id,
          name: "Volume",
          isDefault: false,
          archivedAt: null,
          pricingScheme: "volume",
          prices: [{ startingQuantity: 1, endingQuantity: null, unitPrice: "0.07" }],
          overagePrices: [],
          interval: null,
          intervalUnit: null,
          useSiteExchangeRate: true,
          taxIncluded: false,
          rolloverPrepaidRemainder: null,
          renewPrepaidAllocation: null,
          expirationInterval: null,
          expirationIntervalUnit: null,
        },
      });
    });
  });

  describe("adopting a prepaid price point: its prepaid terms, which the service's answer does not show", () => {
    it("none declared: adopted, no replacement", async () => {
      const { points, credits } = await setup();
      const made = sim.addComponentPricePoint(
        { componentHandle: "credits" },
        { handle: "credits-bulk", name: "Bulk credits", pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice: 2 }] },
      );
      sim.reset();
      const { result, error } = await captureOutput(() => points.create!(prepaid));
      expect(error).toBeUndefined();
      expect(result?.id).toBe(String(made.id));
      expect(steps(sim)).toEqual([]);
      expect(held(credits.id, made.id)?.archivedAt).toBeNull();
    });

    it("one declared, not confirmed held: the old one renamed and replaced, the notice naming what cannot change in place", async () => {
      const { points, credits } = await setup();
      const made = sim.addComponentPricePoint(
        { componentHandle: "credits" },
        {
          handle: "credits-bulk",
          name: "Bulk credits",
          pricingScheme: "per_unit",
          prices: [{ startingQuantity: 1, unitPrice: 2 }],
          rolloverPrepaidRemainder: true,
        },
      );
      sim.reset();
      const { result, error, text } = await captureOutput(() =>
        points.create!({ ...prepaid, rolloverPrepaidRemainder: true, overagePricing: OVERAGE }),
      );
      expect(error).toBeUndefined();
      expect(text).toContain(
        `ComponentPricePoint: ${label("credits-bulk", made.id)} is renamed \`credits-bulk-replaced-${made.id}\` to free its handle for its replacement (rolloverPrepaidRemainder, overagePricing); it is archived once the new one exists.`,
      );
      expect(steps(sim)).toEqual([
        `PUT /components/${credits.id}/price_points/${made.id}.json`,
        `POST /components/${credits.id}/price_points.json`,
        `DELETE /components/${credits.id}/price_points/${made.id}.json`,
      ]);
      expect(result?.id).not.toBe(String(made.id));
    });
  });

  it("a create whose outcome is unknown, at a named site, records the site with the pending create", async () => {
    const { points, texts } = await setup((url) => ({
      "billing:sites": JSON.stringify({
        "eu-shop": { baseUrl: url, apiKey: KEY, timeoutMs: 300, migrationSettleSeconds: 1, retryBudgetSeconds: 3 },
      }),
    }));
    sim.injectFault({ kind: "processing", ms: 2500, times: 1, match: { method: "POST" } });
    const inputs = { ...volume, site: "eu-shop" };
    const failed = await captureOutput(() => points.create!(inputs));
    const partial = failed.error as { id: string; properties: Record<string, unknown> };
    expect(partial.properties).toEqual({
      handle: "texts-volume",
      args: inputs,
      componentId: texts.id,
      site: "eu-shop",
      pendingToken: partial.id.slice("pending-".length),
    });
    await quiet([sim]);
  });

  describe("read: the id is the price point's only when it is all digits", () => {
    it.each([
      ["its id", (id: string) => id, true],
      ["digits after a prefix", (id: string) => `x${id}`, false],
      ["digits before a suffix", (id: string) => `${id}x`, false],
      ["a leading zero", (id: string) => `0${id}`, false],
    ])("%s", async (_, idOf, read) => {
      const { points, texts } = await setup();
      const { id, outs } = await points.create!(volume);
      const { pricePointId: _id, ...unrecorded } = outs;
      sim.reset();
      const got = await points.read!(idOf(id), { ...unrecorded, name: "stale" });
      expect(got).toEqual({
        id: idOf(id),
        props: read ? { ...unrecorded, pricePointId: Number(id), name: "Volume" } : { ...unrecorded, name: "stale" },
      });
      expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual(read ? [`GET /components/${texts.id}/price_points/${id}.json`] : []);
    });
  });

  describe("delete", () => {
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
          ? `/components/${texts.id}/price_points/${original}.json`
          : undefined,
      );
      await connect(url);
      const { text, error } = await captureOutput(() => points.delete!(id, outs));
      expect((error as Error).message).toBe(
        `DELETE /components/${texts.id}/price_points/${id}.json failed with 422: Cannot archive the default price point.`,
      );
      expect(text).toBe("");
    });
  });
});

/** The SDK's message for the simulator's 404 of a price point (the path the client sent). */
const notFound = (method: string, componentId: number, id: number) =>
  `${method} /components/${componentId}/price_points/${id}.json failed with 404: Price point not found`;

describe("recordedInputs: held overage tiers and a default promoted away", () => {
  const base = { handle: "credits-bulk", pricePointId: 7, componentId: 3, isDefault: true };
  const args = { ...prepaid, overagePricing: OVERAGE };
  it.each([
    [
      "overage tiers held as declared (0.1 is 0.10): the declared ones",
      { overagePrices: [{ startingQuantity: 1, endingQuantity: null, unitPrice: "0.1" }] },
      args,
    ],
    [
      "overage tiers held otherwise: the held ones, as a declaration writes them",
      { overagePrices: [{ startingQuantity: 1, endingQuantity: null, unitPrice: "0.2" }] },
      { ...args, overagePricing: { pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice: "0.2" }] } },
    ],
    ["no overage tiers in the answer: the declared ones", { overagePrices: [] }, args],
  ])("%s", (_, held, expected) => {
    expect(componentPricePoint.operations.recordedInputs({ ...base, ...held, args })).toEqual(expected);
  });

  it.each([
    ["declared default, held default: as declared", { default: true }, true, { default: true }],
    ["declared default, another promoted since: false", { default: true }, false, { default: false }],
    ["declared not default, held default: as declared", { default: false }, true, { default: false }],
  ])("%s", (_, declared, isDefault, expected) => {
    expect(
      componentPricePoint.operations.recordedInputs({ ...base, handle: "texts-volume", isDefault, args: { ...volume, ...declared } }),
    ).toEqual({
      ...volume,
      ...expected,
    });
  });
});
