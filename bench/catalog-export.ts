import { type ChildProcess, execFile, spawn } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { catalogImportFile, catalogProgram, readCatalog, snapshotJson } from "../catalog";
import { bareCatalogRead } from "./catalog-export-bare";
import { interleave, median, type Row, ratioOf, time } from "./stats";

const KEY = "bench_key";
const ROOT = path.resolve(__dirname, "..");
const TS_NODE = ["-r", "ts-node/register/transpile-only"];

/** The 5,000-object site (bench/catalog-export-site.ts) in its own process, seeded; its URL once it listens. */
async function seededSite(latencyMs: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [...TS_NODE, path.join(__dirname, "catalog-export-site.ts"), KEY, String(latencyMs)], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once("exit", (code) => reject(new Error(`the benchmark's site exited ${code}`)));
  });
  return { url, child };
}

/** One read in a fresh process (bench/catalog-export-child.ts): its time and its peak RSS above its baseline. */
async function measuredChild(mode: "export" | "bare", url: string): Promise<{ ms: number; aboveMb: number; objects: number }> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--expose-gc", ...TS_NODE, path.join(__dirname, "catalog-export-child.ts"), mode, url, KEY],
    { cwd: ROOT, maxBuffer: 1 << 20 },
  );
  const r = JSON.parse(stdout.trim().split("\n").pop()!);
  return { ms: r.ms, aboveMb: r.peakMb - r.baselineMb, objects: r.objects };
}

/**
 * Figure 11: `billing-catalog export` of a 5,000-object site (the read through the SDK, at most 4
 * requests in flight, then the import file, the program and the snapshot in memory) against a bare
 * undici Pool reading the same pages with 4 in flight and only JSON-parsing them; interleaved in this
 * process for time, and in fresh processes for peak memory above each one's baseline. The site runs
 * in its own process and answers each request after `latencyMs`. The export's extra time is CPU spent
 * between an answer and the next request on its connection (the SDK checks every answer against its
 * schema; the snapshot and the program are built after the read), a near-constant second on this site:
 * run at two latencies, the figure shows the ratio falling toward 1 as answers take as long as the service's.
 */
export async function catalogExportFigure(o: {
  repeats: number;
  warmup: number;
  memoryRepeats: number;
  latencyMs: number;
}): Promise<Row[]> {
  const site = await seededSite(o.latencyMs);
  try {
    const exported = async () => {
      let n = 0;
      const t = await time(async () => {
        const { snapshot } = await readCatalog({ baseUrl: site.url, apiKey: KEY });
        n = Object.keys(snapshot.objects["Product"] ?? {}).length;
        snapshotJson(snapshot);
        catalogImportFile(snapshot);
        catalogProgram(snapshot);
      });
      if (n !== 1000) throw new Error(`export read ${n} products`);
      return t;
    };
    const bare = async () => {
      let n = 0;
      const t = await time(async () => {
        n = (await bareCatalogRead(site.url, KEY)).products;
      });
      if (n !== 1000) throw new Error(`bare read ${n} products`);
      return t;
    };
    const p = await interleave(o.repeats, o.warmup, exported, bare);
    const r = ratioOf(p);
    const mem = { export: [] as number[], bare: [] as number[] };
    for (let i = 0; i < o.memoryRepeats; i++) {
      mem.export.push((await measuredChild("export", site.url)).aboveMb);
      mem.bare.push((await measuredChild("bare", site.url)).aboveMb);
    }
    const ms = (xs: number[]) => `${(median(xs) / 1000).toFixed(2)} s`;
    const mb = (xs: number[]) => `+${median(xs).toFixed(0)} MB`;
    const at = o.latencyMs > 0 ? `${o.latencyMs} ms per request` : "answered at once";
    return [
      {
        figure: "11",
        candidate: `billing-catalog export, 5,000-object site, ${at} (${ms(p.candidate)}, peak RSS ${mb(mem.export)})`,
        reference: `bare undici Pool, same pages, 4 in flight (${ms(p.reference)}, peak RSS ${mb(mem.bare)})`,
        value: `${r.ratio.toFixed(2)}×`,
        spread: r.spread,
        repeats: String(r.n),
        target: "≤ 1.1×",
        met: r.ratio <= 1.1,
      },
    ];
  } finally {
    site.child.kill();
  }
}
