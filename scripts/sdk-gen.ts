/**
 * `npm run sdk-gen`: regenerates the provider plugin's package schema and the SDKs generated from it.
 *
 * 1. writes sdk-gen/schema.json from the kind declarations (plugin/schema.ts, at package.json's version);
 * 2. builds the pinned generator (sdk-gen/gen, Pulumi's codegen at the CLI's release) into .cache/sdk-gen
 *    and runs it: sdk-gen/nodejs, sdk-gen/python and sdk-gen/go are written anew, each with the sha256 of
 *    the schema it came from (`.schema-sha256`, which tests/sdk-gen compares);
 * 3. prints which files changed.
 *
 * Options: `--schema-only` (step 1 alone), `--lang nodejs,go` (a subset of the SDKs).
 * Environment: GO (the go binary; else `go` on PATH, else /usr/local/go/bin/go).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { packageSchema } from "../plugin/schema";
import { KINDS } from "../provider/kinds";

const ROOT = path.resolve(__dirname, "..");
const OUT = path.join(ROOT, "sdk-gen");
const SCHEMA = path.join(OUT, "schema.json");
const LANGS = ["nodejs", "python", "go"] as const;

/** The schema's text as checked in: what `pulumi package get-schema` of the plugin prints, indented. */
export function schemaText(): string {
  const { version } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
  return `${JSON.stringify(
    packageSchema(
      Object.values(KINDS).map((m) => m.kind),
      version,
    ),
    null,
    2,
  )}\n`;
}

/** Every file under `dir` (relative path → sha256), for the report of what changed. */
function snapshot(dir: string, rel = ""): Map<string, string> {
  const files = new Map<string, string>();
  if (!existsSync(dir)) return files;
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    const r = rel ? `${rel}/${name}` : name;
    if (statSync(p).isDirectory()) for (const [k, v] of snapshot(p, r)) files.set(k, v);
    else files.set(r, createHash("sha256").update(readFileSync(p)).digest("hex"));
  }
  return files;
}

function goBinary(): string {
  if (process.env.GO) return process.env.GO;
  try {
    execFileSync("go", ["version"], { stdio: "ignore" });
    return "go";
  } catch {
    if (existsSync("/usr/local/go/bin/go")) return "/usr/local/go/bin/go";
    throw new Error("no Go toolchain found (set GO=/path/to/go)");
  }
}

function main(argv: readonly string[]): void {
  const schemaOnly = argv.includes("--schema-only");
  const langArg = argv.indexOf("--lang");
  const langs = langArg >= 0 ? (argv[langArg + 1] ?? "").split(",").filter(Boolean) : [...LANGS];
  for (const l of langs) if (!(LANGS as readonly string[]).includes(l)) throw new Error(`unknown language ${l} (${LANGS.join(", ")})`);

  const before = new Map([...snapshot(OUT)].filter(([f]) => !f.startsWith("gen/")));
  mkdirSync(OUT, { recursive: true });
  writeFileSync(SCHEMA, schemaText());

  if (!schemaOnly) {
    const go = goBinary();
    const bin = path.join(ROOT, ".cache", "sdk-gen", "gen");
    // -trimpath as scripts/ensure-pulumi.sh builds the CLI: the same build cache entries serve both.
    const env = { ...process.env, GOFLAGS: "-mod=mod -buildvcs=false", GOWORK: "off", GO111MODULE: "on" };
    const t = Date.now();
    execFileSync(go, ["build", "-trimpath", "-o", bin, "."], { cwd: path.join(OUT, "gen"), env, stdio: "inherit" });
    console.error(`sdk-gen: generator built in ${((Date.now() - t) / 1000).toFixed(1)}s`);
    execFileSync(bin, ["-schema", SCHEMA, "-out", OUT, "-lang", langs.join(",")], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
  }

  const after = new Map([...snapshot(OUT)].filter(([f]) => !f.startsWith("gen/")));
  const added = [...after.keys()].filter((f) => !before.has(f));
  const removed = [...before.keys()].filter((f) => !after.has(f));
  const changed = [...after.keys()].filter((f) => before.has(f) && before.get(f) !== after.get(f));
  if (added.length + removed.length + changed.length === 0) {
    console.log("sdk-gen: schema.json and the SDKs are up to date (nothing changed)");
    return;
  }
  for (const [mark, list] of [
    ["+", added],
    ["-", removed],
    ["~", changed],
  ] as const) {
    for (const f of list.sort()) console.log(`${mark} sdk-gen/${f}`);
  }
  console.log(`sdk-gen: ${added.length} added, ${removed.length} removed, ${changed.length} changed`);
}

if (require.main === module) main(process.argv.slice(2));
