import { afterAll, describe, expect, it, vi } from "vitest";
import { componentPricePointProvider } from "../../provider";
import { type FaultSpec, type RequestLogEntry, type Simulator, startSimulator } from "../../simulator";
import { configureRequest } from "../engine/support";
import { seedOf } from "../seeds";
import { lineageOf, rng } from "./catalog-world";
import { FAULT_MIX, KEY, quiet, SETTLE_SECONDS, TIMEOUT_MS } from "./world";

/**
 * ComponentPricePoint under faults: price points of one component per site, declared then changed
 * step by step through the provider object as the engine drives it over several `up`s (prices
 * changed in place, a handle changed in place, another one promoted to default, price points added
 * and removed, and on prepaid usage components the overage changed, which replaces the price point:
 * create for the replacement, then delete of the old one), against sites injecting the fault
 * matrix's mix (~37% of requests: 5xx and resets before and after applying, answers later than the
 * client's timeout, creates still processing when the retry meets their token, 429s).
 *
 * Asserted against what the simulator holds, read at every request's arrival and at every answer it
 * sends, never against what the provider reported:
 * - the component never without exactly one live default price point, at any observation;
 * - no declared price point (its lineage: its handle and the names its replacement freed) with more
 *   than two live objects at once (the old one and its replacement), nor more than one at the end;
 * - nothing live at the end that the stack does not know (by its recorded id, a pending create's handle,
 *   or a replacement's `todo`), the default left behind by a documented delete aside;
 * - every success recorded what the service holds (handle, scheme, prices, default), and every partial
 *   failure only what exists or a token a create carried.
 *
 * Seeded with the catalog fault matrix's seed: CATALOG_FAULTS_SEED=<n> replays a run.
 */
const SEED = seedOf("CATALOG_FAULTS_SEED");
const SITES = 12;
const MAX_UPS = 12;
/** On every other site one create is still running when the client's whole settle window has passed: recorded pending. */
const SLOW_CREATE: FaultSpec[] = [
  { kind: "processing", ms: TIMEOUT_MS + SETTLE_SECONDS * 1000 + 1500, rate: 0.25, times: 1, match: { method: "POST" } },
];

type Props = Record<string, unknown>;
type Recorded = { id: string; props: Props };
type Provider = typeof componentPricePointProvider;
type Tier = { startingQuantity: number; endingQuantity?: number; unitPrice: string };

const misreports: string[] = [];
const misreport = (what: string) => void misreports.push(`${what} (seed ${SEED})`);
const stats = {
  steps: 0,
  ups: 0,
  operations: 0,
  created: 0,
  updated: 0,
  replaced: 0,
  deleted: 0,
  partial: 0,
  pending: 0,
  failed: 0,
  requests: 0,
  faulted: 0,
  observations: 0,
};

// ---------------------------------------------------------------------------
// The ground truth: the component as the simulator holds it, at every arrival and answer
// ---------------------------------------------------------------------------

interface HeldPricePoint {
  id: number;
  handle: string;
  default: boolean;
  archivedAt: string | null;
  pricingScheme: string;
  prices: { startingQuantity: number; endingQuantity: number | null; unitPrice: string }[];
}

class Truth {
  readonly noDefault: string[] = [];
  readonly doubles: string[] = [];
  observations = 0;
  constructor(
    private readonly sim: Simulator,
    private readonly componentId: number,
  ) {}
  get points(): HeldPricePoint[] {
    this.observe();
    return this.#points();
  }
  #points(): HeldPricePoint[] {
    return (this.sim.components().find((c) => c.id === this.componentId)?.pricePoints ?? []) as HeldPricePoint[];
  }
  observe(): void {
    this.observations++;
    const points = this.#points();
    const defaults = points.filter((pp) => pp.default);
    if (defaults.length !== 1 || defaults[0]?.archivedAt !== null)
      this.noDefault.push(`defaults ${JSON.stringify(defaults.map((d) => [d.id, d.archivedAt]))}`);
    const live = new Map<string, number[]>();
    for (const pp of points) {
      const l = pp.archivedAt === null ? lineageOf(pp.handle) : undefined;
      if (l) live.set(l, [...(live.get(l) ?? []), pp.id]);
    }
    for (const [l, ids] of live) if (ids.length > 2) this.doubles.push(`${l}: ${ids.length} live at once (${ids.join(", ")})`);
  }
  point(id: unknown): HeldPricePoint | undefined {
    return this.points.find((pp) => pp.id === id);
  }
}

/** A site with the fault mix and the truth observed at every request's arrival and at every answer. */
async function site(seed: number, prepaid: boolean, extra: readonly FaultSpec[]) {
  const sim = await startSimulator({ apiKey: KEY, faultSeed: seed });
  sim.addProductFamily({ handle: "fam", name: "Family" });
  const c = sim.addComponent({
    familyHandle: "fam",
    kind: prepaid ? "prepaid_usage" : "metered",
    handle: "comp",
    unitName: "unit",
    unitPrice: 1,
    ...(prepaid ? { overagePricing: { pricingScheme: "per_unit" as const, prices: [{ startingQuantity: 1, unitPrice: 2 }] } } : {}),
  });
  const truth = new Truth(sim, c.id);
  const log = sim.requests;
  const push = log.push.bind(log);
  log.push = (...entries: RequestLogEntry[]) => {
    truth.observe();
    for (const e of entries) {
      let status = e.status;
      Object.defineProperty(e, "status", {
        enumerable: true,
        get: () => status,
        set: (v: number) => {
          status = v;
          truth.observe();
        },
      });
    }
    return push(...entries);
  };
  for (const f of [...extra, ...FAULT_MIX]) sim.injectFault({ ...f });
  return { sim, truth, componentId: c.id };
}

// ---------------------------------------------------------------------------
// Declarations, step by step
// ---------------------------------------------------------------------------

interface PpDecl {
  key: number;
  handle: string;
  scheme: string;
  prices: Tier[];
  overage?: Tier[];
  isDefault: boolean;
}

function tiers(r: () => number, scheme: string): Tier[] {
  const price = () => ["0.01", "0.5", "1", "2.25", "10"][Math.floor(r() * 5)] as string;
  if (scheme === "per_unit") return [{ startingQuantity: 1, unitPrice: price() }];
  const out: Tier[] = [];
  let start = 1;
  for (let i = Math.floor(r() * 3); i > 0; i--) {
    const end = start + 1 + Math.floor(r() * 100);
    out.push({ startingQuantity: start, endingQuantity: end, unitPrice: price() });
    start = end + 1;
  }
  out.push({ startingQuantity: start, unitPrice: price() });
  return out;
}

function plan(n: number, prepaid: boolean, r: () => number): { steps: PpDecl[][]; changes: string[] } {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  let nextKey = 1;
  const pp = (): PpDecl => {
    const key = nextKey++;
    const scheme = pick(["per_unit", "volume", "tiered", "stairstep"]);
    return {
      key,
      handle: `c${n}-pp${key}`,
      scheme,
      prices: tiers(r, scheme),
      ...(prepaid ? { overage: tiers(r, "per_unit") } : {}),
      isDefault: false,
    };
  };
  const first = Array.from({ length: 1 + Math.floor(r() * 3) }, pp);
  if (r() < 0.5) pick(first).isDefault = true;
  const steps = [first];
  const changes = ["declare"];
  for (let k = 0, count = 2 + Math.floor(r() * 3); k < count; k++) {
    const d = structuredClone(steps[steps.length - 1] as PpDecl[]);
    const others = d.filter((p) => !p.isDefault);
    const change = pick([
      ...(d.length ? ["reprice", "reprice", "handle"] : []),
      ...(d.length && prepaid ? ["overage", "overage"] : []),
      ...(others.length ? ["promote", "remove"] : []),
      ...(d.length < 4 ? ["add"] : []),
    ]);
    const p = pick(d);
    if (change === "reprice") {
      p.scheme = pick(["per_unit", "volume", "tiered", "stairstep"]);
      p.prices = tiers(r, p.scheme);
    } else if (change === "handle") p.handle = `c${n}-pp${p.key}-h${k + 2}`;
    else if (change === "overage") p.overage = [{ startingQuantity: 1, unitPrice: String(Number(p.overage?.[0]?.unitPrice ?? 0) + 1) }];
    else if (change === "promote") {
      const q = pick(others);
      for (const x of d) x.isDefault = x === q;
    } else if (change === "remove") d.splice(d.indexOf(pick(others)), 1);
    else d.push(pp());
    steps.push(d);
    changes.push(change);
  }
  return { steps, changes };
}

const inputsOf = (d: PpDecl): Props => ({
  component: "handle:comp",
  handle: d.handle,
  name: `Price ${d.key}`,
  pricingScheme: d.scheme,
  prices: d.prices,
  ...(d.overage ? { overagePricing: { pricingScheme: "per_unit", prices: d.overage } } : {}),
  ...(d.isDefault ? { default: true } : {}),
});

const sameTiers = (held: HeldPricePoint["prices"] | undefined, want: Tier[]) =>
  held !== undefined &&
  held.length === want.length &&
  held.every(
    (t, i) =>
      t.startingQuantity === want[i]?.startingQuantity &&
      (t.endingQuantity ?? undefined) === want[i]?.endingQuantity &&
      Number(t.unitPrice) === Number(want[i]?.unitPrice),
  );

// ---------------------------------------------------------------------------
// The engine: each declared price point converged, removed ones deleted
// ---------------------------------------------------------------------------

interface Slot {
  rec?: Recorded;
  retiring: Recorded[];
}
interface Lifecycle {
  n: number;
  site: Awaited<ReturnType<typeof site>>;
  p: Provider;
  slots: Map<number, Slot>;
  /** Price points a documented delete left live (the component's default). */
  left: Set<number>;
}

function checkRecorded(lc: Lifecycle, what: string, props: Props, want: PpDecl) {
  const pp = lc.site.truth.point(props.pricePointId);
  const ok =
    pp !== undefined &&
    pp.archivedAt === null &&
    pp.handle === want.handle &&
    props.handle === want.handle &&
    pp.pricingScheme === want.scheme &&
    sameTiers(pp.prices, want.prices) &&
    props.pendingToken === undefined &&
    props.todo === undefined &&
    props.isDefault === pp.default &&
    (!want.isDefault || pp.default);
  if (!ok) misreport(`c${lc.n} ${want.handle}: ${what} recorded ${JSON.stringify(props)}, the site holds ${JSON.stringify(pp)}`);
}

/** The price points a state leaves to archive: an id, or a replaced default's `{ pricePointId, wasDefault }`. */
const archiveIds = (props: Props): number[] =>
  ((props.todo as { archive?: (number | { pricePointId: number })[] } | undefined)?.archive ?? []).map((a) =>
    typeof a === "number" ? a : a.pricePointId,
  );

function checkPartial(lc: Lifecycle, props: Props) {
  stats.partial++;
  if (typeof props.pendingToken === "string") {
    stats.pending++;
    if (!lc.site.sim.requests.some((r) => r.method === "POST" && r.uniquenessToken === props.pendingToken))
      misreport(`c${lc.n}: recorded pending with a token no create carried: ${JSON.stringify(props)}`);
    return;
  }
  if (lc.site.truth.point(props.pricePointId) === undefined)
    misreport(`c${lc.n}: a partial failure recorded what the site does not hold: ${JSON.stringify(props)}`);
  for (const a of archiveIds(props))
    if (lc.site.truth.point(a) === undefined)
      misreport(`c${lc.n}: a partial failure recorded ${a} to archive, which the site does not hold`);
}

type Outcome = "settled" | "changed" | "failed";

async function converge(lc: Lifecycle, slot: Slot, want: PpDecl): Promise<Outcome> {
  stats.operations++;
  try {
    const checked = await lc.p.check!(slot.rec?.props ?? {}, inputsOf(want));
    if (checked.failures?.length) {
      misreport(`c${lc.n}: check failed a valid declaration: ${JSON.stringify(checked.failures)}`);
      return "failed";
    }
    if (!slot.rec) {
      const r = await lc.p.create!(checked.inputs);
      slot.rec = { id: r.id, props: r.outs as Props };
      stats.created++;
      checkRecorded(lc, "create", slot.rec.props, want);
      return "changed";
    }
    const d = await lc.p.diff!(slot.rec.id, slot.rec.props, checked.inputs);
    if (!d.changes) return "settled";
    if (d.replaces?.length) {
      slot.retiring.push(slot.rec);
      slot.rec = undefined;
      const r = await lc.p.create!(checked.inputs);
      slot.rec = { id: r.id, props: r.outs as Props };
      stats.replaced++;
      checkRecorded(lc, "replacement", slot.rec.props, want);
      return "changed";
    }
    const r = await lc.p.update!(slot.rec.id, slot.rec.props, checked.inputs);
    slot.rec = { id: slot.rec.id, props: r.outs as Props };
    stats.updated++;
    checkRecorded(lc, "update", slot.rec.props, want);
    return "changed";
  } catch (err) {
    const partial = err as { id?: string; properties?: Props };
    if (partial.id && partial.properties) {
      const { __provider: _, ...props } = partial.properties;
      slot.rec = { id: partial.id, props };
      checkPartial(lc, props);
    } else stats.failed++;
    if (process.env.CATALOG_FAULTS_VERBOSE) console.log(`c${lc.n} ${want.handle}: ${(err as Error).message}`);
    return "failed";
  }
}

async function remove(lc: Lifecycle, rec: Recorded): Promise<boolean> {
  stats.operations++;
  try {
    await lc.p.delete!(rec.id, rec.props);
    stats.deleted++;
    const held = lc.site.truth.point(rec.props.pricePointId);
    if (held && held.archivedAt === null) misreport(`c${lc.n}: deleted ${JSON.stringify(rec.props)}, the site holds it live`);
    return true;
  } catch (err) {
    stats.failed++;
    if (process.env.CATALOG_FAULTS_VERBOSE) console.log(`c${lc.n} delete: ${(err as Error).message}`);
    return false;
  }
}

/** One up of declaration `d`: declared price points converge in parallel, then removed ones are deleted; true when nothing was left to do. */
async function up(lc: Lifecycle, d: PpDecl[]): Promise<boolean> {
  stats.ups++;
  const outcomes = await Promise.all(
    d.map(async (want) => {
      const slot = lc.slots.get(want.key) ?? { retiring: [] };
      lc.slots.set(want.key, slot);
      const o = await converge(lc, slot, want);
      if (o !== "settled") return o;
      for (const old of [...slot.retiring]) if (await remove(lc, old)) slot.retiring.splice(slot.retiring.indexOf(old), 1);
      return slot.retiring.length > 0 ? "changed" : "settled";
    }),
  );
  let settled = outcomes.every((o) => o === "settled");
  const declared = new Set(d.map((x) => x.key));
  for (const [key, slot] of [...lc.slots]) {
    if (declared.has(key)) continue;
    settled = false;
    for (const rec of [...slot.retiring, ...(slot.rec ? [slot.rec] : [])]) {
      if (!(await remove(lc, rec))) continue;
      if (rec === slot.rec) slot.rec = undefined;
      else slot.retiring.splice(slot.retiring.indexOf(rec), 1);
    }
    if (!slot.rec && slot.retiring.length === 0) lc.slots.delete(key);
  }
  return settled;
}

/** Live price points of the lifecycle the stack does not know: by recorded id, a replacement's todo, or a pending create's handle. */
function unknownLive(lc: Lifecycle): string[] {
  const ids = new Set<number>(lc.left);
  const pending = new Set<string>();
  for (const slot of lc.slots.values())
    for (const rec of [slot.rec, ...slot.retiring]) {
      if (!rec) continue;
      if (typeof rec.props.pricePointId === "number") ids.add(rec.props.pricePointId);
      else if (/^\d+$/.test(rec.id)) ids.add(Number(rec.id));
      for (const a of archiveIds(rec.props)) ids.add(a);
      if (typeof rec.props.pendingToken === "string") pending.add(rec.props.handle as string);
    }
  return lc.site.truth.points
    .filter((pp) => pp.archivedAt === null && lineageOf(pp.handle) !== undefined && !ids.has(pp.id) && !pending.has(pp.handle))
    .map((pp) => `${pp.handle} (${pp.id})`);
}

function finalCheck(lc: Lifecycle, last: PpDecl[]): void {
  const strays = unknownLive(lc);
  if (strays.length > 0) misreport(`c${lc.n}: live at the end but unknown to the stack: ${strays.join(", ")}`);
  const unfinished = [...lc.slots.values()]
    .flatMap((s) => [s.rec, ...s.retiring])
    .filter((r) => r && (r.props.pendingToken !== undefined || r.props.todo !== undefined));
  if (unfinished.length > 0) misreport(`c${lc.n}: unfinished records at the end: ${JSON.stringify(unfinished)}`);
  const live = new Map<string, number[]>();
  for (const pp of lc.site.truth.points) {
    const l = lineageOf(pp.handle);
    if (l && pp.archivedAt === null) live.set(l, [...(live.get(l) ?? []), pp.id]);
  }
  for (const want of last) {
    const ids = live.get(lineageOf(want.handle) as string) ?? [];
    const rec = lc.slots.get(want.key)?.rec;
    if (ids.length !== 1 || rec?.props.pricePointId !== ids[0])
      misreport(
        `c${lc.n}: ${want.handle} has live ${JSON.stringify(ids)} at the end, the stack recorded ${JSON.stringify(rec?.props.pricePointId)}`,
      );
  }
  const declared = new Set(last.map((p) => lineageOf(p.handle)));
  for (const [l, ids] of live)
    if (!declared.has(l) && !ids.every((id) => lc.left.has(id))) misreport(`c${lc.n}: removed ${l} still live: ${ids.join(", ")}`);
  const def = lc.site.truth.points.find((pp) => pp.default);
  const wantDefault = last.find((p) => p.isDefault);
  if (wantDefault && def?.handle !== wantDefault.handle)
    misreport(`c${lc.n}: the default is ${def?.handle}, declared ${wantDefault.handle}`);
}

describe(`ComponentPricePoint under faults (CATALOG_FAULTS_SEED=${SEED})`, () => {
  afterAll(() => {
    console.log(
      `component price point faults: seed ${SEED}; ${SITES} sites, ${stats.steps} steps, ${stats.ups} ups, ${stats.operations} provider operations ` +
        `(${stats.created} created, ${stats.updated} updated in place, ${stats.replaced} replacements, ${stats.deleted} deleted; ` +
        `${stats.partial} partial failures of which ${stats.pending} pending creates, ${stats.failed} plain failures); ` +
        `${stats.requests} requests, ${stats.faulted} faulted; truth observed ${stats.observations} times; ${misreports.length} misreports`,
    );
  });

  it("under ~37% faults: never a component without a live default, no duplicate per handle, nothing unknown to the stack", async () => {
    const quietLog = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const sites = await Promise.all(
      Array.from({ length: SITES }, (_, i) => site(SEED * 7 + i, i % 3 === 0, i % 2 === 0 ? SLOW_CREATE : [])),
    );
    try {
      await Promise.all(
        sites.map(async (s, n) => {
          const p = { ...componentPricePointProvider };
          await p.configure!(
            configureRequest({
              "billing:baseUrl": s.sim.url,
              "billing:apiKey": KEY,
              "billing:retryBudgetSeconds": "20",
              "billing:migrationSettleSeconds": String(SETTLE_SECONDS),
              "billing:timeoutMs": String(TIMEOUT_MS),
            }),
          );
          const lc: Lifecycle = { n, site: s, p, slots: new Map(), left: new Set() };
          const { steps, changes } = plan(n, n % 3 === 0, rng(SEED * 37 + n));
          for (const [k, d] of steps.entries()) {
            stats.steps++;
            let settled = false;
            for (let i = 1; i <= MAX_UPS && !settled; i++) settled = await up(lc, d);
            if (!settled) misreport(`c${n}: step ${k} (${changes[k]}) not settled after ${MAX_UPS} ups`);
            // Between steps the site goes quiet: no request its client gave up on still runs.
            await quiet([s.sim]);
          }
          finalCheck(lc, steps[steps.length - 1] as PpDecl[]);
        }),
      );
    } finally {
      quietLog.mockRestore();
      for (const s of sites) {
        stats.requests += s.sim.requests.length;
        stats.faulted += s.sim.requests.filter((r) => r.status === 0 || r.status === 429 || r.status >= 500).length;
        stats.observations += s.truth.observations;
      }
      await Promise.all(sites.map((s) => s.sim.close()));
    }
    for (const [i, s] of sites.entries()) {
      expect(s.truth.noDefault, `site ${i}: the component without one live default (seed ${SEED})`).toEqual([]);
      expect(s.truth.doubles, `site ${i}: a price point with more than two live objects (seed ${SEED})`).toEqual([]);
    }
    expect(misreports, `misreported outcomes (seed ${SEED})`).toEqual([]);
    expect(stats.faulted).toBeGreaterThan(0);
  }, 180_000);
});
