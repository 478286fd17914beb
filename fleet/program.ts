import { spawnSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import type { ResolvedSite } from "./fleet-file";
import { loadTypeScriptBySyntax } from "./typescript-format";

/**
 * A module program's inline function, loaded once per path, by Node itself: `import()` loads
 * ES modules, CommonJS and, on Node 22.18 or later, TypeScript by stripping its types (a `.ts` as its
 * syntax says, whatever the project's "type": see typescript-format.ts). Nothing
 * depends on the user's TypeScript or ts-node (TypeScript 7 broke ts-node, and with it every
 * fleet whose program was a .ts file).
 */
const loaded = new Map<string, Promise<PulumiFn>>();

export function inlineProgram(site: ResolvedSite): Promise<PulumiFn> {
  let p = loaded.get(site.program);
  if (!p) {
    p = loadProgram(site.program);
    loaded.set(site.program, p);
  }
  return p;
}

/** A program module that could not be loaded: the message says what failed, in terms of the user's files, and what to do. */
export class ProgramLoadError extends Error {
  override name = "ProgramLoadError";
}

/** The Node release whose type stripping is on by default (`engines.node`). */
export const TYPE_STRIPPING_NODE = "22.18";

// tsc (module: commonjs) compiles `import()` into `require()`, which would lose top-level await and
// module detection: this keeps Node's own import().
const nativeImport = new Function("url", "return import(url)") as (url: string) => Promise<Record<string, unknown>>;

const isTypeScript = (file: string) => /\.(c|m)?ts$/.test(file);

/** A file as the user would name it: relative to the working directory when under it. */
function shown(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : file;
}

/** Whether this Node strips types: "on", "off" (a release that could, with it turned off) or "absent" (too old). */
export function typeStripping(
  features: { typescript?: unknown } = process.features as { typescript?: unknown },
  version: string = process.versions.node,
): "on" | "off" | "absent" {
  if (features.typescript) return "on";
  const [major = 0, minor = 0] = version.split(".").map(Number);
  // 22.18 on the 22 line, 23.6 on the 23 line, every later major.
  const could = major > 23 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18);
  return could ? "off" : "absent";
}

/** Loads a module program and returns its inline function; a failure is a ProgramLoadError saying what and what to do. */
export async function loadProgram(file: string): Promise<PulumiFn> {
  const name = shown(file);
  if (isTypeScript(file)) {
    const stripping = typeStripping();
    if (stripping !== "on") {
      const why =
        stripping === "absent"
          ? `Node ${process.version} cannot run TypeScript by itself: run billing-fleet with Node ${TYPE_STRIPPING_NODE} or later, which strips the types (no TypeScript or ts-node needed)`
          : `Node ${process.version} has its type stripping turned off (--no-experimental-strip-types, in NODE_OPTIONS?): remove that flag`;
      throw new ProgramLoadError(`${name} is TypeScript and ${why}; or compile it to JavaScript and name the .js as the program`);
    }
    loadTypeScriptBySyntax();
  }
  let mod: Record<string, unknown>;
  const restore = quietModuleDetection();
  try {
    mod = await nativeImport(pathToFileURL(file).href);
  } catch (err) {
    throw new ProgramLoadError(explain(err, file));
  } finally {
    restore();
  }
  const fn = programOf(mod);
  if (!fn) {
    throw new ProgramLoadError(
      `${name} exports no program: export a function as \`program\` (or as the default export) that declares the site's resources`,
    );
  }
  const other = otherPulumi(file);
  if (other) {
    throw new ProgramLoadError(
      `${name} loads @pulumi/pulumi from ${other.program}, but billing-fleet runs with the one in ${other.runner}: ` +
        "a program's resources must be declared with the runner's copy; install pulumi-subscription-billing in the program's project and run its billing-fleet",
    );
  }
  return fn;
}

let quieting = 0;
let emitWarning: typeof process.emitWarning | undefined;

/**
 * While programs load, Node's advice to add "type": "module" to the project's package.json is left out:
 * a program in ES module syntax in a CommonJS project is what the README shows, it loads as it is, and
 * the advice would change how the project's other .js files load. Every other warning is kept.
 */
function quietModuleDetection(): () => void {
  if (quieting++ === 0) {
    const original = process.emitWarning;
    emitWarning = original;
    process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
      const code = typeof rest[0] === "object" && rest[0] ? (rest[0] as { code?: unknown }).code : rest[1];
      if (code === "MODULE_TYPELESS_PACKAGE_JSON") return;
      return (original as (...a: unknown[]) => void).call(this, warning, ...rest);
    } as typeof process.emitWarning;
  }
  return () => {
    if (--quieting === 0 && emitWarning) process.emitWarning = emitWarning;
  };
}

/** The function a module exports as its program: `program`, the default export, or either of a CommonJS `module.exports`. */
function programOf(mod: Record<string, unknown>): PulumiFn | undefined {
  const def = mod.default as Record<string, unknown> | ((...args: unknown[]) => unknown) | undefined;
  const candidates = [
    mod.program,
    def,
    typeof def === "object" && def ? def.program : undefined,
    def && typeof def === "object" ? def.default : undefined,
  ];
  return candidates.find((c) => typeof c === "function") as PulumiFn | undefined;
}

/** Where @pulumi/pulumi resolves from the program and from the runner, when they differ (two copies: one has no engine). */
function otherPulumi(file: string): { program: string; runner: string } | undefined {
  const dirOf = (req: NodeRequire) => {
    try {
      return path.dirname(realpathSync(req.resolve("@pulumi/pulumi/package.json")));
    } catch {
      return undefined;
    }
  };
  const program = dirOf(createRequire(file));
  const runner = dirOf(require);
  return program && runner && program !== runner ? { program, runner } : undefined;
}

/** `file:///x/y.ts:3` or `/x/y.ts:3`, as Node heads the stack of an error it can place in a file. */
function placeOf(err: Error): string | undefined {
  const lines = (err.stack ?? "").split("\n");
  const head = /^(file:\/\/\S+|\/.+|[A-Za-z]:\\.+):(\d+)$/.exec(lines[0] ?? "");
  if (!head) return undefined;
  const file = head[1].startsWith("file:") ? fileURLToPath(head[1]) : head[1];
  const caret = lines.slice(1, 8).find((l) => /^\s*\^+\s*$/.test(l));
  return `${shown(file)}:${head[2]}${caret ? `:${caret.indexOf("^") + 1}` : ""}`;
}

/** The user's own frame of a stack: the first in a file that is neither Node's nor this package's. */
function userFrame(err: Error): string | undefined {
  const ours = path.resolve(__dirname, "..");
  for (const line of (err.stack ?? "").split("\n").slice(1)) {
    const m = /(?:\(|\bat )((?:file:\/\/)?\/[^():]+|[A-Za-z]:\\[^():]+):(\d+):(\d+)\)?\s*$/.exec(line);
    if (!m) continue;
    const file = m[1].startsWith("file:") ? fileURLToPath(m[1]) : m[1];
    if (file.startsWith(ours + path.sep)) continue;
    return `${shown(file)}:${m[2]}:${m[3]}`;
  }
  return undefined;
}

/** A syntax error V8 gave no place for (an ES module's): `node --check` says where it is. */
function checkedPlace(file: string): string | undefined {
  const r = spawnSync(process.execPath, ["--check", file], { encoding: "utf8", timeout: 10_000 });
  const head = /^(.+):(\d+)$/m.exec(r.stderr ?? "");
  return r.status !== 0 && head ? `${shown(head[1].startsWith("file:") ? fileURLToPath(head[1]) : head[1])}:${head[2]}` : undefined;
}

const REWRITES: readonly [RegExp, string][] = [
  [/enum/i, "an enum as a const object (const Color = { Red: 'red' } as const)"],
  [/namespace|module declaration/i, "a namespace as a module of its own or a plain object"],
  [/parameter propert/i, "a parameter property as a field assigned in the constructor"],
];

/** What a failed import() means for the user's program, as one line. */
function explain(err: unknown, file: string): string {
  const name = shown(file);
  if (!(err instanceof Error)) return `${name} could not be loaded: ${String(err)}`;
  const code = (err as NodeJS.ErrnoException).code;
  const message = err.message.split("\n")[0] ?? "";
  switch (code) {
    case "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX": {
      const at = placeOf(err) ?? name;
      const what = /^(.*?) is not supported in strip-only mode\.?$/.exec(message)?.[1];
      if (!what) return `${at}: ${message} (Node runs TypeScript by stripping its types only)`;
      const rewrite = REWRITES.find(([re]) => re.test(what))?.[1];
      return (
        `${at}: ${what} needs compiling, and Node runs TypeScript by stripping its types only: ` +
        `rewrite it${rewrite ? ` (${rewrite})` : ""}, or compile the program with tsc and name the .js as the program`
      );
    }
    case "ERR_INVALID_TYPESCRIPT_SYNTAX":
      return `${placeOf(err) ?? name}: syntax error: ${message}`;
    case "ERR_MODULE_NOT_FOUND":
      return notFound(message, name);
    case "ERR_UNSUPPORTED_DIR_IMPORT":
      return folderImport(message, name);
    case "ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING":
      return `${name} is under a node_modules folder, where Node does not strip types: move the program out of node_modules, or name its compiled .js`;
    case "ERR_UNKNOWN_FILE_EXTENSION":
      return `${name}: Node cannot load ${path.extname(file) || "files without an extension"} as a program: a program is a .js, .mjs, .cjs, .ts, .mts or .cts module`;
  }
  if (err.name === "SyntaxError") {
    const at = placeOf(err) ?? checkedPlace(file);
    return `${at ?? `${name} (or a module it imports)`}: syntax error: ${message}`;
  }
  const at = userFrame(err);
  return `${name} failed while loading${at ? `, at ${at}` : ""}: ${err.name === "Error" ? "" : `${err.name}: `}${message}`;
}

/** "Cannot find package 'x' imported from /p/site.ts", "Cannot find module '/p/helpers' imported from /p/site.ts". */
function notFound(message: string, name: string): string {
  const m = /^Cannot find (package|module) '([^']+)' imported from (.+)$/.exec(message);
  if (!m) return `${name}: ${message}`;
  const [, kind, what, fromRaw] = m;
  const from = fromRaw.startsWith("file:") ? fileURLToPath(fromRaw) : fromRaw;
  if (kind === "package") {
    const pkg = what.startsWith("@") ? what.split("/").slice(0, 2).join("/") : (what.split("/")[0] ?? what);
    return (
      `${shown(from)} imports "${what}", which is not installed where Node looks for it: node_modules/${pkg} ` +
      `in ${path.dirname(from)} or a folder above it; install it in the program's project (npm i ${pkg})`
    );
  }
  const target = what.startsWith("file:") ? fileURLToPath(what) : what;
  let spec = path.relative(path.dirname(from), target);
  if (!spec.startsWith(".")) spec = `./${spec}`;
  // TypeScript's own convention (import "./x.js" for x.ts) is not Node's.
  const asTs = target.replace(/\.(m|c)?js$/, ".$1ts");
  if (asTs !== target && existsSync(asTs)) {
    return `${shown(from)} imports "${spec}", which is ${path.basename(asTs)}: Node loads a file by its real name: import "${spec.slice(0, -path.extname(spec).length)}${path.extname(asTs)}"`;
  }
  const found = [".ts", ".mts", ".cts", ".js", ".mjs", ".cjs"].find((ext) => existsSync(target + ext));
  if (found) {
    return `${shown(from)} imports "${spec}" without its file extension, which Node needs in an ES module: import "${spec}${found}"`;
  }
  return `${shown(from)} imports "${spec}", which does not exist (${target})`;
}

/** "Directory import '/p/lib' is not supported resolving ES modules imported from /p/site.ts": Node resolves no folder to its index. */
function folderImport(message: string, name: string): string {
  const m = /^Directory import '([^']+)' is not supported resolving ES modules imported from (.+)$/.exec(message);
  if (!m) return `${name}: ${message}`;
  const [, folderRaw, fromRaw] = m;
  const folder = folderRaw.startsWith("file:") ? fileURLToPath(folderRaw) : folderRaw;
  const from = fromRaw.startsWith("file:") ? fileURLToPath(fromRaw) : fromRaw;
  let spec = path.relative(path.dirname(from), folder);
  if (!spec.startsWith(".")) spec = `./${spec}`;
  const index = ["index.ts", "index.mts", "index.cts", "index.js", "index.mjs", "index.cjs"].find((f) => existsSync(path.join(folder, f)));
  return (
    `${shown(from)} imports "${spec}", a folder, which Node does not resolve to its index in an ES module: ` +
    (index ? `import "${spec}/${index}"` : "import a file in it by its name")
  );
}
