import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { KINDS } from "../../provider/kinds";
import type { JsonSchema } from "../../provider/kinds/inputs";
import type { Kind } from "../../provider/kinds/kind";

/**
 * The generated SDKs agree with the kind declarations: for each kind, the Node.js resource file,
 * the Go structs and the Python classes have the kind's zod inputs and outputs, under each
 * language's spelling (camelCase in TypeScript, PascalCase in Go, snake_case in Python), with the
 * same optionality and the same types, as far as each language tells types apart (TypeScript has
 * one number; the Go generator types a union as an any).
 */

const ROOT = path.resolve(__dirname, "../..");
const SDK = path.join(ROOT, "sdk-gen");
const kinds: readonly Kind[] = Object.values(KINDS).map((m) => m.kind);

/** A type, language-neutral: string, integer, number, boolean, any, array<T>, union<A|B>, object. */
type Shape = string;
/** A property as a language declares it: its name there, whether it may be absent, its type. */
interface Prop {
  readonly optional: boolean | "unknowable";
  readonly type: Shape;
}
type Props = Record<string, Prop>;

// ---------------------------------------------------------------- expected: the zod declarations

function shapeOfJson(s: JsonSchema): Shape {
  if (Array.isArray(s.anyOf)) {
    const branches = (s.anyOf as JsonSchema[]).filter((b) => b.type !== "null");
    return branches.length === 1 ? shapeOfJson(branches[0]) : `union<${branches.map(shapeOfJson).sort().join("|")}>`;
  }
  const types = Array.isArray(s.type) ? (s.type as string[]).filter((t) => t !== "null") : s.type ? [s.type as string] : [];
  if (types.length > 1) return `union<${types.sort().join("|")}>`;
  const t = types[0];
  if (t === "array") return `array<${s.items ? shapeOfJson(s.items as JsonSchema) : "any"}>`;
  if (t === "object") return s.properties ? "object" : "map";
  return t ?? "any";
}

const canBeNull = (s: JsonSchema): boolean =>
  (Array.isArray(s.type) && (s.type as string[]).includes("null")) ||
  (Array.isArray(s.anyOf) && (s.anyOf as JsonSchema[]).some((b) => b.type === "null"));

function declared(kind: Kind, io: "input" | "output"): Props {
  const json = z.toJSONSchema(io === "input" ? kind.inputs : kind.outputs, { io, unrepresentable: "any" }) as JsonSchema;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.fromEntries(
    Object.entries((json.properties ?? {}) as Record<string, JsonSchema>).map(([name, s]) => [
      name,
      // A value that can be null is optional in the SDKs (the schema leaves it out of `required`).
      { optional: !required.has(name) || canBeNull(s), type: shapeOfJson(s) },
    ]),
  );
}

const noUnion = (t: Shape) => t.replace(/union<[^>]*>/g, "any");
/** Whether Go tells an output absent from present: arrays, maps and anys have no pointer form. */
const goPointable = (t: Shape) => !/^(array<|map$|any$)/.test(t);

/** What a language can tell apart: TypeScript has one number; Go types unions as any; Python's outputs too. */
const lossy = {
  nodejs: (p: Prop): Prop => ({ ...p, type: p.type.replace(/integer/g, "number") }),
  go: (p: Prop, io: "input" | "output"): Prop => {
    const type = noUnion(p.type);
    return { type, optional: io === "output" && !goPointable(type) ? "unknowable" : p.optional };
  },
  python: (p: Prop, io: "input" | "output"): Prop => ({ ...p, type: io === "output" ? noUnion(p.type) : p.type }),
};

function expected(kind: Kind, io: "input" | "output", rename: (n: string) => string, lang: keyof typeof lossy): Props {
  return Object.fromEntries(Object.entries(declared(kind, io)).map(([n, p]) => [rename(n), lossy[lang](p, io)]));
}

const pascal = (n: string) => n.charAt(0).toUpperCase() + n.slice(1);
const snake = (n: string) => n.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camel = (n: string) => n.charAt(0).toLowerCase() + n.slice(1);

// ---------------------------------------------------------------- Node.js: the TypeScript AST

/** `pulumi.Input<pulumi.Input<string>[]>` → array<string>; `string | undefined` → optional. */
function shapeOfTs(node: ts.TypeNode, sf: ts.SourceFile): { type: Shape; undef: boolean } {
  if (ts.isTypeReferenceNode(node)) {
    const name = node.typeName.getText(sf);
    if ((name === "pulumi.Input" || name === "pulumi.Output") && node.typeArguments?.length === 1)
      return shapeOfTs(node.typeArguments[0], sf);
    if (name.startsWith("inputs.") || name.startsWith("outputs.")) return { type: "object", undef: false };
    throw new Error(`unexpected TypeScript type ${node.getText(sf)}`);
  }
  if (ts.isArrayTypeNode(node)) return { type: `array<${shapeOfTs(node.elementType, sf).type}>`, undef: false };
  if (ts.isParenthesizedTypeNode(node)) return shapeOfTs(node.type, sf);
  if (ts.isUnionTypeNode(node)) {
    const undef = node.types.some((t) => t.kind === ts.SyntaxKind.UndefinedKeyword);
    const rest = node.types.filter((t) => t.kind !== ts.SyntaxKind.UndefinedKeyword).map((t) => shapeOfTs(t, sf).type);
    return { type: rest.length === 1 ? rest[0] : `union<${[...new Set(rest)].sort().join("|")}>`, undef };
  }
  if (ts.isTypeLiteralNode(node) && node.members.length === 1 && ts.isIndexSignatureDeclaration(node.members[0]))
    return { type: "map", undef: false };
  const keyword: Partial<Record<ts.SyntaxKind, Shape>> = {
    [ts.SyntaxKind.StringKeyword]: "string",
    [ts.SyntaxKind.NumberKeyword]: "number",
    [ts.SyntaxKind.BooleanKeyword]: "boolean",
    [ts.SyntaxKind.AnyKeyword]: "any",
  };
  const k = keyword[node.kind];
  if (k) return { type: k, undef: false };
  throw new Error(`unexpected TypeScript type ${node.getText(sf)}`);
}

function nodejsProps(type: string): { inputs: Props; outputs: Props } {
  const file = path.join(SDK, "nodejs", `${camel(type)}.ts`);
  const sf = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
  const inputs: Props = {};
  const outputs: Props = {};
  sf.forEachChild((node) => {
    if (ts.isClassDeclaration(node) && node.name?.text === type) {
      for (const m of node.members) {
        if (!ts.isPropertyDeclaration(m) || !m.type || m.modifiers?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword)) continue;
        const s = shapeOfTs(m.type, sf);
        outputs[m.name.getText(sf)] = { optional: s.undef, type: s.type };
      }
    }
    if (ts.isInterfaceDeclaration(node) && node.name.text === `${type}Args`) {
      for (const m of node.members) {
        if (!ts.isPropertySignature(m) || !m.type) continue;
        inputs[m.name.getText(sf)] = { optional: m.questionToken !== undefined, type: shapeOfTs(m.type, sf).type };
      }
    }
  });
  return { inputs, outputs };
}

// ---------------------------------------------------------------- Go: the generated structs

const GO_SCALARS: Record<string, Shape> = { String: "string", Int: "integer", Float64: "number", Bool: "boolean" };

/** `pulumi.StringPtrInput` → optional string; `pulumi.StringArrayOutput` → array<string>; `WebhookReplaySelectorPtrInput` → object. */
function shapeOfGo(t: string): { type: Shape; ptr: boolean } {
  // A union (an id or a "handle:" reference) is an input of any type in Go.
  if (t === "pulumi.Input") return { type: "any", ptr: false };
  const m = /^(?:pulumi\.)?(\w+?)(Ptr)?(Input|Output)$/.exec(t);
  if (!m) throw new Error(`unexpected Go type ${t}`);
  const [, base, ptr] = m;
  const of = (b: string): Shape => {
    if (GO_SCALARS[b]) return GO_SCALARS[b];
    if (b === "Any") return "any";
    if (b === "Array") return "array<any>";
    if (b === "Map") return "map";
    if (b.endsWith("Array")) return `array<${of(b.slice(0, -"Array".length))}>`;
    if (kinds.some((k) => b.startsWith(k.type))) return "object";
    throw new Error(`unexpected Go type ${t}`);
  };
  return { type: of(base), ptr: ptr !== undefined };
}

function goStruct(src: string, name: string): [string, string, string | undefined][] {
  const body = new RegExp(`^type ${name} struct \\{\\n([\\s\\S]*?)^\\}`, "m").exec(src)?.[1];
  if (body === undefined) throw new Error(`no struct ${name} in the Go SDK`);
  return [...body.matchAll(/^\t(\w+)\s+(\S+)(?:\s+`pulumi:"(\w+)"`)?/gm)].map((m) => [m[1], m[2], m[3]]);
}

function goProps(type: string): { inputs: Props; outputs: Props } {
  const src = readFileSync(path.join(SDK, "go/billing", `${camel(type)}.go`), "utf8");
  const inputs: Props = {};
  const outputs: Props = {};
  // The constructor refuses a nil required input: the one place Go says which arrays are required.
  const required = new Set([...src.matchAll(/invalid value for required argument '(\w+)'/g)].map((m) => m[1]));
  for (const [field, t] of goStruct(src, `${type}Args`)) {
    const s = shapeOfGo(t);
    if (goPointable(s.type) && s.ptr === required.has(field))
      throw new Error(`Go input ${field}: ${t}, yet required: ${required.has(field)}`);
    inputs[field] = { optional: !required.has(field), type: s.type };
  }
  for (const [field, t, tag] of goStruct(src, type)) {
    if (tag !== undefined && pascal(tag) !== field) throw new Error(`Go field ${field} is tagged ${tag}`);
    const s = shapeOfGo(t);
    outputs[field] = { optional: goPointable(s.type) ? s.ptr : "unknowable", type: s.type };
  }
  return { inputs, outputs };
}

// ---------------------------------------------------------------- Python: ast, run by python3

const PY_DUMP = `
import ast, json, sys
out = {}
tree = ast.parse(open(sys.argv[1]).read())
for cls in [n for n in tree.body if isinstance(n, ast.ClassDef)]:
    props = {}
    for f in cls.body:
        if not isinstance(f, ast.FunctionDef):
            continue
        if f.name == "__init__" and cls.name.endswith("Args"):
            for a in f.args.kwonlyargs:
                props[a.arg] = ast.unparse(a.annotation)
        elif any(ast.unparse(d.func if isinstance(d, ast.Call) else d) == "pulumi.getter" for d in f.decorator_list) and f.returns is not None:
            if not cls.name.endswith("Args"):
                props[f.name] = ast.unparse(f.returns)
    out[cls.name] = props
print(json.dumps(out))
`;

/** Splits `A, B[C, D]` at top-level commas. */
function pyArgs(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = "";
  for (const c of s) {
    if (c === "[") depth++;
    if (c === "]") depth--;
    if (c === "," && depth === 0) {
      parts.push(cur.trim());
      cur = "";
    } else cur += c;
  }
  if (cur.trim()) parts.push(cur.trim());
  return parts;
}

const PY_SCALARS: Record<string, Shape> = { str: "string", int: "integer", float: "number", bool: "boolean", Any: "any" };

/** `Optional[pulumi.Input[Sequence[pulumi.Input[_builtins.str]]]]` → optional array<string>. */
function shapeOfPy(t: string): { type: Shape; optional: boolean } {
  const s = t.replace(/^'(.*)'$/, "$1").trim();
  const m = /^([\w.]+)\[(.*)\]$/.exec(s);
  if (m) {
    const [, head, inner] = m;
    if (head === "Optional") return { type: shapeOfPy(inner).type, optional: true };
    if (head === "pulumi.Input" || head === "pulumi.Output") return shapeOfPy(inner);
    if (head === "Sequence") return { type: `array<${shapeOfPy(inner).type}>`, optional: false };
    if (head === "Mapping") return { type: "map", optional: false };
    if (head === "Union") {
      const branches = pyArgs(inner).map((b) => shapeOfPy(b).type);
      return { type: `union<${[...new Set(branches)].sort().join("|")}>`, optional: false };
    }
  }
  const scalar = PY_SCALARS[s.replace(/^_builtins\./, "")];
  if (scalar) return { type: scalar, optional: false };
  if (kinds.some((k) => s.startsWith(k.type) || s.startsWith(`outputs.${k.type}`))) return { type: "object", optional: false };
  throw new Error(`unexpected Python type ${t}`);
}

function pythonProps(type: string): { inputs: Props; outputs: Props } {
  const file = path.join(SDK, "python/pulumi_billing", `${snake(camel(type))}.py`);
  const classes = JSON.parse(execFileSync("python3", ["-c", PY_DUMP, file], { encoding: "utf8" })) as Record<
    string,
    Record<string, string>
  >;
  const of = (cls: string): Props => {
    if (!classes[cls]) throw new Error(`no class ${cls} in ${file}`);
    return Object.fromEntries(
      Object.entries(classes[cls])
        .map(([n, t]) => [n, shapeOfPy(t)])
        .map(([n, s]) => [n, s as Prop]),
    );
  };
  return { inputs: of(`${type}Args`), outputs: of(type) };
}

// ---------------------------------------------------------------- the comparisons

const LANGS = {
  nodejs: { read: nodejsProps, rename: (n: string) => n },
  go: { read: goProps, rename: pascal },
  python: { read: pythonProps, rename: snake },
} as const;

describe("sdk-gen: the generated SDKs have the kinds' inputs and outputs", () => {
  for (const kind of kinds) {
    for (const [lang, { read, rename }] of Object.entries(LANGS) as [keyof typeof LANGS, (typeof LANGS)[keyof typeof LANGS]][]) {
      it(`${kind.type} in ${lang}: input and output names, optionality and types`, () => {
        const got = read(kind.type);
        expect(got.inputs, `${lang} ${kind.type} inputs`).toEqual(expected(kind, "input", rename, lang));
        expect(got.outputs, `${lang} ${kind.type} outputs`).toEqual(expected(kind, "output", rename, lang));
      });
    }
  }
});
