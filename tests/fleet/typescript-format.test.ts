import { describe, expect, it } from "vitest";
import { hasModuleSyntax } from "../../fleet/typescript-format";

/**
 * How the fleet loader decides a `.ts` in a `"type": "commonjs"` project is an ES module: by its syntax, as
 * Node decides for a project without "type" (program.commonjs-project.test.ts loads such files for real).
 */
describe("hasModuleSyntax: a .ts file's own syntax, types stripped", () => {
  it.each([
    ["an import statement", 'import * as pulumi from "@pulumi/pulumi";\nconst c: pulumi.Config = new pulumi.Config();\n'],
    ["an export", "export function program(): object {\n  return {};\n}\n"],
    ["import.meta", "const here: string = import.meta.url;\n"],
    ["top-level await", "const x: number = await Promise.resolve(1);\n"],
    ["top-level await before an export", "const x: number = await Promise.resolve(1);\nexport const y = x;\n"],
    ["top-level await before an import", 'await Promise.resolve();\nimport { x } from "./helpers.ts";\n'],
    ["a top-level declaration of a CommonJS name (module)", 'const module: string = "site";\n'],
  ])("module syntax: %s", (_, source) => {
    expect(hasModuleSyntax(source)).toBe(true);
  });

  it.each([
    ["require and module.exports", 'const path = require("node:path");\nmodule.exports = { sep: path.sep as string };\n'],
    ["a dynamic import()", 'exports.load = async (): Promise<unknown> => import("node:path");\n'],
    ["a type-only import, stripped away", 'import type { Config } from "@pulumi/pulumi";\nmodule.exports = (c: Config) => c;\n'],
    ["await inside an async function", "async function f(): Promise<number> {\n  return await Promise.resolve(1);\n}\nexports.f = f;\n"],
    ["a syntax error of another kind", "const x: number = ;\n"],
    ["`await` as a CommonJS identifier", "const await = 1;\nexports.x = await;\n"],
    ["top-level await beside an error no function body clears", "await Promise.resolve();\nlet a: number = 1;\nlet a: number = 2;\n"],
    ["TypeScript Node cannot strip (an enum): Node's own loading reports it", "export enum Color { Red }\n"],
  ])("not module syntax: %s", (_, source) => {
    expect(hasModuleSyntax(source)).toBe(false);
  });
});
