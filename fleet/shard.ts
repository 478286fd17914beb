import { createHash } from "node:crypto";

/** Which part of a fleet this process runs: shard `index` of `count` (0-based). */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/**
 * Parses `--shard i/n`; without it, a Kubernetes Indexed Job's
 * JOB_COMPLETION_INDEX / JOB_COMPLETIONS when both are set.
 */
export function shardOf(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): Shard | undefined {
  if (flag !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(flag.trim());
    const index = m ? Number(m[1]) : Number.NaN;
    const count = m ? Number(m[2]) : Number.NaN;
    if (!m || count < 1 || index >= count) {
      throw new Error(`--shard ${flag}: give i/n with 0 ≤ i < n, e.g. --shard 0/4 for the first of four shards`);
    }
    return { index, count };
  }
  const i = env.JOB_COMPLETION_INDEX;
  const n = env.JOB_COMPLETIONS;
  const set = [i, n].filter((v) => v !== undefined && v !== "").length;
  if (set === 0) return undefined;
  // Half a shard would run the whole fleet in every pod at once: refuse it.
  if (set === 1) {
    throw new Error(
      `JOB_COMPLETION_INDEX=${i ?? ""} JOB_COMPLETIONS=${n ?? ""}: set both (an Indexed Job sets the index; set JOB_COMPLETIONS to its completions) or neither`,
    );
  }
  if (!/^\d+$/.test(i ?? "") || !/^\d+$/.test(n ?? "") || Number(n) < 1 || Number(i) >= Number(n)) {
    throw new Error(`JOB_COMPLETION_INDEX=${i} JOB_COMPLETIONS=${n}: not a shard (0 ≤ index < completions)`);
  }
  return { index: Number(i), count: Number(n) };
}

/**
 * Whether a stack belongs to a shard. By a hash of the stack name, not its
 * position, so that adding or removing a site moves no other site to
 * another shard (each stack is only ever run by one pod of a Job).
 */
export function inShard(stack: string, shard: Shard | undefined): boolean {
  if (!shard || shard.count === 1) return true;
  const h = createHash("sha256").update(stack).digest().readUInt32BE(0);
  return h % shard.count === shard.index;
}
