import { catalogKinds, ownedBy } from "../provider/kinds/catalog-kinds";
import { catalogDeclarations, Reference } from "./declarations";
import type { CatalogSnapshot } from "./snapshot";

/**
 * Which resources the program declares: the provider plugin's (its generated Node.js SDK, `billing.<Type>`) or the
 * dynamic providers' classes. The same declarations either way: only the import and the classes' names differ.
 */
export type ProgramTarget = "plugin" | "dynamic";
/** The targets `billing-catalog export --program` accepts, the default first. */
export const PROGRAM_TARGETS: readonly ProgramTarget[] = ["plugin", "dynamic"];

/** Options of {@link catalogProgram}. */
export interface ProgramOptions {
  /** An entry of the stack's `billing:sites`, written as every resource's `site`. Default: none (the top-level site). */
  readonly site?: string;
  /**
   * Default "plugin": the generated SDK's resources, which need the plugin installed (`billing-plugin install`) and
   * cost less per object than the dynamic providers' (docs/catalog.md); "dynamic": the package's own classes.
   */
  readonly target?: ProgramTarget;
  /**
   * Where the resources are imported from. Default "pulumi-subscription-billing/billing" (the plugin's SDK), or
   * "pulumi-subscription-billing" for the dynamic classes.
   */
  readonly packageName?: string;
}

/** How a program of each target imports its resources and names their classes. */
const IMPORTS: Record<ProgramTarget, { readonly from: string; readonly namespace?: string }> = {
  plugin: { from: "pulumi-subscription-billing/billing", namespace: "billing" },
  dynamic: { from: "pulumi-subscription-billing" },
};

type Value = string | number | boolean | Reference | readonly Value[] | { readonly [k: string]: Value | undefined };

const LINE = 140;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A value as biome formats it: objects always expanded (biome keeps an object expanded when written so), arrays on one line when they fit. */
function render(v: Value, indent: string, lead: number, variables: ReadonlyMap<string, string>): string {
  if (v instanceof Reference) return `${variables.get(v.name)}.${v.output}`;
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  const inner = `${indent}  `;
  if (Array.isArray(v)) {
    const items = v as readonly Value[];
    if (items.length === 0) return "[]";
    const objects = items.some((x) => typeof x === "object" && !(x instanceof Reference) && !Array.isArray(x));
    if (!objects) {
      const flat = `[${items.map((x) => render(x, inner, 0, variables)).join(", ")}]`;
      // `lead` is what precedes the array on its line; the trailing "," closes it.
      if (lead + flat.length + 1 <= LINE) return flat;
    }
    return `[\n${items.map((x) => `${inner}${render(x, inner, inner.length, variables)},\n`).join("")}${indent}]`;
  }
  // Plain loops and one string: a 5,000-object catalog renders tens of thousands of these.
  let out = "";
  const o = v as { readonly [k: string]: Value | undefined };
  for (const k in o) {
    const x = o[k];
    if (x === undefined) continue;
    const key = IDENTIFIER.test(k) ? k : JSON.stringify(k);
    const value = render(x, inner, inner.length + key.length + 2, variables);
    // A string too long for the line goes on the next one, unless the key is short (under 5 characters), as biome lays it out.
    if (typeof x === "string" && key.length >= 5 && inner.length + key.length + 2 + value.length + 1 > LINE)
      out += `${inner}${key}:\n${inner}  ${value},\n`;
    else out += `${inner}${key}: ${value},\n`;
  }
  return out === "" ? "{}" : `{\n${out}${indent}}`;
}

/** camelCase identifier of a resource name: `price-point-pro--annual` → `pricePointProAnnual`. */
function identifierOf(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const id = words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0]?.toUpperCase() + w.slice(1))).join("");
  // Long handles would make long lines; the name string keeps the whole handle.
  return id.slice(0, 60);
}

/**
 * A TypeScript program declaring a snapshot's catalog, with the provider plugin's SDK (default) or the package's
 * dynamic providers (`target: "dynamic"`): each reference
 * (a product's family, a price point's product, a coupon's restrictions: its kind's facet says which) is the
 * referenced resource's output when the program declares it, else `"handle:<h>"`. Fields the service holds by default are left
 * out, so `pulumi preview` against the same site shows no changes: each resource adopts the object
 * with its handle. Archived objects are listed in a closing comment, not declared (a declaration would
 * restore them). Deterministic, and already formatted as biome formats it. Its resources have the import file's
 * names: after `pulumi import --file` of that file, the plugin's program previews with no changes.
 */
export function catalogProgram(snapshot: CatalogSnapshot, options: ProgramOptions = {}): string {
  const declared = catalogDeclarations(snapshot, options.site !== undefined ? { site: options.site } : {});
  const variables = new Map<string, string>();
  const takenVariables = new Set<string>();
  for (const d of declared) {
    const base = identifierOf(d.name);
    let v = base;
    for (let n = 2; takenVariables.has(v); n++) v = `${base}${n}`;
    takenVariables.add(v);
    variables.set(d.name, v);
  }
  // Those others refer to get a variable.
  const used = new Set<string>();
  const note = (v: unknown): void => {
    if (v instanceof Reference) used.add(v.name);
    else if (Array.isArray(v)) v.forEach(note);
    // A reference inside a list's objects (an offer's components).
    else if (v !== null && typeof v === "object") Object.values(v).forEach(note);
  };
  for (const d of declared) Object.values(d.inputs).forEach(note);
  const target = options.target ?? "plugin";
  const { namespace, from: defaultFrom } = IMPORTS[target];
  const classOf = (type: string) => (namespace === undefined ? type : `${namespace}.${type}`);
  const statements = declared.map((r) => {
    const args = r.inputs as Value;
    const body = render(args, "", 0, variables);
    const head = used.has(r.name) ? `const ${variables.get(r.name)} = ` : "";
    const call = `new ${classOf(r.type)}(${JSON.stringify(r.name)}, `;
    // biome hugs the last argument (an object) when the call's head fits on the line; else it breaks every argument.
    if (head.length + call.length + 1 <= LINE) return `${head}${call}${body});\n`;
    const inner = render(args, "  ", 2, variables);
    return `${head}new ${classOf(r.type)}(\n  ${JSON.stringify(r.name)},\n  ${inner},\n);\n`;
  });

  const from = JSON.stringify(options.packageName ?? defaultFrom);
  const importLine = declared.length === 0 ? "" : importOf(declared, namespace, from);

  const count = declared.length;
  const header = [
    `// The catalog of a site, as \`billing-catalog export\` read it: ${count} object${count === 1 ? "" : "s"}, by handle.`,
    "// Each resource adopts the object with its handle: `pulumi up` against that site changes nothing there, and a preview",
    "// after it shows no changes; against another site, `pulumi up` creates the same catalog. Service defaults are left out.",
    ...(target === "plugin"
      ? [
          "// Through the provider plugin (install it: `npx billing-plugin install`); after `pulumi import --file import.json`,",
          "// the file export wrote beside this one, the imported resources are these, and a preview shows no changes.",
        ]
      : []),
  ];
  const archivedLines = archivedList(snapshot);
  const footer =
    archivedLines.length === 0
      ? []
      : [
          "",
          "// Archived at the service, and not declared (a declaration would restore or replace them):",
          ...archivedLines.map((l) => `// - ${l}`),
        ];
  // Every statement and the import line end with a newline: one more between them is the blank line biome keeps.
  const body = [importLine, ...statements].filter((x) => x !== "").join("\n");
  return `${header.join("\n")}\n${body}${footer.map((l) => `${l}\n`).join("")}`;
}

/** The import line: the SDK as a namespace, or the dynamic classes by name (one line when it fits, as biome writes it). */
function importOf(declared: readonly { readonly type: string }[], namespace: string | undefined, from: string): string {
  if (namespace !== undefined) return `import * as ${namespace} from ${from};\n`;
  const types = [...new Set(declared.map((r) => r.type))].sort();
  const oneLine = `import { ${types.join(", ")} } from ${from};`;
  return oneLine.length <= LINE ? `${oneLine}\n` : `import {\n${types.map((t) => `  ${t},\n`).join("")}} from ${from};\n`;
}

/** The snapshot's archived objects, one line each, in the program's order (what an archived owner holds goes with it). */
function archivedList(s: CatalogSnapshot): string[] {
  const out: string[] = [];
  for (const k of catalogKinds()) {
    if (k.facet.owner !== undefined) continue;
    for (const [key, e] of Object.entries(s.objects[k.type] ?? {})) {
      if (e.archived === true) {
        out.push(`${k.type} \`${key}\``);
        continue;
      }
      for (const owned of ownedBy(k))
        for (const [ownedKey, oe] of Object.entries(s.objects[owned.type] ?? {}))
          if (ownedKey.startsWith(`${key}/`) && oe.archived === true) out.push(`${owned.type} \`${ownedKey}\``);
    }
  }
  return out;
}
