import type * as pulumi from "@pulumi/pulumi";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import {
  type CatalogSnapshot,
  catalogDeclarations,
  catalogImportFile,
  diffCatalogs,
  type ProgramTarget,
  Reference,
  readCatalog,
} from "../../catalog";
import { providerConfig } from "../../plugin/config";
import { BillingProvider } from "../../plugin/provider";
import { KINDS } from "../../provider/kinds";
import { type Simulator, startSimulator } from "../../simulator";
import { seedOf } from "../seeds";
import { catalogArbitrary, type GeneratedCatalog, mutatedArbitrary, SITE_CURRENCIES, seedCatalog } from "./generated-catalog";
import { dynamicProviders } from "./providers";
import { liveOnly, rawCatalog, rawDifferences } from "./raw-site";

/**
 * The round trip of a catalog, as a property over random catalogs (every field every catalog kind
 * declares): a site seeded by the simulator's own calls is exported; the import file's objects,
 * imported as the plugin imports them, check and diff with no changes, declared as imported (the printed code) and
 * as the program declares them (references as the imported resources' id outputs); the program's declarations,
 * applied to an empty site through the providers of a program target drawn with the catalog (the plugin's or the
 * dynamic ones) as the engine calls them (check, create, then a refresh that sees no drift), make `diff` of the two
 * sites report them equal, and the second site's raw answers equal the first's, field by field; one
 * field changed on one site makes `diff` name that object and that field. Fixed seed in `npm test`
 * (ROUND_TRIP_SEED), fresh ones in `npm run test:random`.
 */

const KEY = "sk_round_trip_5a1e0c2d";
const RUNS = Number(process.env.ROUND_TRIP_RUNS ?? 200);

const sims: Simulator[] = [];
afterEach(async () => {
  for (const s of sims.splice(0)) await s.close();
});

async function site(c?: GeneratedCatalog): Promise<Simulator> {
  // Every site has the same other currencies, which the generated currency prices name.
  const sim = await startSimulator({ apiKey: KEY, nonPrimaryCurrencies: SITE_CURRENCIES });
  sims.push(sim);
  if (c) seedCatalog(sim, c);
  return sim;
}

const read = async (sim: Simulator, includeArchived = false): Promise<CatalogSnapshot> =>
  (await readCatalog({ baseUrl: sim.url, apiKey: KEY }, { includeArchived })).snapshot;

/** A declaration's inputs with each reference as the output it names, of the resources `outputs` holds by name. */
const resolved = (v: unknown, outputs: ReadonlyMap<string, Record<string, unknown>>): unknown => {
  if (Array.isArray(v)) return v.map((x) => resolved(x, outputs));
  if (v instanceof Reference) return outputs.get(v.name)?.[v.output];
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolved(x, outputs)]));
  return v;
};

/** The plugin's provider, configured for a site as a stack's config would (its key secret). */
function pluginProvider(site: Simulator): BillingProvider {
  const p = new BillingProvider("0.1.0");
  p.configure(
    providerConfig([["billing:config:baseUrl", site.url]], {
      baseUrl: site.url,
      apiKey: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: KEY },
    }),
  );
  return p;
}

/** The plugin's provider as the dynamic providers' interface, for a kind: the calls the engine makes of either. */
function pluginAsDynamic(p: BillingProvider, type: string): pulumi.dynamic.ResourceProvider {
  const urn = (name = "r") => `urn:pulumi:dev::round-trip::billing:index:${type}::${name}`;
  return {
    check: async (olds, news) => {
      const r = await p.check(urn(), olds, news);
      return { inputs: r.inputs, failures: (r.failures ?? []).map((f) => ({ property: f.property, reason: f.reason })) };
    },
    create: async (inputs) => {
      const r = await p.create(urn(), inputs);
      return { id: r.id, outs: r.outs };
    },
    read: async (id, props) => {
      const r = await p.read(id, urn(), props);
      return { id: r.id, props: r.props };
    },
    diff: async (id, olds, news) => {
      const r = await p.diff(id, urn(), olds, news);
      return { changes: r.changes, replaces: r.replaces };
    },
  };
}

/**
 * The program's declarations applied in order through the providers of a target (check, create, refresh), references as
 * the outputs they name.
 */
async function applyProgram(snapshot: CatalogSnapshot, to: Simulator, target: ProgramTarget): Promise<void> {
  const dynamic = target === "dynamic" ? await dynamicProviders(to.url, KEY) : undefined;
  const plugin = target === "plugin" ? pluginProvider(to) : undefined;
  const outputs = new Map<string, Record<string, unknown>>();
  for (const d of catalogDeclarations(snapshot)) {
    const p = dynamic ? dynamic.get(d.type) : plugin && pluginAsDynamic(plugin, d.type);
    if (!p?.check || !p.create) throw new Error(`no provider for ${d.type}`);
    const inputs = resolved(d.inputs, outputs) as Record<string, unknown>;
    const checked = await p.check({}, inputs);
    expect(checked.failures ?? [], `${d.type} ${d.name}: check of ${JSON.stringify(inputs)}`).toEqual([]);
    const created = await p.create(checked.inputs);
    outputs.set(d.name, created.outs as Record<string, unknown>);
    // Refresh drift is each kind's recordedInputs over what its read holds, a second reading of the service
    // beside fromService: right after the create, it must see the declaration fromService wrote, field by field.
    if (!p.read || !p.diff) throw new Error(`${d.type} refreshes without asking the service`);
    const refreshed = await p.read(created.id, created.outs);
    expect(refreshed.id, `${d.type} ${d.name}: refresh found it`).toBe(created.id);
    const drift = await p.diff(created.id, refreshed.props, checked.inputs);
    expect(drift.changes, `${d.type} ${d.name}: refresh drift ${JSON.stringify(drift)} of ${JSON.stringify(checked.inputs)}`).toBe(false);
  }
}

/**
 * Every object of the import file imported as the plugin imports it; declared as imported (the printed code) and as the
 * program declares it (references as the imported resources' id outputs), check and diff see no change, sending nothing.
 */
async function importUnchanged(snapshot: CatalogSnapshot, from: Simulator): Promise<void> {
  const p = pluginProvider(from);
  const program = new Map(catalogDeclarations(snapshot).map((d) => [d.name, d]));
  const outputs = new Map<string, Record<string, unknown>>();
  for (const entry of catalogImportFile(snapshot).resources) {
    const urn = `urn:pulumi:dev::round-trip::${entry.type}::${entry.name}`;
    const imported = await p.read(entry.id, urn, undefined);
    outputs.set(entry.name, imported.props ?? {});
    const declared = resolved(program.get(entry.name)?.inputs, outputs) as Record<string, unknown>;
    for (const [as, news] of [
      ["imported", imported.inputs ?? {}],
      ["the program declares it", declared],
    ] as const) {
      const checked = await p.check(urn, imported.inputs ?? {}, news);
      expect(checked.failures ?? [], `${entry.type} ${entry.id} as ${as}: check`).toEqual([]);
      const diff = await p.diff(imported.id ?? "", urn, imported.props ?? {}, checked.inputs ?? {});
      expect(diff.changes, `${entry.type} ${entry.id} as ${as}: ${JSON.stringify(diff)} of ${JSON.stringify(news)}`).toBe(false);
    }
  }
  expect(
    from.requests.filter((r) => r.method !== "GET"),
    "the import and its checks sent nothing",
  ).toEqual([]);
}

describe("a catalog's round trip through export, import, the program and diff", () => {
  const seed = seedOf("ROUND_TRIP_SEED");

  it(`carries every declared field of ${RUNS} random catalogs from one site to another`, { timeout: 1_800_000 }, async () => {
    await fc.assert(
      // The program's target is drawn after the catalog, so a seed draws the same catalogs as before it was.
      fc.asyncProperty(catalogArbitrary, fc.constantFrom<ProgramTarget>("plugin", "dynamic"), async (c, target) => {
        try {
          const a = await site(c);
          const exported = await read(a);
          await importUnchanged(exported, a);
          const b = await site();
          await applyProgram(exported, b, target);
          expect(diffCatalogs(exported, await read(b))).toEqual({ added: [], removed: [], changed: [] });
          // Live objects on both: a Product whose default has its own currency prices gets it on B by replacing the
          // default the service made with the product (which follows the exchange rate), and archiving that one.
          expect(rawDifferences(liveOnly(await rawCatalog(a.url, KEY)), liveOnly(await rawCatalog(b.url, KEY)))).toEqual([]);
        } finally {
          for (const s of sims.splice(0)) await s.close();
        }
      }),
      { seed, numRuns: RUNS },
    );
  });

  it("names the object and the field when one field differs between two sites", { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(mutatedArbitrary(catalogArbitrary), async ({ catalog, changed, object, field }) => {
        try {
          const d = diffCatalogs(await read(await site(catalog), true), await read(await site(changed), true));
          expect(d.added).toEqual([]);
          expect(d.removed).toEqual([]);
          // At the first space: a key (a reason code) may hold spaces of its own.
          const type = object.slice(0, object.indexOf(" "));
          const key = object.slice(object.indexOf(" ") + 1);
          const named = d.changed.find((x) => x.kind === type && x.key === key);
          expect(
            named?.fields.map((f) => f.field.split(/[.[]/)[0]),
            `${object} ${field}: ${JSON.stringify(d)}`,
          ).toContain(field);
          // Anything else that differs is what the object holds: a product's terms are the defaults of the price points
          // seeded with it (the simulator's seeding), so changing them changes those too.
          expect(d.changed.filter((x) => x !== named && !x.key.startsWith(`${key}/`))).toEqual([]);
        } finally {
          for (const s of sims.splice(0)) await s.close();
        }
      }),
      { seed, numRuns: Math.ceil(RUNS / 2) },
    );
  });

  it("covers every field each catalog kind declares, but those that say how the kind runs or that the service never answers", () => {
    const seen = new Map<string, Set<string>>();
    fc.assert(
      fc.property(catalogArbitrary, (c) => {
        for (const o of c.objects) {
          const fields = seen.get(o.type) ?? new Set();
          for (const k of Object.keys(o.inputs)) fields.add(k);
          seen.set(o.type, fields);
        }
      }),
      { seed, numRuns: 300 },
    );
    for (const m of Object.values(KINDS)) {
      const catalog = (m.kind as { catalog?: { runtimeInputs: readonly string[]; writeOnly?: readonly string[] } }).catalog;
      if (!catalog) continue;
      // What the service never answers cannot travel (the facet says so, and the docs): all else must be generated.
      const declared = Object.keys(m.kind.inputs.shape).filter(
        (k) => !catalog.runtimeInputs.includes(k) && !catalog.writeOnly?.includes(k),
      );
      expect(
        declared.filter((k) => !seen.get(m.kind.type)?.has(k)),
        m.kind.type,
      ).toEqual([]);
    }
  });
});
