import { afterEach, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../../simulator";
import { configuredPlugin } from "./configured-plugin";

// `pulumi import` of a ReasonCode through the plugin's provider, against the simulator over a real socket: by
// code (a code of digits is a code), by id and by <site>/<code>; the inputs are written as a program declares
// them, and declared as imported they preview with no changes.

const KEY = "sk_live_PLUGIN_REASON_SECRET_6161";
const EU_KEY = "sk_live_PLUGIN_REASON_EU_SECRET_6262";
const URN = "urn:pulumi:dev::billing-app::billing:index:ReasonCode::pricey";

describe("pulumi import of a ReasonCode", () => {
  const sims: Simulator[] = [];
  afterEach(async () => {
    for (const s of sims.splice(0)) await s.close();
  });

  async function site(key: string) {
    const sim = await startSimulator({ apiKey: key });
    sims.push(sim);
    sim.addReasonCode({ code: "other", description: "Other", position: 1 });
    const code = sim.addReasonCode({ code: "too expensive", description: "Costs too much", position: 2 });
    return { sim, code };
  }

  const provider = async (sim: Simulator, sites?: string) => configuredPlugin(sim.url, KEY, sites);

  const declared = { code: "too expensive", description: "Costs too much", position: 2 };

  it("by code: the inputs a program declares, the state the service holds; declared so, no changes; nothing sent but reads", async () => {
    const { sim, code } = await site(KEY);
    const p = await provider(sim);
    const imported = await p.read("too expensive", URN, {});
    expect(imported.id).toBe(String(code.id));
    expect(imported.inputs).toEqual(declared);
    expect(imported.props).toEqual({ reasonCodeId: code.id, ...declared, args: { description: "Costs too much", position: 2 } });
    expect(sim.requests.every((r) => r.method === "GET")).toBe(true);
    const checked = await p.check(URN, imported.inputs ?? {}, imported.inputs ?? {});
    expect(checked.failures ?? []).toEqual([]);
    expect(await p.diff(imported.id ?? "", URN, imported.props ?? {}, checked.inputs ?? {})).toMatchObject({ changes: false });
    expect(JSON.stringify(imported)).not.toContain(KEY);
  });

  it("by id the same code; a code of digits is read as a code before an id", async () => {
    const { sim, code } = await site(KEY);
    const digits = sim.addReasonCode({ code: String(code.id), description: "Digits" });
    const p = await provider(sim);
    expect((await p.read(String(code.id), URN, {})).id).toBe(String(digits.id));
    sim.addReasonCode({ code: "x", description: "X" });
    const byId = await p.read("1", URN, {});
    expect(byId.inputs).toMatchObject({ code: "other" });
  });

  it("<site>/<code> reads that billing:sites entry and records the site", async () => {
    const { sim } = await site(KEY);
    const eu = await startSimulator({ apiKey: EU_KEY });
    sims.push(eu);
    const made = eu.addReasonCode({ code: "too expensive", description: "Zu teuer", position: 1 });
    const p = await provider(sim, JSON.stringify({ eu: { baseUrl: eu.url, apiKey: EU_KEY } }));
    sim.reset();
    const imported = await p.read("eu/too expensive", URN, {});
    expect(imported.id).toBe(String(made.id));
    expect(imported.inputs).toEqual({ code: "too expensive", description: "Zu teuer", position: 1, site: "eu" });
    expect(imported.props).toMatchObject({ reasonCodeId: made.id, site: "eu" });
    expect(sim.requests).toEqual([]);
    expect(JSON.stringify(imported)).not.toContain(EU_KEY);
  });

  it("a code the site does not have fails naming it", async () => {
    const { sim } = await site(KEY);
    await expect((await provider(sim)).read("nope", URN, {})).rejects.toThrow(
      /ReasonCode import id "nope": reason code nope does not exist at the site/,
    );
  });
});
