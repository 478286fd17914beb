import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type FaultSpec, type RequestLogEntry, type Simulator, startSimulator } from "../../simulator";
import { FAULT_MIX, KEY } from "./world";

/**
 * The catalog fault matrix's world: simulator sites injecting the fault matrix's mix (~37% of
 * requests: 429s, 5xx before and after applying, resets before and after applying, answers later
 * than the client's timeout, creates still processing when the client's retry meets their token),
 * each with a ground truth read from the simulator's own data file (`dataFile`, written before
 * every answer), never from what a client reported. The truth is read at every request's arrival
 * and at every answer the site sends: every state a client could observe is checked.
 */

/** The data file's catalog records, as the simulator keeps them (data-shape.ts, version 2). */
export interface TruthPricePoint {
  id: number;
  handle: string;
  name: string;
  default: boolean;
  archivedAt: string | null;
  [pricing: string]: unknown;
}
export interface TruthProduct {
  id: number;
  handle: string | null;
  name: string;
  familyId: number;
  archivedAt: string | null;
  pricePoints: TruthPricePoint[];
}
export interface TruthFamily {
  id: number;
  handle: string;
  name: string;
}
export interface Snapshot {
  families: TruthFamily[];
  products: TruthProduct[];
}

/** The lifecycle a handle belongs to (`c12-…`), and for a price point its lineage (`c12-pp3…`). */
export const lifecycleOf = (handle: string | null): number | undefined => {
  const m = handle === null ? null : /^c(\d+)-/.exec(handle);
  return m ? Number(m[1]) : undefined;
};
export const lineageOf = (handle: string): string | undefined => /^(c\d+-pp\d+)(?:-|$)/.exec(handle)?.[1];

/**
 * The site's catalog as the simulator holds it, observed at every request's arrival and answer.
 * Checked at each observation that changed something: every product has exactly one default price
 * point and it is live; a family or product handle never names two objects over the run; a
 * price point lineage never has more than two live objects (the old one and its replacement).
 */
export class Truth {
  readonly #file: string;
  #ino = -1;
  #mtime = -1;
  #snap: Snapshot = { families: [], products: [] };
  /** States read (each a change of the data file), and observations made. */
  reads = 0;
  observations = 0;
  readonly noDefault: string[] = [];
  readonly doubles: string[] = [];
  /** The most live price points one lineage had at once (2 while a replacement runs). */
  peakLineage = 0;
  readonly #familyIds = new Map<string, Set<number>>();
  readonly #productIds = new Map<string, Set<number>>();

  constructor(file: string) {
    this.#file = file;
  }

  /** The current state (read now if the file changed). */
  get now(): Snapshot {
    this.observe();
    return this.#snap;
  }

  observe(): void {
    this.observations++;
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(this.#file);
    } catch {
      return;
    }
    if (st.ino === this.#ino && st.mtimeMs === this.#mtime) return;
    this.#ino = st.ino;
    this.#mtime = st.mtimeMs;
    const site = (JSON.parse(readFileSync(this.#file, "utf8")) as { site: { productFamilies: TruthFamily[]; products: TruthProduct[] } })
      .site;
    this.#snap = { families: site.productFamilies, products: site.products };
    this.reads++;
    this.#check();
  }

  #check(): void {
    for (const f of this.#snap.families) note(this.#familyIds, f.handle, f.id, "family", this.doubles);
    for (const p of this.#snap.products) {
      if (p.handle !== null) note(this.#productIds, p.handle, p.id, "product", this.doubles);
      const defaults = p.pricePoints.filter((pp) => pp.default);
      if (defaults.length !== 1 || defaults[0].archivedAt !== null)
        this.noDefault.push(`product ${p.handle} (id ${p.id}): defaults ${JSON.stringify(defaults.map((d) => [d.id, d.archivedAt]))}`);
      const live = new Map<string, number>();
      for (const pp of p.pricePoints) {
        const l = pp.archivedAt === null ? lineageOf(pp.handle) : undefined;
        if (l) live.set(l, (live.get(l) ?? 0) + 1);
      }
      for (const [l, n] of live) {
        this.peakLineage = Math.max(this.peakLineage, n);
        if (n > 2) this.doubles.push(`product ${p.handle}: ${n} live price points of ${l} at once`);
      }
    }
  }

  family(id: number): TruthFamily | undefined {
    return this.now.families.find((f) => f.id === id);
  }
  product(id: number): TruthProduct | undefined {
    return this.now.products.find((p) => p.id === id);
  }
  pricePoint(productId: number, id: number): TruthPricePoint | undefined {
    return this.product(productId)?.pricePoints.find((pp) => pp.id === id);
  }
}

function note(seen: Map<string, Set<number>>, handle: string, id: number, what: string, doubles: string[]) {
  const ids = seen.get(handle) ?? new Set<number>();
  if (!ids.has(id)) {
    ids.add(id);
    seen.set(handle, ids);
    if (ids.size > 1) doubles.push(`${what} handle ${handle}: objects ${[...ids].join(", ")}`);
  }
}

export interface CatalogSite {
  readonly sim: Simulator;
  readonly truth: Truth;
  close(): Promise<void>;
}

/** A folder for data files: tmpfs where there is one (the simulator flushes each write to disk). */
function dataDir(): string {
  let base = tmpdir();
  try {
    if (statSync("/dev/shm").isDirectory()) base = "/dev/shm";
  } catch {
    // no tmpfs: the system's temporary folder
  }
  return mkdtempSync(path.join(base, "catalog-faults-"));
}

/** A site with the fault mix injected and its truth observed at every arrival and answer. */
export async function catalogSite(seed: number, extra: readonly FaultSpec[] = []): Promise<CatalogSite> {
  const dir = dataDir();
  const file = path.join(dir, "site.json");
  const sim = await startSimulator({ apiKey: KEY, faultSeed: seed, dataFile: file });
  const truth = new Truth(file);
  const log = sim.requests;
  const push = log.push.bind(log);
  // The simulator pushes each request's entry on arrival and sets its status as the answer leaves.
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
  // The extra faults first: a request meets the first injected fault whose draw fires.
  for (const f of [...extra, ...FAULT_MIX]) sim.injectFault({ ...f });
  return {
    sim,
    truth,
    close: async () => {
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** mulberry32, for the seeded programs. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Pricing {
  priceInCents: number;
  interval: number;
  intervalUnit: "day" | "month";
  trialPriceInCents?: number;
  trialInterval?: number;
  trialIntervalUnit?: "day" | "month";
}

export function pricing(r: () => number): Pricing {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const base: Pricing = {
    priceInCents: pick([0, 900, 4900, 5900, 49000, 123456]),
    interval: pick([1, 3, 12, 30]),
    intervalUnit: pick(["day", "month"]),
  };
  return r() < 0.3 ? { ...base, trialPriceInCents: pick([0, 100]), trialInterval: pick([7, 14]), trialIntervalUnit: "day" } : base;
}

/** Whether a truth record holds the declared pricing fields (the ones left out are the service's choice). */
export const holdsPricing = (held: Record<string, unknown> | undefined, want: Pricing): boolean =>
  held !== undefined && Object.entries(want).every(([k, v]) => held[k] === v);

/** Request log entries that created something with this handle prefix: their uniqueness tokens. */
export function createTokens(sim: Simulator, prefix: string): string[] {
  return sim.requests
    .filter((r) => r.method === "POST" && r.uniquenessToken !== undefined && handleOfBody(r.body)?.startsWith(prefix))
    .map((r) => r.uniquenessToken as string);
}

export function handleOfBody(body: unknown): string | undefined {
  const b = body as Record<string, { handle?: unknown } | undefined> | undefined;
  const h = b?.product_family?.handle ?? b?.product?.handle ?? b?.price_point?.handle;
  return typeof h === "string" ? h : undefined;
}
