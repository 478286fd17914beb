import { describe, expect, it } from "vitest";
import { BillingValidationError } from "../../../sdk";
import { replayWebhooks } from "../../../sdk/replay";
import type { Transport } from "../../../sdk/transport";
import { siteWithFamilies } from "../catalog/simulator-fixtures";
import { refusedWith, type Site, site } from "../helpers";

/** replayWebhooks' refusals before anything is sent (sdk/replay.ts): bad ids and resume entries, in its exact words. */

const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i);

describe("replayWebhooks: validation", () => {
  let s: Site;

  it.each([
    ["zero", [5, 0], ["[1] 0"]],
    ["negative", [-3], ["[0] -3"]],
    ["fraction", [1, 2, 1.5], ["[2] 1.5"]],
    ["NaN", [Number.NaN], ["[0] NaN"]],
    ["Infinity", [Number.POSITIVE_INFINITY], ["[0] Infinity"]],
    ["text that is not a decimal id", [1, "2.5"], ['[1] "2.5"']],
    ["text with a sign or a leading zero", [1, "+2", "02"], ['[1] "+2"', '[2] "02"']],
    ["text above int64", [1, "9223372036854775808"], ['[1] "9223372036854775808"']],
    ["null", [null], ["[0] null"]],
    ["past 2^53", [2 ** 53], [`[0] ${2 ** 53}`]],
    ["several", [0, 7, -1, 2.5, "x"], ["[0] 0", "[2] -1", "[3] 2.5", '[4] "x"']],
    ["a bigint", [1, 5n], ["[1] bigint"]],
  ])("%s: BillingValidationError naming each bad entry, nothing sent", async (_, ids, shown) => {
    s = await site();
    const err = await s.billing.replayWebhooks(ids as number[]).catch((e) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    for (const entry of shown) expect(err.message).toContain(entry);
    expect(err.message).not.toContain("[1] 7");
    expect(s.sim.requests).toHaveLength(0);
  });

  it("one bad id among 5000 good ones: nothing is sent at all", async () => {
    s = await site();
    const ids = range(5000);
    ids[4321] = 0;
    await expect(s.billing.replayWebhooks(ids)).rejects.toThrow(/\[4321\] 0/);
    expect(s.sim.requests).toHaveLength(0);
    expect(s.sim.replayQueue).toEqual([]);
  });

  it.each([
    ["a string", "1,2"],
    ["a number", 5],
    ["undefined", undefined],
    ["an object", { ids: [1] }],
  ])("not an array (%s): refused before sending", async (_, ids) => {
    s = await site();
    await expect(s.billing.replayWebhooks(ids as never)).rejects.toBeInstanceOf(BillingValidationError);
    expect(s.sim.requests).toHaveLength(0);
  });

  it("an empty list sends nothing", async () => {
    s = await site();
    expect(await s.billing.replayWebhooks([])).toEqual({ queued: 0, batches: 0 });
    expect(s.sim.requests).toHaveLength(0);
  });
});

// Validation of a replay, before anything is sent (found by `npm run mutate`, issue 24): the messages and
// a resume entry that is not an object. No transport is needed: nothing may be sent.
const NO_TRANSPORT = undefined as unknown as Transport;

async function refusal(ids: unknown, resume?: unknown): Promise<BillingValidationError> {
  const err = await replayWebhooks(NO_TRANSPORT, ids, 1, resume === undefined ? {} : { resume: resume as never }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(BillingValidationError);
  return err as BillingValidationError;
}

describe("replayWebhooks: what a refused replay says", () => {
  it("bad ids: 'invalid webhook replay', on ids", async () => {
    const err = await refusal([1, 0]);
    expect(err.message).toMatch(/^invalid webhook replay: ids: /);
    expect(err.problems.map((p) => p.property)).toEqual(["ids"]);
  });

  it("a resume entry that is not an object: both of its problems, not a TypeError", async () => {
    const err = await refusal([1], [null]);
    expect(err.problems).toEqual([
      { property: "resume.0.ids", message: "must be 1 to 1000 webhook ids" },
      { property: "resume.0.uniquenessToken", message: "must be the non-empty token the batch was first sent with" },
    ]);
    expect(err.message).toBe(
      "invalid webhook replay: resume.0.ids: must be 1 to 1000 webhook ids; resume.0.uniquenessToken: must be the non-empty token the batch was first sent with",
    );
  });

  it("a resume batch with an empty token, after a good one: named by its index", async () => {
    const err = await refusal(
      [1],
      [
        { ids: [2], uniquenessToken: "t" },
        { ids: [3], uniquenessToken: "" },
      ],
    );
    expect(err.problems).toEqual([
      { property: "resume.1.uniquenessToken", message: "must be the non-empty token the batch was first sent with" },
    ]);
  });
});

describe("replay ids: more than ten bad entries are counted, not listed", () => {
  it("eleven bad ids show ten and '… 1 more'", async () => {
    const { sim, billing } = await siteWithFamilies();
    const bad = Array.from({ length: 11 }, (_, i) => -(i + 1));
    const r = await refusedWith(billing.replayWebhooks(bad));
    const shown = bad
      .slice(0, 10)
      .map((v, i) => `[${i}] ${v}`)
      .join(", ");
    expect(r.message.endsWith(`bad entries: ${shown}, … 1 more`)).toBe(true);
    expect(sim.requests).toStrictEqual([]);
  });
});
