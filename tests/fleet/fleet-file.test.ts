import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FleetFileError, parseFleet } from "../../fleet/fleet-file";

const ROOT = path.resolve(__dirname, "../..");
const FILE = path.join(ROOT, "examples/fleet/fleet.yaml");

describe("the fleet file", () => {
  it("resolves programs beside the file, merges config (site over fleet, objects as JSON) and names the stack", async () => {
    const fleet = await parseFleet(
      [
        "program: ./site.ts",
        "config: { billing:timeoutMs: 5000, site:receiver: { url: https://x.example, events: [a] } }",
        "sites:",
        "  - name: us",
        "    config: { billing:timeoutMs: 9000 }",
        "    secrets: { billing:apiKey: US_KEY }",
        "  - { name: eu, stack: acme/billing/eu, program: ../webhook-settings }",
      ].join("\n"),
      FILE,
    );
    expect(fleet.sites.map((s) => [s.name, s.stack, path.relative(ROOT, s.program), s.programKind])).toEqual([
      ["us", "us", "examples/fleet/site.ts", "module"],
      ["eu", "acme/billing/eu", "examples/webhook-settings", "directory"],
    ]);
    expect(fleet.sites[0].config).toEqual({ "billing:timeoutMs": "9000", "site:receiver": '{"url":"https://x.example","events":["a"]}' });
    expect(fleet.sites[0].secrets).toEqual({ "billing:apiKey": "US_KEY" });
    expect(fleet.project).toBe("billing-fleet");
  });

  it.each([
    ["sites: []", /sites: a fleet has at least one site/],
    ["program: ./site.ts\nsites: [{ name: a }, { name: a }]", /sites\.1\.name: "a" is also the name of sites\[0\]/],
    ["sites: [{ name: a }]", /sites\.0\.program: no program/],
    ["program: ./nowhere.ts\nsites: [{ name: a }]", /program: .*nowhere\.ts does not exist/],
    ["program: ./site.ts\nsites: [{ name: a, secrets: { billing:apiKey: 'not a var' } }]", /the name of an environment variable/],
    ["program: ./site.ts\nsites: [{ name: a, colour: red }]", /sites\.0: Unrecognized key: "colour"/],
    ["program: ./site.ts\nsites: [{ name: a }\n", /not YAML or JSON/],
  ])("%s fails naming the problem", async (text, message) => {
    const err = await parseFleet(text, FILE).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FleetFileError);
    expect((err as Error).message).toMatch(message);
  });
});

/** The forms a credential can take in a fleet file's config; each is refused naming where it sits, never its value. */
describe("credentials in the fleet file", () => {
  const KEY = "sk_live_7c1d0e9a4b";
  const sitesJson = JSON.stringify({ us: { baseUrl: "https://us.example", apiKey: KEY } });
  const yamlText = `us:\n  baseUrl: https://us.example\n  apiKey: ${KEY}\n`;
  // A config value as YAML text of the fleet file (JSON is YAML): whatever the value, written so that YAML reads it back as is.
  const fleetWith = (where: "fleet" | "site", key: string, value: unknown) => {
    const cfg = JSON.stringify({ [key]: value });
    return where === "fleet"
      ? `program: ./site.ts\nconfig: ${cfg}\nsites: [{ name: us-store }]`
      : `program: ./site.ts\nsites: [{ name: eu-store }, { name: us-store, config: ${cfg} }]`;
  };
  const forms: [string, string, unknown, string][] = [
    ["a plain key", "billing:apiKey", KEY, "config billing:apiKey holds a credential:"],
    ["a nested object", "billing:sites", { us: { baseUrl: "https://us.example", accessToken: KEY } }, "at .us.accessToken:"],
    ["a JSON string under billing:sites (the README's form)", "billing:sites", sitesJson, "at .us.apiKey (a JSON string):"],
    ["a YAML string", "billing:sites", yamlText, "at .us.apiKey (a YAML string):"],
    [
      "a JSON string inside a YAML string",
      "billing:sites",
      `all: '${sitesJson}'\n`,
      "at .all.us.apiKey (a JSON string inside a YAML string):",
    ],
    ["an array of objects", "site:receivers", [{ url: "https://a" }, { url: "https://b", token: KEY }], "at [1].token:"],
    ["any key name", "foo:bar", { nested: sitesJson }, "config foo:bar holds a credential at .nested.us.apiKey (a JSON string):"],
    ["a credential-named key of another namespace", "db:password", KEY, "config db:password holds a credential:"],
  ];

  describe.each(["fleet", "site"] as const)("in the %s's config", (where) => {
    const whose = where === "fleet" ? "the fleet's config" : "sites[1] (us-store)";
    it.each(forms)("%s is refused naming the site, the key and the path, never the value", async (_, key, value, message) => {
      const err = await parseFleet(fleetWith(where, key, value), FILE).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FleetFileError);
      const text = (err as Error).message;
      expect(text).toContain(`${whose}: ${message.startsWith("config") ? message : `config ${key} holds a credential ${message}`}`);
      expect(text).toMatch(new RegExp(`secrets: \\{ ${key}: ${where === "fleet" ? "" : "US_STORE_"}[A-Z_]+ \\}`));
      expect(text).not.toContain(KEY);
    });
  });

  it("names every credential of the file, each on its own line", async () => {
    const text = `program: ./site.ts\nconfig: { billing:apiKey: ${KEY} }\nsites: [{ name: a, config: { billing:sites: '${sitesJson}' } }]`;
    const err = (await parseFleet(text, FILE).catch((e: unknown) => e)) as Error;
    expect(err.message.split("\n").slice(1)).toEqual([
      expect.stringMatching(
        /^ {2}the fleet's config: config billing:apiKey holds a credential: .*secrets: \{ billing:apiKey: BILLING_API_KEY \}$/,
      ),
      expect.stringMatching(/^ {2}sites\[0\] \(a\): config billing:sites holds a credential at \.us\.apiKey \(a JSON string\): /),
    ]);
  });

  it.each([
    ["a backend URL with a password", "backend: postgres://fleet:hunter2pw@db/state", /backend: the URL holds a credential \(a password/],
    ["a backend URL with a credential parameter", "backend: s3://bucket?accessToken=hunter2pw", /the query parameter accessToken/],
    ["a credential pasted where the variable's name goes", "secrets: { billing:apiKey: sk_live_hunter2pw }", /in capitals.*rotate it/],
  ])("%s is refused, never repeating it", async (_, line, message) => {
    const err = (await parseFleet(`program: ./site.ts\n${line}\nsites: [{ name: a }]`, FILE).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(FleetFileError);
    expect(err.message).toMatch(message);
    expect(err.message).not.toContain("hunter2pw");
  });

  it.each([
    ["the README's fleet file", undefined],
    ["billing:sites as a JSON string without credentials", { "billing:sites": JSON.stringify({ us: { baseUrl: "https://us.example" } }) }],
    ["text that mentions a token", { "site:note": "the token is read from US_STORE_BILLING_API_KEY: never written here" }],
    ["a credential given as secret config", {}],
  ])("%s passes", async (_, config) => {
    const text = config
      ? `program: ./site.ts\nsites: [{ name: us-store, config: ${JSON.stringify(config)}, secrets: { billing:sites: US_STORE_SITES_JSON } }]`
      : await readFile(FILE, "utf8");
    const fleet = await parseFleet(text, FILE);
    expect(fleet.sites.length).toBeGreaterThan(0);
  });
});
