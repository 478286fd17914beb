import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { declared, type Json, reasonCodeSite } from "./site";

/** ReasonCode refresh: what the service holds now, a change made outside shows as a diff; a code deleted outside leaves the stack. */

describe("ReasonCode drift", () => {
  let sim: Simulator;
  const { setup } = reasonCodeSite((started) => {
    sim = started;
  });

  const edit = (id: string, body: Json) =>
    fetch(`${sim.url}/reason_codes/${id}.json`, {
      method: "PUT",
      headers: {
        authorization: `Basic ${Buffer.from("sk_live_PROVIDER_SECRET_4242:x").toString("base64")}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ reason_code: body }),
    });

  it("a description and a declared position changed outside show as a diff after refresh", async () => {
    const codes = await setup();
    const c = await codes.create({ ...declared, position: 1 });
    await edit(c.id, { description: "Edited", position: 7 });
    const read = await codes.read!(c.id, c.outs);
    expect(read.props).toMatchObject({ description: "Edited", position: 7 });
    const diff = await codes.diff!(c.id, read.props, { ...declared, position: 1 });
    expect(diff).toMatchObject({ changes: true, replaces: [] });
  });

  it("a position changed outside is no drift when none is declared", async () => {
    const codes = await setup();
    const c = await codes.create(declared);
    await edit(c.id, { position: 7 });
    const read = await codes.read!(c.id, c.outs);
    expect(await codes.diff!(c.id, read.props, declared)).toMatchObject({ changes: false });
  });

  it("a code deleted outside: refresh drops it; a pending create stays as recorded", async () => {
    const codes = await setup();
    const c = await codes.create(declared);
    await fetch(`${sim.url}/reason_codes/${c.id}.json`, {
      method: "DELETE",
      headers: { authorization: `Basic ${Buffer.from("sk_live_PROVIDER_SECRET_4242:x").toString("base64")}` },
    });
    expect(await codes.read!(c.id, c.outs)).toEqual({ id: "", props: {} });
    const pending = { code: "x", args: {}, pendingToken: "tok" };
    expect(await codes.read!("pending-tok", pending)).toEqual({ id: "pending-tok", props: pending });
  });
});
