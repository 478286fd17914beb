import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { KEY } from "../support";
import { customFieldSite, declared } from "./site";

/** CustomField refresh: what the service holds now by the recorded name; a change outside shows as a diff; gone leaves the stack. */

describe("CustomField drift", () => {
  let sim: Simulator;
  const { setup } = customFieldSite((started) => {
    sim = started;
  });

  const edit = (change: Record<string, unknown>) =>
    fetch(`${sim.url}/subscriptions/metafields.json`, {
      method: "PUT",
      headers: { authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}`, "content-type": "application/json" },
      body: JSON.stringify({ metafields: { current_name: "Region", ...change } }),
    });

  it("values and a declared scope changed outside show as a diff; the data count is read, never a change", async () => {
    const fields = await setup();
    const c = await fields.create({ ...declared, scope: { csv: true } });
    await edit({ enum: ["EU", "US", "APAC"], scope: { csv: "0", portal: "1" } });
    sim.setMetafieldDataCount("subscriptions", "Region", 9);
    const read = await fields.read!(c.id, c.outs);
    expect(read.props).toMatchObject({ enum: ["EU", "US", "APAC"], dataCount: 9, scope: { csv: false, portal: true } });
    const diff = await fields.diff!(c.id, read.props, { ...declared, scope: { csv: true } });
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    sim.setMetafieldDataCount("subscriptions", "Region", 10);
    const again = await fields.create({ ...declared, scope: { csv: true } });
    expect(await fields.diff!(c.id, (await fields.read!(c.id, again.outs)).props, { ...declared, scope: { csv: true } })).toMatchObject({
      changes: false,
    });
  });

  it("a scope changed outside is no drift when none is declared", async () => {
    const fields = await setup();
    const c = await fields.create(declared);
    await edit({ scope: { csv: "1" } });
    const read = await fields.read!(c.id, c.outs);
    expect(await fields.diff!(c.id, read.props, declared)).toMatchObject({ changes: false });
  });

  it("a field renamed or deleted outside: refresh drops it", async () => {
    const fields = await setup();
    const c = await fields.create(declared);
    await edit({ name: "Elsewhere" });
    expect(await fields.read!(c.id, c.outs)).toEqual({ id: "", props: {} });
  });
});
