import { describe, expect, it } from "vitest";
import type { BillingApiError } from "../../../sdk";
import { site } from "../helpers";

/**
 * The batched reads (`readBatchWindowMs`) under faults and concurrent changes: a list that fails part way fails every
 * read it was to answer, none answered from the pages that came; a read asked for after a write is never answered by
 * a list sent before it (issue 43: a list read is as fresh as the reads it replaces).
 */

const WINDOW = 20;

describe("batched reads under faults", () => {
  it("a list that fails after its first page: every read of the batch fails with the list's error, none read alone", async () => {
    const { sim, billing } = await site({}, { readBatchWindowMs: WINDOW, maxRetries: 1 });
    // 250 reason codes: two pages of 200.
    const codes = Array.from({ length: 250 }, (_, i) => sim.addReasonCode({ code: `r${i}`, description: `Reason ${i}` }));
    sim.reset();
    // The first page answers (the delay is its fault, used up); every later request of the list is a 500.
    sim.injectFault({ kind: "delay", ms: 1, times: 1, match: { method: "GET", path: "/reason_codes.json" } });
    sim.injectFault({ kind: "status", status: 500, match: { method: "GET", path: "/reason_codes.json" } });
    const asked = [codes[0], codes[1], codes[249]].map((c) => billing.readReasonCode(c.id));
    const results = await Promise.allSettled(asked);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
    for (const r of results) expect(((r as PromiseRejectedResult).reason as BillingApiError).status).toBe(500);
    // Page 1 once, page 2 with its retry: no read by id hid the failure.
    expect(sim.requests.map((r) => r.path)).toEqual(["/reason_codes.json", "/reason_codes.json", "/reason_codes.json"]);
  });

  it("a write between a batch sent and the next reads: the next reads are a list of their own, which sees it", async () => {
    const { sim, billing } = await site({}, { readBatchWindowMs: WINDOW });
    sim.addProductFamily({ handle: "plans", name: "Plans" });
    const p = sim.addProduct({ handle: "rocket", familyHandle: "plans", name: "Rocket", priceInCents: 4900 });
    const terms = { interval: 1, intervalUnit: "month" as const };
    const a = await billing.createPricePoint(p.id, { name: "A", handle: "rocket-a", priceInCents: 100, ...terms });
    const b = await billing.createPricePoint(p.id, { name: "B", handle: "rocket-b", priceInCents: 200, ...terms });
    sim.reset();
    // The first list is handled at once, and its answer held back 300 ms: the write lands while it is on its way.
    const list = `/products/${p.id}/price_points.json`;
    sim.injectFault({ kind: "delay", ms: 300, times: 1, applyAfterHandling: true, match: { method: "GET", path: list } });
    const first = Promise.all([billing.readPricePoint(p.id, a.id), billing.readPricePoint(p.id, b.id)]);
    while (!sim.requests.some((r) => r.path === list)) await new Promise((r) => setTimeout(r, 5));
    await billing.updatePricePoint(p.id, a.id, { priceInCents: 150 });
    const after = await Promise.all([billing.readPricePoint(p.id, a.id), billing.readPricePoint(p.id, b.id)]);
    const before = await first;
    expect(before[0].pricing?.priceInCents).toBe(100);
    expect(after[0].pricing?.priceInCents).toBe(150);
    expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET ${list}`,
      `PUT /products/${p.id}/price_points/${a.id}.json`,
      `GET ${list}`,
    ]);
  });

  it("the same lookup asked for by several callers: sent once after the last ask, each answered with its own copy", async () => {
    const { sim, billing } = await site({}, { readBatchWindowMs: WINDOW });
    sim.addReasonCode({ code: "price", description: "Too dear" });
    sim.reset();
    const [one, two] = await Promise.all([billing.listReasonCodes(), billing.listReasonCodes()]);
    expect(sim.requests.map((r) => r.path)).toEqual(["/reason_codes.json"]);
    expect(one).toEqual(two);
    expect(one).not.toBe(two);
    // Asked for once the first was answered: sent again.
    await billing.listReasonCodes();
    expect(sim.requests).toHaveLength(2);
  });

  it("reads asked for while a list of their collection is in flight wait for it, then go out as one list that sees what changed", async () => {
    // A window of 1 ms: what batches the later reads is the list in flight, not the wait.
    const { sim, billing } = await site({}, { readBatchWindowMs: 1 });
    sim.addProductFamily({ handle: "plans", name: "Plans" });
    const p = sim.addProduct({ handle: "rocket", familyHandle: "plans", name: "Rocket", priceInCents: 4900 });
    const terms = { interval: 1, intervalUnit: "month" as const };
    const made = [];
    for (const h of ["a", "b", "c"])
      made.push(await billing.createPricePoint(p.id, { name: h, handle: `rocket-${h}`, priceInCents: 100, ...terms }));
    const [a, b, c] = made;
    sim.reset();
    const list = `/products/${p.id}/price_points.json`;
    sim.injectFault({ kind: "delay", ms: 300, times: 1, applyAfterHandling: true, match: { method: "GET", path: list } });
    const first = Promise.all([billing.readPricePoint(p.id, a.id), billing.readPricePoint(p.id, b.id)]);
    while (!sim.requests.some((r) => r.path === list)) await new Promise((r) => setTimeout(r, 5));
    // Changed at the service after the first list was handled, before the next reads are asked for.
    await billing.updatePricePoint(p.id, c.id, { priceInCents: 175 });
    const later = [billing.readPricePoint(p.id, b.id)];
    await new Promise((r) => setTimeout(r, 50)); // far past the window: still waiting for the list in flight
    later.push(billing.readPricePoint(p.id, c.id));
    expect(sim.requests.filter((r) => r.method === "GET")).toHaveLength(1);
    const [after, before] = [await Promise.all(later), await first];
    expect(before.map((x) => x.id)).toEqual([a.id, b.id]);
    expect(after.map((x) => [x.id, x.pricing?.priceInCents])).toEqual([
      [b.id, 100],
      [c.id, 175],
    ]);
    expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET ${list}`,
      `PUT /products/${p.id}/price_points/${c.id}.json`,
      `GET ${list}`,
    ]);
  });

  it("the same lookup asked for while it is in flight: sent once more after it lands, for every caller who asked meanwhile", async () => {
    const { sim, billing } = await site({}, { readBatchWindowMs: 1 });
    sim.addReasonCode({ code: "price", description: "Too dear" });
    sim.reset();
    sim.injectFault({ kind: "delay", ms: 300, times: 1, applyAfterHandling: true, match: { method: "GET", path: "/reason_codes.json" } });
    const first = billing.listReasonCodes();
    while (sim.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    await billing.createReasonCode({ code: "late", description: "Added while the first list was on its way" });
    const meanwhile = [billing.listReasonCodes(), billing.listReasonCodes()];
    await new Promise((r) => setTimeout(r, 50)); // far past the window: not sent while the first is in flight
    expect(sim.requests).toHaveLength(2);
    const [one, two] = await Promise.all(meanwhile);
    expect((await first).map((r) => r.code)).toEqual(["price"]);
    expect(one.map((r) => r.code)).toEqual(["price", "late"]);
    expect(two).toEqual(one);
    expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /reason_codes.json",
      "POST /reason_codes.json",
      "GET /reason_codes.json",
    ]);
  });
});
