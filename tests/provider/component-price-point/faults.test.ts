import { afterEach, describe, expect, it } from "vitest";
import { componentPricePointProvider } from "../../../provider";
import type { Simulator } from "../../../simulator";
import { quiet } from "../../reliability/world";
import { captureOutput, configured, KEY, mutations, type Redirect, redirectingProxy } from "../support";
import { bulk, heldIn, label, notFound, prepaid, startSite, steps, VOLUME, volume } from "./site";

/**
 * ComponentPricePoint under the service's failures: a create whose outcome is unknown recorded pending (with its
 * site) and resumed by handle; a resumed create's own price point neither refused nor adopted; a converge that
 * fails recorded as read; reads and lists refused otherwise are that failure.
 */

describe("ComponentPricePoint under the service's failures", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  /** Metered `texts` and prepaid `credits` in family `rockets`, the provider configured for the site (site.ts). */
  async function setup(config?: (url: string) => Record<string, string>) {
    const site = await startSite(config);
    sim = site.sim;
    return site;
  }
  const held = (componentId: number, id: number | string) => heldIn(sim, componentId, { id });
  /** The simulator behind a proxy that sends the requests `to` names elsewhere (support.ts). */
  const proxy = (to: Redirect) => redirectingProxy(sim.url, to);

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
          // It follows the exchange rate: no currency prices of its own.
          currencyPrices: null,
        },
      });
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
