import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FleetFileError, parseFleet } from "../../fleet/fleet-file";
import { inShard, shardOf } from "../../fleet/shard";
import { runCli } from "./run-cli";

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

describe("shards", () => {
  it.each([
    ["0/4", {}, { index: 0, count: 4 }],
    [undefined, { JOB_COMPLETION_INDEX: "2", JOB_COMPLETIONS: "3" }, { index: 2, count: 3 }],
    [undefined, {}, undefined],
    ["1/2", { JOB_COMPLETION_INDEX: "0", JOB_COMPLETIONS: "3" }, { index: 1, count: 2 }],
  ])("--shard %s with %o is %o", (flag, env, shard) => {
    expect(shardOf(flag, env)).toEqual(shard);
  });

  it.each([
    ["4/4", {}],
    ["x", {}],
    ["0/0", {}],
    [undefined, { JOB_COMPLETION_INDEX: "1" }],
    [undefined, { JOB_COMPLETION_INDEX: "3", JOB_COMPLETIONS: "3" }],
  ])("--shard %s with %o is refused", (flag, env) => {
    expect(() => shardOf(flag, env)).toThrow(/shard|JOB_COMPLETION/);
  });

  it("every stack falls in exactly one shard, and adding a site moves no other", () => {
    const stacks = Array.from({ length: 200 }, (_, i) => `site-${i}`);
    const owner = (s: string, n: number) => [...Array(n).keys()].filter((i) => inShard(s, { index: i, count: n }));
    for (const s of stacks) expect(owner(s, 7)).toHaveLength(1);
    const before = stacks.map((s) => owner(s, 7)[0]);
    const after = [...stacks, "site-new"].map((s) => owner(s, 7)[0]);
    expect(after.slice(0, stacks.length)).toEqual(before);
    const sizes = [...Array(7).keys()].map((i) => before.filter((o) => o === i).length);
    expect(Math.min(...sizes)).toBeGreaterThan(10);
  });
});

describe("billing-fleet command line", () => {
  const run = (args: string[]) => runCli(args);

  it.each([
    [["launch", FILE], /unknown command "launch": one of preview, up, refresh, destroy, render/],
    [["up"], /takes one fleet file/],
    [["up", FILE, "--concurrency", "many"], /--concurrency many: give a whole number/],
    [["up", FILE, "--shard", "3/2"], /--shard 3\/2/],
    [["up", "/nowhere/fleet.yaml"], /cannot read the fleet file/],
    [["up", FILE, "--colour"], /Unknown option '--colour'/],
    [["render", "helm", FILE], /render k8s\|pko/],
    [["render", "k8s", FILE, "--image", "x", "--completions", "0", "--image-repo-root", "/app"], /completions/],
  ])("%o exits 2 naming the problem, running nothing", async (args, message) => {
    const { code, err } = await run(args);
    expect(code).toBe(2);
    expect(err).toMatch(message);
  });

  it("--help prints the usage and exits 0", async () => {
    const { code, out } = await run(["--help"]);
    expect(code).toBe(0);
    expect(out).toMatch(/billing-fleet <preview\|up\|refresh\|destroy> FLEET_FILE/);
  });
});
