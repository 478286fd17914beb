import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Job } from "kubernetes-models/batch/v1/Job";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { loadFleet, parseFleet } from "../../fleet/fleet-file";
import { policyConfigsBySite } from "../../fleet/policy-config";
import { runCli } from "./run-cli";

/**
 * `billing-fleet render k8s|pko` and the fleet's policy: the pods run the packs and configs a run from a
 * terminal would (from the image, where the checkout is), and the operator, which cannot run a pack, is
 * refused a fleet that has one rather than given Stacks that deploy unchecked.
 */

let checkout: string;
let fleetFile: string;
let pkoFile: string;
const at = (p: string) => path.join(checkout, p);

beforeAll(async () => {
  checkout = await mkdtemp(path.join(tmpdir(), "billing-fleet-policy-"));
  await writeFile(at("site.js"), "exports.program = () => ({});\n");
  await mkdir(at("project"));
  await writeFile(at("project/Pulumi.yaml"), "name: site\nruntime: nodejs\n");
  await mkdir(at("policy/pack"), { recursive: true });
  await writeFile(at("policy/default.json"), '{ "webhooks-stay-enabled-in-production": { "production": false } }\n');
  await writeFile(at("policy/production.json"), '{ "webhooks-stay-enabled-in-production": { "production": true } }\n');
  await writeFile(at("policy/cli.json"), "{}\n");
  const sites = ["sites:", "  - name: us", "    policyPackConfig: ./policy/production.json", "  - name: eu"];
  fleetFile = at("fleet.yaml");
  await writeFile(fleetFile, ["program: ./site.js", "backend: s3://state", "policyPackConfig: ./policy/default.json", ...sites].join("\n"));
  pkoFile = at("pko.yaml");
  await writeFile(pkoFile, ["program: ./project", "backend: s3://state", "policyPackConfig: ./policy/default.json", ...sites].join("\n"));
});

afterAll(() => rm(checkout, { recursive: true, force: true }));

const k8s = (file: string, ...more: string[]) =>
  runCli([
    "render",
    "k8s",
    file,
    "--image",
    "registry.example/fleet:1",
    "--image-repo-root",
    "/app",
    "--completions",
    "2",
    "--repo-root",
    checkout,
    "--passphrase-secret",
    "pulumi/passphrase",
    "--operation",
    "preview",
    ...more,
  ]);

/** The ConfigMap's fleet file and the Job's container, from the rendered YAML. */
function rendered(yaml: string) {
  const [configMap, job] = parseAllDocuments(yaml).map((d) => d.toJS());
  // kubernetes-models' validate(), typed as render.test.ts does (node10 resolution cannot see its types).
  (new Job(job) as unknown as { validate(): void }).validate();
  return { fleetText: Object.values(configMap.data)[0] as string, container: job.spec.template.spec.containers[0] };
}

describe("render k8s: the pods run the fleet's policy packs and configs", () => {
  it("--policy-pack and the fleet file's policyPackConfig reach each pod, where the image holds the checkout", async () => {
    const { code, out, err } = await k8s(fleetFile, "--policy-pack", at("policy/pack"));
    expect({ code, err }).toEqual({ code: 0, err: "" });
    const { fleetText, container } = rendered(out);
    expect(container.args.slice(-2)).toEqual(["--policy-pack", "/app/policy/pack"]);
    // The pod's fleet file, read back with the image's checkout where /app is: each site gets the configs it gets here.
    const inPod = await parseFleet(fleetText.replaceAll("/app/", `${checkout}/`), path.join(checkout, "pod-fleet.yaml"));
    const local = await loadFleet(fleetFile);
    const configs = (f: typeof local) =>
      policyConfigsBySite(f.sites, { operation: "preview", policyPacks: [at("policy/pack")], fleet: f.policyPackConfig });
    expect(configs(inPod)).toEqual(configs(local));
    expect([...configs(local)]).toEqual([
      ["us", [at("policy/production.json")]],
      ["eu", [at("policy/default.json")]],
    ]);
  });

  it("--policy-pack-config: each pod's runner gets it, over the fleet file's", async () => {
    const { code, out } = await k8s(fleetFile, "--policy-pack", at("policy/pack"), "--policy-pack-config", at("policy/cli.json"));
    expect(code).toBe(0);
    expect(rendered(out).container.args.slice(-4)).toEqual([
      "--policy-pack",
      "/app/policy/pack",
      "--policy-pack-config",
      "/app/policy/cli.json",
    ]);
  });

  it("a pack outside the checkout: refused, naming it (the image would not hold it)", async () => {
    const outside = path.join(tmpdir(), "elsewhere", "pack");
    const { code, out, err } = await k8s(fleetFile, "--policy-pack", outside);
    expect({ code, out }).toEqual({ code: 2, out: "" });
    expect(err).toBe(
      `billing-fleet render: policyPacks[0]: the local checkout that holds the policy pack folder (${outside}); got ${JSON.stringify(checkout)}\n`,
    );
  });

  it("configs that don't pair with the packs: refused before anything is rendered, as the runner would in every pod", async () => {
    const { code, out, err } = await k8s(fleetFile, "--policy-pack-config", at("policy/cli.json"));
    expect({ code, out }).toEqual({ code: 2, out: "" });
    expect(err).toBe(
      "billing-fleet render: policyPacks: site us's policyPackConfig names 1 config file, one per policy pack in order, " +
        "but no --policy-pack was given: give one --policy-pack DIR per config file (or as many config files as packs)\n",
    );
  });
});

describe("render pko: a fleet with policy is refused", () => {
  const pko = (file: string, ...more: string[]) =>
    runCli([
      "render",
      "pko",
      file,
      "--project-repo",
      "https://github.com/acme/billing-infra.git",
      "--branch",
      "main",
      "--repo-root",
      checkout,
      "--service-account",
      "workspace",
      "--passphrase-secret",
      "pulumi/passphrase",
      ...more,
    ]);

  it.each([
    ["--policy-pack", ["--policy-pack", "PACK"], "policy packs (PACK)"],
    ["only the fleet file's policyPackConfig", [], "policy pack configs (DEFAULT, PRODUCTION)"],
  ])("%s: exit 2, saying the operator cannot run it and what can", async (_, more, given) => {
    const args = more.map((a) => (a === "PACK" ? at("policy/pack") : a));
    const { code, out, err } = await pko(pkoFile, ...args);
    expect({ code, out }).toEqual({ code: 2, out: "" });
    const named = given
      .replace("PACK", at("policy/pack"))
      .replace("DEFAULT", at("policy/default.json"))
      .replace("PRODUCTION", at("policy/production.json"));
    expect(err).toBe(
      `billing-fleet render: policyPacks: this fleet has ${named}, and the Pulumi Kubernetes Operator cannot run a policy pack ` +
        "on a Stack's updates (its Stack has no such field: pulumi/pulumi-kubernetes-operator#366), so its Stacks would deploy " +
        "unchecked. Run the fleet with `billing-fleet render k8s`, whose pods run the packs, or enforce the pack from Pulumi " +
        "Cloud (a policy group) and render without --policy-pack and the fleet's policyPackConfig\n",
    );
  });
});
