import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { plainCredentials, providerConfig } from "../../plugin/config";
import { engineAddressOf } from "../../plugin/engine-log";
import { BillingProvider } from "../../plugin/provider";
import { guarded } from "../../plugin/serve";
import { captureOutput } from "../provider/support";

// The plugin's messages a newcomer meets: a credential set without --secret (the engine marks the
// secret ones in Configure's args), a missing top-level credential, a WebhookSettings import id
// that tries to say a state ("on") without being one.

const KEY = "sk_live_PLUGIN_PLAIN_6161";
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const SETTINGS = "urn:pulumi:dev::billing-app::billing:index:WebhookSettings::webhooks";
const ENV = ["BILLING_API_KEY", "BILLING_ACCESS_TOKEN", "BILLING_SUBDOMAIN", "BILLING_ENVIRONMENT", "BILLING_BASE_URL"];

class Response {
  setAcceptsecrets(_: boolean) {}
  setAcceptresources(_: boolean) {}
}

/** A Configure request as the engine sends it: `variables` plain, `args` with secrets marked; `name` when configured with URNs. */
const configureCall = (args: Record<string, unknown>, name = "") => ({
  request: {
    getVariablesMap: () => new Map<string, string>(),
    getArgs: () => ({ toJavaScript: () => args }),
    getName: () => name,
    getProperties: () => undefined,
    setProperties: () => {},
  } as never,
});

describe("a credential set without --secret, through the plugin's Configure", () => {
  it("plainCredentials: the credential keys whose value the engine did not mark secret", () => {
    expect(
      plainCredentials({
        apiKey: KEY,
        accessToken: { ...SECRET, value: "tok" },
        sites: '{"eu":{}}',
        baseUrl: "http://127.0.0.1:9",
        subdomain: "acme",
      }),
    ).toEqual(["billing:apiKey", "billing:sites"]);
    expect(plainCredentials({ apiKey: { ...SECRET, value: KEY }, sites: { ...SECRET, value: "{}" } })).toEqual([]);
    expect(plainCredentials(undefined)).toEqual([]);
  });

  it("warns once per key per plugin process, naming the key and the command, never the value; not for an explicit provider", async () => {
    const configured: Record<string, string>[] = [];
    const w = guarded({} as never, { configure: (c) => configured.push({ ...c }) }, Response, Struct);
    const answer = () => undefined;
    // An explicit provider's inputs come from the program, not from the stack's config file: nothing to say.
    const explicit = await captureOutput(async () => w.configure(configureCall({ apiKey: KEY }, "mine"), answer));
    expect(explicit.text).toBe("");
    const { text, error } = await captureOutput(async () => {
      w.configure(
        configureCall({ apiKey: KEY, sites: { ...SECRET, value: "{}" }, baseUrl: "http://127.0.0.1:9" }, "default_0_1_0"),
        answer,
      );
      w.configure(configureCall({ apiKey: KEY }), answer);
    });
    expect(error).toBeUndefined();
    expect(text.trim().split("\n")).toEqual([
      "warning: billing:apiKey is stored in plain text in Pulumi.<stack>.yaml: run `pulumi config set --secret billing:apiKey <value>` to store it encrypted",
    ]);
    expect(text).not.toContain(KEY);
    // The configuration itself is unchanged by the warning.
    expect(configured.map((c) => c["billing:apiKey"])).toEqual([KEY, KEY, KEY]);
  });
});

it("the warning goes to the engine at the address the engine passes first (its stderr is hidden for resource plugins)", () => {
  expect(engineAddressOf(["127.0.0.1:4242"])).toBe("127.0.0.1:4242");
  expect(engineAddressOf(["--logtostderr", "-v=9", "--tracing", "file:///t", "127.0.0.1:4242"])).toBe("127.0.0.1:4242");
  expect(engineAddressOf([])).toBeUndefined();
});

describe("a missing top-level credential, through the plugin", () => {
  let saved: Record<string, string | undefined>;
  beforeEach(() => {
    saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
    for (const k of ENV) delete process.env[k];
  });
  afterEach(() => {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });

  it("is a failure on no property (the CLI prints the resource and the message), saying what to set", async () => {
    const p = new BillingProvider("0.1.0");
    p.configure(providerConfig([], {}));
    const { failures } = await p.check(SETTINGS, {}, { webhooksEnabled: true });
    expect(failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(
          /^no billing site is configured for this stack: set one with `pulumi config set billing:subdomain <subdomain>` and `pulumi config set --secret billing:apiKey <api-key>` \(or the BILLING_SUBDOMAIN and BILLING_API_KEY environment variables\)/,
        ),
      },
    ]);
  });

  it("an import with nothing configured says what to configure, not `site`", async () => {
    const p = new BillingProvider("0.1.0");
    p.configure(providerConfig([], {}));
    const err = (await p.read("enabled", SETTINGS, {}).catch((e: Error) => e)) as Error;
    expect(err.message).toMatch(
      /^WebhookSettings import id "enabled": no billing site is configured for this stack: set one with `pulumi config set/,
    );
    expect(err.message).not.toMatch(/site:|property site/);
  });
});

describe("pulumi import of WebhookSettings with a word for a state", () => {
  it.each(["on", "off", "true", "false", "yes", "no", "ON"])(
    "%s is answered with the accepted states, never read as a site",
    async (id) => {
      const p = new BillingProvider("0.1.0");
      p.configure({});
      const err = (await p.read(id, SETTINGS, {}).catch((e: Error) => e)) as Error;
      expect(err.message).toContain(`"${id}" is not a state: use enabled or disabled (or <site>/enabled for an entry of billing:sites)`);
      expect(err.message).not.toContain(`${id}/enabled`);
      expect(err.message).not.toContain(`${id}/disabled`);
    },
  );
});
