import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { type Simulator, startSimulator } from "../../simulator";
import { catalogArbitrary, type GeneratedCatalog, keyOf, SITE_CURRENCIES, seedCatalog } from "../catalog/generated-catalog";
import { liveOnly, rawCatalog, rawDifferences } from "../catalog/raw-site";
import { catalogProgramStack, catalogProject, filesUnder, runBillingCatalog } from "./catalog-support";
import { planOf, pluginStack, printedCode } from "./plugin-support";
import { type Consumer, type ExampleStack, installedConsumer, mutations } from "./support";

/**
 * The round trip of tests/catalog/round-trip.test.ts, through the real CLI, for a few fixed seeds
 * (issue 40, item 4): a random catalog (every field every catalog kind declares; a live object of
 * each kind, and an archived one) seeded into site A is exported by the installed package's
 * `billing-catalog export`; its import file (live objects only) goes through `pulumi import --file`
 * with the plugin, and the printed code previews with no changes; the exported
 * program (the plugin's for the first seed, `--program dynamic` for the second) `up` on an empty site B succeeds; `billing-catalog diff A B` finds the
 * two equal (exit 0, and it says so), and B's raw answers equal A's live ones, field by field.
 */

/** The fixed seeds: each gives one catalog (see catalogOf), printed with its draw, and the program export writes for it. */
const SEEDS = [
  [2406, "plugin"],
  [11, "dynamic"],
] as const;
/** A drawn catalog's most objects (archived ones included), so a seed's CLI runs stay short. */
const MAX_OBJECTS = 15;
/**
 * Every catalog kind: the catalog taken has a live object of each that the import file holds as its own (an offer too:
 * its nested references through `pulumi import --file`, the printed code and the program).
 */
const KINDS = ["ProductFamily", "Product", "ProductPricePoint", "Component", "ComponentPricePoint", "Coupon", "Offer"] as const;

/** What the import file holds of a generated catalog: its live objects but the default price points (their owner's part), as `Type key`. */
const exported = (c: GeneratedCatalog): string[] =>
  c.objects
    .filter((o) => !o.archived && o.inputs.default !== true)
    .map((o) => `${o.type} ${keyOf(o)}`)
    .sort();

/**
 * A seed's catalog: the first of its draws of at most MAX_OBJECTS objects in which every kind has an object the import file
 * holds, and some object is archived (what export leaves out, and diff too).
 */
function catalogOf(seed: number): { catalog: GeneratedCatalog; draw: number } {
  const draws = fc.sample(catalogArbitrary, { seed, numRuns: 100 });
  const draw = draws.findIndex(
    (c) =>
      c.objects.length <= MAX_OBJECTS &&
      KINDS.every((k) => exported(c).some((o) => o.startsWith(`${k} `))) &&
      c.objects.some((o) => o.archived),
  );
  assert.ok(draw >= 0, `seed ${seed}: no draw of at most ${MAX_OBJECTS} objects holds every kind and an archived object`);
  return { catalog: draws[draw] as GeneratedCatalog, draw };
}

for (const [seed, target] of SEEDS) {
  describe(`a random catalog's round trip with the real CLI: export, pulumi import --file, the program up on an empty site, diff (seed ${seed})`, () => {
    /** Each site's key: neither may appear in any output, file or state. */
    const KEY_A = `sk_e2e_round_trip_a_${seed}_3c9e`;
    const KEY_B = `sk_e2e_round_trip_b_${seed}_81d4`;
    const { catalog, draw } = catalogOf(seed);
    let c: Consumer;
    let a: Simulator;
    let b: Simulator;
    let imported: ExampleStack | undefined;
    let program: ExampleStack | undefined;
    let project: string;
    let programDir: string;
    const printed: string[] = [];

    const billingCatalog = (args: string[]) =>
      runBillingCatalog(c, args, { cwd: project, env: { BILLING_API_KEY: KEY_A, SITE_B_API_KEY: KEY_B }, printed });

    before(async () => {
      const live = catalog.objects.filter((o) => !o.archived).length;
      console.log(`      seed ${seed}: draw ${draw}, ${catalog.objects.length} objects (${live} live)`);
      c = await installedConsumer();
      // Nothing declared yet: the project the site's catalog is imported into.
      project = await catalogProject(c, `catalog-round-trip-${seed}`, `billing-round-trip-${seed}`, "export {};\n");
      programDir = await catalogProject(c, `catalog-round-trip-${seed}-program`, `billing-round-trip-${seed}-program`);
      // Both sites have the other currencies the generated currency prices name.
      a = await startSimulator({ apiKey: KEY_A, nonPrimaryCurrencies: SITE_CURRENCIES });
      seedCatalog(a, catalog);
      a.reset();
      b = await startSimulator({ apiKey: KEY_B, nonPrimaryCurrencies: SITE_CURRENCIES });
    });

    after(async () => {
      const stacks = [imported, program].filter((s): s is ExampleStack => s !== undefined);
      const everything = [
        printed.join("\n"),
        ...stacks.flatMap((s) => s.outputs),
        ...(await filesUnder(path.join(project, "catalog"))),
        ...(await filesUnder(project)),
        ...(await filesUnder(programDir)),
        ...(await Promise.all(stacks.map((s) => s.exportState().catch(() => "")))),
      ].join("\n");
      for (const s of stacks) await s.dispose();
      await a?.close();
      await b?.close();
      assert.ok(everything.length > 5_000, "the outputs were collected");
      assert.ok(!everything.includes(KEY_A) && !everything.includes(KEY_B), "a key appeared in an output, a file or a state");
    });

    it("export reads site A with GETs only and writes the import file of its live objects, the program and the snapshot", async () => {
      const res = await billingCatalog(["export", "--site", a.url, "--out", "catalog", "--program", target]);
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /^Read .*; wrote /);
      assert.deepEqual(mutations(a.requests), []);
      const file = JSON.parse(await readFile(path.join(project, "catalog/import.json"), "utf8")) as {
        resources: { type: string; id: string }[];
      };
      assert.deepEqual(file.resources.map((r) => `${r.type.replace(/^billing:index:/, "")} ${r.id}`).sort(), exported(catalog));
    });

    it("pulumi import --file through the plugin adopts every object, sending nothing; the printed code previews with no changes", async () => {
      imported = await pluginStack(`catalog-round-trip-${seed}`, "a");
      await imported.config("billing:baseUrl", a.url);
      await imported.config("billing:apiKey", KEY_A, true);
      a.reset();
      const res = await imported.ws.pulumi(["import", "--file", "catalog/import.json", "--yes", "--stack", imported.stack], {
        cwd: project,
        env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
      });
      imported.outputs.push(res.stdout, res.stderr);
      assert.equal((res.stdout.match(/^ = +billing:index:\S+ \S+ imported /gm) ?? []).length, exported(catalog).length, res.stdout);
      assert.deepEqual(mutations(a.requests), []);
      await writeFile(path.join(project, "index.ts"), printedCode(res.stdout));
      const preview = await imported.ws.pulumi(["preview", "--json", "--stack", imported.stack], {
        cwd: project,
        env: { PULUMI_NODEJS_TRANSPILE_ONLY: "false" },
      });
      imported.outputs.push(preview.stdout, preview.stderr);
      assert.deepEqual(planOf(preview.stdout), { steps: [], changes: [] });
      assert.deepEqual(mutations(a.requests), []);
    });

    it(`the exported program (--program ${target}) up on the empty site B succeeds`, async () => {
      await writeFile(path.join(programDir, "index.ts"), await readFile(path.join(project, "catalog/index.ts"), "utf8"));
      const folder = `catalog-round-trip-${seed}-program`;
      if (target === "dynamic") program = await catalogProgramStack(c, folder, "b", b, KEY_B);
      else {
        // The plugin's program runs on the installed plugin, configured as the dynamic providers are.
        program = await pluginStack(folder, "b");
        await program.config("billing:baseUrl", b.url);
        await program.config("billing:apiKey", KEY_B, true);
      }
      assert.deepEqual(mutations(b.requests), [], "site B is empty and untouched before up");
      await program.run(["up", "--yes", "--skip-preview"]);
      assert.ok(mutations(b.requests).length >= exported(catalog).length, "up made the catalog at site B");
      assert.deepEqual(mutations(a.requests), []);
    });

    it("billing-catalog diff A B finds the two sites equal: exit 0, and says so", async () => {
      const res = await billingCatalog(["diff", a.url, b.url, "--b-key-env", "SITE_B_API_KEY"]);
      assert.deepEqual(
        { ...res, stdout: res.stdout.split("\n").slice(-2) },
        { code: 0, stdout: ["The catalogs are equal: nothing added, removed or changed.", ""], stderr: "" },
      );
    });

    it("site B's live raw answers equal site A's live ones, field by field", async () => {
      // Live on both: a Product whose default has prices of its own replaces, at B, the default the service made with
      // it (which follows the exchange rate), and archives that one.
      assert.deepEqual(rawDifferences(liveOnly(await rawCatalog(a.url, KEY_A)), liveOnly(await rawCatalog(b.url, KEY_B))), []);
    });

    it("the program then previews with no changes at site B", async () => {
      assert.ok(program, "the program's stack is up");
      b.reset();
      await program.run(["preview", "--expect-no-changes"]);
      assert.deepEqual(mutations(b.requests), []);
    });
  });
}
