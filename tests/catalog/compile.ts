import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

export const ROOT = path.resolve(__dirname, "../..");

/**
 * Type-checks a generated program as a user's project would: a file at the repository root, so
 * `pulumi-subscription-billing` resolves through the package's exports map to dist/ (as once
 * installed), in CommonJS as a Pulumi TypeScript program is. Returns the problems, each with its line.
 */
export function typecheckProgram(code: string): string[] {
  if (!existsSync(path.join(ROOT, "dist/provider/index.d.ts")))
    throw new Error("dist/ is missing: run `npx tsc -p tsconfig.build.json` first");
  const file = path.join(ROOT, "__catalog_program__.ts");
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    types: ["node"],
    noEmit: true,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) =>
    path.resolve(name) === file ? ts.createSourceFile(name, code, version, true) : getSourceFile(name, version, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => path.resolve(name) === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && path.resolve(d.file.fileName) === file)
    .map((d) => {
      const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
      return `line ${line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
}

/** The code as biome formats it with the repository's settings (as a file under tests/, which biome formats). */
export function biomeFormatted(code: string): string {
  return execFileSync(path.join(ROOT, "node_modules/.bin/biome"), ["format", "--stdin-file-path=tests/catalog/__generated__.ts"], {
    cwd: ROOT,
    input: code,
    encoding: "utf8",
  });
}
