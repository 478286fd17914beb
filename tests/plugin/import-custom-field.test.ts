import { afterEach, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../../simulator";
import { configuredPlugin } from "./configured-plugin";

// `pulumi import` of a CustomField through the plugin's provider, against the simulator over a real socket: by
// <resourceType>:<name> (a name is unique within its resource type only), by id and by <site>/<resourceType>:<name>;
// the inputs are written as a program declares them (the flags that are on, no data count, no deleteData), and
// declared as imported they preview with no changes.

const KEY = "sk_live_PLUGIN_FIELD_SECRET_5151";
const EU_KEY = "sk_live_PLUGIN_FIELD_EU_SECRET_5252";
const URN = "urn:pulumi:dev::billing-app::billing:index:CustomField::region";

describe("pulumi import of a CustomField", () => {
  const sims: Simulator[] = [];
  afterEach(async () => {
    for (const s of sims.splice(0)) await s.close();
  });

  async function site(key: string) {
    const sim = await startSimulator({ apiKey: key });
    sims.push(sim);
    const customers = sim.addMetafield({ resourceType: "customers", name: "Region" });
    const subscriptions = sim.addMetafield({
      resourceType: "subscriptions",
      name: "Region",
      inputType: "dropdown",
      enum: ["EU", "US"],
      scope: { csv: "1", portal: "1", hosted: ["31"] },
      dataCount: 8,
    });
    return { sim, customers, subscriptions };
  }

  const provider = async (sim: Simulator, sites?: string) => configuredPlugin(sim.url, KEY, sites);

  const declared = {
    resourceType: "subscriptions",
    name: "Region",
    inputType: "dropdown",
    enum: ["EU", "US"],
    scope: { csv: true, portal: true, hosted: ["31"] },
  };

  it("by <resourceType>:<name>: the inputs a program declares, the state the service holds; declared so, no changes", async () => {
    const { sim, subscriptions } = await site(KEY);
    const p = await provider(sim);
    const imported = await p.read("subscriptions:Region", URN, {});
    expect(imported.id).toBe(String(subscriptions.id));
    expect(imported.inputs).toEqual(declared);
    expect(imported.props).toEqual({
      customFieldId: subscriptions.id,
      resourceType: "subscriptions",
      name: "Region",
      inputType: "dropdown",
      enum: ["EU", "US"],
      scope: { csv: true, invoices: false, statements: false, portal: true, publicShow: false, publicEdit: false, hosted: ["31"] },
      dataCount: 8,
      args: { inputType: "dropdown", enum: ["EU", "US"], scope: { csv: true, portal: true, hosted: ["31"] } },
    });
    expect(sim.requests.every((r) => r.method === "GET")).toBe(true);
    const checked = await p.check(URN, imported.inputs ?? {}, imported.inputs ?? {});
    expect(checked.failures ?? []).toEqual([]);
    expect(await p.diff(imported.id ?? "", URN, imported.props ?? {}, checked.inputs ?? {})).toMatchObject({ changes: false });
    expect(JSON.stringify(imported)).not.toContain(KEY);
  });

  it("the customers' field of that name, by its own key or by id: a text field, written without an input type", async () => {
    const { sim, customers } = await site(KEY);
    const p = await provider(sim);
    const byKey = await p.read("customers:Region", URN, {});
    expect(byKey.inputs).toEqual({ resourceType: "customers", name: "Region" });
    expect((await p.read(String(customers.id), URN, {})).inputs).toEqual(byKey.inputs);
  });

  it("<site>/<resourceType>:<name> reads that billing:sites entry and records the site", async () => {
    const { sim } = await site(KEY);
    const eu = await startSimulator({ apiKey: EU_KEY });
    sims.push(eu);
    const made = eu.addMetafield({ resourceType: "subscriptions", name: "Region", inputType: "radio", enum: ["DE"] });
    const p = await provider(sim, JSON.stringify({ eu: { baseUrl: eu.url, apiKey: EU_KEY } }));
    sim.reset();
    const imported = await p.read("eu/subscriptions:Region", URN, {});
    expect(imported.id).toBe(String(made.id));
    expect(imported.inputs).toEqual({ resourceType: "subscriptions", name: "Region", inputType: "radio", enum: ["DE"], site: "eu" });
    expect(imported.props).toMatchObject({ site: "eu" });
    expect(sim.requests).toEqual([]);
    expect(JSON.stringify(imported)).not.toContain(EU_KEY);
  });

  it("a key the site does not have, or one without a resource type, fails saying the forms", async () => {
    const { sim } = await site(KEY);
    const p = await provider(sim);
    await expect(p.read("customers:Nope", URN, {})).rejects.toThrow(
      /CustomField import id "customers:Nope": custom field customers:Nope does not exist at the site/,
    );
    await expect(p.read("Region", URN, {})).rejects.toThrow(/custom field Region does not exist at the site/);
  });
});
