import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The generated SDKs build: the Node.js package type-checks against the repo's @pulumi/pulumi;
 * the Go package compiles (in tests/e2e/go-consumer, which uses it through a replace directive);
 * the Python package compiles, installs (no dependencies: PyPI is unreachable here) and
 * type-checks with pyright against the pinned Pulumi Python SDK's source, which the Go module
 * sdk/v3 carries. A Python program cannot run here (no Python language host, no grpcio): the
 * README says so.
 */

const ROOT = path.resolve(__dirname, "../..");
const SDK = path.join(ROOT, "sdk-gen");
const PULUMI_VERSION = "3.259.0";
const PYRIGHT_VERSION = "1.1.414";
const GO = process.env.GO ?? (existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : "go");
const GO_ENV = { ...process.env, GOFLAGS: "-mod=mod -buildvcs=false", GOWORK: "off" };
const tmp = mkdtempSync(path.join(tmpdir(), "billing-sdk-gen-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = (cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string => {
  try {
    return execFileSync(cmd, args, {
      cwd: opts.cwd ?? ROOT,
      env: opts.env ?? process.env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(" ")} failed: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  }
};

/** The README's Python example. */
const PROGRAM = `import pulumi
import pulumi_billing as billing

settings = billing.WebhookSettings("settings", webhooks_enabled=True)
endpoint = billing.WebhookEndpoint(
    "endpoint",
    url="https://hooks.example.com/billing",
    events=["payment_failure", "subscription_state_change"],
    opts=pulumi.ResourceOptions(depends_on=[settings]),
)
pulumi.export("endpointId", endpoint.endpoint_id)
`;

/** A python3 that can build a wheel offline (Debian's has python3-wheel; pyenv's may lack it). */
function pythonWithWheel(): string {
  for (const py of ["python3", "/usr/bin/python3"]) {
    try {
      execFileSync(py, ["-c", "import setuptools, wheel"], { stdio: "ignore" });
      return py;
    } catch {}
  }
  throw new Error("no python3 with setuptools and wheel (Debian: python3-setuptools python3-wheel)");
}

interface Diagnostic {
  file: string;
  severity: string;
  message: string;
  rule?: string;
}

/** pyright on the generated package and `program` (program.py beside it), with the Pulumi Python SDK from the Go module cache. */
function pyright(program: string): { errors: Diagnostic[]; warnings: Diagnostic[]; filesAnalyzed: number } {
  const pyrightDir = path.join(ROOT, ".cache/pyright");
  const bin = path.join(pyrightDir, "node_modules/pyright/index.js");
  if (!existsSync(bin))
    run("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", pyrightDir, `pyright@${PYRIGHT_VERSION}`]);
  const mod = JSON.parse(run(GO, ["mod", "download", "-json", `github.com/pulumi/pulumi/sdk/v3@v${PULUMI_VERSION}`], { env: GO_ENV })) as {
    Dir: string;
  };
  const dir = mkdtempSync(path.join(tmp, "pyright-"));
  writeFileSync(path.join(dir, "program.py"), program);
  writeFileSync(
    path.join(dir, "pyrightconfig.json"),
    JSON.stringify({
      include: ["program.py", path.relative(dir, path.join(SDK, "python/pulumi_billing"))],
      extraPaths: [path.join(SDK, "python"), path.join(mod.Dir, "python/lib")],
      pythonVersion: "3.10",
      typeCheckingMode: "basic",
      // parver and semver (the package's small runtime dependencies) are not to be had here: reported, not failed.
      reportMissingImports: "warning",
    }),
  );
  let out: string;
  try {
    out = execFileSync(process.execPath, [bin, "--project", path.join(dir, "pyrightconfig.json"), "--outputjson"], { encoding: "utf8" });
  } catch (err) {
    // pyright exits 1 when it reports errors; its JSON is on stdout all the same.
    out = (err as { stdout?: string }).stdout ?? "";
    if (!out) throw err;
  }
  const report = JSON.parse(out) as { summary: { filesAnalyzed: number }; generalDiagnostics: Diagnostic[] };
  const of = (severity: string) => report.generalDiagnostics.filter((d) => d.severity === severity);
  return { errors: of("error"), warnings: of("warning"), filesAnalyzed: report.summary.filesAnalyzed };
}

describe("sdk-gen: the generated SDKs build", () => {
  it("Node.js: the package type-checks with its own tsconfig", { timeout: 120_000 }, () => {
    run(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", path.join(SDK, "nodejs/tsconfig.json"), "--noEmit"]);
  });

  it("Go: the package compiles (go build of the go-consumer, which imports it; go vet is left out: cold, it analyses every dependency for minutes)", {
    timeout: 600_000,
  }, () => {
    const cwd = path.join(ROOT, "tests/e2e/go-consumer");
    run(GO, ["build", "-trimpath", "-o", path.join(tmp, "go-consumer"), "."], { cwd, env: GO_ENV });
  });

  describe("Python", () => {
    it("every module compiles", () => {
      run("python3", [
        "-c",
        "import pathlib, sys\nfor p in sorted(pathlib.Path(sys.argv[1]).rglob('*.py')): compile(p.read_text(), str(p), 'exec')",
        path.join(SDK, "python"),
      ]);
    });

    it("the package installs (pip, without its dependencies, from a copy)", { timeout: 120_000 }, () => {
      const src = path.join(tmp, "python-src");
      cpSync(path.join(SDK, "python"), src, { recursive: true });
      const target = path.join(tmp, "site");
      run(
        pythonWithWheel(),
        ["-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--no-index", "--target", target, src],
        {
          env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1" },
        },
      );
      const installed = readdirSync(path.join(target, "pulumi_billing"));
      expect(installed).toEqual(
        expect.arrayContaining(["__init__.py", "provider.py", "webhook_endpoint.py", "pulumi-plugin.json", "py.typed"]),
      );
    });

    it("the package and a program using it type-check (pyright, against the Pulumi Python SDK's source)", { timeout: 300_000 }, () => {
      const ok = pyright(PROGRAM);
      // Pulumi's generator emits these in every Python SDK (its fixed _utilities.py, and resource classes passing
      // their Args class where pulumi.Resource types a Mapping); they are not about this schema.
      const ours = ok.errors.filter(
        (d) =>
          !d.file.endsWith("/_utilities.py") &&
          !(d.rule === "reportArgumentType" && /parameter "props" of type "Inputs \| None"/.test(d.message)),
      );
      expect(ours, JSON.stringify(ours, null, 2)).toEqual([]);
      // The only imports that do not resolve are the two small runtime dependencies PyPI would bring.
      const missing = ok.warnings.filter((d) => d.rule === "reportMissingImports").map((d) => d.message);
      expect(missing.sort()).toEqual(['Import "parver" could not be resolved', 'Import "semver" could not be resolved']);
      expect(ok.filesAnalyzed).toBeGreaterThan(10);
      // And the checker does check the program: a misspelt argument and a wrong type are errors.
      const bad = pyright(PROGRAM.replace("url=", "urll=").replace("webhooks_enabled=True", 'webhooks_enabled="yes"'));
      const messages = bad.errors.filter((d) => d.file.endsWith("program.py")).map((d) => d.message);
      expect(messages.join("\n")).toMatch(/"Literal\['yes'\]" cannot be assigned to parameter "webhooks_enabled"/);
      expect(messages.join("\n")).toMatch(/No overloads for "__init__" match the provided arguments/);
    });
  });
});
