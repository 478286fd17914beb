import { describe, expect, it } from "vitest";
import { BillingValidationError } from "../../sdk";
import { distinctIds, replayWebhooks } from "../../sdk/replay";
import type { Transport } from "../../sdk/transport";

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

// The memory promise of distinctIds (its comment: a million ids cost ~8 MB, not a Set of them): ids with no
// duplicate come back as the very array given, never a copy; only a list with a duplicate is filtered.
describe("distinctIds: no copy of a list without duplicates", () => {
  it.each([
    ["ascending numbers", [1, 2, 3, 1000]],
    ["numbers in any order", [30, 2, 1000, 7]],
    ["a single id", [5]],
    ["no id", []],
  ])("%s: the same array", (_, ids) => {
    expect(distinctIds(ids)).toBe(ids);
  });

  it("with a duplicate: a new array, first occurrences in order; the given one untouched", () => {
    const ids = [30, 2, 30, 7, 2];
    const out = distinctIds(ids);
    expect(out).not.toBe(ids);
    expect(out).toEqual([30, 2, 7]);
    expect(ids).toEqual([30, 2, 30, 7, 2]);
  });
});
