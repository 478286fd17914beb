import { readFileSync } from "node:fs";
import { registerHooks, stripTypeScriptTypes } from "node:module";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

/**
 * A `.ts` program loads by its own syntax, whatever its package.json's "type" says.
 *
 * `npm init -y` (npm 11) writes `"type": "commonjs"`, and Node then loads every `.ts` of the project as
 * CommonJS: the README's `site.ts` (`import … from`) fails with "Cannot use import statement outside a
 * module". Without a "type", Node detects the module syntax itself; this load hook makes the same
 * decision when the "type" is "commonjs", so a fleet program and the `.ts` files it imports load the same
 * in either project. `.cts` and `.mts` keep the format their extension names, and files under node_modules
 * are left to Node (it strips no types there). Registered once, for the rest of the process: a program may
 * import more `.ts` files while it runs. It only changes files Node would otherwise fail to load.
 */
let registered = false;

export function loadTypeScriptBySyntax(): void {
  // Node 22.15 added the hooks; a Node without type stripping (older) never gets here.
  if (registered || typeof registerHooks !== "function") return;
  registered = true;
  registerHooks({
    load(url, context, nextLoad) {
      const loaded = nextLoad(url, context);
      if (loaded.format !== "commonjs-typescript" || !url.startsWith("file:")) return loaded;
      const file = fileURLToPath(url);
      if (!file.endsWith(".ts") || /[\\/]node_modules[\\/]/.test(file)) return loaded;
      const source = loaded.source ?? readFileSync(file);
      return hasModuleSyntax(String(source)) ? { format: "module-typescript", source, shortCircuit: true } : loaded;
    },
  });
}

/** What V8 says of module syntax compiled as CommonJS: only an ES module can hold it. */
const ONLY_IN_MODULES = [
  "Cannot use import statement outside a module",
  "Unexpected token 'export'",
  "Cannot use 'import.meta' outside a module",
];

/**
 * What CommonJS refuses but an ES module may hold (top-level await; a top-level `require`, `module`…
 * declared by the module itself): module syntax when the code compiles as the body of an async function.
 */
const MAYBE_MODULE = [
  "await is only valid in async functions and the top level bodies of modules",
  "Identifier 'module' has already been declared",
  "Identifier 'exports' has already been declared",
  "Identifier 'require' has already been declared",
  "Identifier '__filename' has already been declared",
  "Identifier '__dirname' has already been declared",
];

/**
 * Whether TypeScript source holds ES module syntax, decided as Node decides it for a package without
 * "type": compiled as CommonJS, it fails with an error only module syntax causes (or, for top-level await,
 * one that compiling it as the body of an async function clears). Source Node cannot strip
 * (an enum…) counts as not: Node's own loading then reports it, with its place.
 */
export function hasModuleSyntax(typescript: string): boolean {
  let code: string;
  try {
    code = quietly(() => stripTypeScriptTypes(typescript, { mode: "strip" }));
  } catch {
    return false;
  }
  const asCommonJs = syntaxError(() => vm.compileFunction(code, ["exports", "require", "module", "__filename", "__dirname"]));
  if (asCommonJs === undefined || ONLY_IN_MODULES.includes(asCommonJs)) return asCommonJs !== undefined;
  if (!MAYBE_MODULE.includes(asCommonJs)) return false;
  // In a function body, the module's own import and export statements fail in their turn, and say so.
  const asAsyncBody = syntaxError(() => new vm.Script(`(async function () {\n${code}\n})`));
  return asAsyncBody === undefined || ONLY_IN_MODULES.includes(asAsyncBody);
}

/** The message of the syntax error compiling throws; undefined when it compiles. */
function syntaxError(compile: () => unknown): string | undefined {
  try {
    compile();
    return undefined;
  } catch (err) {
    return err instanceof SyntaxError ? err.message : String(err);
  }
}

/** `stripTypeScriptTypes` warns that it is experimental: the warning is about this package's internals, not the user's program. */
function quietly<T>(fn: () => T): T {
  const original = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const type = typeof rest[0] === "object" && rest[0] ? (rest[0] as { type?: unknown }).type : rest[0];
    const text = typeof warning === "string" ? warning : warning.message;
    if (type === "ExperimentalWarning" && text.includes("stripTypeScriptTypes")) return;
    return (original as (...a: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return fn();
  } finally {
    process.emitWarning = original;
  }
}
