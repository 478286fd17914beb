import { afterEach, describe, expect, it } from "vitest";
import { productPricePointProvider } from "../../provider";
import { productPricePoint } from "../../provider/kinds/product-price-point";
import type { Simulator } from "../../simulator";
import { quiet } from "../reliability/world";
import { annual, LAUNCH, label, ppPath } from "./price-point-fixtures";
import { captureOutput, configured, configureRequest, KEY, mutations, type Redirect, redirectingProxy } from "./support";

/**
 * ProductPricePoint paths no unit test took (the mutation run found them unchecked), against the simulator
 * over a real socket: adopt: false refused at create and at check, a pending create finished on a price point
 * that exists, a replacement for a name alone, a pending create at a named site, which ids are the price
 * point's, the check's ids and the unarchive it announces, an update that finds the price point gone,
 * archived or the default, a pending delete, an archive the service answers 404 or 422, and the Product
 * resource a ProductPricePoint goes with. Where the service must answer what the simulator never would at
 * that moment, a proxy in front of it sends that one request to another path, so the simulator answers.
 */

const steps = (sim: Simulator) => mutations(sim).map((r) => `${r.method} ${r.path}`);

type Failed = Error & { id: string; properties: Record<string, unknown> };
const failureOf = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: Failed) => e,
  ) as Promise<Failed | undefined>;

describe("ProductPricePoint, its less travelled paths", () => {
  let sim: Simulator;
  afterEach(async () => {
    await sim?.close();
  });

  async function setup() {
    const c = await configured(productPricePointProvider);
    sim = c.sim;
    const points = c.provider;
    const connect = (extra: Record<string, string>) => points.configure!(configureRequest({ "billing:apiKey": KEY, ...extra }));
    const launchDefault = (await listed()).find((pp) => pp.handle === "launch-default")?.id as number;
    sim.reset();
    return { points, connect, launchDefault };
  }

  /** The launch product's price points as the service lists them, archived ones too. */
  async function listed(): Promise<{ id: number; handle: string; type: string; archived_at: string | null }[]> {
    const answer = await fetch(`${sim.url}/products/${LAUNCH}/price_points.json?include_archived=true`, { headers: auth() });
    return ((await answer.json()) as { price_points: { id: number; handle: string; type: string; archived_at: string | null }[] })
      .price_points;
  }
  const auth = () => ({ authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}` });
  /** A promotion made outside the stack (the web UI). */
  const promote = (id: number | string) =>
    fetch(`${sim.url}/products/${LAUNCH}/price_points/${id}/default.json`, { method: "PATCH", headers: auth() });

  /** The simulator behind a proxy that sends the requests `to` names elsewhere (support.ts). */
  const proxy = (to: Redirect) => redirectingProxy(sim.url, to);

  describe("adopt: false on a price point that exists", () => {
    it("create: refused with its id and product, nothing sent", async () => {
      const { points } = await setup();
      const { id } = await points.create(annual);
      sim.reset();
      const failed = await failureOf(points.create({ ...annual, adopt: false }));
      expect(failed?.message).toBe(`${label("launch-annual", id)} already exists and adopt is false: nothing was changed`);
      expect(mutations(sim)).toEqual([]);
    });

    it("check of a first deploy: the handle named, with the fix", async () => {
      const { points } = await setup();
      const { id } = await points.create(annual);
      sim.reset();
      expect(await points.check!({}, { ...annual, adopt: false })).toEqual({
        inputs: { ...annual, adopt: false },
        failures: [
          {
            property: "handle",
            reason: `${label("launch-annual", id)} already exists at the service and adopt is false: choose another handle, or set adopt: true to manage it`,
          },
        ],
      });
      expect(mutations(sim)).toEqual([]);
    });

    it("a pending create's retry that finds it made takes it: it is the one that create made", async () => {
      const { points } = await setup();
      const { id } = await points.create(annual);
      sim.reset();
      const declared = { ...annual, adopt: false };
      const pending = { handle: "launch-annual", args: declared, pendingToken: "tok", todo: { archive: [] } };
      const { result, error, text } = await captureOutput(() => points.update!(`pending-tok`, pending, declared));
      expect(error).toBeUndefined();
      expect(result?.outs).toMatchObject({ pricePointId: Number(id), productId: LAUNCH, handle: "launch-annual", args: declared });
      expect(text).toBe("");
      expect(mutations(sim)).toEqual([]);
    });
  });

  it("adopting one whose name alone differs: renamed and replaced, the notice saying its name differs", async () => {
    const { points } = await setup();
    const { id } = await points.create(annual);
    sim.reset();
    const { result, error, text } = await captureOutput(() => points.create({ ...annual, name: "Yearly" }));
    expect(error).toBeUndefined();
    expect(text.split("\n")[0]).toBe(
      `ProductPricePoint: ${label("launch-annual", id)} is renamed \`launch-annual-replaced-${id}\` to free its handle for its replacement (its name differs); it is archived once the new one exists.`,
    );
    expect(steps(sim)).toEqual([`PUT ${ppPath(id)}`, `POST /products/${LAUNCH}/price_points.json`, `DELETE ${ppPath(id)}`]);
    expect(result?.outs).toMatchObject({ handle: "launch-annual", name: "Yearly" });
  });

  it("a create whose outcome is unknown, at a named site, records the site with the pending create", async () => {
    const { points, connect } = await setup();
    await connect({
      "billing:sites": JSON.stringify({
        "eu-shop": { baseUrl: sim.url, apiKey: KEY, timeoutMs: 300, migrationSettleSeconds: 1, retryBudgetSeconds: 3 },
      }),
    });
    sim.injectFault({ kind: "processing", ms: 2500, times: 1, match: { method: "POST" } });
    const inputs = { ...annual, site: "eu-shop" };
    const failed = await captureOutput(() => points.create(inputs));
    const partial = failed.error as Failed;
    expect(partial.properties).toEqual({
      handle: "launch-annual",
      args: inputs,
      site: "eu-shop",
      pendingToken: partial.id.slice("pending-".length),
      // Nothing to archive: no todo recorded.
    });
    await quiet([sim]);
  });

  describe("read: the id is the price point's only when it is all digits from 1-9 on", () => {
    it.each([
      ["its id", (id: string) => id, true],
      ["digits after a prefix", (id: string) => `x${id}`, false],
      ["digits before a suffix", (id: string) => `${id}x`, false],
      ["a leading zero", (id: string) => `0${id}`, false],
    ])("%s", async (_, idOf, read) => {
      const { points } = await setup();
      const { id, outs } = await points.create(annual);
      expect(id).toMatch(/^[1-9][0-9]{2,}$/);
      const { pricePointId: _id, ...unrecorded } = outs;
      sim.reset();
      const got = await points.read!(idOf(id), { ...unrecorded, name: "stale" });
      expect(got).toEqual({
        id: idOf(id),
        props: read ? { ...unrecorded, pricePointId: Number(id), name: "Annual" } : { ...unrecorded, name: "stale" },
      });
      expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual(read ? [`GET ${ppPath(id)}`] : []);
    });
  });

  describe("check of an update carries its ids (stable)", () => {
    it("from the earlier checked inputs, without asking the service", async () => {
      const { points } = await setup();
      const news = { ...annual, handle: "launch-yearly" };
      // Ids the service does not hold: taken as recorded, not looked up.
      expect(await points.check!({ ...annual, pricePointId: 999, productId: 77 }, news)).toEqual({
        inputs: { ...news, pricePointId: 999, productId: 77 },
        failures: [],
      });
      expect(sim.requests).toEqual([]);
    });

    it("looked up by handle when the earlier inputs lack the product's id", async () => {
      const { points } = await setup();
      const { id } = await points.create(annual);
      const news = { ...annual, handle: "launch-yearly" };
      const { inputs } = await points.check!({ ...annual, pricePointId: 999 }, news);
      expect({ pricePointId: inputs.pricePointId, productId: inputs.productId }).toEqual({ pricePointId: Number(id), productId: LAUNCH });
    });
  });

  it("check of a first deploy that finds it archived announces its unarchiving", async () => {
    const { points } = await setup();
    const { id, outs } = await points.create(annual);
    expect((await captureOutput(() => points.delete!(id, outs))).error).toBeUndefined();
    sim.reset();
    const { inputs } = await points.check!({}, annual);
    expect(inputs.preview).toEqual({ adopt: { id: Number(id), handle: "launch-annual", unarchive: true } });
    expect(mutations(sim)).toEqual([]);
  });

  it("recordedInputs: declared default, another promoted since: recorded false", () => {
    const s = { handle: "launch-annual", pricePointId: 7, productId: LAUNCH, isDefault: false, args: { ...annual, default: true } };
    expect(productPricePoint.operations.recordedInputs(s)).toEqual({ ...annual, default: false });
  });

  describe("update", () => {
    it("of a price point the service no longer has: an error that says to refresh, nothing sent", async () => {
      const { points } = await setup();
      const { outs } = await points.create(annual);
      sim.reset();
      const failed = await failureOf(points.update!("999999", { ...outs, pricePointId: 999999 }, annual));
      expect(failed?.message).toBe(
        `${label("launch-annual", 999999)} no longer exists at the service: run \`pulumi refresh\` to drop it (nothing was changed)`,
      );
      expect(mutations(sim)).toEqual([]);
    });

    it("a read refused otherwise (not a 404) is that error, not 'no longer exists'", async () => {
      const { points, connect } = await setup();
      const { id, outs } = await points.create(annual);
      // Sent to a path that takes no GET: the simulator's own refusal, not a 404.
      const url = await proxy((method, path) =>
        method === "GET" && path === ppPath(id) ? `/products/${LAUNCH}/price_points/${id}/default.json` : undefined,
      );
      await connect({ "billing:baseUrl": url });
      const failed = await failureOf(points.update!(id, outs, annual));
      expect(failed?.message).toBe(
        `GET ${ppPath(id)} failed with 405: Method GET not allowed on /products/${LAUNCH}/price_points/${id}/default.json; allowed: PATCH`,
      );
    });

    it("of one archived outside the stack: unarchived, said so", async () => {
      const { points } = await setup();
      const { id, outs } = await points.create(annual);
      expect((await captureOutput(() => points.delete!(id, outs))).error).toBeUndefined();
      sim.reset();
      const { result, error, text } = await captureOutput(() => points.update!(id, outs, annual));
      expect(error).toBeUndefined();
      expect(text).toBe(`ProductPricePoint: ${label("launch-annual", id)} was archived outside the stack; unarchived it.\n`);
      expect(result?.outs.archivedAt).toBeNull();
      expect(steps(sim)).toEqual([`PATCH /products/${LAUNCH}/price_points/${id}/unarchive.json`]);
    });

    describe("declared default: false on the product's default: said to stay the default only when it was declared default: true", () => {
      const stays = (id: string) =>
        `ProductPricePoint: ${label("launch-annual", id)} stays the product's default until another price point is promoted (the service cannot demote one).`;
      it.each([
        ["declared true, now false, still the default", { default: true }, true, { default: false }, true],
        ["declared true, now left out", { default: true }, true, {}, false],
        ["declared false, promoted outside, still false", { default: false }, true, { default: false }, false],
        ["declared true, another promoted outside since, now false", { default: true }, false, { default: false }, false],
      ])("%s", async (_, before, isDefault, after, said) => {
        const { points, launchDefault } = await setup();
        const { id, outs } = await points.create({ ...annual, ...before });
        await promote(isDefault ? id : launchDefault);
        sim.reset();
        const { result, error, text } = await captureOutput(() => points.update!(id, outs, { ...annual, ...after }));
        expect(error).toBeUndefined();
        expect(result?.outs.isDefault).toBe(isDefault);
        expect(text).toBe(said ? `${stays(id)}\n` : "");
        expect(mutations(sim)).toEqual([]);
      });
    });
  });

  describe("delete", () => {
    it("a pending create that made no price point: nothing to archive, said so", async () => {
      const { points } = await setup();
      const { text, error } = await captureOutput(() =>
        points.delete!("pending-tok", {
          handle: "launch-never",
          args: { ...annual, handle: "launch-never" },
          productId: LAUNCH,
          pendingToken: "tok",
        }),
      );
      expect(error).toBeUndefined();
      expect(text).toBe("ProductPricePoint: the pending create of `launch-never` made no price point; nothing to archive.\n");
      expect(mutations(sim)).toEqual([]);
    });

    it("a pending create that did make it: that one archived, found by its handle", async () => {
      const { points } = await setup();
      const { id } = await points.create(annual);
      sim.reset();
      const { text, error } = await captureOutput(() =>
        points.delete!("pending-tok", { handle: "launch-annual", args: annual, productId: LAUNCH, pendingToken: "tok" }),
      );
      expect(error).toBeUndefined();
      expect(text).toBe(
        `ProductPricePoint: archived ${label("launch-annual", id)}; subscriptions on it keep it, and its handle stays taken.\n`,
      );
      expect(steps(sim)).toEqual([`DELETE ${ppPath(id)}`]);
    });

    it("a pending create whose price point is archived already: found among the archived ones, nothing sent or said", async () => {
      const { points } = await setup();
      const { id, outs } = await points.create(annual);
      expect((await captureOutput(() => points.delete!(id, outs))).error).toBeUndefined();
      sim.reset();
      const { text, error } = await captureOutput(() =>
        points.delete!("pending-tok", { handle: "launch-annual", args: annual, productId: LAUNCH, pendingToken: "tok" }),
      );
      expect(error).toBeUndefined();
      expect(text).toBe("");
      expect(mutations(sim)).toEqual([]);
    });

    it("an archive answered 404 (gone meanwhile): done, nothing said", async () => {
      const { points, connect } = await setup();
      const { id, outs } = await points.create(annual);
      const url = await proxy((method, path) => (method === "DELETE" && path === ppPath(id) ? ppPath(999999) : undefined));
      await connect({ "billing:baseUrl": url });
      sim.reset();
      const { text, error } = await captureOutput(() => points.delete!(id, outs));
      expect(error).toBeUndefined();
      expect(text).toBe("");
      expect(steps(sim)).toEqual([`DELETE ${ppPath(999999)}`]);
      expect((await listed()).find((pp) => pp.id === Number(id))?.archived_at).toBeNull();
    });

    it("an archive refused otherwise (422): that error", async () => {
      const { points, connect, launchDefault } = await setup();
      const { id, outs } = await points.create(annual);
      // Sent to the product's default instead, which the service refuses to archive.
      const url = await proxy((method, path) => (method === "DELETE" && path === ppPath(id) ? ppPath(launchDefault) : undefined));
      await connect({ "billing:baseUrl": url });
      const { text, error } = await captureOutput(() => points.delete!(id, outs));
      expect((error as Error).message).toBe(`DELETE ${ppPath(id)} failed with 422: Cannot archive the default price point.`);
      expect(text).toBe("");
    });
  });
});
