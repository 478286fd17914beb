import { spawn } from "node:child_process";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Simulator } from "../../simulator";
import { type Consumer, ExampleStack } from "./support";

/**
 * What the whole-catalog suites with the real CLI share (catalog-export.test.ts, catalog-round-trip.test.ts):
 * the installed package's `billing-catalog` with the sites' keys in its environment only, a Pulumi project
 * folder in the consumer, a stack of the exported program (dynamic providers) against a site, and every
 * file an export wrote, for the credential scan.
 */

export interface CatalogRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The installed package's `billing-catalog`, as `npx billing-catalog` runs it: the caller's BILLING_
 * variables left out, `env` (the keys, as a user exports them) added; what it prints is kept in `printed`.
 */
export function runBillingCatalog(
  c: Consumer,
  args: readonly string[],
  o: { readonly cwd: string; readonly env: Readonly<Record<string, string>>; readonly printed: string[] },
): Promise<CatalogRun> {
  const bin = path.join(c.dir, "node_modules/pulumi-subscription-billing/dist/catalog/bin.js");
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("BILLING_")));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: o.cwd,
      env: { ...env, ...o.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      o.printed.push(stdout, stderr);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

/** A TypeScript Pulumi project folder named `project` in the consumer; with `index` as its program when given. */
export async function catalogProject(c: Consumer, folder: string, project: string, index?: string): Promise<string> {
  const dir = c.example(folder);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "Pulumi.yaml"), `name: ${project}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`);
  if (index !== undefined) await writeFile(path.join(dir, "index.ts"), index);
  return dir;
}

/** A dynamic-provider stack of the exported program (in the consumer's `folder`) against a site, its key secret config. */
export async function catalogProgramStack(c: Consumer, folder: string, stack: string, sim: Simulator, key: string): Promise<ExampleStack> {
  const s = await ExampleStack.create(c, folder, stack);
  await s.config("billing:baseUrl", sim.url);
  await s.config("billing:apiKey", key, true);
  return s;
}

/** The text of every file right under a folder, its subfolders left out (none when it does not exist). */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return Promise.all(entries.filter((e) => e.isFile()).map((e) => readFile(path.join(dir, e.name), "utf8")));
}
