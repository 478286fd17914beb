import { afterAll, describe, expect, it, vi } from "vitest";
import { couponProvider } from "../../provider";
import { type FaultSpec, type RequestLogEntry, type Simulator, startSimulator } from "../../simulator";
import { configureRequest } from "../engine/support";
import { seedOf } from "../seeds";
import { rng } from "./catalog-world";
import { FAULT_MIX, KEY, quiet, SETTLE_SECONDS, TIMEOUT_MS } from "./world";

/**
 * The Coupon kind under faults: coupon "lifecycles" through the provider object, as the engine drives it over
 * several `up`s, against sites injecting the fault matrix's mix (~37% of requests: 5xx and resets before and
 * after the request applied, answers later than the client's timeout, creates still processing when the
 * client's retry meets their token with a 409, 429s). Each coupon is declared, then changed step by step (renamed,
 * its code changed, its discount switched between a percentage and an amount, its restrictions changed: all in
 * place; moved to the other family: a replacement, create of the new one freeing the code, then delete of the
 * old one, as the engine does), and a third of them destroyed. Some start from a coupon made in the web UI, adopted.
 *
 * Asserted against what the simulator holds, never against what the provider reported:
 * - at every request's arrival and answer, at most two live coupons of a lifecycle (the old one and its
 *   replacement), and at the end exactly the recorded one (none after a destroy);
 * - no live coupon of a lifecycle at the end, or after a create that failed without a record, that the stack does
 *   not know (by its recorded id, or a pending create's code);
 * - every success recorded what the service holds (id, code, name, discount, family, restrictions as ids), every
 *   partial failure a token a create the site received carried, and a delete leaves the coupon archived.
 *
 * Seeded: CATALOG_FAULTS_SEED=<n> replays a run (shared with tests/reliability/catalog-faults.test.ts).
 */
const SEED = seedOf("CATALOG_FAULTS_SEED");
const LIFECYCLES = 12;
const MAX_UPS = 12;
/** On every other site, one create still runs when the client's settle window has passed: recorded pending, resumed next up. */
const SLOW_CREATE: FaultSpec[] = [
  { kind: "processing", ms: TIMEOUT_MS + SETTLE_SECONDS * 1000 + 1500, rate: 0.25, times: 1, match: { method: "POST" } },
];

type Props = Record<string, unknown>;
type Recorded = { id: string; props: Props };
type Provider = typeof couponProvider;

const misreports: string[] = [];
const misreport = (what: string) => void misreports.push(`${what} (seed ${SEED})`);
const stats = {
  ups: 0,
  created: 0,
  adopted: 0,
  updated: 0,
  replaced: 0,
  deleted: 0,
  partial: 0,
  pending: 0,
  failed: 0,
  requests: 0,
  faulted: 0,
};

const FAMILIES = ["fam-a", "fam-b"] as const;
const PRODUCTS = ["p1", "p2", "p3"] as const;

interface Decl {
  family: (typeof FAMILIES)[number];
  code: string;
  name: string;
  discount: { percentage: number } | { amountInCents: number };
  products: string[];
  components: string[];
  destroyed: boolean;
}

interface Plan {
  n: number;
  steps: Decl[];
  changes: string[];
  preexisting: boolean;
}

function plan(n: number, r: () => number): Plan {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const subset = <T>(xs: readonly T[]) => xs.filter(() => r() < 0.5);
  const first: Decl = {
    family: "fam-a",
    code: `C${n}-A`,
    name: `Coupon ${n}`,
    discount: { percentage: pick([5, 10, 12.5, 50]) },
    products: subset(PRODUCTS),
    components: r() < 0.5 ? ["support"] : [],
    destroyed: false,
  };
  const steps = [first];
  const changes = ["declare"];
  const count = 2 + Math.floor(r() * 3);
  for (let k = 0; k < count; k++) {
    const d: Decl = structuredClone(steps[steps.length - 1] as Decl);
    const change = pick(["rename", "recode", "discount", "restrict", "restrict", "move"]);
    if (change === "rename") d.name = `Coupon ${n} v${k + 2}`;
    if (change === "recode") d.code = `C${n}-A${k + 2}`;
    if (change === "discount")
      d.discount = "percentage" in d.discount ? { amountInCents: pick([100, 500, 2500]) } : { percentage: pick([15, 20]) };
    if (change === "restrict") {
      d.products = subset(PRODUCTS);
      d.components = r() < 0.5 ? ["support"] : [];
    }
    if (change === "move") d.family = d.family === "fam-a" ? "fam-b" : "fam-a";
    steps.push(d);
    changes.push(change);
  }
  if (r() < 0.33) {
    steps.push({ ...structuredClone(steps[steps.length - 1] as Decl), destroyed: true });
    changes.push("destroy");
  }
  return { n, steps, changes, preexisting: r() < 0.25 };
}

interface Lifecycle {
  plan: Plan;
  sim: Simulator;
  provider: Provider;
  rec?: Recorded;
  /** Replaced resources still to delete (the engine deletes them once their replacement is created). */
  retiring: Recorded[];
  ids: { families: Record<string, number>; products: Record<string, number>; components: Record<string, number> };
  preexisting?: number;
  peakLive: number;
}

/** A coupon of this lifecycle: its code starts with C<n>- (a freed code keeps the prefix). */
const mine = (lc: Lifecycle, code: string) => code.startsWith(`C${lc.plan.n}-`);
const liveOf = (lc: Lifecycle) => lc.sim.coupons().filter((c) => c.archivedAt === null && mine(lc, c.code));

/** Watches the site at every request's arrival and answer: never more than the old coupon and its replacement live. */
function observe(lc: Lifecycle): void {
  const log = lc.sim.requests;
  const push = log.push.bind(log);
  const look = () => {
    const live = liveOf(lc).length;
    lc.peakLive = Math.max(lc.peakLive, live);
  };
  log.push = (...entries: RequestLogEntry[]) => {
    look();
    for (const e of entries) {
      let status = e.status;
      Object.defineProperty(e, "status", {
        enumerable: true,
        get: () => status,
        set: (v: number) => {
          status = v;
          look();
        },
      });
    }
    return push(...entries);
  };
}

function inputsOf(d: Decl): Props {
  return {
    productFamily: `handle:${d.family}`,
    code: d.code,
    name: d.name,
    ...d.discount,
    restrictedProducts: d.products.map((h) => `handle:${h}`),
    restrictedComponents: d.components.map((h) => `handle:${h}`),
  };
}

/** What the stack knows: recorded ids, and the codes of creates still pending. */
function known(lc: Lifecycle): { ids: Set<number>; codes: Set<string> } {
  const ids = new Set<number>();
  const codes = new Set<string>();
  for (const rec of [lc.rec, ...lc.retiring]) {
    if (!rec) continue;
    if (typeof rec.props.couponId === "number") ids.add(rec.props.couponId);
    else if (/^\d+$/.test(rec.id)) ids.add(Number(rec.id));
    if (typeof rec.props.pendingToken === "string") codes.add(rec.props.code as string);
  }
  if (lc.preexisting !== undefined && !lc.rec) ids.add(lc.preexisting);
  return { ids, codes };
}

function strays(lc: Lifecycle): string[] {
  const { ids, codes } = known(lc);
  return liveOf(lc)
    .filter((c) => !ids.has(c.id) && !codes.has(c.code))
    .map((c) => `${c.code} (${c.id})`);
}

function verify(lc: Lifecycle, what: string, props: Props, d: Decl) {
  const c = lc.sim.coupons().find((x) => x.id === props.couponId);
  const want = (_type: string, handles: string[], table: Record<string, number>) =>
    JSON.stringify(handles.map((h) => table[h]).sort((a, b) => (a ?? 0) - (b ?? 0)));
  const heldIds = (type: string) =>
    JSON.stringify(
      (c?.restrictions ?? [])
        .filter((x) => x.itemType === type)
        .map((x) => x.itemId)
        .sort((a, b) => a - b),
    );
  const discountHeld =
    "percentage" in d.discount
      ? Number(c?.percentage) === d.discount.percentage && c?.amountInCents === null
      : c?.amountInCents === d.discount.amountInCents && c?.percentage === null;
  const ok =
    c !== undefined &&
    c.archivedAt === null &&
    c.code === d.code &&
    props.code === d.code &&
    c.name === d.name &&
    discountHeld &&
    c.familyId === lc.ids.families[d.family] &&
    props.productFamilyId === c.familyId &&
    heldIds("Product") === want("Product", d.products, lc.ids.products) &&
    heldIds("Component") === want("Component", d.components, lc.ids.components) &&
    JSON.stringify(props.restrictedProductIds) === heldIds("Product") &&
    props.pendingToken === undefined;
  if (!ok) misreport(`c${lc.plan.n}: ${what} recorded ${JSON.stringify(props)}, the site holds ${JSON.stringify(c)}`);
}

type Outcome = "settled" | "changed" | "failed";

/** The coupon in one up, as the engine drives it: check, then create, or diff and update in place or replace. */
async function converge(lc: Lifecycle, d: Decl): Promise<Outcome> {
  const p = lc.provider;
  let creating = false;
  try {
    // A replacement whose create failed leaves the old resource in the stack: the engine checks against its inputs.
    const olds = lc.rec?.props ?? lc.retiring[lc.retiring.length - 1]?.props ?? {};
    const checked = await p.check!(olds, inputsOf(d));
    if (checked.failures?.length) {
      misreport(`c${lc.plan.n}: check failed a valid declaration: ${JSON.stringify(checked.failures)}`);
      return "failed";
    }
    const inputs = checked.inputs as Props;
    if (!lc.rec) {
      creating = true;
      const adopting = (inputs.preview as { adopt?: unknown } | undefined)?.adopt !== undefined;
      const r = await p.create!(inputs);
      lc.rec = { id: r.id, props: r.outs as Props };
      if (adopting) stats.adopted++;
      else stats.created++;
      verify(lc, "create", lc.rec.props, d);
      return "changed";
    }
    const diff = await p.diff!(lc.rec.id, lc.rec.props, inputs);
    if (!diff.changes) return "settled";
    if (diff.replaces && diff.replaces.length > 0) {
      lc.retiring.push(lc.rec);
      lc.rec = undefined;
      creating = true;
      const r = await p.create!(inputs);
      lc.rec = { id: r.id, props: r.outs as Props };
      stats.replaced++;
      verify(lc, "replacement", lc.rec.props, d);
      return "changed";
    }
    const r = await p.update!(lc.rec.id, lc.rec.props, inputs);
    lc.rec = { id: lc.rec.id, props: r.outs as Props };
    stats.updated++;
    verify(lc, "update", lc.rec.props, d);
    return "changed";
  } catch (err) {
    const partial = err as { id?: string; properties?: Props };
    if (partial.id && partial.properties) {
      stats.partial++;
      const { __provider: _, ...props } = partial.properties;
      lc.rec = { id: partial.id, props };
      if (typeof props.pendingToken === "string") {
        stats.pending++;
        if (!lc.sim.requests.some((q) => q.method === "POST" && q.uniquenessToken === props.pendingToken))
          misreport(`c${lc.plan.n}: recorded pending with a token no create carried: ${JSON.stringify(props)}`);
      }
    } else {
      stats.failed++;
      if (process.env.CATALOG_FAULTS_VERBOSE) console.log(`c${lc.plan.n} failed: ${(err as Error).message}`);
      if (creating) {
        await quiet([lc.sim]);
        const left = strays(lc);
        if (left.length > 0) misreport(`c${lc.plan.n}: a create failed without a record (${(err as Error).message}), but ${left} live`);
      }
    }
    return "failed";
  }
}

async function remove(lc: Lifecycle, rec: Recorded): Promise<boolean> {
  try {
    await lc.provider.delete!(rec.id, rec.props);
    stats.deleted++;
    const id = typeof rec.props.couponId === "number" ? rec.props.couponId : Number(rec.id);
    const held = lc.sim.coupons().find((c) => c.id === id);
    if (held && held.archivedAt === null) misreport(`c${lc.plan.n}: deleted ${JSON.stringify(rec.props)}, the site holds it live`);
    return true;
  } catch (err) {
    stats.failed++;
    if (process.env.CATALOG_FAULTS_VERBOSE) console.log(`c${lc.plan.n} delete failed: ${(err as Error).message}`);
    return false;
  }
}

/** One up; true when nothing was left to do. */
async function up(lc: Lifecycle, d: Decl): Promise<boolean> {
  stats.ups++;
  if (d.destroyed) {
    for (const rec of [...lc.retiring, ...(lc.rec ? [lc.rec] : [])]) {
      if (!(await remove(lc, rec))) return false;
      if (rec === lc.rec) lc.rec = undefined;
      else lc.retiring.splice(lc.retiring.indexOf(rec), 1);
    }
    return true;
  }
  const o = await converge(lc, d);
  if (o !== "settled") return false;
  for (const old of [...lc.retiring]) if (await remove(lc, old)) lc.retiring.splice(lc.retiring.indexOf(old), 1);
  return lc.retiring.length === 0;
}

function finalCheck(lc: Lifecycle): void {
  const n = lc.plan.n;
  const last = lc.plan.steps[lc.plan.steps.length - 1] as Decl;
  const left = strays(lc);
  if (left.length > 0) misreport(`c${n}: live at the end but unknown to the stack: ${left.join(", ")}`);
  if (lc.retiring.length > 0) misreport(`c${n}: replaced coupons never deleted: ${JSON.stringify(lc.retiring)}`);
  if (lc.peakLive > 2) misreport(`c${n}: ${lc.peakLive} live coupons at once`);
  const live = liveOf(lc).map((c) => c.id);
  if (last.destroyed) {
    if (live.length > 0 || lc.rec) misreport(`c${n}: destroyed, but live ${JSON.stringify(live)}, recorded ${JSON.stringify(lc.rec)}`);
    return;
  }
  if (live.length !== 1 || lc.rec?.props.couponId !== live[0])
    misreport(`c${n}: live ${JSON.stringify(live)} at the end, the stack recorded ${JSON.stringify(lc.rec?.props.couponId)}`);
  else verify(lc, "the end", lc.rec.props, last);
}

async function lifecycle(n: number): Promise<Lifecycle> {
  const sim = await startSimulator({ apiKey: KEY, faultSeed: SEED + n });
  const families = Object.fromEntries(FAMILIES.map((h) => [h, sim.addProductFamily({ handle: h, name: h }).id]));
  const products = Object.fromEntries(PRODUCTS.map((h) => [h, sim.addProduct({ handle: h, familyHandle: "fam-a" }).id]));
  const components = { support: sim.addComponent({ familyHandle: "fam-a", kind: "on_off", handle: "support" }).id };
  const p = plan(n, rng(SEED * 37 + n));
  const lc: Lifecycle = {
    plan: p,
    sim,
    provider: { ...couponProvider },
    retiring: [],
    ids: { families, products, components },
    peakLive: 0,
  };
  if (p.preexisting) lc.preexisting = sim.addCoupon({ familyHandle: "fam-a", code: `C${n}-A`, name: "Made in the UI", percentage: 99 }).id;
  await lc.provider.configure!(
    configureRequest({
      "billing:baseUrl": sim.url,
      "billing:apiKey": KEY,
      "billing:retryBudgetSeconds": "20",
      "billing:migrationSettleSeconds": String(SETTLE_SECONDS),
      "billing:timeoutMs": String(TIMEOUT_MS),
    }),
  );
  observe(lc);
  for (const f of [...(n % 2 === 0 ? SLOW_CREATE : []), ...FAULT_MIX]) sim.injectFault({ ...f });
  return lc;
}

describe(`Coupon fault matrix (CATALOG_FAULTS_SEED=${SEED})`, () => {
  afterAll(() => {
    console.log(
      `coupon fault matrix: seed ${SEED}; ${LIFECYCLES} lifecycles, ${stats.ups} ups (${stats.created} created, ${stats.adopted} adopted, ` +
        `${stats.updated} updated in place, ${stats.replaced} replacements, ${stats.deleted} deleted; ${stats.partial} partial failures of which ` +
        `${stats.pending} pending creates, ${stats.failed} plain failures); ${stats.requests} requests, ${stats.faulted} faulted; ${misreports.length} misreports`,
    );
  });

  it("under ~37% faults: one coupon per declaration, nothing unknown to the stack, no outcome misreported", async () => {
    const quietLog = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const lcs = await Promise.all(Array.from({ length: LIFECYCLES }, (_, n) => lifecycle(n)));
    try {
      await Promise.all(
        lcs.map(async (lc) => {
          for (const [k, d] of lc.plan.steps.entries()) {
            let settled = false;
            for (let i = 0; i < MAX_UPS && !settled; i++) settled = await up(lc, d);
            if (!settled) misreport(`c${lc.plan.n}: step ${k} (${lc.plan.changes[k]}) not settled after ${MAX_UPS} ups`);
            // Between steps the site goes quiet, so that a late landing never passes for the next step's outcome.
            await quiet([lc.sim]);
          }
          finalCheck(lc);
        }),
      );
    } finally {
      quietLog.mockRestore();
      for (const lc of lcs) {
        stats.requests += lc.sim.requests.length;
        stats.faulted += lc.sim.requests.filter((r) => r.status === 0 || r.status === 429 || r.status >= 500).length;
      }
      await Promise.all(lcs.map((lc) => lc.sim.close()));
    }
    expect(misreports, `misreported outcomes (seed ${SEED})`).toEqual([]);
  }, 180_000);
});
