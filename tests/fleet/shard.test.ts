import { describe, expect, it } from "vitest";
import { inShard, shardOf } from "../../fleet/shard";

/** The edges of `--shard i/n` and of an Indexed Job's environment: what is a shard, and what each refusal says. */
describe("--shard i/n", () => {
  it.each([
    ["0/1", { index: 0, count: 1 }],
    ["10/12", { index: 10, count: 12 }],
    ["1/12", { index: 1, count: 12 }],
    [" 1/2 ", { index: 1, count: 2 }],
  ])("%j is %o", (flag, shard) => {
    expect(shardOf(flag, {})).toEqual(shard);
  });

  it.each(["x1/2", "1/2x", "0/0", "2/2", "-1/2", "1/ 2"])("%j is refused, naming the flag", (flag) => {
    expect(() => shardOf(flag, {})).toThrow(
      new Error(`--shard ${flag}: give i/n with 0 ≤ i < n, e.g. --shard 0/4 for the first of four shards`),
    );
  });
});

describe("an Indexed Job's JOB_COMPLETION_INDEX and JOB_COMPLETIONS", () => {
  it.each([
    [
      { JOB_COMPLETION_INDEX: "10", JOB_COMPLETIONS: "12" },
      { index: 10, count: 12 },
    ],
    [
      { JOB_COMPLETION_INDEX: "1", JOB_COMPLETIONS: "12" },
      { index: 1, count: 12 },
    ],
    [
      { JOB_COMPLETION_INDEX: "0", JOB_COMPLETIONS: "1" },
      { index: 0, count: 1 },
    ],
    // Empty is unset (as `env -u` and an empty `value:` in a pod spec both leave it).
    [{ JOB_COMPLETION_INDEX: "", JOB_COMPLETIONS: "" }, undefined],
    [{ JOB_COMPLETION_INDEX: "" }, undefined],
    [{ JOB_COMPLETIONS: "" }, undefined],
  ])("%o is %o", (env, shard) => {
    expect(shardOf(undefined, env)).toEqual(shard);
  });

  it.each([
    [{ JOB_COMPLETION_INDEX: "1" }, "JOB_COMPLETION_INDEX=1 JOB_COMPLETIONS="],
    [{ JOB_COMPLETIONS: "3" }, "JOB_COMPLETION_INDEX= JOB_COMPLETIONS=3"],
    [{ JOB_COMPLETION_INDEX: "1", JOB_COMPLETIONS: "" }, "JOB_COMPLETION_INDEX=1 JOB_COMPLETIONS="],
  ])("half of them, %o, is refused: both or neither", (env, given) => {
    expect(() => shardOf(undefined, env)).toThrow(
      new Error(`${given}: set both (an Indexed Job sets the index; set JOB_COMPLETIONS to its completions) or neither`),
    );
  });

  it.each([
    ["x", "3"],
    ["x1", "3"],
    ["1x", "3"],
    ["1", "x"],
    ["1", "x3"],
    ["1", "3x"],
    ["3", "3"],
    ["0", "0"],
    ["-1", "3"],
  ])("JOB_COMPLETION_INDEX=%s JOB_COMPLETIONS=%s is not a shard", (i, n) => {
    expect(() => shardOf(undefined, { JOB_COMPLETION_INDEX: i, JOB_COMPLETIONS: n })).toThrow(
      new Error(`JOB_COMPLETION_INDEX=${i} JOB_COMPLETIONS=${n}: not a shard (0 ≤ index < completions)`),
    );
  });
});

describe("inShard", () => {
  it("without a shard, or with one of one, every stack is in", () => {
    const stacks = ["us", "eu", "acme/billing/apac", ""];
    expect(stacks.map((s) => inShard(s, undefined))).toEqual([true, true, true, true]);
    expect(stacks.map((s) => inShard(s, { index: 0, count: 1 }))).toEqual([true, true, true, true]);
  });
});

describe("shards of the fleet's stacks", () => {
  it.each([
    ["0/4", {}, { index: 0, count: 4 }],
    [undefined, { JOB_COMPLETION_INDEX: "2", JOB_COMPLETIONS: "3" }, { index: 2, count: 3 }],
    [undefined, {}, undefined],
    ["1/2", { JOB_COMPLETION_INDEX: "0", JOB_COMPLETIONS: "3" }, { index: 1, count: 2 }],
  ])("--shard %s with %o is %o", (flag, env, shard) => {
    expect(shardOf(flag, env)).toEqual(shard);
  });

  it.each([
    ["4/4", {}],
    ["x", {}],
    ["0/0", {}],
    [undefined, { JOB_COMPLETION_INDEX: "1" }],
    [undefined, { JOB_COMPLETION_INDEX: "3", JOB_COMPLETIONS: "3" }],
  ])("--shard %s with %o is refused", (flag, env) => {
    expect(() => shardOf(flag, env)).toThrow(/shard|JOB_COMPLETION/);
  });

  it("every stack falls in exactly one shard, and adding a site moves no other", () => {
    const stacks = Array.from({ length: 200 }, (_, i) => `site-${i}`);
    const owner = (s: string, n: number) => [...Array(n).keys()].filter((i) => inShard(s, { index: i, count: n }));
    for (const s of stacks) expect(owner(s, 7)).toHaveLength(1);
    const before = stacks.map((s) => owner(s, 7)[0]);
    const after = [...stacks, "site-new"].map((s) => owner(s, 7)[0]);
    expect(after.slice(0, stacks.length)).toEqual(before);
    const sizes = [...Array(7).keys()].map((i) => before.filter((o) => o === i).length);
    expect(Math.min(...sizes)).toBeGreaterThan(10);
  });
});
