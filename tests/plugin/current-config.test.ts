import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { configurationFor, currentStackConfig } from "../../plugin/config";
import { BillingProvider } from "../../plugin/provider";
import { guarded } from "../../plugin/serve";
import { type Simulator, startSimulator } from "../../simulator";

// Which configuration a Configure runs the provider with. `pulumi refresh`, `import` and `destroy` configure the
// default provider with the inputs its state recorded at the last `up`; the engine also starts the plugin with the
// stack's current configuration (PULUMI_CONFIG). A key rotated since the last `up` must be the one used.

const OLD_KEY = "sk_live_ROTATED_OUT_4411";
const NEW_KEY = "sk_live_ROTATED_IN_5522";
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const ENDPOINT = "urn:pulumi:dev::billing-app::billing:index:WebhookEndpoint::hooks";

/** What the engine sends a default provider on refresh: its recorded inputs, the old key among them. */
const recorded = (baseUrl: string) => ({
  variables: [
    ["billing:config:baseUrl", baseUrl],
    ["billing:config:apiKey", OLD_KEY],
  ] as [string, string][],
  args: { baseUrl, apiKey: { ...SECRET, value: OLD_KEY } },
});
/** The stack's configuration now, as the engine puts it in the plugin's environment. */
const current = (baseUrl: string) => ({ PULUMI_CONFIG: JSON.stringify({ baseUrl, apiKey: NEW_KEY }) });

describe("currentStackConfig", () => {
  it("reads the engine's PULUMI_CONFIG (bare keys) as billing:<key>, structured values as JSON", () => {
    const env = { PULUMI_CONFIG: JSON.stringify({ apiKey: NEW_KEY, sites: '{"eu":{"subdomain":"acme-eu"}}', timeoutMs: "800" }) };
    expect(currentStackConfig(env)).toStrictEqual({
      "billing:apiKey": NEW_KEY,
      "billing:sites": '{"eu":{"subdomain":"acme-eu"}}',
      "billing:timeoutMs": "800",
    });
  });

  it("keeps only billing's keys of a namespaced PULUMI_CONFIG (a language host's)", () => {
    const env = { PULUMI_CONFIG: JSON.stringify({ "billing:apiKey": NEW_KEY, "aws:region": "eu-west-1", "app:name": "x" }) };
    expect(currentStackConfig(env)).toStrictEqual({ "billing:apiKey": NEW_KEY });
  });

  it.each([
    ["absent", {}],
    ["empty", { PULUMI_CONFIG: "" }],
    ["not JSON", { PULUMI_CONFIG: "apiKey=x" }],
    ["a JSON array", { PULUMI_CONFIG: "[]" }],
    ["JSON null", { PULUMI_CONFIG: "null" }],
  ])("is no configuration when PULUMI_CONFIG is %s", (_, env) => {
    expect(currentStackConfig(env)).toBeUndefined();
  });
});

describe("configurationFor", () => {
  const url = "http://127.0.0.1:9";

  it("the default provider runs with the stack's current configuration, not its recorded inputs", () => {
    const { variables, args } = recorded(url);
    expect(configurationFor(variables, args, "default_0_1_0", current(url))).toStrictEqual({
      "billing:baseUrl": url,
      "billing:apiKey": NEW_KEY,
    });
  });

  it("a key removed from the stack's config is not taken from the recorded inputs (the environment's BILLING_* then apply)", () => {
    const { variables, args } = recorded(url);
    expect(configurationFor(variables, args, "default", { PULUMI_CONFIG: JSON.stringify({ baseUrl: url }) })).toStrictEqual({
      "billing:baseUrl": url,
    });
  });

  it("an explicit provider runs with its own inputs, which come from the program", () => {
    const { variables, args } = recorded(url);
    expect(configurationFor(variables, args, "eu-site", current(url))).toStrictEqual({
      "billing:baseUrl": url,
      "billing:apiKey": OLD_KEY,
    });
  });

  it("without an engine's PULUMI_CONFIG the request's inputs are used", () => {
    const { variables, args } = recorded(url);
    expect(configurationFor(variables, args, "default", {})).toStrictEqual({ "billing:baseUrl": url, "billing:apiKey": OLD_KEY });
  });
});

describe("a refresh through the served Configure after the key was rotated", () => {
  let sim: Simulator;
  beforeAll(async () => {
    // The service accepts the new key only: the old one was revoked.
    sim = await startSimulator({ apiKey: NEW_KEY });
  });
  afterAll(() => sim.close());
  afterEach(() => vi.unstubAllEnvs());

  class Response {
    setAcceptsecrets() {}
    setAcceptresources() {}
  }

  /** Configures `provider` through the request wrapper, as the engine does on refresh (the recorded inputs). */
  const configureAsRefresh = (provider: BillingProvider) => {
    const { variables, args } = recorded(sim.url);
    const request = {
      getVariablesMap: () => new Map(variables),
      getArgs: () => ({ toJavaScript: () => args }),
      getName: () => "default_0_1_0",
      getUrn: () => "urn:pulumi:dev::billing-app::pulumi:providers:billing::default_0_1_0",
      getProperties: () => undefined,
      setProperties: () => {},
    };
    let error: Error | null = null;
    guarded({} as never, provider, Response, Struct).configure({ request } as never, (e) => {
      error = e;
    });
    expect(error).toBeNull();
  };

  it("reads the resource with the key the stack holds now", async () => {
    vi.stubEnv("PULUMI_CONFIG", current(sim.url).PULUMI_CONFIG);
    const made = sim.addEndpoint({ url: "https://hooks.example.com/billing", events: ["payment_failure"] });
    const provider = new BillingProvider("0.1.0");
    configureAsRefresh(provider);
    const read = await provider.read(String(made.id), ENDPOINT, { url: made.url, events: made.events, endpointId: made.id });
    expect(read.props).toMatchObject({ endpointId: made.id, events: ["payment_failure"] });
  });

  it("without the stack's current configuration it would use the revoked key, which the service refuses", async () => {
    vi.stubEnv("PULUMI_CONFIG", "");
    const made = sim.addEndpoint({ url: "https://hooks.example.com/other", events: ["payment_success"] });
    const provider = new BillingProvider("0.1.0");
    configureAsRefresh(provider);
    const err = await provider.read(String(made.id), ENDPOINT, { url: made.url, events: made.events, endpointId: made.id }).catch((e) => e);
    expect(String(err)).toMatch(/401/);
    expect(String(err)).not.toContain(OLD_KEY);
  });
});
