import { afterEach, describe, expect, it } from "vitest";
import { partialFailure } from "../../provider/engine";
import { finishReplacement, type PricePointSteps } from "../../provider/kinds/catalog";
import type { Context } from "../../provider/kinds/kind";
import { BillingClient } from "../../sdk/client";
import { type Simulator, startSimulator } from "../../simulator";
import { KEY, mutations } from "./support";

/**
 * What the catalog kinds do after a price point's create replaced others (provider/kinds/catalog.ts's
 * finishReplacement), called directly against the simulator over a real socket: promote it, then archive the
 * replaced ones (the default stays live, said so), with what is left recorded when a step fails. Each case is exact:
 * a changed message or recorded todo fails it.
 */

describe("finishReplacement: promote, then archive the replaced price points; a failure records what is left", () => {
  let sim: Simulator;
  let client: BillingClient;
  afterEach(async () => {
    await client?.close();
    await sim?.close();
  });

  /**
   * Component `texts` (its default "Original") with live price points `texts-old` and `texts-new`, an archived
   * `texts-gone`; a client that does not retry; the steps of ComponentPricePoint; notices collected.
   */
  async function setup() {
    sim = await startSimulator({ apiKey: KEY });
    sim.addProductFamily({ handle: "rockets", name: "Rockets" });
    const texts = sim.addComponent({
      familyHandle: "rockets",
      kind: "metered",
      handle: "texts",
      unitName: "message",
      unitPrice: "0.01",
      pricePoints: [{ handle: "texts-old" }, { handle: "texts-new" }, { handle: "texts-gone", archived: true }],
    });
    const id = (handle: string) => texts.pricePoints.find((pp) => pp.handle === handle)?.id as number;
    const original = texts.pricePoints.find((pp) => pp.default)?.id as number;
    sim.reset();
    client = new BillingClient({ baseUrl: sim.url, apiKey: KEY, maxRetries: 0 });
    const notices: string[] = [];
    const ctx: Context = {
      client: () => client,
      siteLabel: () => "default",
      partialFailure: (message, resourceId, recorded) => partialFailure(message, resourceId, { ...recorded }, undefined),
      notice: (m) => notices.push(m),
    };
    const steps: PricePointSteps = {
      type: "ComponentPricePoint",
      parent: "component",
      label: (handle, ppId) => `component price point \`${handle}\` (id ${ppId})`,
      promote: (ppId) => client.setDefaultComponentPricePoint(texts.id, ppId),
      read: (ppId) => client.readComponentPricePoint(texts.id, ppId),
      archive: (ppId) => client.archiveComponentPricePoint(texts.id, ppId),
    };
    const held = (ppId: number) => sim.components()[0]?.pricePoints.find((pp) => pp.id === ppId);
    return { texts, id, original, ctx, steps, notices, held };
  }

  it("nothing to do (no todo): nothing is sent, nothing promoted, no todo recorded", async () => {
    const { ctx, steps, notices, id } = await setup();
    const s = { handle: "texts-new", pricePointId: id("texts-new"), isDefault: false };
    expect(await finishReplacement(ctx, "r", s, steps)).toEqual({ ...s, todo: undefined });
    expect(mutations(sim)).toEqual([]);
    expect(notices).toEqual([]);
  });

  it("an archive list alone (promote not recorded): the replaced one archived, not promoted", async () => {
    const { ctx, steps, notices, id, texts, held } = await setup();
    const s = { handle: "texts-new", pricePointId: id("texts-new"), isDefault: false, todo: { archive: [id("texts-old")] } };
    expect(await finishReplacement(ctx, "r", s, steps)).toEqual({ ...s, todo: undefined });
    expect(mutations(sim).map((r) => `${r.method} ${r.path}`)).toEqual([
      `DELETE /components/${texts.id}/price_points/${id("texts-old")}.json`,
    ]);
    expect(notices).toEqual([
      `ComponentPricePoint: archived the replaced component price point \`texts-old\` (id ${id("texts-old")}); subscriptions on it keep it.`,
    ]);
    expect(held(id("texts-new"))?.default).toBe(false);
  });

  it("promoted first; the default it replaces stays live, said so; an archived one is skipped; a live one archived", async () => {
    const { ctx, steps, notices, id, original, texts, held } = await setup();
    const s = {
      handle: "texts-new",
      pricePointId: id("texts-new"),
      isDefault: false,
      todo: { promote: true, archive: [id("texts-gone"), id("texts-old")] },
    };
    expect(await finishReplacement(ctx, "r", s, steps)).toEqual({ ...s, isDefault: true, todo: undefined });
    expect(mutations(sim).map((r) => `${r.method} ${r.path}`)).toEqual([
      `PUT /components/${texts.id}/price_points/${id("texts-new")}/default.json`,
      `DELETE /components/${texts.id}/price_points/${id("texts-old")}.json`,
    ]);
    expect(notices).toEqual([
      `ComponentPricePoint: archived the replaced component price point \`texts-old\` (id ${id("texts-old")}); subscriptions on it keep it.`,
    ]);
    expect(held(original)?.default).toBe(false);

    // The old default still the default (never promoted away): not archived, and the notice says how to proceed.
    notices.length = 0;
    sim.reset();
    const current = held(id("texts-new"));
    const again = { handle: "texts-old", pricePointId: id("texts-old"), isDefault: false, todo: { archive: [current?.id as number] } };
    expect(await finishReplacement(ctx, "r", again, steps)).toEqual({ ...again, todo: undefined });
    expect(mutations(sim)).toEqual([]);
    expect(notices).toEqual([
      `ComponentPricePoint: component price point \`texts-new\` (id ${id("texts-new")}) stays live: it is still the component's default, which the service cannot archive; promote another price point, then remove it.`,
    ]);
  });

  it("a service answer without a handle: the notices name it `?`", async () => {
    const { ctx, steps, notices, id, original } = await setup();
    const bare: PricePointSteps = {
      ...steps,
      read: async (ppId) => {
        const { handle: _, ...rest } = (await steps.read(ppId)) as { handle?: string; type?: string; archivedAt?: string };
        return rest;
      },
    };
    const s = { handle: "texts-new", pricePointId: id("texts-new"), todo: { archive: [original, id("texts-old")] } };
    expect(await finishReplacement(ctx, "r", s, bare)).toEqual({ ...s, todo: undefined });
    expect(notices).toEqual([
      `ComponentPricePoint: component price point \`?\` (id ${original}) stays live: it is still the component's default, which the service cannot archive; promote another price point, then remove it.`,
      `ComponentPricePoint: archived the replaced component price point \`?\` (id ${id("texts-old")}); subscriptions on it keep it.`,
    ]);
  });

  describe("a failed step: the price point recorded with what is left, the message naming it", () => {
    /** The SDK's message for a 500 that it did not retry. */
    const serverError = (method: string, path: string) =>
      `${method} ${path} failed with 500: Internal Server Error; it may or may not have been applied (the read-back could not confirm it), so read it back before relying on either`;
    const failed = (s: object, steps: PricePointSteps, ctx: Context) =>
      finishReplacement(ctx, "r", s as { handle: string }, steps).then(
        () => undefined,
        (e: Error & { id: string; properties: object }) => ({ message: e.message, id: e.id, properties: e.properties }),
      );

    it("the promotion fails: promote and both archives left", async () => {
      const { ctx, steps, id, held, texts } = await setup();
      sim.injectFault({ kind: "status", status: 500, match: { method: "PUT" } });
      const s = {
        handle: "texts-new",
        pricePointId: id("texts-new"),
        todo: { promote: true, archive: [id("texts-old"), id("texts-gone")] },
      };
      expect(await failed(s, steps, ctx)).toEqual({
        message: `component price point \`texts-new\` (id ${id("texts-new")}) was created and recorded; what is left (promote it to the component's default, archive the replaced price point(s) ${id("texts-old")}, ${id("texts-gone")}) failed: ${serverError("PUT", `/components/${texts.id}/price_points/${id("texts-new")}/default.json`)}. The next \`pulumi up\` finishes it.`,
        id: "r",
        properties: { ...s, todo: { promote: true, archive: [id("texts-old"), id("texts-gone")] } },
      });
      expect(held(id("texts-old"))?.archivedAt).toBeNull();
    });

    it("the promotion fails with nothing to archive: only the promotion left", async () => {
      const { ctx, steps, id, texts } = await setup();
      sim.injectFault({ kind: "status", status: 500, match: { method: "PUT" } });
      const s = { handle: "texts-new", pricePointId: id("texts-new"), todo: { promote: true, archive: [] } };
      expect(await failed(s, steps, ctx)).toEqual({
        message: `component price point \`texts-new\` (id ${id("texts-new")}) was created and recorded; what is left (promote it to the component's default) failed: ${serverError("PUT", `/components/${texts.id}/price_points/${id("texts-new")}/default.json`)}. The next \`pulumi up\` finishes it.`,
        id: "r",
        properties: { ...s, todo: { promote: true, archive: [] } },
      });
    });

    it("an archive fails after the promotion: the promotion recorded done, that archive and the next left", async () => {
      const { ctx, steps, id, held, texts } = await setup();
      sim.injectFault({ kind: "status", status: 500, match: { method: "DELETE" } });
      const s = {
        handle: "texts-new",
        pricePointId: id("texts-new"),
        isDefault: false,
        todo: { promote: true, archive: [id("texts-old"), id("texts-gone")] },
      };
      expect(await failed(s, steps, ctx)).toEqual({
        message: `component price point \`texts-new\` (id ${id("texts-new")}) was created and recorded; what is left (archive the replaced price point(s) ${id("texts-old")}, ${id("texts-gone")}) failed: ${serverError("DELETE", `/components/${texts.id}/price_points/${id("texts-old")}.json`)}. The next \`pulumi up\` finishes it.`,
        id: "r",
        properties: { ...s, isDefault: true, todo: { promote: false, archive: [id("texts-old"), id("texts-gone")] } },
      });
      expect(held(id("texts-new"))?.default).toBe(true);
    });

    it("without a recorded id: the message names id 0", async () => {
      const { ctx, steps, id, texts } = await setup();
      sim.injectFault({ kind: "status", status: 500, match: { method: "DELETE" } });
      const s = { handle: "texts-new", todo: { archive: [id("texts-old")] } };
      expect(await failed(s, steps, ctx)).toEqual({
        message: `component price point \`texts-new\` (id 0) was created and recorded; what is left (archive the replaced price point(s) ${id("texts-old")}) failed: ${serverError("DELETE", `/components/${texts.id}/price_points/${id("texts-old")}.json`)}. The next \`pulumi up\` finishes it.`,
        id: "r",
        properties: { ...s, todo: { promote: false, archive: [id("texts-old")] } },
      });
    });
  });
});
