import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput, KEY } from "../support";
import { declared, offerSite, steps } from "./site";

/**
 * Offer refresh: an offer archived outside the stack is read archived and the next up unarchives it; one the
 * service no longer has leaves the stack. What an offer holds cannot change outside (no update), so nothing else drifts.
 */

describe("Offer drift", () => {
  let sim: Simulator;
  const { setup } = offerSite((started) => {
    sim = started;
  });

  const put = (path: string) =>
    fetch(`${sim.url}${path}`, { method: "PUT", headers: { authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}` } });

  it("archived outside: refresh reads it archived, diff asks for an update, and the update unarchives it", async () => {
    const { offers } = await setup();
    const o = await offers.create(declared);
    await put(`/offers/${o.id}/archive.json`);
    const read = await offers.read!(o.id, o.outs);
    expect(read.props.archivedAt).toEqual(expect.any(String));
    expect(await offers.diff!(o.id, read.props, declared)).toMatchObject({ changes: true, replaces: [] });
    sim.reset();
    const { result, text } = await captureOutput(() => offers.update!(o.id, read.props, declared));
    expect(text).toContain(`offer \`launch-bundle\` (id ${o.id}) was archived outside the stack; unarchived it.`);
    expect(result?.outs.archivedAt).toBeNull();
    expect(steps(sim)).toEqual([`PUT /offers/${o.id}/unarchive.json`]);
  });

  it("unchanged, refresh sees no change; an offer the service no longer has is dropped", async () => {
    const { offers } = await setup();
    const o = await offers.create(declared);
    const read = await offers.read!(o.id, o.outs);
    expect(await offers.diff!(o.id, read.props, declared)).toMatchObject({ changes: false });
    expect(await offers.read!("99999", { ...o.outs, offerId: 99999 })).toEqual({ id: "", props: {} });
  });
});
