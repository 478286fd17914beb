import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { declared, type Json, reasonCodeSite, steps } from "./site";

/** ReasonCode update: code, description and position change in place, only what differs is sent; diff replaces only for a site. */

describe("ReasonCode update", () => {
  let sim: Simulator;
  const { setup, held } = reasonCodeSite((started) => {
    sim = started;
  });

  it.each([
    ["the description", { description: "Too dear" }, { description: "Too dear" }],
    ["the position", { position: 9 }, { position: 9 }],
    ["the code", { code: "pricey" }, { code: "pricey" }],
  ])("%s changes in place, alone", async (_, change, body) => {
    const codes = await setup();
    const c = await codes.create(declared);
    const diff = await codes.diff!(c.id, c.outs, { ...declared, ...change });
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    sim.reset();
    const { outs } = await codes.update!(c.id, c.outs, { ...declared, ...change });
    expect(outs).toMatchObject({ reasonCodeId: Number(c.id), ...change });
    expect(steps(sim)).toEqual([`PUT /reason_codes/${c.id}.json`]);
    expect((sim.requests.at(-1)?.body as Json | undefined)?.reason_code).toEqual(body);
    expect(held(String(outs.code))).toMatchObject({ id: Number(c.id), ...change });
  });

  it("a change of site replaces it", async () => {
    const codes = await setup();
    const c = await codes.create(declared);
    expect(await codes.diff!(c.id, c.outs, { ...declared, site: "eu" })).toMatchObject({ changes: true, replaces: ["site"] });
  });

  it("an unchanged declaration is no change; a position left out is the service's", async () => {
    const codes = await setup();
    const c = await codes.create({ ...declared, position: 2 });
    expect(await codes.diff!(c.id, c.outs, { ...declared, position: 2 })).toMatchObject({ changes: false });
    const unpositioned = await codes.create({ ...declared, code: "other" });
    expect(await codes.diff!(unpositioned.id, unpositioned.outs, { ...declared, code: "other" })).toMatchObject({ changes: false });
  });

  it("an update of a code deleted outside says to refresh, nothing sent", async () => {
    const codes = await setup();
    const c = await codes.create(declared);
    await fetch(`${sim.url}/reason_codes/${c.id}.json`, {
      method: "DELETE",
      headers: { authorization: `Basic ${Buffer.from("sk_live_PROVIDER_SECRET_4242:x").toString("base64")}` },
    });
    sim.reset();
    await expect(codes.update!(c.id, c.outs, { ...declared, description: "New" })).rejects.toThrow(
      /no longer exists at the service: run `pulumi refresh`/,
    );
    expect(steps(sim)).toEqual([]);
  });
});
