import { describe, expect, it, onTestFinished } from "vitest";
import { catalogImportFile, readCatalog } from "../../catalog";
import { importRead } from "../../plugin/import";
import type { ProviderKind } from "../../provider/kinds";
import { configure } from "../../provider/runtime/config";
import { SECRET_KEY, webUiSite } from "./site";

// Every id the export's bulk import file gives is one the provider plugin's import reads (its Read, as
// `pulumi import --file` calls it), from the simulator over a socket, to the object with that handle or code.

const KEYS: Record<string, ProviderKind> = {
  "billing:index:ProductFamily": "productFamily",
  "billing:index:Product": "product",
  "billing:index:ProductPricePoint": "productPricePoint",
  "billing:index:Component": "component",
  "billing:index:ComponentPricePoint": "componentPricePoint",
  "billing:index:Coupon": "coupon",
};

describe("the import file's ids through the plugin's import", () => {
  it("each resolves to the object it names, with the handle (or code) and name the snapshot holds", async () => {
    const sim = await webUiSite();
    onTestFinished(() => sim.close());
    const { snapshot: s } = await readCatalog({ baseUrl: sim.url, apiKey: SECRET_KEY });
    const provider = {};
    const config: Record<string, string> = { "billing:baseUrl": sim.url, "billing:apiKey": SECRET_KEY };
    configure(provider, { config: { get: (k: string) => config[k] } });
    const file = catalogImportFile(s);
    expect(file.resources).toHaveLength(15);
    for (const r of file.resources) {
      const key = KEYS[r.type];
      expect(key, r.type).toBeDefined();
      const res = await importRead(provider, key!, r.id);
      const inputs = res.inputs as Record<string, unknown>;
      const type = r.type.replace("billing:index:", "");
      const entry = s.objects[type]?.[r.id];
      expect(entry, `${r.type} ${r.id}`).toBeDefined();
      // Its handle (or code) and name as the snapshot holds them, and for a component its kind.
      const own = type === "Coupon" ? "code" : "handle";
      const expected: Record<string, unknown> = { [own]: entry![own], name: entry!.name };
      if (type === "Component") expected.kind = entry!.kind;
      expect(inputs, `${r.type} ${r.id}`).toMatchObject(expected);
      // One fromService: every input the snapshot holds is what the import reads (its owner's default price point aside).
      const { defaultPricePoint: _, ...declared } = entry!;
      expect(inputs, `${r.type} ${r.id}`).toMatchObject(declared);
    }
    // Reading is all an import does.
    expect(sim.requests.filter((q) => q.method !== "GET")).toEqual([]);
  });
});
