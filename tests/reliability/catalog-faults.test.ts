import { afterAll, describe, expect, it, vi } from "vitest";
import { productFamilyProvider, productPricePointProvider, productProvider } from "../../provider";
import type { FaultSpec, Simulator } from "../../simulator";
import { configureRequest } from "../engine/support";
import { seedOf } from "../seeds";
import {
  type CatalogSite,
  catalogSite,
  createTokens,
  holdsPricing,
  lifecycleOf,
  lineageOf,
  type Pricing,
  pricing,
  rng,
} from "./catalog-world";
import { KEY, quiet, SETTLE_SECONDS, TIMEOUT_MS } from "./world";

/**
 * The catalog kinds under faults: catalog "lifecycles" (a family, a product in it, price points of
 * that product) through the provider objects, as the engine drives them over several `up`s, against
 * sites injecting the fault matrix's mix (~37% of requests: 5xx and resets before and after the
 * request applied, answers later than the client's timeout, creates still processing when the
 * client's retry meets their token with a 409, 429s). Each lifecycle is declared, then changed step
 * by step (a product renamed or repriced, a price point's handle changed in place, a price point
 * repriced, i.e. replaced: create for the replacement then delete of the old one, as the engine
 * does; another price point promoted to default; price points added and removed), and a third of
 * them destroyed. Some start from objects made in the web UI beforehand, which must be adopted.
 *
 * Asserted against the simulator's data file (its ground truth, read at every request's arrival
 * and at every answer), never against what the provider reported:
 * - no product without exactly one live default price point, at any observation;
 * - no family or product handle naming two objects over the run, no price point declaration with
 *   more than two live objects at once (old and replacement) or more than one at the end;
 * - no object of a lifecycle live at the end that the stack does not know (by its recorded id),
 *   but for what delete documents it leaves (a family; the default price point of an archived product);
 * - every success recorded what the service holds (ids, handle, pricing, default), every partial
 *   failure recorded only what exists (or a token a create the site received carried), every
 *   plain failure of a create left nothing created, and a refusal that says "nothing was changed"
 *   changed nothing.
 *
 * Seeded: CATALOG_FAULTS_SEED=<n> replays a run; the seed is printed on failure.
 */
const SEED = seedOf("CATALOG_FAULTS_SEED");
/** Lifecycles, each a stack on its own site (so that "the site is quiet" is the lifecycle's own). */
const LIFECYCLES = 24;
/**
 * On every other site, one create (each create has a 1 in 4 chance, until it fires) still runs when the
 * client's settle window after the 409 has passed: the provider records it pending, and the next up resumes it.
 */
const SLOW_CREATE: FaultSpec[] = [
  { kind: "processing", ms: TIMEOUT_MS + SETTLE_SECONDS * 1000 + 1500, rate: 0.25, times: 1, match: { method: "POST" } },
];
/** Ups a step may take before it must have settled; faults stay on throughout. */
const MAX_UPS = 12;

type Props = Record<string, unknown>;
type Recorded = { id: string; props: Props };
type Provider = typeof productProvider;

const misreports: string[] = [];
const misreport = (what: string) => void misreports.push(`${what} (seed ${SEED})`);

/** What the run went through, for the summary. */
const stats = {
  lifecycles: 0,
  steps: 0,
  ups: 0,
  operations: 0,
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
  observations: 0,
  reads: 0,
  peakLineage: 0,
};

// ---------------------------------------------------------------------------
// Declarations: a lifecycle's catalog, step by step
// ---------------------------------------------------------------------------

interface PpDecl {
  key: number;
  handle: string;
  name: string;
  pricing: Pricing;
  isDefault: boolean;
}
interface Decl {
  family: { handle: string; name: string };
  product: { handle: string; name: string; pricing: Pricing };
  pps: PpDecl[];
  destroyed: boolean;
}

interface Plan {
  n: number;
  steps: Decl[];
  /** Made in the web UI before the first up: the family, the product (with one declared price point at other terms). */
  preexisting: { family: boolean; product: boolean; pricePoint: boolean };
  changes: string[];
}

function plan(n: number, r: () => number): Plan {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  let nextKey = 1;
  const pp = (isDefault: boolean): PpDecl => {
    const key = nextKey++;
    return { key, handle: `c${n}-pp${key}`, name: `Price ${key}`, pricing: pricing(r), isDefault };
  };
  const pps = Array.from({ length: 1 + Math.floor(r() * 3) }, () => pp(false));
  const first: Decl = {
    family: { handle: `c${n}-fam`, name: `Family ${n}` },
    product: { handle: `c${n}-prod`, name: `Product ${n}`, pricing: pricing(r) },
    pps,
    destroyed: false,
  };
  if (r() < 0.5) {
    const d = pick(pps);
    d.isDefault = true;
    first.product.pricing = { ...d.pricing };
  }
  const steps: Decl[] = [first];
  const changes: string[] = ["declare"];
  const count = 2 + Math.floor(r() * 3);
  for (let k = 0; k < count; k++) {
    const prev = steps[steps.length - 1];
    const d: Decl = structuredClone(prev);
    const hasDefault = d.pps.some((p) => p.isDefault);
    const others = d.pps.filter((p) => !p.isDefault);
    const options = [
      "rename-product",
      ...(hasDefault ? [] : ["reprice-product"]),
      ...(d.pps.length ? ["pp-handle", "pp-reprice", "pp-reprice"] : []),
      ...(others.length ? ["pp-promote", "pp-remove"] : []),
      ...(d.pps.length < 4 ? ["pp-add"] : []),
    ];
    const change = pick(options);
    switch (change) {
      case "rename-product":
        d.product.name = `Product ${n} v${k + 2}`;
        break;
      case "reprice-product":
        d.product.pricing = pricing(r);
        break;
      case "pp-handle": {
        const p = pick(d.pps);
        p.handle = `c${n}-pp${p.key}-h${k + 2}`;
        break;
      }
      case "pp-reprice": {
        const p = pick(d.pps);
        p.pricing = { ...pricing(r), priceInCents: p.pricing.priceInCents + 100 };
        if (p.isDefault) d.product.pricing = { ...p.pricing };
        break;
      }
      case "pp-promote": {
        const p = pick(others);
        for (const x of d.pps) x.isDefault = x === p;
        d.product.pricing = { ...p.pricing };
        break;
      }
      case "pp-remove": {
        const p = pick(others);
        d.pps = d.pps.filter((x) => x !== p);
        break;
      }
      case "pp-add":
        d.pps.push(pp(false));
        break;
    }
    steps.push(d);
    changes.push(change);
  }
  if (r() < 0.33) {
    steps.push({ ...structuredClone(steps[steps.length - 1]), destroyed: true });
    changes.push("destroy");
  }
  return {
    n,
    steps,
    changes,
    preexisting: { family: r() < 0.25, product: r() < 0.2, pricePoint: r() < 0.5 },
  };
}

// ---------------------------------------------------------------------------
// The stack: what the engine records per resource
// ---------------------------------------------------------------------------

interface Slot {
  rec?: Recorded;
  /** Replaced resources still to delete (the engine deletes them once their replacement is created). */
  retiring: Recorded[];
}

interface Stack {
  family: Slot;
  product: Slot;
  pps: Map<number, Slot>;
  /** Ids left at the service by a documented delete: the family, the default price point of an archived product. */
  left: Set<string>;
  /** Objects made in the web UI before the first up (not made by the stack). */
  preexisting: Set<string>;
}

const familyKey = (id: unknown) => `family:${String(id)}`;
const productKey = (id: unknown) => `product:${String(id)}`;
const ppKey = (id: unknown) => `pp:${String(id)}`;

interface Lifecycle {
  plan: Plan;
  site: CatalogSite;
  stack: Stack;
  providers: { family: Provider; product: Provider; pp: Provider };
}

const numberOf = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);

/** What the stack knows: every recorded id, and the handles of creates still pending (their next up looks them up by handle). */
function known(lc: Lifecycle): { ids: Set<string>; pendingHandles: Set<string> } {
  const ids = new Set<string>([...lc.stack.left]);
  const pendingHandles = new Set<string>();
  const slots: [Slot, (id: unknown) => string, string][] = [
    [lc.stack.family, familyKey, "familyId"],
    [lc.stack.product, productKey, "productId"],
    ...[...lc.stack.pps.values()].map((s) => [s, ppKey, "pricePointId"] as [Slot, (id: unknown) => string, string]),
  ];
  for (const [slot, key, field] of slots) {
    for (const rec of [slot.rec, ...slot.retiring]) {
      if (!rec) continue;
      if (rec.props[field] !== undefined) ids.add(key(rec.props[field]));
      else if (/^\d+$/.test(rec.id)) ids.add(key(rec.id));
      for (const a of ((rec.props.todo as { archive?: number[] } | undefined)?.archive ?? []) as number[]) ids.add(ppKey(a));
      if (typeof rec.props.pendingToken === "string") pendingHandles.add(rec.props.handle as string);
    }
  }
  return { ids, pendingHandles };
}

/** Live objects of the lifecycle the stack does not know (by id, or a pending create's handle), nor made beforehand. */
function unknownLive(lc: Lifecycle): string[] {
  const { ids, pendingHandles } = known(lc);
  const snap = lc.site.truth.now;
  const out: string[] = [];
  const mine = (h: string | null) => lifecycleOf(h) === lc.plan.n;
  for (const f of snap.families)
    if (mine(f.handle) && !ids.has(familyKey(f.id)) && !lc.stack.preexisting.has(familyKey(f.id)) && !pendingHandles.has(f.handle))
      out.push(`family ${f.handle} (${f.id})`);
  for (const p of snap.products) {
    if (!mine(p.handle)) continue;
    if (
      p.archivedAt === null &&
      !ids.has(productKey(p.id)) &&
      !lc.stack.preexisting.has(productKey(p.id)) &&
      !pendingHandles.has(p.handle ?? "")
    )
      out.push(`product ${p.handle} (${p.id})`);
    for (const pp of p.pricePoints)
      if (
        pp.archivedAt === null &&
        lineageOf(pp.handle) !== undefined &&
        !ids.has(ppKey(pp.id)) &&
        !lc.stack.preexisting.has(ppKey(pp.id)) &&
        !pendingHandles.has(pp.handle)
      )
        out.push(`price point ${pp.handle} (${pp.id}) of ${p.handle}`);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Checks of each report against the truth, at the moment it is made
// ---------------------------------------------------------------------------

function checkFamily(lc: Lifecycle, what: string, props: Props, want: Decl["family"]) {
  const f = lc.site.truth.family(props.familyId as number);
  if (!f || f.handle !== want.handle || f.name !== want.name || props.handle !== want.handle)
    misreport(`c${lc.plan.n} family: ${what} recorded ${JSON.stringify(props)}, the site holds ${JSON.stringify(f)}`);
}

function checkProduct(lc: Lifecycle, what: string, props: Props, want: Decl["product"], familyId: number) {
  const p = lc.site.truth.product(props.productId as number);
  const def = p?.pricePoints.find((pp) => pp.default);
  const ok =
    p !== undefined &&
    p.archivedAt === null &&
    p.handle === want.handle &&
    p.name === want.name &&
    p.familyId === familyId &&
    props.pendingToken === undefined &&
    holdsPricing(def, want.pricing) &&
    holdsPricing(props, want.pricing);
  if (!ok) misreport(`c${lc.plan.n} product: ${what} recorded ${JSON.stringify(props)}, the site holds ${JSON.stringify(p)}`);
}

function checkPricePoint(lc: Lifecycle, what: string, props: Props, want: PpDecl, productId: number) {
  const pp = lc.site.truth.pricePoint(productId, props.pricePointId as number);
  const ok =
    pp !== undefined &&
    props.productId === productId &&
    pp.archivedAt === null &&
    pp.handle === want.handle &&
    pp.name === want.name &&
    props.handle === want.handle &&
    props.pendingToken === undefined &&
    props.todo === undefined &&
    holdsPricing(pp, want.pricing) &&
    holdsPricing(props, want.pricing) &&
    (!want.isDefault || (pp.default && props.isDefault === true)) &&
    props.isDefault === pp.default;
  if (!ok) misreport(`c${lc.plan.n} ${want.handle}: ${what} recorded ${JSON.stringify(props)}, the site holds ${JSON.stringify(pp)}`);
}

/** A partial failure records only what exists: a pending create's token one the site received, else objects the site holds. */
function checkPartial(lc: Lifecycle, kind: "family" | "product" | "pp", props: Props) {
  const { sim, truth } = lc.site;
  if (typeof props.pendingToken === "string") {
    stats.pending++;
    if (!sim.requests.some((r) => r.method === "POST" && r.uniquenessToken === props.pendingToken))
      misreport(`c${lc.plan.n} ${kind}: recorded pending with a token no create carried: ${JSON.stringify(props)}`);
    return;
  }
  const exists =
    kind === "family"
      ? truth.family(props.familyId as number) !== undefined
      : kind === "product"
        ? truth.product(props.productId as number) !== undefined
        : truth.pricePoint(props.productId as number, props.pricePointId as number) !== undefined;
  if (!exists) misreport(`c${lc.plan.n} ${kind}: a partial failure recorded what the site does not hold: ${JSON.stringify(props)}`);
  for (const a of ((props.todo as { archive?: number[] } | undefined)?.archive ?? []) as number[])
    if (truth.pricePoint(props.productId as number, a) === undefined)
      misreport(`c${lc.plan.n} pp: a partial failure recorded price point ${a} to archive, which the site does not hold`);
}

/**
 * What an operation on a slot may change at the service: the family; the product's name, handle, archive and
 * default price point; each recorded price point's handle, archive and pricing (not whether it is the default:
 * another price point's promotion changes that).
 */
function fingerprint(lc: Lifecycle, slot: Slot, kind: "family" | "product" | "pp"): string {
  const { truth } = lc.site;
  const recs = [slot.rec, ...slot.retiring].filter((r): r is Recorded => r !== undefined);
  if (kind === "family") return JSON.stringify(recs.map((r) => truth.family(r.props.familyId as number)));
  if (kind === "product")
    return JSON.stringify(
      recs.map((r) => {
        const p = truth.product(r.props.productId as number);
        return p && { name: p.name, handle: p.handle, archivedAt: p.archivedAt, defaultId: p.pricePoints.find((x) => x.default)?.id };
      }),
    );
  return JSON.stringify(
    recs.map((r) => {
      const pp = truth.pricePoint(r.props.productId as number, r.props.pricePointId as number);
      if (!pp) return undefined;
      const { default: _, updatedAt: __, ...rest } = pp;
      return rest;
    }),
  );
}

/** Says that what it did may have been applied (or what was), rather than only that it failed. */
const SAYS_APPLIED = /may (or may not )?have been applied|may have applied|was applied at the service|was created and recorded|recorded/i;

/** A plain failure that changed what the stack recorded must say so. */
function checkPlainFailure(lc: Lifecycle, kind: string, err: unknown, before: string, after: string) {
  const message = err instanceof Error ? err.message : String(err);
  if (before !== after && !SAYS_APPLIED.test(message))
    misreport(`c${lc.plan.n} ${kind}: reported failed (${message.slice(0, 300)}), but the site changed: ${before} → ${after}`);
}

/** After a create failed without a record: nothing of the lifecycle is live that the stack does not know, nor still being created. */
function checkPlainCreateFailure(lc: Lifecycle, what: string, err: unknown) {
  const strays = unknownLive(lc);
  const running = createTokens(lc.site.sim, `c${lc.plan.n}-`).filter((t) => lc.site.sim.tokenStatus(t) === "in_progress");
  if (strays.length > 0 || running.length > 0)
    misreport(
      `c${lc.plan.n} ${what}: create failed without a record (${(err as Error).message.slice(0, 200)}), but ${strays.join(", ") || "nothing"} live and ${running.length} create(s) still running`,
    );
}

// ---------------------------------------------------------------------------
// The engine: one up of a lifecycle
// ---------------------------------------------------------------------------

type Outcome = "settled" | "changed" | "failed";

/**
 * One resource in one up, as the engine drives it: check, then create (no record), or diff and, when
 * it reports changes, update in place or replace (create the replacement, the old one to delete
 * once it is settled). A partial failure records its id and properties; a plain one records nothing new.
 */
async function converge(
  lc: Lifecycle,
  p: Provider,
  slot: Slot,
  news: Props,
  kind: "family" | "product" | "pp",
  verify: (what: string, props: Props) => void,
): Promise<Outcome> {
  stats.operations++;
  let creating = false;
  const before = fingerprint(lc, slot, kind);
  try {
    const checked = await p.check!(slot.rec?.props ?? {}, news);
    if (checked.failures?.length) {
      misreport(`c${lc.plan.n} ${kind}: check failed a valid declaration: ${JSON.stringify(checked.failures)}`);
      return "failed";
    }
    const inputs = checked.inputs as Props;
    if (!slot.rec) {
      creating = true;
      const adopting = (inputs.preview as { adopt?: unknown } | undefined)?.adopt !== undefined;
      const r = await p.create!(inputs);
      slot.rec = { id: r.id, props: r.outs as Props };
      if (adopting) stats.adopted++;
      else stats.created++;
      verify("create", slot.rec.props);
      return "changed";
    }
    const d = await p.diff!(slot.rec.id, slot.rec.props, inputs);
    if (!d.changes) return "settled";
    if (d.replaces && d.replaces.length > 0) {
      // Create before delete: the old resource waits for its replacement.
      slot.retiring.push(slot.rec);
      slot.rec = undefined;
      creating = true;
      const r = await p.create!(inputs);
      slot.rec = { id: r.id, props: r.outs as Props };
      stats.replaced++;
      verify("replacement", slot.rec.props);
      return "changed";
    }
    const r = await p.update!(slot.rec.id, slot.rec.props, inputs);
    slot.rec = { id: slot.rec.id, props: r.outs as Props };
    stats.updated++;
    verify("update", slot.rec.props);
    return "changed";
  } catch (err) {
    const partial = err as { id?: string; properties?: Props };
    if (partial.id && partial.properties) {
      stats.partial++;
      if (process.env.CATALOG_FAULTS_VERBOSE) console.log(`c${lc.plan.n} ${kind} partial: ${(err as Error).message}`);
      const { __provider: _, ...props } = partial.properties;
      slot.rec = { id: partial.id, props };
      checkPartial(lc, kind, props);
    } else {
      stats.failed++;
      if (process.env.CATALOG_FAULTS_VERBOSE) console.log(`c${lc.plan.n} ${kind} failed: ${(err as Error).message}`);
      if (creating) checkPlainCreateFailure(lc, kind, err);
      checkPlainFailure(lc, kind, err, before, fingerprint(lc, slot, kind));
    }
    return "failed";
  }
}

/** Deletes a recorded resource; true once gone from the stack. */
async function remove(lc: Lifecycle, p: Provider, rec: Recorded, kind: "family" | "product" | "pp"): Promise<boolean> {
  stats.operations++;
  const { truth } = lc.site;
  const before = kind === "pp" ? truth.pricePoint(rec.props.productId as number, rec.props.pricePointId as number) : undefined;
  try {
    await p.delete!(rec.id, rec.props);
    stats.deleted++;
    if (kind === "product") {
      const id = numberOf(rec.props.productId);
      const held = id === undefined ? undefined : truth.product(id);
      if (id !== undefined && held?.archivedAt === null) misreport(`c${lc.plan.n} product: deleted, the site holds it live`);
    }
    if (kind === "pp") {
      const held = truth.pricePoint(rec.props.productId as number, rec.props.pricePointId as number);
      const product = truth.product(rec.props.productId as number);
      if (held && held.archivedAt === null && product?.archivedAt === null)
        misreport(`c${lc.plan.n} pp: deleted ${JSON.stringify(rec.props)}, the site holds it live: ${JSON.stringify(held)}`);
    }
    if (kind === "family" && numberOf(rec.props.familyId) !== undefined) lc.stack.left.add(familyKey(rec.props.familyId));
    return true;
  } catch (err) {
    stats.failed++;
    const message = (err as Error).message;
    if (process.env.CATALOG_FAULTS_VERBOSE) console.log(`c${lc.plan.n} ${kind} delete failed: ${message}`);
    if (kind === "pp" && /nothing was changed/i.test(message)) {
      const after = truth.pricePoint(rec.props.productId as number, rec.props.pricePointId as number);
      if (before?.archivedAt !== after?.archivedAt || before?.handle !== after?.handle)
        misreport(`c${lc.plan.n} pp: delete said nothing was changed (${message}), ${JSON.stringify(before)} → ${JSON.stringify(after)}`);
    }
    return false;
  }
}

/** One up of the lifecycle's declaration `d`; true when everything was already settled (nothing left to do). */
async function up(lc: Lifecycle, d: Decl): Promise<boolean> {
  stats.ups++;
  const { stack, providers } = lc;
  let settled = true;
  const step = (o: Outcome) => {
    if (o !== "settled") settled = false;
    return o;
  };

  if (d.destroyed) {
    // Price points first (the default one goes with its product: `deletedWith`), then the product, then the family.
    for (const [key, slot] of [...stack.pps]) {
      const decl = lastDecl(lc, key);
      for (const old of [...slot.retiring])
        if (await remove(lc, providers.pp, old, "pp")) slot.retiring.splice(slot.retiring.indexOf(old), 1);
      if (slot.rec && !decl?.isDefault) {
        settled = false;
        if (await remove(lc, providers.pp, slot.rec, "pp")) slot.rec = undefined;
      }
      if (slot.retiring.length > 0) settled = false;
    }
    if ([...stack.pps.values()].some((s) => s.retiring.length > 0 || (s.rec && !isDefaultSlot(lc, s)))) return false;
    if (stack.product.rec) {
      settled = false;
      if (await remove(lc, providers.product, stack.product.rec, "product")) {
        // The default price point leaves the stack with its product (deletedWith): archived product, live price point.
        for (const s of stack.pps.values()) if (s.rec) stack.left.add(ppKey(s.rec.props.pricePointId ?? s.rec.id));
        stack.pps.clear();
        stack.product.rec = undefined;
      } else return false;
    }
    if (stack.family.rec) {
      settled = false;
      if (await remove(lc, providers.family, stack.family.rec, "family")) stack.family.rec = undefined;
    }
    return settled;
  }

  step(
    await converge(lc, providers.family, stack.family, { ...d.family }, "family", (what, props) => checkFamily(lc, what, props, d.family)),
  );
  const familyId = numberOf(stack.family.rec?.props.familyId);
  if (familyId === undefined || stack.family.rec?.props.pendingToken !== undefined) return false;

  step(
    await converge(
      lc,
      providers.product,
      stack.product,
      { productFamily: familyId, handle: d.product.handle, name: d.product.name, ...d.product.pricing },
      "product",
      (what, props) => checkProduct(lc, what, props, d.product, familyId),
    ),
  );
  const productId = numberOf(stack.product.rec?.props.productId);
  if (productId === undefined || stack.product.rec?.props.pendingToken !== undefined) return false;

  // Price points: declared ones converge (in parallel, as the engine runs independent resources), then removed ones are deleted.
  const outcomes = await Promise.all(
    d.pps.map(async (pp) => {
      const slot = stack.pps.get(pp.key) ?? { retiring: [] };
      stack.pps.set(pp.key, slot);
      const o = await converge(
        lc,
        providers.pp,
        slot,
        { product: productId, handle: pp.handle, name: pp.name, ...pp.pricing, ...(pp.isDefault ? { default: true } : {}) },
        "pp",
        (what, props) => checkPricePoint(lc, what, props, pp, productId),
      );
      if (o !== "settled") return o;
      // Settled: the resources it replaced are deleted now.
      for (const old of [...slot.retiring])
        if (await remove(lc, providers.pp, old, "pp")) slot.retiring.splice(slot.retiring.indexOf(old), 1);
      return slot.retiring.length > 0 ? "changed" : "settled";
    }),
  );
  for (const o of outcomes) step(o);
  const declared = new Set(d.pps.map((p) => p.key));
  for (const [key, slot] of [...stack.pps]) {
    if (declared.has(key)) continue;
    settled = false;
    for (const rec of [...slot.retiring, ...(slot.rec ? [slot.rec] : [])]) {
      if (await remove(lc, providers.pp, rec, "pp")) {
        if (rec === slot.rec) slot.rec = undefined;
        else slot.retiring.splice(slot.retiring.indexOf(rec), 1);
      }
    }
    if (!slot.rec && slot.retiring.length === 0) stack.pps.delete(key);
  }
  return settled;
}

/** The last declaration of a price point before the destroy. */
function lastDecl(lc: Lifecycle, key: number): PpDecl | undefined {
  const steps = lc.plan.steps.filter((s) => !s.destroyed);
  return steps[steps.length - 1]?.pps.find((p) => p.key === key);
}
function isDefaultSlot(lc: Lifecycle, slot: Slot): boolean {
  for (const [key, s] of lc.stack.pps) if (s === slot) return lastDecl(lc, key)?.isDefault === true;
  return false;
}

/** Runs each step of the plan up after up until an up finds nothing to do. */
async function runLifecycle(lc: Lifecycle, stepIndex: number): Promise<void> {
  const d = lc.plan.steps[stepIndex];
  if (!d) return;
  stats.steps++;
  for (let i = 1; i <= MAX_UPS; i++) if (await up(lc, d)) return;
  misreport(`c${lc.plan.n}: step ${stepIndex} (${lc.plan.changes[stepIndex]}) not settled after ${MAX_UPS} ups`);
}

/** Made in the web UI before the first up, as the plan says. */
function seedPreexisting(lc: Lifecycle): void {
  const { sim } = lc.site;
  const d = lc.plan.steps[0];
  const pre = lc.plan.preexisting;
  if (pre.family || pre.product) {
    const f = sim.addProductFamily({ handle: d.family.handle, name: d.family.name });
    lc.stack.preexisting.add(familyKey(f.id));
  }
  if (pre.product) {
    const declared = d.pps[0];
    const p = sim.addProduct({
      handle: d.product.handle,
      name: `Made in the UI ${lc.plan.n}`,
      familyHandle: d.family.handle,
      priceInCents: d.product.pricing.priceInCents + 1,
      // One declared price point exists already, at other terms when the plan says so: adopted as it is, or replaced.
      pricePoints:
        declared && pre.pricePoint
          ? [{ handle: declared.handle, name: declared.name, ...declared.pricing, priceInCents: declared.pricing.priceInCents + 7 }]
          : declared
            ? [{ handle: declared.handle, name: declared.name, ...declared.pricing }]
            : [],
    });
    lc.stack.preexisting.add(productKey(p.id));
    for (const pp of p.pricePoints) lc.stack.preexisting.add(ppKey(pp.id));
  }
}

/** At the end: the lifecycle's objects at the service are exactly what its stack knows, each once. */
function finalCheck(lc: Lifecycle): void {
  const n = lc.plan.n;
  const last = lc.plan.steps[lc.plan.steps.length - 1];
  const snap = lc.site.truth.now;
  const strays = unknownLive(lc);
  if (strays.length > 0) misreport(`c${n}: live at the end but unknown to the stack: ${strays.join(", ")}`);
  const { stack } = lc;
  const pending = [stack.family, stack.product, ...stack.pps.values()]
    .flatMap((s) => [s.rec, ...s.retiring])
    .filter((r) => r && (r.props.pendingToken !== undefined || r.props.todo !== undefined));
  if (pending.length > 0) misreport(`c${n}: unfinished records at the end: ${JSON.stringify(pending)}`);
  if ([...stack.pps.values()].some((s) => s.retiring.length > 0)) misreport(`c${n}: replaced price points never deleted`);
  const product = snap.products.find((p) => p.handle === last.product.handle);
  if (last.destroyed) {
    if (product && product.archivedAt === null) misreport(`c${n}: destroyed, but product ${product.id} is live`);
    return;
  }
  if (!product) {
    misreport(`c${n}: product ${last.product.handle} missing`);
    return;
  }
  // Each declared price point: one live object of its lineage, the recorded one; a removed one's lineage: none live.
  const declared = new Map(last.pps.map((p) => [lineageOf(p.handle) as string, p]));
  const live = new Map<string, number[]>();
  for (const pp of product.pricePoints) {
    const l = lineageOf(pp.handle);
    if (l && pp.archivedAt === null) live.set(l, [...(live.get(l) ?? []), pp.id]);
  }
  for (const [l, want] of declared) {
    const ids = live.get(l) ?? [];
    const rec = stack.pps.get(want.key)?.rec;
    if (ids.length !== 1 || rec?.props.pricePointId !== ids[0])
      misreport(
        `c${n}: ${want.handle} has live ${JSON.stringify(ids)} at the end, the stack recorded ${JSON.stringify(rec?.props.pricePointId)}`,
      );
    if (ids.length > 1) doubles.push(`c${n} ${l}: ${ids.join(", ")}`);
  }
  for (const [l, ids] of live) if (!declared.has(l)) misreport(`c${n}: removed ${l} still live: ${ids.join(", ")}`);
  const def = product.pricePoints.find((pp) => pp.default);
  const wantDefault = last.pps.find((p) => p.isDefault);
  if (wantDefault && def?.handle !== wantDefault.handle) misreport(`c${n}: the default is ${def?.handle}, declared ${wantDefault.handle}`);
  if (!holdsPricing(def, last.product.pricing))
    misreport(`c${n}: the default's pricing ${JSON.stringify(def)}, declared ${JSON.stringify(last.product.pricing)}`);
}

const doubles: string[] = [];

async function configuredProviders(sim: Simulator) {
  const config = configureRequest({
    "billing:baseUrl": sim.url,
    "billing:apiKey": KEY,
    "billing:retryBudgetSeconds": "20",
    "billing:migrationSettleSeconds": String(SETTLE_SECONDS),
    "billing:timeoutMs": String(TIMEOUT_MS),
  });
  const providers = { family: { ...productFamilyProvider }, product: { ...productProvider }, pp: { ...productPricePointProvider } };
  for (const p of Object.values(providers)) await p.configure!(config);
  return providers;
}

describe(`catalog fault matrix (CATALOG_FAULTS_SEED=${SEED})`, () => {
  afterAll(() => {
    console.log(
      `catalog fault matrix: seed ${SEED}; ${stats.lifecycles} lifecycles, ${stats.steps} steps, ${stats.ups} ups, ${stats.operations} provider operations ` +
        `(${stats.created} created, ${stats.adopted} adopted, ${stats.updated} updated in place, ${stats.replaced} replacements, ${stats.deleted} deleted; ` +
        `${stats.partial} partial failures of which ${stats.pending} pending creates, ${stats.failed} plain failures); ` +
        `${stats.requests} requests, ${stats.faulted} faulted (${((100 * stats.faulted) / Math.max(1, stats.requests)).toFixed(1)}%); ` +
        `truth read ${stats.reads} times in ${stats.observations} observations; peak live objects of one price point ${stats.peakLineage}; ` +
        `${doubles.length} duplicates, ${misreports.length} misreports`,
    );
  });

  it("under ~37% faults: no duplicate, no stray object, no product without a default, no outcome misreported", async () => {
    const quietLog = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const sites = await Promise.all(Array.from({ length: LIFECYCLES }, (_, i) => catalogSite(SEED + i, i % 2 === 0 ? SLOW_CREATE : [])));
    try {
      await Promise.all(
        sites.map(async (site, n) => {
          const lc: Lifecycle = {
            plan: plan(n, rng(SEED * 31 + n)),
            site,
            providers: await configuredProviders(site.sim),
            stack: { family: { retiring: [] }, product: { retiring: [] }, pps: new Map(), left: new Set(), preexisting: new Set() },
          };
          seedPreexisting(lc);
          stats.lifecycles++;
          // Step by step; between steps the site goes quiet (no request its client gave up on still runs), so that a
          // late landing never passes for the next step's outcome.
          for (let k = 0; k < lc.plan.steps.length; k++) {
            await runLifecycle(lc, k);
            await quiet([site.sim]);
          }
          finalCheck(lc);
        }),
      );
    } finally {
      quietLog.mockRestore();
      for (const site of sites) {
        stats.requests += site.sim.requests.length;
        stats.faulted += site.sim.requests.filter((r) => r.status === 0 || r.status === 429 || r.status >= 500).length;
        stats.observations += site.truth.observations;
        stats.reads += site.truth.reads;
        stats.peakLineage = Math.max(stats.peakLineage, site.truth.peakLineage);
      }
      await Promise.all(sites.map((s) => s.close()));
    }
    for (const [i, site] of sites.entries()) {
      expect(site.truth.noDefault, `site ${i}: products without one live default (seed ${SEED})`).toEqual([]);
      expect(site.truth.doubles, `site ${i}: handles naming two objects (seed ${SEED})`).toEqual([]);
    }
    expect(doubles, `duplicate price points at the end (seed ${SEED})`).toEqual([]);
    expect(misreports, `misreported outcomes (seed ${SEED})`).toEqual([]);
  }, 120_000);
});
