import type * as pulumi from "@pulumi/pulumi";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { type CatalogDeclaration, catalogDeclarations, readCatalog } from "../../catalog";
import { type Simulator, startSimulator } from "../../simulator";
import { catalogArbitrary, SITE_CURRENCIES, seedCatalog } from "../catalog/generated-catalog";
import { dynamicProviders } from "../catalog/providers";
import { seedOf } from "../seeds";
import { mutations } from "./support";

/**
 * Convergence (issue 42): any catalog declaration, applied, then `pulumi up --refresh` three times, sends no request
 * that changes anything after the first apply, so it never creates an object nor flips what new signups pay.
 * The declarations are a random site's exported program (every field every catalog kind declares), where a price
 * point of some products and components is declared `default: true` besides its owner's own pricing: the pair that
 * flipped the product's default on every refresh. Applied to an empty site through each kind's provider as the engine
 * calls it: check and create; then per round, every resource refreshed (read) first, then check against the
 * previous inputs, diff against the refreshed state, and update or replace where diff says so.
 */

const KEY = "sk_convergence_42_b7e1";
const RUNS = Number(process.env.CONVERGENCE_RUNS ?? 40);
const ROUNDS = 3;

const sims: Simulator[] = [];
afterEach(async () => {
  for (const s of sims.splice(0)) await s.close();
});

async function site(): Promise<Simulator> {
  const sim = await startSimulator({ apiKey: KEY, nonPrimaryCurrencies: SITE_CURRENCIES });
  sims.push(sim);
  return sim;
}

/** One declared price point per owner (`marks` picks which, or none) becomes `default: true`, its pricing as drawn. */
function withDeclaredDefaults(decls: readonly CatalogDeclaration[], marks: readonly number[]): CatalogDeclaration[] {
  const owners = new Map<string, number[]>();
  decls.forEach((d, i) => {
    const owner = d.type === "ProductPricePoint" ? d.inputs.product : d.type === "ComponentPricePoint" ? d.inputs.component : undefined;
    if (owner === undefined || d.inputs.default === true) return;
    const key = `${d.type} ${JSON.stringify(owner)}`;
    owners.set(key, [...(owners.get(key) ?? []), i]);
  });
  const marked = new Set<number>();
  [...owners.values()].forEach((at, n) => {
    const pick = marks[n % marks.length] % (at.length + 1);
    if (pick < at.length) marked.add(at[pick]);
  });
  return decls.map((d, i) => (marked.has(i) ? { ...d, inputs: { ...d.inputs, default: true } } : d));
}

interface Applied {
  readonly provider: pulumi.dynamic.ResourceProvider;
  id: string;
  outs: Record<string, unknown>;
  inputs: Record<string, unknown>;
}

/** The engine's part: the declarations applied in order (references as the outputs they name), then `up --refresh` rounds. */
async function engine(decls: readonly CatalogDeclaration[], sim: Simulator) {
  const byType = await dynamicProviders(sim.url, KEY);
  const applied = new Map<string, Applied>();
  const resolve = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(resolve);
    if (v !== null && typeof v === "object" && "output" in v && "name" in v) {
      const r = v as { name: string; output: string };
      return applied.get(r.name)?.outs[r.output];
    }
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)]));
    return v;
  };

  async function create(d: CatalogDeclaration): Promise<void> {
    const p = byType.get(d.type) as pulumi.dynamic.ResourceProvider;
    const inputs = resolve(d.inputs) as Record<string, unknown>;
    const checked = await p.check!({}, inputs);
    expect(checked.failures ?? [], `${d.type} ${d.name}: check of ${JSON.stringify(inputs)}`).toEqual([]);
    const made = await p.create!(checked.inputs);
    applied.set(d.name, { provider: p, id: made.id, outs: made.outs as Record<string, unknown>, inputs: checked.inputs });
  }

  async function upRefresh(round: number): Promise<string[]> {
    const changed: string[] = [];
    // `up --refresh`: every resource read first, then the update steps in the program's order.
    for (const d of decls) {
      const a = applied.get(d.name) as Applied;
      const read = await a.provider.read!(a.id, a.outs);
      expect(read.id, `round ${round}: ${d.type} ${d.name} still exists`).toBe(a.id);
      a.outs = read.props as Record<string, unknown>;
    }
    for (const d of decls) {
      const a = applied.get(d.name) as Applied;
      const checked = await a.provider.check!(a.inputs, resolve(d.inputs) as Record<string, unknown>);
      expect(checked.failures ?? [], `round ${round}: ${d.type} ${d.name}: check`).toEqual([]);
      const diff = await a.provider.diff!(a.id, a.outs, checked.inputs);
      if (!diff.changes) continue;
      changed.push(`${d.type} ${d.name} ${JSON.stringify(diff.replaces ?? [])}`);
      const up = await a.provider.update!(a.id, a.outs, checked.inputs);
      a.outs = up.outs as Record<string, unknown>;
      a.inputs = checked.inputs;
    }
    return changed;
  }

  return { create, upRefresh };
}

describe("a catalog declaration converges: applied, then up --refresh three times, nothing more is sent", () => {
  const seed = seedOf("ROUND_TRIP_SEED");

  it(`${RUNS} random catalogs, some price points declared default beside their owner's pricing`, { timeout: 1_200_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(catalogArbitrary, fc.array(fc.nat(), { minLength: 8, maxLength: 8 }), async (c, marks) => {
        try {
          const from = await site();
          seedCatalog(from, c);
          const { snapshot } = await readCatalog({ baseUrl: from.url, apiKey: KEY });
          const decls = withDeclaredDefaults(catalogDeclarations(snapshot), marks);
          const to = await site();
          const run = await engine(decls, to);
          for (const d of decls) await run.create(d);
          to.reset();
          const rounds: string[][] = [];
          for (let r = 1; r <= ROUNDS; r++) rounds.push(await run.upRefresh(r));
          const declared = decls.map((d) => `${d.type} ${d.name}${d.inputs.default === true ? " (default: true)" : ""}`);
          expect(
            mutations(to).map((q) => `${q.method} ${q.path}`),
            `after the first apply of ${JSON.stringify(declared)}; updates per round ${JSON.stringify(rounds)}`,
          ).toEqual([]);
          expect(rounds).toEqual(rounds.map(() => []));
        } finally {
          for (const s of sims.splice(0)) await s.close();
        }
      }),
      { seed, numRuns: RUNS },
    );
  });
});
