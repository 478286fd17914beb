import { existsSync } from "node:fs";
import Module, { createRequire } from "node:module";
import path from "node:path";

/**
 * `@pulumi/pulumi` serializes a dynamic provider (`__provider`) by parsing its functions with
 * TypeScript's parser, through its `typescript-shim`: the project's `typescript` when one resolves,
 * else the 3.8.3 it vendors. TypeScript 7, the native port, ships no JavaScript compiler API, so
 * with it in a project's node_modules every dynamic resource of an inline program fails with
 * `error serializing property "__provider": Cannot read properties of undefined (reading 'Latest')`.
 * `@pulumi/pulumi`'s policy-pack runner registers ts-node through the same shim, and fails the same
 * way before a pack loads. `@pulumi/pulumi`'s own peer range stops below 7, but `npm i -D
 * typescript@latest --legacy-peer-deps` (or `--force`) installs it anyway, and neither a fleet's
 * TypeScript program nor the compiled policy pack depends on which TypeScript the project has. So, in
 * the processes this package starts (`billing-fleet`, the pack's launcher), the shim is pointed at the
 * TypeScript 3.8.3 `@pulumi/pulumi` vendors for exactly this fallback, when the project's has no API.
 *
 * Call it before the first resource is registered (the closure code loads the shim lazily, at the
 * first serialization); calling it again changes nothing.
 *
 * @param from where `@pulumi/pulumi` is resolved from (default: as the runner resolves it).
 * @returns what the shim gives: "project" (a usable TypeScript), "vendored" (pointed at the vendored
 *   one, or none resolved, so the shim takes it by itself), "unknown" (a `@pulumi/pulumi` without
 *   that shim: left alone).
 */
export function pinSerializerTypeScript(from: string = __dirname): "project" | "vendored" | "unknown" {
  let pulumiDir: string;
  try {
    pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [from] }));
  } catch {
    return "unknown";
  }
  const shim = path.join(pulumiDir, "typescript-shim.js");
  const vendored = path.join(pulumiDir, "vendor", "typescript@3.8.3", "typescript.js");
  if (!existsSync(shim) || !existsSync(vendored)) return "unknown";
  let ts: { createSourceFile?: unknown } | undefined;
  try {
    ts = createRequire(shim)("typescript");
  } catch {
    return "vendored";
  }
  if (typeof ts?.createSourceFile === "function") return "project";
  pinShim(shim, vendored);
  pinTsNodeCompiler(path.join(pulumiDir, "tsutils.js"), vendored);
  return "vendored";
}

/** The closure serializer's parser: the shim module, cached with the vendored compiler as its exports. */
function pinShim(shim: string, vendored: string): void {
  const cached = require.cache[shim];
  const exports = require(vendored);
  if (cached) {
    cached.exports = exports;
  } else {
    const m = new Module(shim);
    m.filename = shim;
    m.exports = exports;
    m.loaded = true;
    require.cache[shim] = m;
  }
}

const PINNED = Symbol.for("pulumi-subscription-billing/typescript-guard");

/**
 * The policy-pack runner's ts-node: it asks `tsutils.typeScriptRequireStrings()` which compiler to
 * register (the project's `typescript` when one loads), reading the function off the module at call
 * time, so the answer is replaced on the cached module: the vendored compiler, the same ts-node.
 */
function pinTsNodeCompiler(tsutilsFile: string, vendored: string): void {
  if (!existsSync(tsutilsFile)) return;
  const tsutils = require(tsutilsFile) as {
    typeScriptRequireStrings?: (() => { typescriptRequire: string; tsnodeRequire: string }) & { [PINNED]?: true };
  };
  const original = tsutils.typeScriptRequireStrings;
  if (typeof original !== "function" || original[PINNED]) return;
  tsutils.typeScriptRequireStrings = Object.assign(() => ({ ...original(), typescriptRequire: vendored }), { [PINNED]: true as const });
}
