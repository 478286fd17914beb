import path from "node:path";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import type { ResolvedSite } from "./fleet-file";

/**
 * A module program's inline function, loaded once per path. A `.ts` module is compiled by
 * ts-node (transpile only) when it is installed; otherwise the error says to compile it.
 */
const loaded = new Map<string, Promise<PulumiFn>>();

export function inlineProgram(site: ResolvedSite): Promise<PulumiFn> {
  let p = loaded.get(site.program);
  if (!p) {
    p = load(site.program);
    loaded.set(site.program, p);
  }
  return p;
}

let tsRegistered = false;

async function load(file: string): Promise<PulumiFn> {
  if (/\.(c|m)?ts$/.test(file) && !tsRegistered) {
    try {
      const tsNode = require(require.resolve("ts-node", { paths: [path.dirname(file), process.cwd()] }));
      tsNode.register({ transpileOnly: true, compilerOptions: { module: "commonjs" } });
      tsRegistered = true;
    } catch {
      throw new Error(
        `${file} is TypeScript: install ts-node beside it (npm i -D ts-node typescript) or point the fleet file at its compiled .js`,
      );
    }
  }
  const mod = require(file);
  const fn: unknown = typeof mod === "function" ? mod : (mod.program ?? mod.default);
  if (typeof fn !== "function") {
    throw new Error(`${file} exports no program: export a function as \`program\` (or default) that declares the site's resources`);
  }
  return fn as PulumiFn;
}
