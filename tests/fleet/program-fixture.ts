import { cp, mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/** The module programs both loader tests load (program.test.ts: dist/ in a child node; program.source.test.ts: the source in process). */
export const ROOT = path.resolve(__dirname, "../..");

export const PROGRAM_FILES: Record<string, string> = {
  // The README's example, as written (`import … from` in a project without "type": "module").
  "site.ts": "", // copied from examples/fleet
  "same.ts": 'import * as pulumi from "@pulumi/pulumi";\nexport function program() {\n  return pulumi.Config;\n}\n',
  "syntax.ts": "export function program() {\n  const x: number = 1;\n  const y: number = ;\n}\n",
  "enum.ts": "enum Color { Red, Green }\nexport function program() {\n  return { c: Color.Red };\n}\n",
  "namespace.ts": "namespace N {\n  export const x = 1;\n}\nexport function program() {\n  return { x: N.x };\n}\n",
  "property.ts": "class A {\n  constructor(private x: number) {}\n}\nexport function program() {\n  return { a: new A(1) };\n}\n",
  "missing.ts": 'import { x } from "left-pad-nope";\nexport function program() {\n  return { x };\n}\n',
  "no-extension.ts": 'import { x } from "./helpers";\nexport function program() {\n  return { x };\n}\n',
  "js-extension.ts": 'import { x } from "./helpers.js";\nexport function program() {\n  return { x };\n}\n',
  "gone.ts": 'import { x } from "./nowhere.ts";\nexport function program() {\n  return { x };\n}\n',
  "helpers.ts": "export const x: number = 1;\n",
  "no-program.ts": 'import * as pulumi from "@pulumi/pulumi";\nexport const config = pulumi.Config;\n',
  "thrower.ts": 'const why: string = "no receiver configured";\nthrow new Error(why);\nexport function program() {}\n',
  "broken.mjs": "export function program() {\n  const x = ;\n}\n",
  "default.ts": "export default function () {\n  return { from: 'default' };\n}\n",
  "common.cts": 'const helpers = require("./helpers.ts");\nmodule.exports = { program: () => ({ x: helpers.x }) };\n',
  "node_modules/vendored/site.ts": "export function program(): object {\n  return {};\n}\n",
  "copy/node_modules/@pulumi/pulumi/package.json": '{ "name": "@pulumi/pulumi", "version": "3.0.0", "main": "index.js" }\n',
  "copy/node_modules/@pulumi/pulumi/index.js": "exports.Config = class Config {};\n",
  "copy/site.ts": 'import { Config } from "@pulumi/pulumi";\nexport function program() {\n  return { c: new Config() };\n}\n',
};

/**
 * A fresh project in a temp folder (a package.json without "type", this package and @pulumi linked into its
 * node_modules) holding `files`; "site.ts" is the README's example, copied from examples/fleet.
 */
export async function programProject(prefix: string, files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  await writeFile(path.join(dir, "package.json"), '{ "name": "fresh-project", "private": true }\n');
  await mkdir(path.join(dir, "node_modules"));
  await symlink(path.join(ROOT, "node_modules/@pulumi"), path.join(dir, "node_modules/@pulumi"));
  await symlink(ROOT, path.join(dir, "node_modules/pulumi-subscription-billing"));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    if (name === "site.ts") await cp(path.join(ROOT, "examples/fleet/site.ts"), path.join(dir, name));
    else await writeFile(path.join(dir, name), text);
  }
  return dir;
}
