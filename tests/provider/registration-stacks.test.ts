import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Product } from "../../provider";
import * as generated from "../../sdk-gen/nodejs/product";

/**
 * A registration formats no stack trace for its promises (provider/registration-stacks.ts): @pulumi/pulumi gives each
 * property's four promises one, read only by its leak report. Counted here by what V8 hands the formatter: a trace of
 * no frames costs nothing, while the resource's own source position (Resource.callsites) keeps every frame.
 */

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    { newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }), call: (a) => a.inputs },
    "billing-app",
    "dev",
    true,
  );
});

const ARGS = { productFamily: 1, handle: "rocket", name: "Rocket", priceInCents: 4900, interval: 1, intervalUnit: "month" } as const;

/** What a construction formats: how many traces, and how many of them with frames; the limit is 100, as ts-node sets it. */
function formatted(make: () => unknown) {
  const saved = { prepare: Error.prepareStackTrace, limit: Error.stackTraceLimit };
  const traces: number[] = [];
  Error.stackTraceLimit = 100;
  Error.prepareStackTrace = (err, frames) => {
    traces.push(frames.length);
    return `${err}`;
  };
  try {
    make();
    return { traces: traces.length, withFrames: traces.filter((n) => n > 0).length, limitAfter: Error.stackTraceLimit };
  } finally {
    Error.prepareStackTrace = saved.prepare;
    Error.stackTraceLimit = saved.limit;
  }
}

const classes = [
  { name: "a kind's class (dynamic providers)", make: (n: string) => new Product(n, ARGS) },
  { name: "the generated SDK's class (provider plugin)", make: (n: string) => new generated.Product(n, ARGS) },
];

describe("a registration's promises carry no stack trace", () => {
  afterEach(() => {
    delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
  });

  it.each(classes)("$name: dozens of traces, at most the resource's own two with frames; the limit put back", ({ make }) => {
    const r = formatted(() => make(`quiet-${Math.random()}`));
    // Four per property, and a product has more than twenty.
    expect(r.traces).toBeGreaterThan(80);
    expect(r.withFrames).toBeLessThanOrEqual(2);
    expect(r.limitAfter).toBe(100);
  });

  it.each(classes)("$name: under PULUMI_DEBUG_PROMISE_LEAKS every trace is kept", ({ make }) => {
    process.env.PULUMI_DEBUG_PROMISE_LEAKS = "1";
    const r = formatted(() => make(`debug-${Math.random()}`));
    expect(r.withFrames).toBe(r.traces);
  });

  it.each(classes)("$name: an error the registration throws has the program's frames, and the limit is put back", ({ make }) => {
    let thrown: unknown;
    const r = formatted(() => {
      try {
        make(""); // no name: the SDK's Resource constructor throws
      } catch (e) {
        thrown = e;
      }
    });
    expect(String(thrown)).toMatch(/Missing resource name/);
    expect((thrown as Error).stack).toContain(__filename.split("/").pop());
    expect(r.limitAfter).toBe(100);
  });
});
