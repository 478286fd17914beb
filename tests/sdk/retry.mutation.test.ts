import { describe, expect, it } from "vitest";
import { readBack } from "../../sdk/retry";

// readBack on its own (found by `npm run mutate`, issue 24): the migration tests reach it only through a
// 409 and a simulator that settles, so a read-back that gives up early or misreports a failed read passed.

/** A probe that answers `seen` until its `n`th call, which finds `n`; it may throw on some calls. */
function probeFinding(n: number, fail: (call: number) => unknown = () => undefined) {
  let calls = 0;
  const probe = async (): Promise<{ found: number } | { seen: string }> => {
    calls++;
    const err = fail(calls);
    if (err !== undefined) throw err;
    return calls >= n ? { found: calls } : { seen: `call ${calls}` };
  };
  return { probe, calls: () => calls };
}

describe("readBack", () => {
  it("reads until the probe finds it, and returns what it found", async () => {
    const p = probeFinding(3);
    expect(await readBack(60_000, 1, p.probe)).toEqual({ found: 3 });
    expect(p.calls()).toBe(3);
  });

  it("a base delay of 0 still waits and reads again (at least 1 ms between reads), not giving up after one read", async () => {
    const p = probeFinding(4);
    expect(await readBack(60_000, 0, p.probe)).toEqual({ found: 4 });
  });

  it("a failed read counts as not found yet, and is what the last read saw when time runs out", async () => {
    const p = probeFinding(3, (call) => (call === 1 ? new Error("socket hang up") : undefined));
    expect(await readBack(60_000, 1, p.probe)).toEqual({ found: 3 });
    const always = probeFinding(Number.POSITIVE_INFINITY, () => new Error("socket hang up"));
    expect(await readBack(5, 1, always.probe)).toEqual({ last: "unreadable (socket hang up)" });
    const text = probeFinding(Number.POSITIVE_INFINITY, () => "plain text");
    expect(await readBack(5, 1, text.probe)).toEqual({ last: "unreadable (plain text)" });
  });

  it("time up: the last read's words, after more than one read", async () => {
    const p = probeFinding(Number.POSITIVE_INFINITY);
    const r = await readBack(500, 1, p.probe);
    expect(r).toEqual({ last: `call ${p.calls()}` });
    expect(p.calls()).toBeGreaterThan(1);
  });
});
