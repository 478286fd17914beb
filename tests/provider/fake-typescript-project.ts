import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const req = createRequire(__filename);
const REAL_SHIM = readFileSync(req.resolve("@pulumi/pulumi/typescript-shim.js"), "utf8");

/** The files of a fake project the TypeScript guard's tests point it at. */
export interface FakeTypeScriptProject {
  readonly dir: string;
  readonly shim: string;
  readonly vendored: string;
  readonly tsutils: string;
}

/**
 * Writes into `dir` a @pulumi/pulumi with the real shim, a stand-in vendored parser and (unless left out) the
 * tsutils the policy-pack runner asks before it registers ts-node (its shape in @pulumi/pulumi 3.259 to 3.270),
 * and a `typescript` as given: none, TypeScript 7 (no compiler API), or one with its API.
 */
export function writeFakeTypeScriptProject(
  dir: string,
  typescript: "none" | "no-api" | "api",
  leaveOut: "tsutils" | undefined = undefined,
): FakeTypeScriptProject {
  const pulumi = path.join(dir, "node_modules/@pulumi/pulumi");
  mkdirSync(path.join(pulumi, "vendor/typescript@3.8.3"), { recursive: true });
  writeFileSync(path.join(pulumi, "package.json"), JSON.stringify({ name: "@pulumi/pulumi", version: "3.270.0" }));
  writeFileSync(path.join(pulumi, "typescript-shim.js"), REAL_SHIM);
  const tsutils = path.join(pulumi, "tsutils.js");
  if (leaveOut !== "tsutils")
    writeFileSync(tsutils, 'exports.typeScriptRequireStrings = () => ({ typescriptRequire: "typescript", tsnodeRequire: "ts-node" });');
  const vendored = path.join(pulumi, "vendor/typescript@3.8.3/typescript.js");
  writeFileSync(vendored, 'module.exports = { from: "vendored", createSourceFile() {}, ScriptTarget: { Latest: 99 } };');
  if (typescript !== "none") {
    const ts = path.join(dir, "node_modules/typescript");
    mkdirSync(ts, { recursive: true });
    writeFileSync(path.join(ts, "package.json"), JSON.stringify({ name: "typescript", version: typescript === "api" ? "5.9.3" : "7.0.2" }));
    // TypeScript 7's package has no compiler API: no createSourceFile, no ScriptTarget.
    writeFileSync(
      path.join(ts, "index.js"),
      typescript === "api"
        ? 'module.exports = { from: "project", createSourceFile() {}, ScriptTarget: { Latest: 99 } };'
        : 'module.exports = { from: "project" };',
    );
  }
  return { dir, shim: path.join(pulumi, "typescript-shim.js"), vendored, tsutils };
}
