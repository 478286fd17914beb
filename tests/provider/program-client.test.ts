import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type Simulator, startSimulator } from "../../simulator";
import { captureOutput, KEY } from "./support";

// The client the program itself uses (a migration preview): it warns about credentials set without
// --secret as a resource would, and logs each wait before a retry for `pulumi up` to show. Each test
// loads it afresh: it is configured, and warns, once per process.

describe("programClient: the program's own client, against the simulator", () => {
  let sim: Simulator;
  beforeEach(async () => {
    vi.resetModules();
    sim = await startSimulator({ apiKey: KEY });
    await pulumi.runtime.setMocks(
      { newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }), call: (a) => a.inputs },
      "billing-app",
      "dev",
      true,
    );
  });
  afterEach(async () => sim?.close());

  it("its first use warns about a credential set without --secret, once; a site's client is made once", async () => {
    pulumi.runtime.setAllConfig({ "billing:baseUrl": sim.url, "billing:apiKey": KEY }, []);
    const { programClient } = await import("../../provider/program-client");
    const { result, text } = await captureOutput(async () => [programClient(undefined), programClient(undefined)]);
    expect(text.split("\n").filter((l) => l !== "")).toEqual([
      "warning: [runtime] billing:apiKey is stored in plain text in Pulumi.dev.yaml: run `pulumi config set --secret billing:apiKey <value>` to store it encrypted",
    ]);
    expect(result?.[1]).toBe(result?.[0]);
  });

  it("a wait before a retry is logged as info: the request, why, how long, and the attempt to come", async () => {
    pulumi.runtime.setAllConfig({ "billing:baseUrl": sim.url, "billing:apiKey": KEY }, ["billing:apiKey"]);
    sim.injectFault({ kind: "status", status: 429, retryAfter: 1, times: 1 });
    const { programClient } = await import("../../provider/program-client");
    const { result, error, text } = await captureOutput(() => programClient(undefined).readSite());
    expect(error).toBeUndefined();
    expect(sim.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(["GET /site.json 429", "GET /site.json 200"]);
    expect(result).toEqual(await programClient(undefined).readSite());
    expect(text.split("\n").filter((l) => l !== "")).toEqual([
      "info: [runtime] billing: GET /site.json: 429 rate limited (Retry-After: 1); waiting 1.0 s before attempt 2",
    ]);
  });
});
