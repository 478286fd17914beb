import { createRequire } from "node:module";
import path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import ts from "typescript";
import type { Example } from "./examples";

/**
 * Runs a docs program as `pulumi preview` would, with Pulumi's mocks in place of the engine: every resource it
 * declares is registered with the inputs the program gives (what a policy pack judges, bar what the provider's
 * check then reads from a site). Its imports of the package resolve to the source of the entry points it names.
 */

/**
 * The entry points a docs Pulumi program declares resources through: the dynamic providers' from the source; the
 * plugin's generated SDK as built (dist/), since its index loads each class with Node's own require.
 */
const ENTRY_POINTS: Readonly<Record<string, () => Promise<unknown>>> = {
  "pulumi-subscription-billing": () => import("../../provider"),
  "pulumi-subscription-billing/billing": async () => createRequire(__filename)(path.resolve(__dirname, "../../dist/sdk-gen/nodejs")),
};

const importsOf = (code: string): string[] => [...code.matchAll(/^import\s[^;]*?from\s+"([^"]+)";/gm)].map((m) => m[1]);

/** Whether an example is a Pulumi program: it imports an entry point that declares resources (not the SDK's or the simulator's). */
export const isProgram = (e: Example): boolean => e.language === "typescript" && importsOf(e.code).some((s) => s in ENTRY_POINTS);

/** A resource as the engine would hand it to a policy pack. */
export interface Declared {
  readonly type: string;
  readonly name: string;
  /** As the engine writes it for a resource without a parent (the docs' programs declare no components). */
  readonly urn: string;
  readonly inputs: Record<string, unknown>;
}

/**
 * `declare const pro: Product;` in a block stands for a resource the reader's program declares elsewhere: here,
 * an object whose every property is an output not known at preview (a resource of that program not created yet).
 */
function standIn(): unknown {
  return new Proxy({}, { get: (_, key) => (key === "then" ? undefined : pulumi.output(pulumi.unknown)) });
}

/** The resources a docs program declares, on a stack named `stack` of project `docs`, during a preview. */
export async function declaredBy(e: Example, stack = "docs"): Promise<Declared[]> {
  const declared: Declared[] = [];
  await pulumi.runtime.setMocks(
    {
      newResource: (a) => {
        if (a.type !== "pulumi:pulumi:Stack")
          declared.push({ type: a.type, name: a.name, urn: `urn:pulumi:${stack}::docs::${a.type}::${a.name}`, inputs: a.inputs });
        return { id: `${a.name}-id`, state: a.inputs };
      },
      call: (a) => a.inputs,
    },
    "docs",
    stack,
    true,
  );
  const modules: Record<string, unknown> = { "@pulumi/pulumi": pulumi };
  for (const specifier of importsOf(e.code)) {
    if (specifier in ENTRY_POINTS) modules[specifier] = await ENTRY_POINTS[specifier]();
    else if (!(specifier in modules)) throw new Error(`${e.name} imports ${specifier}, which a docs program is not expected to`);
  }
  const standIns = [...e.code.matchAll(/^declare const (\w+):/gm)].map((m) => m[1]);
  const js = ts.transpileModule(e.code, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  }).outputText;
  const run = new Function("exports", "require", ...standIns, js);
  const require = (specifier: string) => modules[specifier];
  // As the nodejs language host runs a program: inside the stack. Each resource is seen as it is constructed, and
  // its urn resolves once the (mocked) engine registered it.
  const constructed: pulumi.Resource[] = [];
  await pulumi.runtime.runInPulumiStack(async () => {
    pulumi.runtime.registerStackTransformation((a) => {
      constructed.push(a.resource);
      return undefined;
    });
    run({}, require, ...standIns.map(standIn));
  });
  await Promise.all(constructed.map((r) => new Promise((resolve) => r.urn.apply(resolve))));
  return declared;
}
