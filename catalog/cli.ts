import { existsSync, statSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { catalogKinds, plural } from "../provider/kinds/catalog-kinds";
import { type DiffFormat, diffCatalogs, isEmptyDiff, renderDiff } from "./diff";
import { catalogImportFile, importFileJson } from "./import-file";
import { catalogProgram, PROGRAM_TARGETS, type ProgramTarget } from "./program";
import type { ReadProgress } from "./read";
import { type CatalogSnapshot, countsOf, snapshotJson } from "./snapshot";
import {
  CatalogUsageError,
  credentialVariable,
  DEFAULT_KEY_ENV,
  DEFAULT_TOKEN_ENV,
  readSite,
  readSnapshotFile,
  redacted,
  siteOptions,
} from "./sources";

export const USAGE = `Usage:
  billing-catalog export --site SITE --out DIR [--include-archived] [--format import|program|snapshot|all] [--site-entry NAME]
                         [--program plugin|dynamic] [--key-env NAME]
      writes DIR/import.json (for \`pulumi import --file\` with the provider plugin), DIR/index.ts (the catalog as a
      program) and DIR/snapshot.json (the catalog by handle, for \`diff\`); --format picks one (default all).
      --program picks the program's resources: plugin (default: the provider plugin's SDK, the cheaper per object;
      install the plugin with \`npx billing-plugin install\`) or dynamic (the package's dynamic providers).
      --site-entry NAME prefixes import ids and sets each resource's \`site\` to an entry of billing:sites.
  billing-catalog diff A B [--format markdown|json] [--a-key-env NAME] [--b-key-env NAME] [--include-archived]
                       [--compare-default-price-points]
      compares two catalogs by handle, field by field; A and B are each a site, a snapshot.json written by export,
      or a program's \`pulumi preview --json --show-sames\` output saved to a file (then only what it declares is compared).
      A default price point's handle and name are the service's own choice unless --compare-default-price-points.

SITE is the site's URL (https://acme.chargify.com, or the simulator's) or its subdomain (acme); export's default is
BILLING_BASE_URL, else BILLING_SUBDOMAIN (with BILLING_ENVIRONMENT), as the provider reads its top-level site.
Credentials never go on the command line: the key is read from ${DEFAULT_KEY_ENV} (or a bearer token from
${DEFAULT_TOKEN_ENV}); --key-env (export) and --a-key-env/--b-key-env (diff) name another variable holding the key.
Progress goes to stderr when it is a terminal. At most 4 requests are in flight per site.
Exit code: export 0 when written; diff 0 when equal, 1 when they differ; 2 for a usage error or a failed read.`;

/** Where the command writes, and what it reads credentials from. */
export interface CatalogIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** Whether stderr is a terminal: then a count of objects read is shown on it. */
  readonly progress?: boolean;
  readonly env?: NodeJS.ProcessEnv;
}

const FORMATS = ["import", "program", "snapshot", "all"] as const;

function progressLine(io: CatalogIo, label: string): { onProgress?: (p: ReadProgress) => void; done: () => void } {
  if (!io.progress) return { done: () => {} };
  let shown = false;
  return {
    onProgress: (p) => {
      shown = true;
      io.stderr.write(
        `\r${label}: ${p.objects} ${plural("object", p.objects)} read (${p.lists} ${plural("list", p.lists)}, ${p.listsLeft} to go)\x1b[K`,
      );
    },
    done: () => {
      if (shown) io.stderr.write("\n");
    },
  };
}

async function exportCommand(argv: string[], io: CatalogIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      site: { type: "string" },
      out: { type: "string" },
      "include-archived": { type: "boolean" },
      format: { type: "string" },
      "site-entry": { type: "string" },
      "key-env": { type: "string" },
      program: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length > 0) throw new CatalogUsageError(`export: unexpected ${JSON.stringify(positionals[0])}\n${USAGE}`);
  const env = io.env ?? process.env;
  // As the provider's top-level site: BILLING_BASE_URL, else BILLING_SUBDOMAIN, when --site is not given.
  const site = values.site ?? (env.BILLING_BASE_URL || env.BILLING_SUBDOMAIN || undefined);
  if (!site) throw new CatalogUsageError(`export: --site is required (or BILLING_BASE_URL or BILLING_SUBDOMAIN set)\n${USAGE}`);
  if (!values.out) throw new CatalogUsageError(`export: --out is required (the folder to write to)\n${USAGE}`);
  const format = (values.format ?? "all") as (typeof FORMATS)[number];
  if (!FORMATS.includes(format))
    throw new CatalogUsageError(`--format ${JSON.stringify(values.format)}: give import, program, snapshot or all`);
  const target = (values.program ?? "plugin") as ProgramTarget;
  // Checked before the site is read: a typo costs no requests.
  if (!PROGRAM_TARGETS.includes(target))
    throw new CatalogUsageError(
      `--program ${JSON.stringify(values.program)}: give plugin (the provider plugin's SDK, the default) or dynamic (the dynamic providers)`,
    );
  if (existsSync(values.out) && !statSync(values.out).isDirectory()) throw new CatalogUsageError(`--out ${values.out}: not a folder`);
  const options = siteOptions(site, env, values["key-env"]);
  const includeArchived = values["include-archived"] === true;
  const progress = progressLine(io, "export");
  let read: Awaited<ReturnType<typeof readSite>>;
  try {
    read = await readSite(options, { includeArchived, onProgress: progress.onProgress }, credentialVariable(env, values["key-env"]));
  } finally {
    progress.done();
  }
  const entry = values["site-entry"];
  const files: [string, string][] = [];
  if (format === "import" || format === "all")
    files.push(["import.json", importFileJson(catalogImportFile(read.snapshot, entry !== undefined ? { site: entry } : {}))]);
  if (format === "program" || format === "all")
    files.push(["index.ts", catalogProgram(read.snapshot, { target, ...(entry !== undefined ? { site: entry } : {}) })]);
  if (format === "snapshot" || format === "all") files.push(["snapshot.json", snapshotJson(read.snapshot)]);
  await mkdir(values.out, { recursive: true });
  for (const [name, text] of files) await writeFile(path.join(values.out, name), text);
  const counts = countsOf(read.snapshot);
  const read_ = catalogKinds().map((k) => `${counts[k.type] ?? 0} ${plural(k.facet.noun, counts[k.type] ?? 0)}`);
  io.stdout.write(
    `Read ${read_.join(", ")}${includeArchived ? " (archived ones included)" : ""}; ` +
      `wrote ${files.map(([n]) => path.join(values.out as string, n)).join(", ")}.\n`,
  );
  // `pulumi import` of the import file, and the plugin program's resources, run only with the plugin installed.
  const out = values.out;
  const needPlugin = files
    .filter(([n]) => n === "import.json" || (n === "index.ts" && target === "plugin"))
    .map(([n]) => (n === "import.json" ? `\`pulumi import --file ${path.join(out, n)}\`` : path.join(out, n)));
  if (needPlugin.length > 0)
    io.stdout.write(`${needPlugin.join(" and ")} run with the provider plugin: install it first with \`npx billing-plugin install\`.\n`);
  for (const x of read.skipped) io.stderr.write(`skipped ${x.type} id ${x.id}: ${x.reason} (nothing keys it across sites)\n`);
  return 0;
}

/** One side of a diff: a snapshot file, or a site. */
async function sideOf(
  arg: string,
  keyEnv: string | undefined,
  includeArchived: boolean,
  io: CatalogIo,
  label: string,
): Promise<CatalogSnapshot> {
  if (existsSync(arg) && statSync(arg).isFile()) return readSnapshotFile(arg);
  if (!/^https?:\/\//i.test(arg) && !/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i.test(arg))
    throw new CatalogUsageError(
      `diff: ${label} ${JSON.stringify(arg)} is neither a file (a snapshot, or a preview's JSON) nor a site (a URL or a subdomain)`,
    );
  const progress = progressLine(io, `diff ${label}`);
  try {
    const env = io.env ?? process.env;
    const read = { includeArchived, onProgress: progress.onProgress };
    return (await readSite(siteOptions(arg, env, keyEnv), read, credentialVariable(env, keyEnv))).snapshot;
  } finally {
    progress.done();
  }
}

async function diffCommand(argv: string[], io: CatalogIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      format: { type: "string" },
      "a-key-env": { type: "string" },
      "b-key-env": { type: "string" },
      "include-archived": { type: "boolean" },
      "compare-default-price-points": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 2) throw new CatalogUsageError(`diff: give two catalogs, A and B\n${USAGE}`);
  const format = (values.format ?? "markdown") as DiffFormat;
  if (format !== "markdown" && format !== "json")
    throw new CatalogUsageError(`--format ${JSON.stringify(values.format)}: give markdown or json`);
  const [a = "", b = ""] = positionals;
  const includeArchived = values["include-archived"] === true;
  // One side after the other: each site gets the whole of its own 4-request budget, and a failure names its side.
  const left = await sideOf(a, values["a-key-env"], includeArchived, io, "A");
  const right = await sideOf(b, values["b-key-env"], includeArchived, io, "B");
  const d = diffCatalogs(left, right, { compareDefaultPricePoints: values["compare-default-price-points"] === true });
  io.stdout.write(renderDiff(d, format, { a, b }));
  return isEmptyDiff(d) ? 0 : 1;
}

/**
 * Runs `billing-catalog` with these arguments; resolves to the exit code (export: 0 written; diff: 0
 * equal, 1 different; 2 for a usage error or a failed read, reported on stderr).
 */
export async function main(
  argv: readonly string[],
  io: CatalogIo = { stdout: process.stdout, stderr: process.stderr, progress: process.stderr.isTTY === true, env: process.env },
): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === "export") return await exportCommand(rest, io);
    if (command === "diff") return await diffCommand(rest, io);
    if (command === "--help" || command === "-h" || command === "help") {
      io.stdout.write(`${USAGE}\n`);
      return 0;
    }
    throw new CatalogUsageError(command === undefined ? USAGE : `unknown command ${JSON.stringify(command)}\n${USAGE}`);
  } catch (err) {
    io.stderr.write(`billing-catalog: ${redacted((err as Error).message, io.env ?? process.env)}\n`);
    return 2;
  }
}
