import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput, KEY } from "../support";
import { EVENTS, endpointSite, HOOK, LIST } from "./site";

/** WebhookEndpoint never shows the credential: in no output, failure, error or printed text, along every path. */

describe("WebhookEndpoint and the credential", () => {
  let sim: Simulator;
  const { setup } = endpointSite((started) => {
    sim = started;
  });

  it("no credential appears in any output, failure, error or printed text", async () => {
    // The key is also in billing:sites, which a failure on `site` describes.
    const p = await setup({ "billing:sites": JSON.stringify({ eu: { baseUrl: "http://127.0.0.1:9", apiKey: KEY } }) });
    const basic = Buffer.from(`${KEY}:x`).toString("base64");
    const seen: string[] = [];
    const run = async (fn: () => Promise<unknown>) => {
      const { result, error, text } = await captureOutput(fn);
      seen.push(text, JSON.stringify(result ?? null), inspect(result, { depth: 20 }));
      if (error !== undefined) seen.push(JSON.stringify(error), inspect(error, { depth: 20 }), String((error as Error).stack));
      return { result, error };
    };

    await run(() => p.check!({}, { url: "http://hooks.example.com/x", events: ["payment_failur"], colour: 1, site: "mars" }));
    sim.addEndpoint({ url: "https://adopted.example.com/h", events: ["payment_success"] });
    const adopted = (await run(() => p.create({ url: "https://adopted.example.com/h", events: EVENTS }))).result as {
      id: string;
      outs: Record<string, unknown>;
    };
    const made = (await run(() => p.create({ url: HOOK, events: EVENTS }))).result as { id: string; outs: Record<string, unknown> };
    await run(() => p.diff!(made.id, made.outs, { url: HOOK, events: ["payment_success"] }));
    await run(() => p.update!(made.id, made.outs, { url: HOOK, events: ["payment_success"] }));
    sim.updateEndpoint(Number(made.id), { events: ["refund_success"] });
    await run(() => p.read!(made.id, made.outs));
    sim.removeEndpoint(Number(adopted.id));
    const gone = await run(() =>
      p.update!(adopted.id, adopted.outs, { url: "https://adopted.example.com/h", events: ["payment_success"] }),
    );
    await run(() => p.read!(adopted.id, adopted.outs));
    await run(() => p.delete!(adopted.id, adopted.outs));
    await run(() => p.delete!(made.id, made.outs));

    sim.injectFault({ kind: "reset", applyAfterHandling: true, times: 1, match: { method: "POST", path: LIST } });
    sim.injectFault({ kind: "delay", ms: 0, times: 1, match: { method: "GET", path: LIST } });
    sim.injectFault({ kind: "reset", match: { method: "GET", path: LIST } });
    const pending = await run(() => p.create({ url: "https://pending.example.com/h", events: EVENTS }));
    sim.clearFaults();
    const e = pending.error as { id: string; properties: Record<string, unknown> };
    await run(() => p.update!(e.id, e.properties, { url: "https://pending.example.com/h", events: EVENTS }));

    // Every kind of path was taken: failures, an adoption, a 404, retries of the read-back, a partial failure.
    expect(gone.error).toBeInstanceOf(Error);
    expect(pending.error).toBeInstanceOf(Error);
    const all = seen.join("\n");
    expect(all).toMatch(/site "mars" is not an entry of the stack config billing:sites \(entries: eu\)/);
    expect(all).toMatch(/adopted the existing endpoint/);
    expect(all).toMatch(/billing: GET \/endpoints\.json: .*waiting/);
    expect(all).toMatch(/may or may not have been applied/);
    expect(all).not.toContain(KEY);
    expect(all).not.toContain(basic);
  });
});
