import path from "node:path";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { main } from "../../fleet/cli";
import { FleetFileError, parseFleet } from "../../fleet/fleet-file";
import { inShard, shardOf } from "../../fleet/shard";

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
    [
      "program: ./site.ts\nsites: [{ name: a, config: { billing:apiKey: sk_live_1 } }]",
      /sites\.0\.config\.billing:apiKey: billing:apiKey holds a credential/,
    ],
    [
      'program: ./site.ts\nsites: [{ name: a, config: { billing:sites: { us: { baseUrl: "https://x", accessToken: "t" } } } }]',
      /billing:sites\.us\.accessToken holds a credential.*secrets/,
    ],
    ["program: ./site.ts\nsites: [{ name: a, secrets: { billing:apiKey: 'not a var' } }]", /the name of an environment variable/],
    ["program: ./site.ts\nsites: [{ name: a, colour: red }]", /sites\.0: Unrecognized key: "colour"/],
    ["program: ./site.ts\nsites: [{ name: a }\n", /not YAML or JSON/],
  ])("%s fails naming the problem", async (text, message) => {
    const err = await parseFleet(text, FILE).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FleetFileError);
    expect((err as Error).message).toMatch(message);
  });

  it("refuses a credential without repeating its value", async () => {
    const err = (await parseFleet("program: ./site.ts\nsites: [{ name: a, config: { x:password: hunter2secret } }]", FILE).catch(
      (e: unknown) => e,
    )) as Error;
    expect(err.message).toMatch(/x:password holds a credential/);
    expect(err.message).not.toContain("hunter2secret");
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
  const run = async (args: string[]) => {
    let out = "";
    let err = "";
    const sink = (f: (s: string) => void) =>
      new Writable({
        write(chunk, _enc, cb) {
          f(String(chunk));
          cb();
        },
      });
    const code = await main(args, { stdout: sink((s) => (out += s)), stderr: sink((s) => (err += s)), isTTY: false });
    return { code, out, err };
  };

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
