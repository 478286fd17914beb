import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { USAGE } from "../../fleet/cli";
import { loadFleet } from "../../fleet/fleet-file";
import { toYaml } from "../../fleet/render";
import { renderJob } from "../../fleet/render-k8s";
import { renderPkoStacks } from "../../fleet/render-pko";
import { runCli } from "./run-cli";

/**
 * `billing-fleet`'s command line up to where a site would run: help, usage errors (exit 2, one message on
 * stderr) and `render`, whose YAML is exactly what the renderers make of the options as parsed.
 * The fleet run itself (exit codes, --json, the display, signals) is in cli-run.test.ts.
 */

let dir: string;
let file: string;
/** The same sites on a project directory: the operator runs only those. */
let pkoFile: string;
/** The same sites with a secret: its variable comes from --credentials-secret. */
let secretFile: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "billing-fleet-cli-"));
  file = path.join(dir, "fleet.yaml");
  await writeFile(path.join(dir, "site.js"), "exports.program = () => ({});\n");
  await mkdir(path.join(dir, "project"));
  await writeFile(path.join(dir, "project", "Pulumi.yaml"), "name: site\nruntime: nodejs\n");
  pkoFile = path.join(dir, "pko.yaml");
  await writeFile(pkoFile, ["program: ./project", "backend: s3://billing-state", "sites:", "  - name: us", "  - name: eu"].join("\n"));
  secretFile = path.join(dir, "secrets.yaml");
  await writeFile(
    secretFile,
    [
      "program: ./site.js",
      "backend: s3://billing-state",
      "secrets: { billing:apiKey: BILLING_API_KEY }",
      "sites:",
      "  - name: us",
      "  - name: eu",
    ].join("\n"),
  );
  await writeFile(file, ["program: ./site.js", "backend: s3://billing-state", "sites:", "  - name: us", "  - name: eu"].join("\n"));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs main with captured streams (not a terminal). */
const cli = (args: string[]) => runCli(args);

/** What a usage error prints on stderr. */
const usage = (message: string) => `billing-fleet: ${message}\n(see billing-fleet --help)\n`;

describe("help", () => {
  it.each([
    ["no arguments: the usage, exit 2", [], 2],
    ["--help: exit 0", ["--help"], 0],
    ["-h: exit 0", ["-h"], 0],
    ["--help after a command and a fleet file: nothing runs, exit 0", ["up", "/nowhere/fleet.yaml", "--help"], 0],
    ["--help after render: exit 0", ["render", "k8s", "--help"], 0],
  ])("%s", async (_, args, code) => {
    expect(await cli(args)).toEqual({ code, out: `${USAGE}\n`, err: "" });
  });
});

describe("usage errors: exit 2, the message on stderr, nothing on stdout", () => {
  it.each([
    ["an unknown command", ["launch", "f.yaml"], 'unknown command "launch": one of preview, up, refresh, destroy, render'],
    ["no fleet file", ["up"], "billing-fleet up takes one fleet file"],
    ["two fleet files", ["preview", "a.yaml", "b.yaml"], "billing-fleet preview takes one fleet file"],
    ["--concurrency with letters after digits", ["up", "f.yaml", "--concurrency", "2x"], "--concurrency 2x: give a whole number"],
    ["--concurrency with letters before digits", ["up", "f.yaml", "--concurrency", "x2"], "--concurrency x2: give a whole number"],
    ["--concurrency negative", ["up", "f.yaml", "--concurrency=-1"], "--concurrency -1: give a whole number"],
    ["--concurrency empty", ["up", "f.yaml", "--concurrency="], "--concurrency : give a whole number"],
    [
      "an unknown option",
      ["up", "f.yaml", "--colour"],
      "Unknown option '--colour'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- \"--colour\"",
    ],
    ["render with no target", ["render"], "billing-fleet render k8s|pko FLEET_FILE [options]"],
    ["render helm", ["render", "helm", "f.yaml"], "billing-fleet render k8s|pko FLEET_FILE [options]"],
    ["render k8s with no fleet file", ["render", "k8s"], "billing-fleet render k8s|pko FLEET_FILE [options]"],
    ["render pko with no fleet file", ["render", "pko"], "billing-fleet render k8s|pko FLEET_FILE [options]"],
    ["render pko with two fleet files", ["render", "pko", "a.yaml", "b.yaml"], "billing-fleet render k8s|pko FLEET_FILE [options]"],
  ])("%s", async (_, args, message) => {
    expect(await cli(args)).toEqual({ code: 2, out: "", err: usage(message) });
  });

  it("a whole --concurrency passes the flags and reaches the fleet file", async () => {
    const missing = path.join(dir, "missing.yaml");
    const { code, out, err } = await cli(["up", missing, "--concurrency", "12"]);
    expect({ code, out }).toEqual({ code: 2, out: "" });
    expect(err.startsWith(`billing-fleet: cannot read the fleet file ${missing}`)).toBe(true);
  });
});

const K8S_ARGS = ["--image", "registry.example/billing-fleet:1", "--image-repo-root", "/app"];

describe("render k8s", () => {
  it("every option reaches the Job as given", async () => {
    const args = [
      ...K8S_ARGS,
      "--completions",
      "2",
      "--parallelism",
      "1",
      "--concurrency",
      "12",
      "--operation",
      "preview",
      "--repo-root",
      dir,
      "--namespace",
      "billing",
      "--name",
      "nightly",
      "--backend",
      "s3://other-state",
      "--passphrase-secret",
      "pulumi/passphrase",
      "--access-token-secret",
      "pulumi/token",
      "--credentials-secret",
      "billing-credentials",
      "--service-account",
      "fleet-runner",
    ];
    const rendered = await cli(["render", "k8s", file, ...args]);
    const yaml = toYaml(
      renderJob(await loadFleet(file), {
        image: "registry.example/billing-fleet:1",
        imageRepoRoot: "/app",
        completions: 2,
        parallelism: 1,
        concurrency: 12,
        operation: "preview",
        repoRoot: dir,
        namespace: "billing",
        name: "nightly",
        backend: "s3://other-state",
        passphraseSecret: { name: "pulumi", key: "passphrase" },
        accessTokenSecret: { name: "pulumi", key: "token" },
        credentialsSecret: { name: "billing-credentials" },
        serviceAccountName: "fleet-runner",
      }),
    );
    expect(rendered).toEqual({ code: 0, out: yaml, err: "" });
  });

  it("the defaults: operation up, --repo-root the working directory", async () => {
    const rendered = await cli(["render", "k8s", file, ...K8S_ARGS, "--completions", "1", "--passphrase-secret", "pulumi/passphrase"]);
    const fleet = await loadFleet(file);
    const options = {
      image: "registry.example/billing-fleet:1",
      imageRepoRoot: "/app",
      completions: 1,
      passphraseSecret: { name: "pulumi", key: "passphrase" },
    };
    // The fleet's program is outside the working directory, the default --repo-root: the renderer refuses it.
    let message = "";
    try {
      renderJob(fleet, { ...options, operation: "up", repoRoot: process.cwd() });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain("repoRoot");
    expect(rendered).toEqual({ code: 2, out: "", err: `billing-fleet render: ${message}\n` });
    const inRepo = await cli([
      "render",
      "k8s",
      file,
      ...K8S_ARGS,
      "--completions",
      "1",
      "--repo-root",
      dir,
      "--passphrase-secret",
      "pulumi/passphrase",
    ]);
    expect(inRepo).toEqual({ code: 0, out: toYaml(renderJob(fleet, { ...options, operation: "up", repoRoot: dir })), err: "" });
  });

  it("--credentials-secret NAME holds the variables the fleet's secrets name", async () => {
    const args = [
      "render",
      "k8s",
      secretFile,
      ...K8S_ARGS,
      "--completions",
      "2",
      "--repo-root",
      dir,
      "--passphrase-secret",
      "pulumi/passphrase",
    ];
    const options = {
      image: "registry.example/billing-fleet:1",
      imageRepoRoot: "/app",
      completions: 2,
      operation: "up" as const,
      repoRoot: dir,
      passphraseSecret: { name: "pulumi", key: "passphrase" },
    };
    const fleet = await loadFleet(secretFile);
    const yaml = toYaml(renderJob(fleet, { ...options, credentialsSecret: { name: "billing-credentials" } }));
    expect(yaml).toContain("BILLING_API_KEY");
    expect(await cli([...args, "--credentials-secret", "billing-credentials"])).toEqual({ code: 0, out: yaml, err: "" });
    // Without it the variable would have no Secret: the renderer refuses, naming the option.
    const { code, out, err } = await cli(args);
    expect({ code, out }).toEqual({ code: 2, out: "" });
    expect(err.startsWith("billing-fleet render: credentialsSecret: a Secret holding")).toBe(true);
  });

  it("--output FILE writes the YAML there, nothing on stdout", async () => {
    const output = path.join(dir, "job.yaml");
    const args = ["render", "k8s", file, ...K8S_ARGS, "--completions", "2", "--repo-root", dir, "--passphrase-secret", "pulumi/passphrase"];
    const rendered = await cli([...args, "--output", output]);
    expect(rendered).toEqual({ code: 0, out: "", err: "" });
    expect(await readFile(output, "utf8")).toBe((await cli(args)).out);
    expect((await cli(args)).out).toMatch(/^apiVersion: /);
  });

  it("--output in a folder that does not exist: exit 1 with the system's message, not a usage error", async () => {
    const output = path.join(dir, "no-such-folder", "job.yaml");
    const args = ["render", "k8s", file, ...K8S_ARGS, "--completions", "2", "--repo-root", dir, "--passphrase-secret", "pulumi/passphrase"];
    expect(await cli([...args, "--output", output])).toEqual({
      code: 1,
      out: "",
      err: `billing-fleet: ENOENT: no such file or directory, open '${output}'\n`,
    });
  });

  it.each([
    ["--operation launch", ["--operation", "launch"], "--operation launch: one of preview, up, refresh, destroy"],
    ["--completions x2", ["--completions", "x2"], "--completions x2: give a whole number"],
    ["--parallelism 2x", ["--completions", "2", "--parallelism", "2x"], "--parallelism 2x: give a whole number"],
    ["--concurrency 1.5", ["--completions", "2", "--concurrency", "1.5"], "--concurrency 1.5: give a whole number"],
  ])("%s: a usage error naming the option", async (_, args, message) => {
    expect(await cli(["render", "k8s", file, ...K8S_ARGS, "--repo-root", dir, ...args])).toEqual({ code: 2, out: "", err: usage(message) });
  });
});

describe("secret references: SECRET_NAME/KEY", () => {
  const cases = ["pulumi", "/passphrase", "pulumi/", "pulumi/passphrase/extra", "/"];
  it.each(cases.flatMap((v) => ["passphrase-secret", "access-token-secret"].map((option) => [option, v])))(
    "--%s %s is refused",
    async (option, v) => {
      const args = ["render", "k8s", file, ...K8S_ARGS, "--completions", "2", "--repo-root", dir, `--${option}`, v];
      expect(await cli(args)).toEqual({ code: 2, out: "", err: usage(`--${option} ${v}: give SECRET_NAME/KEY, e.g. pulumi/passphrase`) });
    },
  );
});

describe("render pko", () => {
  const PKO_ARGS = ["--project-repo", "https://github.com/acme/billing-infra.git", "--service-account", "billing-fleet-workspace"];

  it("every option reaches the Stacks as given (a branch)", async () => {
    const args = [
      ...PKO_ARGS,
      "--branch",
      "main",
      "--repo-root",
      dir,
      "--namespace",
      "billing",
      "--backend",
      "https://api.pulumi.example",
      "--organization",
      "acme",
      "--access-token-secret",
      "pulumi/token",
      "--credentials-secret",
      "billing-credentials",
      "--refresh",
      "--destroy-on-finalize",
    ];
    const rendered = await cli(["render", "pko", pkoFile, ...args]);
    const yaml = toYaml(
      renderPkoStacks(await loadFleet(pkoFile), {
        projectRepo: "https://github.com/acme/billing-infra.git",
        serviceAccountName: "billing-fleet-workspace",
        branch: "main",
        repoRoot: dir,
        namespace: "billing",
        backend: "https://api.pulumi.example",
        organization: "acme",
        accessTokenSecret: { name: "pulumi", key: "token" },
        credentialsSecret: { name: "billing-credentials" },
        refresh: true,
        destroyOnFinalize: true,
      }),
    );
    expect(rendered).toEqual({ code: 0, out: yaml, err: "" });
  });

  it("a commit and a passphrase, --output FILE", async () => {
    const commit = "0123456789abcdef0123456789abcdef01234567";
    const output = path.join(dir, "stacks.yaml");
    const args = [...PKO_ARGS, "--commit", commit, "--repo-root", dir, "--passphrase-secret", "pulumi/passphrase", "--output", output];
    expect(await cli(["render", "pko", pkoFile, ...args])).toEqual({ code: 0, out: "", err: "" });
    const yaml = toYaml(
      renderPkoStacks(await loadFleet(pkoFile), {
        projectRepo: "https://github.com/acme/billing-infra.git",
        serviceAccountName: "billing-fleet-workspace",
        commit,
        repoRoot: dir,
        passphraseSecret: { name: "pulumi", key: "passphrase" },
      }),
    );
    expect(await readFile(output, "utf8")).toBe(yaml);
  });
});

const ROOT = path.resolve(__dirname, "../..");
const FILE = path.join(ROOT, "examples/fleet/fleet.yaml");

describe("billing-fleet command line on the example fleet file", () => {
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
