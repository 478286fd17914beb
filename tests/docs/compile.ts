import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { type Example, ROOT } from "./examples";

/**
 * Each language's compiler over the docs' examples, the way the repository already builds against its packages:
 * TypeScript against the published types (dist/, through the package's exports map, as tests/provider/published-types
 * does), Go against the generated Go SDK through a replace directive (tests/e2e/go-consumer's go.mod and go.sum,
 * as tests/sdk-gen/builds does), Python with pyright against the generated Python SDK and the pinned Pulumi Python
 * SDK's source from the Go module cache (pyright cached in .cache/pyright, as tests/sdk-gen/builds does).
 *
 * Each returns the problems found, each starting with the example's name (`docs/_index.md:42`) and the line in
 * the block: an empty list means every example compiles.
 */

const PULUMI_VERSION = "3.259.0";
const PYRIGHT_VERSION = "1.1.414";
export const GO = process.env.GO ?? (existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : "go");
const GO_ENV = { ...process.env, GOFLAGS: "-mod=mod -buildvcs=false", GOWORK: "off" };

function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string {
  return execFileSync(cmd, args, {
    cwd: opts.cwd ?? ROOT,
    env: opts.env ?? process.env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** stdout and stderr of a command that is allowed to fail (a compiler reporting errors). */
function output(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv }): { ok: boolean; text: string } {
  try {
    return { ok: true, text: run(cmd, args, opts) };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    if (e.stdout === undefined && e.stderr === undefined) throw err;
    return { ok: false, text: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

/** A user's TypeScript project, so that this package resolves through its exports map to dist/, as once installed. */
export const PUBLISHED_TYPES_OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  strict: true,
  skipLibCheck: true,
  types: ["node"],
  noEmit: true,
};

/**
 * TypeScript: one program of in-memory files at the repository root, so `pulumi-subscription-billing` (and its
 * subpaths) resolve to this package's dist/ through its exports map, as in a project that installed it, and
 * `@pulumi/pulumi` to the repository's. CommonJS files (no "type": "module"), as a Pulumi TypeScript program is.
 */
export function typecheckTypeScript(list: readonly Example[]): string[] {
  if (!existsSync(path.join(ROOT, "dist/provider/index.d.ts"))) throw new Error("dist/ is missing: run `npm run build` first");
  const files = new Map(list.map((e, i) => [path.join(ROOT, `__docs_example_${i}__.ts`), e] as const));
  const options = PUBLISHED_TYPES_OPTIONS;
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, languageVersion, ...rest) => {
    const e = files.get(path.resolve(name));
    // `export {}` keeps a block without imports a module of its own, so that two blocks never share names.
    return e ? ts.createSourceFile(name, `${e.code}export {};\n`, languageVersion, true) : getSourceFile(name, languageVersion, ...rest);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => files.has(path.resolve(name)) || fileExists(name);
  const program = ts.createProgram([...files.keys()], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && files.has(path.resolve(d.file.fileName)))
    .map((d) => {
      const e = files.get(path.resolve(d.file!.fileName))!;
      const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
      return `${e.name} (line ${line + 1} of the block): ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
}

/**
 * Go: a module in `dir` holding each example as its own main package, with go-consumer's requirements and sums
 * and the generated SDK replaced by the repository's sdk-gen/go/billing; `go build ./...` compiles them all
 * (several packages: compiled, nothing written; a single one is linked into `dir`, beside examples/).
 */
export function buildGo(list: readonly Example[], dir: string): string[] {
  const consumer = path.join(ROOT, "tests/e2e/go-consumer");
  const goMod = readFileSync(path.join(consumer, "go.mod"), "utf8")
    .replace(/^module .*$/m, "module docsexamples")
    .replace(/=> \.\.\/\.\.\/\.\.\/sdk-gen\/go\/billing$/m, `=> ${path.join(ROOT, "sdk-gen/go/billing")}`);
  if (!goMod.includes(path.join(ROOT, "sdk-gen/go/billing")))
    throw new Error("tests/e2e/go-consumer/go.mod no longer replaces the SDK as expected");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "go.mod"), goMod);
  writeFileSync(path.join(dir, "go.sum"), readFileSync(path.join(consumer, "go.sum")));
  list.forEach((e, i) => {
    mkdirSync(path.join(dir, "examples", `example${i}`), { recursive: true });
    writeFileSync(path.join(dir, "examples", `example${i}`, "main.go"), e.code);
  });
  // -trimpath as tests/sdk-gen/builds and the go-consumer build: the same build cache entries for the SDK and its dependencies.
  const res = output(GO, ["build", "-trimpath", "./..."], { cwd: dir, env: GO_ENV });
  if (res.ok) return [];
  const problems = res.text
    .split("\n")
    .map((l) => /^(?:\.\/)?examples\/example(\d+)\/main\.go:(\d+):\d+: (.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map(([, i, line, message]) => `${list[Number(i)].name} (line ${line} of the block): ${message}`);
  return problems.length ? problems : [`go build failed:\n${res.text}`];
}

interface Diagnostic {
  file: string;
  severity: string;
  message: string;
  range?: { start: { line: number } };
}

/** Python: pyright (basic mode) over each example as its own file, with the generated SDK and the pinned Pulumi Python SDK on its path. */
export function pyrightPython(list: readonly Example[], dir: string): string[] {
  const pyrightDir = path.join(ROOT, ".cache/pyright");
  const bin = path.join(pyrightDir, "node_modules/pyright/index.js");
  if (!existsSync(bin))
    run("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", pyrightDir, `pyright@${PYRIGHT_VERSION}`]);
  const mod = JSON.parse(run(GO, ["mod", "download", "-json", `github.com/pulumi/pulumi/sdk/v3@v${PULUMI_VERSION}`], { env: GO_ENV })) as {
    Dir: string;
  };
  mkdirSync(dir, { recursive: true });
  const names = list.map((e, i) => {
    const name = `example${i}.py`;
    writeFileSync(path.join(dir, name), e.code);
    return name;
  });
  writeFileSync(
    path.join(dir, "pyrightconfig.json"),
    JSON.stringify({
      include: names,
      extraPaths: [path.join(ROOT, "sdk-gen/python"), path.join(mod.Dir, "python/lib")],
      pythonVersion: "3.10",
      typeCheckingMode: "basic",
    }),
  );
  const res = output(process.execPath, [bin, "--project", path.join(dir, "pyrightconfig.json"), "--outputjson"], {});
  const report = JSON.parse(res.text.slice(res.text.indexOf("{"))) as {
    summary: { filesAnalyzed: number };
    generalDiagnostics: Diagnostic[];
  };
  if (report.summary.filesAnalyzed < names.length)
    throw new Error(`pyright analysed ${report.summary.filesAnalyzed} of ${names.length} examples`);
  return report.generalDiagnostics
    .filter((d) => d.severity === "error" || /could not be resolved/.test(d.message))
    .map((d) => {
      const i = Number(/example(\d+)\.py$/.exec(d.file)?.[1]);
      const where = Number.isNaN(i) ? d.file : list[i].name;
      return `${where} (line ${(d.range?.start.line ?? 0) + 1} of the block): ${d.message}`;
    });
}

/** A fresh folder for one check's files, under `parent`. */
export const scratch = (parent: string, prefix: string): string => mkdtempSync(path.join(parent, prefix));
