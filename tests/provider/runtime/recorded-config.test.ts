import { Config as HostConfig } from "@pulumi/pulumi/cmd/dynamic-provider/config";
import { afterEach, describe, expect, it } from "vitest";
import { webhookEndpointProvider } from "../../../provider";
import { type Simulator, startSimulator } from "../../../simulator";
import { configureRequest, KEY } from "../support";

/**
 * A key refused in refresh or destroy with the dynamic providers: their host is configured there with the keys the
 * stack recorded at the last `up`, so the error says what uses the current ones. Configured as the host does (its own
 * Config class); configured as the plugin and the program do (a bare getter), the service's answer is left as it is.
 */

const RECORDED = "sk_live_RECORDED_AT_LAST_UP_5150";
const ADVICE = /the one recorded then: run them with --run-program \(or set PULUMI_RUN_PROGRAM=true\), or run `pulumi up` first/;

describe("a key the service refuses in read and delete", () => {
  let sim: Simulator;
  afterEach(() => sim?.close());

  /** An endpoint made with the site's key, then a provider configured with `apiKey`, `as` the dynamic host or the plugin does. */
  async function made(apiKey: string, as: "host" | "plugin") {
    sim = await startSimulator({ apiKey: KEY });
    const endpoint = sim.addEndpoint({ url: "https://hooks.example.com/billing", events: ["payment_failure"] });
    const config = { "billing:baseUrl": sim.url, "billing:apiKey": apiKey };
    const p = { ...webhookEndpointProvider };
    await p.configure!(as === "host" ? { config: new HostConfig(config, "consumer") } : configureRequest(config));
    const props = { url: endpoint.url, events: endpoint.events, endpointId: endpoint.id };
    return { p, id: String(endpoint.id), props };
  }

  it("through the dynamic host: the refusal, then which commands send the recorded key and what to run", async () => {
    const { p, id, props } = await made(RECORDED, "host");
    const read = await p.read!(id, props).catch((e: Error) => e);
    expect(String(read)).toMatch(/refused the API key from billing:apiKey \(401 Unauthorized to GET \/endpoints\.json\)/);
    expect(String(read)).toMatch(ADVICE);
    const del = await p.delete!(id, props).catch((e: Error) => e);
    expect(String(del)).toMatch(/refused the API key from billing:apiKey \(401 Unauthorized to PUT \/endpoints\/\d+\.json\)/);
    expect(String(del)).toMatch(ADVICE);
    expect(`${String(read)} ${String(del)}`).not.toContain(RECORDED);
    expect(sim.requests.filter((r) => r.status === 401)).toHaveLength(2);
  });

  it("configured as the plugin does: the service's answer only (the plugin uses the current configuration)", async () => {
    const { p, id, props } = await made(RECORDED, "plugin");
    const read = await p.read!(id, props).catch((e: Error) => e);
    expect(String(read)).toMatch(/\(401 Unauthorized to GET \/endpoints\.json\)/);
    expect(String(read)).not.toMatch(/--run-program/);
  });

  it("through the dynamic host, with the site's key: read and delete succeed", async () => {
    const { p, id, props } = await made(KEY, "host");
    await expect(p.read!(id, props)).resolves.toMatchObject({ id });
    await expect(p.delete!(id, props)).resolves.toBeUndefined();
  });
});
