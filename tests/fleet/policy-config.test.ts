import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../fleet/cli";
import { FleetFileError, parseFleet } from "../../fleet/fleet-file";
import { PolicyConfigError, policyConfigsBySite } from "../../fleet/policy-config";

/** Policy pack config across a fleet: the fleet file's (top level and per site), the CLI's, and how they pair with packs. */
let dir: string;
let file: string;

const sink = () => {
  let text = "";
  const stream = new Writable({
    write(chunk, _enc, cb) {
      text += String(chunk);
      cb();
    },
  });
  return { stream, text: () => text };
};

async function cli(args: string[]): Promise<{ code: number; stderr: string }> {
  const out = sink();
  const err = sink();
  const code = await main(args, { stdout: out.stream, stderr: err.stream, isTTY: false });
  return { code, stderr: err.text() };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "billing-fleet-policy-config-"));
  file = path.join(dir, "fleet.yaml");
  await mkdir(path.join(dir, "policy"));
  await writeFile(path.join(dir, "site.js"), "exports.program = () => ({});\n");
  await writeFile(path.join(dir, "policy/staging.json"), '{ "migration-charge-acknowledged": { "chargeThresholdInCents": 1000 } }\n');
  await writeFile(path.join(dir, "policy/production.json"), '{ "webhooks-stay-enabled-in-production": { "production": true } }\n');
  await writeFile(path.join(dir, "policy/list.json"), "[1, 2]\n");
  await writeFile(path.join(dir, "policy/broken.json"), "{ production: true\n");
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const fleetText = (lines: string[]) => ["program: ./site.js", ...lines].join("\n");

describe("policyPackConfig in the fleet file", () => {
  it("resolves the fleet's and a site's config files beside the fleet file (one file or a list)", async () => {
    const fleet = await parseFleet(
      fleetText([
        "policyPackConfig: ./policy/staging.json",
        "sites:",
        "  - name: us",
        "  - name: eu",
        "    policyPackConfig: [policy/production.json, ./policy/staging.json]",
      ]),
      file,
    );
    expect(fleet.policyPackConfig).toEqual([path.join(dir, "policy/staging.json")]);
    expect(fleet.sites[0].policyPackConfig).toBeUndefined();
    expect(fleet.sites[1].policyPackConfig).toEqual([path.join(dir, "policy/production.json"), path.join(dir, "policy/staging.json")]);
  });

  it.each([
    [
      "a site's missing file names the site and the path",
      ["sites:", "  - name: us", "  - name: eu", "    policyPackConfig: ./policy/prod.json"],
      (d: string) => `fleet.yaml: sites[1] (eu) policyPackConfig: ${path.join(d, "policy/prod.json")} does not exist`,
    ],
    [
      "the fleet's missing file",
      ["policyPackConfig: [./nowhere.json]", "sites: [{ name: us }]"],
      (d: string) => `fleet.yaml: the fleet's policyPackConfig: ${path.join(d, "nowhere.json")} does not exist`,
    ],
    [
      "a file that is not JSON",
      ["sites: [{ name: us, policyPackConfig: policy/broken.json }]"],
      (d: string) => `fleet.yaml: sites[0] (us) policyPackConfig: ${path.join(d, "policy/broken.json")} is not JSON (`,
    ],
    [
      "a file that holds no object",
      ["sites: [{ name: us, policyPackConfig: policy/list.json }]"],
      (d: string) => `fleet.yaml: sites[0] (us) policyPackConfig: ${path.join(d, "policy/list.json")} holds no JSON object`,
    ],
  ])("%s is a fleet-file error", async (_, lines, expected) => {
    const err = await parseFleet(fleetText(lines), file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FleetFileError);
    expect((err as Error).message.startsWith(`${file.slice(0, -"fleet.yaml".length)}${expected(dir)}`)).toBe(true);
  });

  it("an empty list or a non-path is refused by the schema, naming the property", async () => {
    await expect(parseFleet(fleetText(["policyPackConfig: []", "sites: [{ name: us }]"]), file)).rejects.toThrow(/policyPackConfig/);
    await expect(parseFleet(fleetText(["sites: [{ name: us, policyPackConfig: 3 }]"]), file)).rejects.toThrow(/sites\.0\.policyPackConfig/);
  });
});

describe("pairing configs with packs", () => {
  const sites = [
    { name: "us", stack: "us" },
    { name: "eu", stack: "eu", policyPackConfig: ["/p/eu.json"] },
  ];

  it("a site's own config wins; else the command line's; else the fleet file's", () => {
    const one = { operation: "preview" as const, policyPacks: ["/pack"] };
    expect(Object.fromEntries(policyConfigsBySite(sites, { ...one, fleet: ["/p/fleet.json"] }))).toEqual({
      us: ["/p/fleet.json"],
      eu: ["/p/eu.json"],
    });
    expect(Object.fromEntries(policyConfigsBySite(sites, { ...one, cli: ["/p/cli.json"], fleet: ["/p/fleet.json"] }))).toEqual({
      us: ["/p/cli.json"],
      eu: ["/p/eu.json"],
    });
    expect(Object.fromEntries(policyConfigsBySite(sites, { ...one, operation: "up" }))).toEqual({ eu: ["/p/eu.json"] });
  });

  it("refresh and destroy run no policies, so nothing is passed and nothing is checked", () => {
    expect(policyConfigsBySite(sites, { operation: "refresh", fleet: ["/a", "/b"] }).size).toBe(0);
    expect(policyConfigsBySite(sites, { operation: "destroy", cli: ["/a"] }).size).toBe(0);
  });

  it("configs that don't pair with the packs name whose they are and what would be accepted", () => {
    expect(() => policyConfigsBySite(sites, { operation: "preview" })).toThrow(
      new PolicyConfigError(
        "site eu's policyPackConfig names 1 config file, one per policy pack in order, but no --policy-pack was given: give one --policy-pack DIR per config file (or as many config files as packs)",
      ),
    );
    expect(() => policyConfigsBySite([sites[0]], { operation: "up", policyPacks: ["/a", "/b"], cli: ["/c"] })).toThrow(
      /^--policy-pack-config names 1 config file, one per policy pack in order, but 2 --policy-pack options were given/,
    );
  });
});

describe("billing-fleet --policy-pack-config", () => {
  it("is in the usage text", async () => {
    const out = sink();
    await main(["--help"], { stdout: out.stream, stderr: out.stream });
    expect(out.text()).toMatch(/--policy-pack-config FILE\s+the JSON config of a policy pack: the n-th for the n-th --policy-pack/);
  });

  it("a missing file is a usage error naming it (exit 2), before the fleet file is read", async () => {
    const r = await cli([
      "preview",
      path.join(dir, "absent.yaml"),
      "--policy-pack",
      dir,
      "--policy-pack-config",
      path.join(dir, "nope.json"),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `billing-fleet: --policy-pack-config: ${path.join(dir, "nope.json")} does not exist\n(see billing-fleet --help)\n`,
    );
  });

  it("more configs than packs is a usage error (exit 2) before any stack is touched", async () => {
    await writeFile(file, fleetText(["sites: [{ name: us }]"]));
    const stateDir = path.join(dir, "state-unpaired");
    const r = await cli([
      "preview",
      file,
      "--state-dir",
      stateDir,
      "--policy-pack-config",
      path.join(dir, "policy/staging.json"),
      "--policy-pack-config",
      path.join(dir, "policy/production.json"),
      "--policy-pack",
      dir,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^billing-fleet: --policy-pack-config names 2 config files, .* but 1 --policy-pack option was given/);
    await expect(import("node:fs/promises").then((fs) => fs.stat(stateDir))).rejects.toThrow(/ENOENT/);
  });
});
