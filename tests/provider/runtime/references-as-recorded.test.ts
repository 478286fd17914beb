import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providerConfig } from "../../../plugin/config";
import { BillingProvider } from "../../../plugin/provider";
import type { Simulator } from "../../../simulator";
import { SECRET_KEY, webUiSite } from "../../catalog/site";

/**
 * A reference written the other way than recorded (issue 43 item 4): `pulumi import` records `handle:<h>`, the exported
 * program passes the referenced resource's id output. Naming the same object at the site, it is no change (check writes
 * it as recorded); naming another object, it is the change it always was. Through the plugin, as the engine calls it.
 */

let sim: Simulator;
let p: BillingProvider;
const urn = (type: string) => `urn:pulumi:dev::refs::billing:index:${type}::r`;

/** The object `id` names, imported; then `news` (its imported inputs with `change`) checked and diffed against it. */
async function declaredAs(type: string, id: string, change: (inputs: Record<string, unknown>) => Record<string, unknown>) {
  const imported = await p.read(id, urn(type), undefined);
  const news = change({ ...imported.inputs });
  const checked = await p.check(urn(type), imported.inputs ?? {}, news);
  expect(checked.failures ?? []).toEqual([]);
  const diff = await p.diff(imported.id ?? "", urn(type), imported.props ?? {}, checked.inputs ?? {});
  return { imported: imported.inputs ?? {}, checked: checked.inputs ?? {}, diff };
}

/** An object's id at the site, as a resource's output gives it. */
const idOf = async (type: string, key: string) => Number((await p.read(key, urn(type), undefined)).id);

beforeAll(async () => {
  sim = await webUiSite();
  p = new BillingProvider("0.1.0");
  p.configure(
    providerConfig([["billing:config:baseUrl", sim.url]], {
      baseUrl: sim.url,
      apiKey: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: SECRET_KEY },
    }),
  );
});
afterAll(async () => {
  await sim.close();
});

describe("a reference written as the recorded one's other form", () => {
  it("a price point's product as the id the recorded handle names: no change, written as recorded", async () => {
    const pro = await idOf("Product", "pro");
    const r = await declaredAs("ProductPricePoint", "pro/pro-annual", (i) => ({ ...i, product: pro }));
    expect(r.imported.product).toBe("handle:pro");
    expect(r.checked.product).toBe("handle:pro");
    expect(r.diff.changes).toBe(false);
  });

  it("a price point's product as another product's id: replaced, as before", async () => {
    const basic = await idOf("Product", "basic");
    const r = await declaredAs("ProductPricePoint", "pro/pro-annual", (i) => ({ ...i, product: basic }));
    expect(r.checked.product).toBe(basic);
    expect(r.diff).toMatchObject({ changes: true, replaces: ["product"] });
  });

  it("a coupon's restrictions as ids, in any order: no change; one left out: a change", async () => {
    const [basic, pro] = [await idOf("Product", "basic"), await idOf("Product", "pro")];
    const same = await declaredAs("Coupon", "WELCOME10", (i) => ({ ...i, restrictedProducts: [pro, basic] }));
    expect(same.imported.restrictedProducts).toEqual(["handle:basic", "handle:pro"]);
    expect(same.diff.changes).toBe(false);
    const fewer = await declaredAs("Coupon", "WELCOME10", (i) => ({ ...i, restrictedProducts: [pro] }));
    expect(fewer.diff.changes).toBe(true);
  });

  it("a component's family and a component price point's component as ids: no change (no replacement of either)", async () => {
    const plans = await idOf("ProductFamily", "plans");
    const apiCalls = await idOf("Component", "api-calls");
    expect((await declaredAs("Component", "api-calls", (i) => ({ ...i, productFamily: plans }))).diff.changes).toBe(false);
    const cpp = await declaredAs("ComponentPricePoint", "api-calls/api-calls-eu", (i) => ({ ...i, component: apiCalls }));
    expect(cpp.diff.changes).toBe(false);
  });

  it("sends nothing: the references are read, never written", () => {
    expect(sim.requests.filter((r) => r.method !== "GET")).toEqual([]);
  });
});
