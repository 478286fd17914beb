/** Small statistics for side-by-side measurements. */

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  const i = (s.length - 1) * q;
  const lo = Math.floor(i);
  return s[lo] + (s[Math.ceil(i)] - s[lo]) * (i - lo);
}

/** A candidate measured against a reference, interleaved, one pair per repetition. */
export interface Pair {
  readonly candidate: number[];
  readonly reference: number[];
}

/** Runs `warmup` unrecorded pairs, then `repeats` pairs; candidate and reference alternate who goes first. */
export async function interleave(
  repeats: number,
  warmup: number,
  candidate: () => Promise<number>,
  reference: () => Promise<number>,
): Promise<Pair> {
  const pair: Pair = { candidate: [], reference: [] };
  for (let i = 0; i < warmup + repeats; i++) {
    const first = i % 2 === 0;
    const a = first ? await candidate() : 0;
    const b = await reference();
    const c = first ? a : await candidate();
    if (i >= warmup) {
      pair.candidate.push(c);
      pair.reference.push(b);
    }
  }
  return pair;
}

/** Ratio of medians, and the interquartile range of the per-repetition ratios as its spread. */
export function ratioOf(p: Pair): { ratio: number; spread: string; n: number } {
  const per = p.candidate.map((c, i) => c / p.reference[i]);
  return {
    ratio: median(p.candidate) / median(p.reference),
    spread: `${quantile(per, 0.25).toFixed(2)}–${quantile(per, 0.75).toFixed(2)}`,
    n: per.length,
  };
}

/** Milliseconds that `fn` takes. */
export async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

export interface Row {
  figure: string;
  candidate: string;
  reference: string;
  value: string;
  spread: string;
  repeats: string;
  target: string;
  met: boolean | undefined;
}

export function table(rows: readonly Row[]): string {
  const head = "| # | candidate | reference | ratio / value | spread (IQR) | repeats | target | met |\n|---|---|---|---|---|---|---|---|";
  const mark = (m: boolean | undefined) => (m === undefined ? "–" : m ? "yes" : "**no**");
  return [
    head,
    ...rows.map(
      (r) => `| ${r.figure} | ${r.candidate} | ${r.reference} | ${r.value} | ${r.spread} | ${r.repeats} | ${r.target} | ${mark(r.met)} |`,
    ),
  ].join("\n");
}
