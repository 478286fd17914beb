import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { startSimulator } from "../simulator";
import { median, type Row } from "./stats";

const KEY = "bench_key";

/** Figure 3: peak RSS above baseline of a process replaying 1,000,000 ids (the simulator runs in this one). */
export async function memoryFigure(o: { repeats: number }): Promise<Row[]> {
  const sim = await startSimulator({ apiKey: KEY, logBodies: false });
  const above: number[] = [];
  try {
    for (let i = 0; i < o.repeats; i++) {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ["--expose-gc", "-r", "ts-node/register/transpile-only", path.join(__dirname, "memory-child.ts"), sim.url, KEY],
        { cwd: path.resolve(__dirname, ".."), maxBuffer: 1 << 20 },
      );
      const r = JSON.parse(stdout.trim().split("\n").pop()!);
      if (r.queued !== 1_000_000) throw new Error(`queued ${r.queued}`);
      above.push(r.peakMb - r.baselineMb);
      sim.replayQueue = [];
    }
  } finally {
    await sim.close();
  }
  const m = median(above);
  return [
    {
      figure: "3",
      candidate: "replay of 1,000,000 ids (1000 requests)",
      reference: "the process's baseline RSS",
      value: `+${m.toFixed(1)} MB`,
      spread: `${Math.min(...above).toFixed(1)}–${Math.max(...above).toFixed(1)} MB`,
      repeats: String(above.length),
      target: "< 100 MB above baseline",
      met: m < 100,
    },
  ];
}
