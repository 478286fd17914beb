import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Every export of `pulumi-subscription-billing/sdk` carries TSDoc where the user meets it: an editor's
 * hover over the published `.d.ts` (issue 25). This reads what ships, the entry's `types` in the package's
 * "exports" (dist/sdk/index.d.ts), through the compiler API, so a comment that tsc drops, or that sits
 * where hover never shows it, counts as missing. Reads dist/: run `npm run build` first.
 *
 * Checked, each by the name a contributor looks for (`export.member`):
 * - every export: function, class, interface, type alias, const, and every export of the `wire` namespace;
 * - a class's own public constructor, methods and properties, static ones too (its SDK base classes are
 *   checked under their own names; a member inherits its base's doc, as hover shows it);
 * - an interface's properties and methods;
 * - every field of an object type written out in a checked declaration: a method's options
 *   (`BillingClient.createProduct(options).uniquenessToken`), a result (`setWebhooksEnabled(return)`),
 *   a nested object (`Subscription.product.id`), each member of a union (`Outcome`).
 *
 * Not checked, each for one reason:
 * - the fields of a type inferred from a zod schema (`z.input<typeof s>`, `z.infer<typeof s>`): the `.d.ts`
 *   writes the schema as `z.ZodObject<{ handle: z.ZodString }>`, which has no place for a field's comment
 *   (tsc drops one written in the schema's object literal). The alias itself is checked. For the `wire`
 *   namespace that is by design: its fields are the contract's, in its snake_case, documented by the
 *   vendor's API reference. The SDK's own input types are generated interfaces (sdk/generated/inputs.ts), so
 *   their fields are checked; ZOD_INFERRED_INPUTS below stays empty, and a new zod-inferred input type fails;
 * - what a const's value is made of (a zod schema's methods are zod's), unless the const is a function;
 * - an error class constructor's `init` fields: the SDK builds its errors, and each field is the documented
 *   property of the same name.
 */

const ROOT = path.resolve(__dirname, "../..");
const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { exports: Record<string, { types: string }> };
const ENTRY = path.join(ROOT, pkg.exports["./sdk"].types);
const DIST = path.dirname(ENTRY);
const SOURCE = path.join(ROOT, "sdk");

/**
 * The SDK's input types whose fields come from zod's inference and so would carry no field docs in the
 * `.d.ts`: none, as each is a generated interface with TSDoc per field (sdk/generated/inputs.ts, `npm run
 * docs`). The test fails when this list is wrong either way, so a new zod-inferred input type is noticed.
 */
const ZOD_INFERRED_INPUTS: string[] = [];

interface Walk {
  /** Every name checked, documented or not. */
  readonly checked: string[];
  /** The names without a doc comment. */
  readonly missing: string[];
  /** Exports whose fields are zod-inferred (see above), by name. */
  readonly zodInferred: string[];
}

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(suffix))
    .map((f) => path.join(dir, f));
}

/** A source file changed since the build would make this test judge old comments. */
function staleDeclarations(): string[] {
  return filesUnder(SOURCE, ".ts").flatMap((src) => {
    const dts = path.join(DIST, path.relative(SOURCE, src)).replace(/\.ts$/, ".d.ts");
    let built: number;
    try {
      built = statSync(dts).mtimeMs;
    } catch {
      return [`${path.relative(ROOT, dts)} (missing)`];
    }
    return statSync(src).mtimeMs > built ? [path.relative(ROOT, src)] : [];
  });
}

function walkPublishedSdk(): Walk {
  const program = ts.createProgram([ENTRY], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    types: ["node"],
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const entry = program.getSourceFile(ENTRY);
  if (!entry) throw new Error(`${ENTRY} was not loaded`);
  const entrySymbol = checker.getSymbolAtLocation(entry);
  if (!entrySymbol) throw new Error(`${ENTRY} is not a module`);

  const checked: string[] = [];
  const missing: string[] = [];
  const zodInferred: string[] = [];
  const seen = new Set<ts.Node>();
  const inDist = (node: ts.Node) => path.resolve(node.getSourceFile().fileName).startsWith(DIST + path.sep);

  const resolve = (e: ts.Symbol) => (e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e);
  const record = (name: string, documented: boolean) => {
    checked.push(name);
    if (!documented) missing.push(name);
  };
  const text = (parts: ts.SymbolDisplayPart[]) => ts.displayPartsToString(parts).trim() !== "";
  /** One declaration's own comment text, as display parts. */
  const jsDocOf = (decl: ts.Node): ts.SymbolDisplayPart[] =>
    ts
      .getJSDocCommentsAndTags(decl)
      .filter(ts.isJSDoc)
      .map((j) => ({ text: ts.getTextOfJSDocComment(j.comment) ?? "", kind: "text" }));
  const symbolOf = (node: ts.Node): ts.Symbol | undefined =>
    (ts.isClassElement(node) || ts.isTypeElement(node)) && node.name
      ? (checker.getSymbolAtLocation(node.name) ?? (node as unknown as { symbol?: ts.Symbol }).symbol)
      : (node as unknown as { symbol?: ts.Symbol }).symbol;
  const memberName = (m: ts.ClassElement | ts.TypeElement) =>
    m.name ? (ts.isComputedPropertyName(m.name) ? m.name.getText() : m.name.getText().replace(/^["']|["']$/g, "")) : "";

  /** A union member by its discriminant, `[kind="success"]`, or by its place. */
  const variant = (node: ts.TypeLiteralNode): string => {
    for (const m of node.members) {
      if (ts.isPropertySignature(m) && m.type && ts.isLiteralTypeNode(m.type)) return `[${memberName(m)}=${m.type.getText()}]`;
    }
    return `[${(node.parent as ts.UnionTypeNode).types.indexOf(node)}]`;
  };

  /** The fields of every object type written out in `node`, at any depth, each with its own doc. */
  function literals(owner: string, node: ts.Node | undefined): void {
    if (!node) return;
    if (ts.isTypeLiteralNode(node)) {
      const at = ts.isUnionTypeNode(node.parent) ? `${owner}${variant(node)}` : owner;
      for (const m of node.members) {
        if (!m.name) continue; // index and call signatures: nothing to hover
        const name = `${at}.${memberName(m)}`;
        const sym = symbolOf(m);
        record(name, sym !== undefined && text(sym.getDocumentationComment(checker)));
        if (ts.isPropertySignature(m)) literals(name, m.type);
        else if (ts.isMethodSignature(m)) signature(name, m);
      }
      return;
    }
    ts.forEachChild(node, (child) => literals(owner, child));
  }

  /** Options and results written out in a signature: `method(options).field`, `method(return).field`. */
  function signature(owner: string, s: ts.SignatureDeclaration): void {
    for (const p of s.parameters) literals(`${owner}(${p.name.getText()})`, p.type);
    literals(`${owner}(return)`, s.type);
  }

  function isPublic(m: ts.ClassElement): boolean {
    if (m.name && ts.isPrivateIdentifier(m.name)) return false;
    const flags = ts.getCombinedModifierFlags(m as ts.Declaration);
    return (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) === 0;
  }

  function checkClass(name: string, decl: ts.ClassDeclaration): void {
    for (const m of decl.members) {
      if (!isPublic(m) || (ts.isPropertyDeclaration(m) && m.name && ts.isPrivateIdentifier(m.name))) continue;
      if (ts.isConstructorDeclaration(m)) {
        const sig = checker.getSignatureFromDeclaration(m);
        record(`${name}.constructor`, sig !== undefined && text(sig.getDocumentationComment(checker)));
        continue;
      }
      if (!m.name) continue;
      const member = `${name}.${memberName(m)}`;
      const sym = symbolOf(m);
      record(member, sym !== undefined && text(sym.getDocumentationComment(checker)));
      if (ts.isPropertyDeclaration(m)) literals(member, m.type);
      else if (ts.isMethodDeclaration(m) || ts.isGetAccessorDeclaration(m) || ts.isSetAccessorDeclaration(m)) signature(member, m);
    }
    // A base class of the SDK that is not exported is still what the user's hover shows: check it too.
    const type = checker.getDeclaredTypeOfSymbol(symbolOf(decl) as ts.Symbol);
    for (const base of checker.getBaseTypes(type as ts.InterfaceType)) {
      const baseDecl = base.symbol?.declarations?.find(ts.isClassDeclaration);
      if (baseDecl && inDist(baseDecl)) checkDeclaration(base.symbol.name, baseDecl);
    }
  }

  function checkInterface(name: string, sym: ts.Symbol): void {
    // Through the checker, so that members of an interface it extends are checked too.
    for (const prop of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(sym))) {
      const decls = (prop.declarations ?? []).filter(inDist);
      if (decls.length === 0 || decls.every((d) => seen.has(d))) continue;
      for (const d of decls) seen.add(d);
      const member = `${name}.${prop.name}`;
      record(member, text(prop.getDocumentationComment(checker)));
      for (const d of decls) {
        if (ts.isPropertySignature(d)) literals(member, d.type);
        else if (ts.isMethodSignature(d)) signature(member, d);
      }
    }
  }

  const isZodInference = (t: ts.TypeNode) =>
    ts.isTypeReferenceNode(t) && /^z\.(input|infer|output)$/.test(t.typeName.getText()) && t.typeArguments?.length === 1;

  /** Checks one declaration once, however many names reach it. */
  function checkDeclaration(name: string, decl: ts.Declaration, sym?: ts.Symbol): void {
    if (seen.has(decl)) return;
    seen.add(decl);
    const merged = symbolOf(decl);
    const own: Pick<ts.Symbol, "getDocumentationComment"> | undefined =
      sym ?? (merged && (merged.declarations?.length ?? 0) > 1 ? { getDocumentationComment: () => jsDocOf(decl) } : merged);
    if (ts.isClassDeclaration(decl)) {
      record(name, own !== undefined && text(own.getDocumentationComment(checker)));
      checkClass(name, decl);
    } else if (ts.isInterfaceDeclaration(decl)) {
      record(name, own !== undefined && text(own.getDocumentationComment(checker)));
      const iface = sym ?? merged;
      if (iface) checkInterface(name, iface);
    } else if (ts.isTypeAliasDeclaration(decl)) {
      record(name, own !== undefined && text(own.getDocumentationComment(checker)));
      if (isZodInference(decl.type)) zodInferred.push(name);
      else literals(name, decl.type);
    } else if (ts.isFunctionDeclaration(decl)) {
      const sig = checker.getSignatureFromDeclaration(decl);
      record(name, sig !== undefined && text(sig.getDocumentationComment(checker)));
      signature(name, decl);
    } else if (ts.isVariableDeclaration(decl)) {
      record(name, own !== undefined && text(own.getDocumentationComment(checker)));
      if (decl.type && ts.isFunctionTypeNode(decl.type)) signature(name, decl.type);
    } else {
      throw new Error(`${name}: a ${ts.SyntaxKind[decl.kind]} export, which this test does not know how to check`);
    }
  }

  function checkExport(name: string, exported: ts.Symbol): void {
    const sym = resolve(exported);
    if (sym.flags & ts.SymbolFlags.ValueModule) {
      for (const e of checker.getExportsOfModule(sym)) checkExport(`${name}.${e.name}`, e);
      return;
    }
    const decls = (sym.declarations ?? []).filter(inDist);
    if (decls.length === 0) throw new Error(`${name} resolves to no declaration under ${path.relative(ROOT, DIST)}`);
    // A const and a type of one name are one symbol, whose doc joins both: each is then checked by its own comment.
    for (const d of decls) checkDeclaration(name, d, decls.length === 1 ? sym : undefined);
  }

  // Namespaces last, so that what the entry also exports by itself (`WebhookEvent`) is named as the user imports it.
  const isNamespace = (e: ts.Symbol) => (resolve(e).flags & ts.SymbolFlags.ValueModule) !== 0;
  const exports = checker.getExportsOfModule(entrySymbol);
  for (const e of [...exports.filter((e) => !isNamespace(e)), ...exports.filter(isNamespace)]) checkExport(e.name, e);
  return { checked, missing, zodInferred };
}

describe("sdk: every published export and member has TSDoc (issue 25)", () => {
  const stale = staleDeclarations();
  const walk = stale.length === 0 ? walkPublishedSdk() : undefined;

  it("dist/sdk is built from the current sources", () => {
    expect(stale, `dist/sdk is older than these sources: run \`npm run build\` first:\n${stale.join("\n")}`).toEqual([]);
  });

  it("walks the whole entry: the client's methods, its options, the results, the errors, the wire schemas", () => {
    if (!walk) return;
    for (const name of [
      "BillingClient",
      "BillingClient.constructor",
      "BillingClient.readSubscription",
      "BillingClient.createProduct",
      "BillingClient.createProduct(options).uniquenessToken",
      "BillingClient.setWebhooksEnabled(return).webhooksEnabled",
      "BillingClientOptions.timeoutMs",
      "PreviewOptions.prorationDate",
      "ListProductsOptions.familyId",
      "ListPricePointsOptions.includeArchived",
      "Subscription.product.id",
      "Product.handle",
      "BillingApiError.status",
      "ReplayPartialFailureError.unknownBatches",
      'Outcome[kind="success"].status',
      "catalogHandle",
      "wire.productResponse",
    ]) {
      expect(walk.checked, `${name} was not reached`).toContain(name);
    }
    // An empty or shallow walk must not pass: the entry has a few hundred documented names.
    expect(walk.checked.length).toBeGreaterThan(300);
  });

  it("every name it reaches has a doc comment", () => {
    if (!walk) return;
    const list = walk.missing.map((m) => `  ${m}`).join("\n");
    expect(
      walk.missing,
      `${walk.missing.length} of ${walk.checked.length} published names of ./sdk have no TSDoc; write a /** … */ above each ` +
        `in sdk/ (what it does for the user, its units, its default, what it throws), then \`npm run build\`:\n${list}\n`,
    ).toEqual([]);
  });

  it("the SDK input types whose fields zod infers are the known ones (issue 25: to be declared with docs per field)", () => {
    if (!walk) return;
    const sdkInputs = walk.zodInferred.filter((n) => !n.startsWith("wire."));
    expect(sdkInputs.sort()).toEqual(ZOD_INFERRED_INPUTS);
  });
});
