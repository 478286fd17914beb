import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Simulator } from "../../simulator";
import { disposeChecked, planOf, printedCode, simulatedPluginStack } from "./plugin-support";
import { type ExampleStack, installedConsumer, mutations, ROOT } from "./support";

/**
 * `pulumi import` of the catalog through the provider plugin, with the real CLI: a family, a product
 * and its annual price point made in the site's web UI (seeded in the simulator), imported by handle
 * with the README's own commands; the code each prints is asserted declaration by declaration, and
 * pasted as the program it previews with no changes. Nothing is sent to the service throughout.
 */

/** The README's import commands (its catalog section's "Import" paragraph), as written there. */
async function readmeImportCommands(): Promise<string[][]> {
  const readme = await readFile(path.join(ROOT, "README.md"), "utf8");
  const at = readme.indexOf("**Import** through the plugin");
  assert.ok(at >= 0, "the README has no catalog Import paragraph");
  const paragraph = readme.slice(at, readme.indexOf("\n\n", at));
  return [...paragraph.matchAll(/`(pulumi import [^`]+)`/g)].map((m) => (m[1] as string).split(/\s+/).slice(1));
}

/** The statement of one resource in printed code: `const x = new billing.T("name", {…});`, whatever else surrounds it. */
function declaration(code: string, type: string): string {
  const m = new RegExp(`^const \\w+ = new billing\\.${type}\\(.*?^\\}\\);$`, "ms").exec(code);
  assert.ok(m, `no billing.${type} is declared in the printed code:\n${code}`);
  return m[0];
}

describe("pulumi import of the catalog through the plugin (README's commands), the printed code as the program", () => {
  let sim: Simulator;
  let s: ExampleStack;
  let dir: string;
  let commands: string[][];
  /** Each kind's printed code, by resource type. */
  const printed = new Map<string, string>();

  before(async () => {
    commands = await readmeImportCommands();
    const c = await installedConsumer();
    dir = c.example("catalog-import");
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, "Pulumi.yaml"),
      "name: billing-catalog-import\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n",
    );
    // Nothing declared yet: the project a user adopts the site's catalog into.
    await writeFile(path.join(dir, "index.ts"), "export {};\n");
    ({ s, sim } = await simulatedPluginStack("catalog-import", "catalog"));
    // Made in the web UI beforehand: a family, a product in it, and the product's annual price point.
    sim.addProductFamily({ handle: "plans", name: "Plans" });
    sim.addProduct({
      handle: "launch",
      name: "Launch",
      familyHandle: "plans",
      priceInCents: 4900,
      interval: 1,
      intervalUnit: "month",
      pricePoints: [{ handle: "launch-annual", name: "Launch, annual", priceInCents: 49000, interval: 12, intervalUnit: "month" }],
    });
    sim.reset();
  });

  after(() => disposeChecked(s, sim));

  it("the README names an import per catalog kind, by handle", () => {
    assert.deepEqual(commands, [
      ["import", "billing:index:Product", "launch", "launch"],
      ["import", "billing:index:ProductPricePoint", "launch-annual", "launch/launch-annual"],
      ["import", "billing:index:ProductFamily", "plans", "plans"],
    ]);
  });

  it("each import adopts the object by handle and prints its declaration as the service holds it, sending nothing", async () => {
    for (const args of commands) {
      const res = await s.run([...args, "--yes"]);
      const [, type = "", name = ""] = args;
      const kind = type.split(":").pop() as string;
      assert.match(res.stdout, new RegExp(`= +${type} +${name} +imported`));
      const code = printedCode(res.stdout);
      assert.match(code, /^import \* as billing from "pulumi-subscription-billing\/billing";$/m);
      printed.set(kind, code);
    }
    assert.deepEqual(mutations(sim.requests), []);
    // The family and the product as `handle:…` references: what carries across sites (ids do not).
    assert.equal(
      declaration(printed.get("Product") ?? "", "Product"),
      [
        'const launch = new billing.Product("launch", {',
        '    handle: "launch",',
        "    interval: 1,",
        '    intervalUnit: "month",',
        '    name: "Launch",',
        "    priceInCents: 4900,",
        '    productFamily: "handle:plans",',
        "}, {",
        "    protect: true,",
        "});",
      ].join("\n"),
    );
    assert.equal(
      declaration(printed.get("ProductPricePoint") ?? "", "ProductPricePoint"),
      [
        'const launch_annual = new billing.ProductPricePoint("launch-annual", {',
        '    handle: "launch-annual",',
        "    interval: 12,",
        '    intervalUnit: "month",',
        '    name: "Launch, annual",',
        "    priceInCents: 49000,",
        '    product: "handle:launch",',
        "}, {",
        "    protect: true,",
        "});",
      ].join("\n"),
    );
    assert.equal(
      declaration(printed.get("ProductFamily") ?? "", "ProductFamily"),
      [
        'const plans = new billing.ProductFamily("plans", {',
        '    handle: "plans",',
        '    name: "Plans",',
        "}, {",
        "    protect: true,",
        "});",
      ].join("\n"),
    );
  });

  it("pasted as the program (type-checked), the printed code previews with no changes and sends nothing", async () => {
    assert.equal(printed.size, 3, "the imports ran");
    // One program of the three printed pieces: their imports once, then each declaration.
    const pieces = [...printed.values()];
    const imports = [...new Set(pieces.flatMap((code) => code.split("\n").filter((l) => l.startsWith("import "))))];
    const bodies = pieces.map((code) =>
      code
        .split("\n")
        .filter((l) => !l.startsWith("import "))
        .join("\n")
        .trim(),
    );
    await writeFile(path.join(dir, "index.ts"), `${imports.join("\n")}\n\n${bodies.join("\n\n")}\n`);
    sim.reset();
    // Type-checked, as Pulumi runs a TypeScript program unless told otherwise: `productFamily: "handle:plans"`
    // must be what the generated SDK's types accept.
    const preview = await s.ws.pulumi(["preview", "--json", "--stack", s.stack], {
      cwd: dir,
      env: { PULUMI_NODEJS_TRANSPILE_ONLY: "false" },
    });
    s.outputs.push(preview.stdout, preview.stderr);
    assert.deepEqual(planOf(preview.stdout), { steps: [], changes: [] });
    assert.deepEqual(mutations(sim.requests), []);
  });
});
