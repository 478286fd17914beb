import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput } from "../support";
import { declared, offerSite, steps } from "./site";

/**
 * Offer adoption by handle: one holding what is declared is adopted (an archived one unarchived); one holding
 * something else cannot be changed, so it is refused at preview naming the fields, and left as it is at create;
 * adopt: false refuses any.
 */

describe("Offer adopt", () => {
  let sim: Simulator;
  const { setup, held } = offerSite((started) => {
    sim = started;
  });

  const made = (extra: { archived?: boolean; startingQuantity?: number } = {}) =>
    sim.addOffer({
      handle: "launch-bundle",
      name: "Launch bundle",
      productHandle: "launch-pro",
      pricePointHandle: "launch-pro-annual",
      components: [{ componentHandle: "seats", pricePointHandle: "seats-bulk", startingQuantity: extra.startingQuantity ?? 5 }],
      couponCodes: ["SPRING25"],
      signupPages: [{ nickname: "launch" }],
      archived: extra.archived ?? false,
    });

  it("one holding what is declared is adopted, its signup pages read; nothing is sent", async () => {
    const { offers } = await setup();
    const o = made();
    const checked = await offers.check!({}, declared);
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.preview).toEqual({ adopt: { id: o.id, handle: "launch-bundle" } });
    const { result, text } = await captureOutput(() => offers.create(checked.inputs));
    expect(result?.id).toBe(String(o.id));
    expect(result?.outs.signupPages).toEqual([{ id: o.signupPages[0]?.id, url: o.signupPages[0]?.url, nickname: "launch", enabled: true }]);
    expect(text).toContain(`adopted offer \`launch-bundle\` (id ${o.id})`);
    expect(steps(sim)).toEqual([]);
  });

  it("an archived one holding what is declared is unarchived", async () => {
    const { offers } = await setup();
    const o = made({ archived: true });
    expect((await offers.check!({}, declared)).inputs.preview).toEqual({ adopt: { id: o.id, handle: "launch-bundle", unarchive: true } });
    const { result, text } = await captureOutput(() => offers.create(declared));
    expect(text).toContain(`Offer: unarchived offer \`launch-bundle\` (id ${o.id}) to manage it.`);
    expect(result?.outs.archivedAt).toBeNull();
    expect(steps(sim)).toEqual([`PUT /offers/${o.id}/unarchive.json`]);
  });

  it("one holding something else: refused at preview naming the field; at create, refused and left as it was (archived stays archived)", async () => {
    const { offers } = await setup();
    const o = made({ startingQuantity: 3, archived: true });
    const { failures } = await offers.check!({}, declared);
    expect(failures?.map((f) => f.property)).toEqual(["components"]);
    expect(failures?.[0]?.reason).toMatch(/holds another components than declared.*give this offer a new handle/);
    await expect(offers.create(declared)).rejects.toThrow(/holds another components than declared/);
    expect(steps(sim)).toEqual([]);
    expect(held("launch-bundle")?.archivedAt).not.toBeNull();
    expect(o.id).toBe(held("launch-bundle")?.id);
  });

  it("adopt: false refuses an existing handle at preview and at create", async () => {
    const { offers } = await setup();
    made();
    const { failures } = await offers.check!({}, { ...declared, adopt: false });
    expect(failures?.[0]).toMatchObject({
      property: "handle",
      reason: expect.stringMatching(/already exists at the service and adopt is false/),
    });
    await expect(offers.create({ ...declared, adopt: false })).rejects.toThrow(/adopt is false/);
    expect(steps(sim)).toEqual([]);
  });
});
