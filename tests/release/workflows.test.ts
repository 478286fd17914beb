import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";

/**
 * The workflows under .github/workflows are checked by actionlint (built from Go modules by
 * scripts/ensure-actionlint.sh, which `npm run provision` runs before any test), and hold to what
 * the repository promises: CI runs exactly .ci/run's command, and a release runs scripts that exist.
 *
 * actionlint runs without its shellcheck and pyflakes integrations: they are used only when found on
 * PATH (GitHub's runners have shellcheck, this machine has not), and a check must say the same everywhere.
 */
const ROOT = path.join(__dirname, "../..");
const WORKFLOWS = path.join(ROOT, ".github/workflows");
const ENSURE = path.join(ROOT, "scripts/ensure-actionlint.sh");
const VERSION = /^VERSION="\$\{ACTIONLINT_VERSION:-(.*)\}"$/m.exec(readFileSync(ENSURE, "utf8"))?.[1];
const ACTIONLINT = path.join(ROOT, `.cache/actionlint/v${VERSION}/actionlint`);
/** A GitHub Actions expression as the workflow file spells it. */
const expr = (e: string): string => `\${{ ${e} }}`;
const work = mkdtempSync(path.join(tmpdir(), "workflows-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Step = { uses?: string; run?: string; with?: Record<string, unknown>; name?: string };
type Job = { "runs-on"?: string; "timeout-minutes"?: number; steps?: Step[]; uses?: string; permissions?: Record<string, string> };
type Workflow = { on: Record<string, unknown>; jobs: Record<string, Job> };

const files = readdirSync(WORKFLOWS)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort();
const workflow = (file: string): Workflow => parse(readFileSync(path.join(WORKFLOWS, file), "utf8")) as Workflow;

function actionlint(...args: string[]): { status: number | null; output: string } {
  if (!existsSync(ACTIONLINT)) throw new Error(`${ACTIONLINT} is missing: run \`npm run provision\` (bash scripts/ensure-actionlint.sh)`);
  const run = spawnSync(ACTIONLINT, ["-no-color", "-shellcheck=", "-pyflakes=", ...args], { cwd: ROOT, encoding: "utf8" });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe("actionlint", () => {
  it(`is the pinned version (v${VERSION}), as scripts/ensure-actionlint.sh built it`, () => {
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    const out = execFileSync(ACTIONLINT, ["-version"], { encoding: "utf8" });
    expect(out.split("\n")[0]).toBe(`v${VERSION}`);
  });

  it("finds the workflows to check: ci.yml and release.yml", () => {
    expect(files).toEqual(expect.arrayContaining(["ci.yml", "release.yml"]));
  });

  for (const file of files) {
    it(`passes .github/workflows/${file}`, () => {
      const { status, output } = actionlint(path.join(".github/workflows", file));
      if (output.trim() !== "") console.log(`actionlint .github/workflows/${file}:\n${output}`);
      expect(output).toBe("");
      expect(status).toBe(0);
    });
  }

  it("fails a workflow with a mistake (so a pass above means something)", () => {
    const broken = path.join(work, "broken.yml");
    writeFileSync(
      broken,
      [
        "on: push",
        "jobs:",
        "  build:",
        "    runs-on: ubuntu-latest",
        "    env:",
        `      OUT: ${expr("runner.temp")}/out`,
        "    steps:",
        "      - uses: actions/checkout@v6",
        "        with:",
        "          fetch-dept: 0",
        "",
      ].join("\n"),
    );
    const { status, output } = actionlint(broken);
    expect(status).toBe(1);
    expect(output).toMatch(/context "runner" is not allowed here/);
    expect(output).toMatch(/input "fetch-dept" is not defined/);
  });
});

describe("ci.yml", () => {
  const ci = workflow("ci.yml");
  const job = ci.jobs.test;
  const steps = job.steps ?? [];

  it("runs on push and pull_request, on ubuntu-latest, for at most 90 minutes", () => {
    expect(Object.keys(ci.on)).toEqual(expect.arrayContaining(["push", "pull_request"]));
    expect(job["runs-on"]).toBe("ubuntu-latest");
    expect(job["timeout-minutes"]).toBe(90);
  });

  it("its one npm step is exactly .ci/run's command, the README's test command", () => {
    const ciRun = readFileSync(path.join(ROOT, ".ci/run"), "utf8")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "" && !l.startsWith("#") && !/^(set|cd) /.test(l));
    expect(ciRun).toEqual(["npm ci && npm test"]);
    const npmSteps = steps.filter((s) => /\bnpm\b/.test(s.run ?? ""));
    expect(npmSteps.map((s) => s.run?.trim())).toEqual(ciRun);
    expect(steps[steps.length - 1].run?.trim()).toBe(ciRun[0]);
  });

  it("caches .cache/pulumi keyed by the pinned @pulumi/pulumi version, and the Go and actionlint caches", () => {
    const caches = steps.filter((s) => s.uses?.startsWith("actions/cache@"));
    const byPath = (p: string) => caches.find((s) => String(s.with?.path).split("\n").includes(p));
    expect(String(byPath(".cache/pulumi")?.with?.key)).toContain(expr("steps.pins.outputs.pulumi"));
    expect(byPath(".cache/actionlint")).toBeDefined();
    expect(byPath(expr("steps.pins.outputs.gomodcache"))).toBeDefined();
    const pins = steps.find((s) => (s as { id?: string }).id === "pins");
    expect(pins?.run).toContain(`require("./package.json").devDependencies["@pulumi/pulumi"]`);
    // The sed in the pins step reads the version this test reads.
    const sed = /sed -n '([^']*)' scripts\/ensure-actionlint\.sh/.exec(pins?.run ?? "")?.[1];
    expect(execFileSync("sed", ["-n", sed ?? "", ENSURE], { encoding: "utf8" }).trim()).toBe(VERSION);
  });

  it("sets up Go and Node 20 before the tests", () => {
    expect(steps.some((s) => s.uses?.startsWith("actions/setup-go@"))).toBe(true);
    expect(steps.find((s) => s.uses?.startsWith("actions/setup-node@"))?.with?.["node-version"]).toBe("20");
  });
});

describe("release.yml", () => {
  const text = readFileSync(path.join(WORKFLOWS, "release.yml"), "utf8");
  const release = workflow("release.yml");

  it("runs on v* tags", () => {
    expect(release.on).toEqual({ push: { tags: ["v*"] } });
  });

  it("every scripts/… file it names exists", () => {
    const named = [...new Set(text.match(/scripts\/[\w./-]*\w/g) ?? [])];
    expect(named).toEqual(expect.arrayContaining(["scripts/release-check.ts", "scripts/release-assets.ts"]));
    expect(named.filter((f) => !existsSync(path.join(ROOT, f)))).toEqual([]);
  });

  it("checks versions and runs the tests before the job that publishes", () => {
    const publish = release.jobs.publish;
    expect(release.jobs.versions.steps?.some((s) => s.run?.includes("scripts/release-check.ts"))).toBe(true);
    expect(release.jobs.test.uses).toBe("./.github/workflows/ci.yml");
    expect((publish as { needs?: string[] }).needs).toEqual(["versions", "test"]);
    expect(publish.permissions).toEqual({ contents: "write", "id-token": "write" });
    expect(publish.steps?.some((s) => s.run?.trim() === "npm publish --provenance --access public")).toBe(true);
  });
});

describe("every workflow", () => {
  it("pins each action by a major version tag or a full commit SHA", () => {
    const unpinned: string[] = [];
    for (const file of files) {
      for (const [name, job] of Object.entries(workflow(file).jobs)) {
        for (const step of job.steps ?? []) {
          if (step.uses && !/@(v\d+|[0-9a-f]{40})$/.test(step.uses)) unpinned.push(`${file} ${name}: ${step.uses}`);
        }
      }
    }
    expect(unpinned).toEqual([]);
  });
});
