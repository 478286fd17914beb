import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { type Simulator, startSimulator } from "../../simulator";
import { ExampleStack, installedConsumer, mutations } from "./support";

const KEY = "sk_e2e_declared_default_42a9";

/** Issue 42's program: `growth` at $99.00, `growth-2026` at $109.00 declared default; the product given as `product`. */
const program = (product: string) => `import { Product, ProductFamily, ProductPricePoint } from "pulumi-subscription-billing";

const family = new ProductFamily("plans", { handle: "plans", name: "Plans" });
const growth = new Product("growth", {
  productFamily: family.familyId,
  handle: "growth",
  name: "Growth",
  priceInCents: 9900,
  interval: 1,
  intervalUnit: "month",
});
const growth2026 = new ProductPricePoint(
  "growth-2026",
  { product: ${product}, handle: "growth-2026", name: "Growth 2026", priceInCents: 10900, interval: 1, intervalUnit: "month", default: true },
  { dependsOn: [growth] },
);
export const ids = { product: growth.productId, defaultPricePoint: growth.defaultPricePointId, growth2026: growth2026.pricePointId };
`;

// Issue 42 with the real CLI: a product's pricing and a price point declared `default: true` with other pricing.
// Given the Product resource, the pair is a preview error naming both and what to keep, before anything is sent. Given
// by handle (which the program cannot compare), the price point is the default and stays so: three `up --refresh` make
// no request that changes anything, and `preview --refresh` shows no update (before: each round made a new default).
describe("a Product's pricing beside a ProductPricePoint declared default: true, with the real CLI (issue 42)", () => {
  let sim: Simulator;
  let s: ExampleStack;
  let dir: string;
  const auth = { authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}` };

  async function livePricePoints(productId: number): Promise<string[]> {
    const answer = await fetch(`${sim.url}/products/${productId}/price_points.json`, { headers: auth });
    const { price_points } = (await answer.json()) as { price_points: { handle: string; type: string; archived_at: string | null }[] };
    return price_points.filter((p) => !p.archived_at).map((p) => `${p.handle}${p.type === "default" ? " (default)" : ""}`);
  }

  before(async () => {
    const c = await installedConsumer();
    dir = path.join(c.dir, "declared-default");
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, "Pulumi.yaml"),
      "name: billing-declared-default\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n",
    );
    sim = await startSimulator({ apiKey: KEY });
    s = await ExampleStack.create(c, "declared-default", "dev");
    await s.config("billing:baseUrl", sim.url);
    await s.config("billing:apiKey", KEY, true);
  });

  after(async () => {
    await s?.dispose();
    await sim?.close();
  });

  it("given the Product resource: preview fails naming both resources and which to keep; nothing is sent", async () => {
    await writeFile(path.join(dir, "index.ts"), program("growth"));
    sim.reset();
    const preview = await s.run(["preview"], { allowFailure: true });
    assert.notEqual(preview.code, 0);
    const said = preview.stdout + preview.stderr;
    assert.match(
      said,
      /Product "growth" and ProductPricePoint "growth-2026" \(default: true\) both declare the product's default price point, differently: priceInCents \$99\.00 on the Product, \$109\.00 on the price point/,
    );
    assert.match(
      said,
      /Keep one: give Product "growth" the price point's pricing .* or remove default: true from ProductPricePoint "growth-2026"/,
    );
    assert.doesNotMatch(said, /at Object\.|\.ts:\d+:\d+\)/, "no stack trace");
    assert.deepEqual(mutations(sim.requests), []);
  });

  it("given by handle: up, then up --refresh three times changes nothing, and the price point stays the default", async () => {
    await writeFile(path.join(dir, "index.ts"), program('"handle:growth"'));
    await s.run(["up", "--yes", "--skip-preview"]);
    const { ids } = (await s.stackOutputs()) as { ids: { product: number; growth2026: number } };
    const before = await livePricePoints(ids.product);
    assert.ok(before.includes("growth-2026 (default)"), before.join(", "));
    sim.reset();
    const preview = await s.run(["preview", "--refresh", "--expect-no-changes"]);
    assert.doesNotMatch(preview.stdout, /~ +billing:|to update|pricing change/);
    for (let round = 1; round <= 3; round++) {
      const up = await s.run(["up", "--refresh", "--yes", "--skip-preview"]);
      assert.doesNotMatch(up.stdout + up.stderr, /pricing change|made a new default price point|updated/, `round ${round}: ${up.stdout}`);
      assert.match(up.stdout, /4 unchanged/, `round ${round}: ${up.stdout}`);
    }
    assert.deepEqual(mutations(sim.requests), []);
    assert.deepEqual(await livePricePoints(ids.product), before);
    const after = (await s.stackOutputs()) as { ids: { defaultPricePoint: number; growth2026: number } };
    assert.equal(after.ids.defaultPricePoint, ids.growth2026);
  });

  it("no credential in state or CLI output", async () => {
    assert.ok(!(await s.exportState()).includes(KEY), "state holds the key");
    assert.ok(!s.outputs.join("\n").includes(KEY), "CLI output holds the key");
  });
});
