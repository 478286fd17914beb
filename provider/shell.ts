import type * as pulumi from "@pulumi/pulumi";
import type { ProviderKind } from "./kinds";

export type { ProviderKind } from "./kinds";

/**
 * The implementation, loaded at call time and once per process (the host calls
 * these methods for every resource). The host evaluates the methods with its
 * own `require`, which cannot see a package that is the program itself (this
 * repo's demo), so it resolves from the program directory (the host's working
 * directory) first. A function of this module, not an import, so it is
 * serialized by value with the methods; no comments inside, as they would be
 * serialized too.
 */
function runtime(): typeof import("./runtime") {
  const cache = globalThis as { [k: symbol]: typeof import("./runtime") | undefined };
  const name = "pulumi-subscription-billing/provider/runtime";
  const key = Symbol.for(name);
  const hit = cache[key];
  if (hit) return hit;
  let loaded: typeof import("./runtime");
  try {
    loaded = require("node:module").createRequire(require("node:path").join(process.cwd(), "index.js"))(name);
  } catch {
    loaded = require(name);
  }
  return (cache[key] = loaded);
}

type Shell = pulumi.dynamic.ResourceProvider & { readonly kind: ProviderKind };

/**
 * A serialized provider whose methods are thin shells: each loads the
 * implementation at call time and delegates, capturing only `runtime`; the
 * resource type is a property of the object (`this.kind`), stored once. So
 * `__provider` stays small (it is written into every resource's state twice,
 * and the backend rewrites the state after every step), and upgrading the
 * package changes behaviour without changing that text.
 *
 * `read`: only for a type whose refresh asks the service; without it the host
 * echoes the recorded state by itself, which is all the other types' refresh does.
 */
export function shellProvider(declared: { readonly key: ProviderKind; readonly refresh: boolean }): pulumi.dynamic.ResourceProvider {
  const provider: Shell = {
    kind: declared.key,
    async configure(req) {
      runtime().configure(this, req);
    },
    check(olds, news) {
      return runtime().kinds[this.kind].check(this, olds, news);
    },
    diff(id, olds, news) {
      return runtime().kinds[this.kind].diff(this, id, olds, news);
    },
    create(inputs) {
      return runtime().kinds[this.kind].create(this, inputs);
    },
    update(id, olds, news) {
      return runtime().kinds[this.kind].update(this, id, olds, news);
    },
    delete(id, props) {
      return runtime().kinds[this.kind].del(this, id, props);
    },
  };
  if (declared.refresh) {
    provider.read = function (this: Shell, id, props) {
      return runtime().kinds[this.kind].read(this, id, props);
    };
  }
  return provider;
}

/**
 * The `configure` of {@link storedProvider}: loads the runtime as {@link runtime} does and lets it configure the
 * object and give it the kind's operations (`serve`). At the top level, so its text carries the least indentation.
 */
function configure(this: object, req: pulumi.dynamic.ConfigureRequest): void {
  const name = "pulumi-subscription-billing/provider/runtime";
  let r: typeof import("./runtime");
  try {
    r = require("node:module").createRequire(require("node:path").join(process.cwd(), "index.js"))(name);
  } catch {
    r = require(name);
  }
  r.serve(this, req);
}

/**
 * The provider the engine stores in every resource's state (`__provider`, in its inputs and again in its
 * outputs: the engine needs it in both). Its text is all that each object adds beyond its own values to every
 * checkpoint write (issue 43), so it holds the least a shell can: the kind's key and {@link configure}. The
 * host calls `configure` before any other method of a deserialized provider (its getProvider), so the kind's
 * operations are there when check, diff, create, update, read or delete is called. Not for calling in a
 * program: {@link shellProvider}'s objects are, with every method at once.
 */
export function storedProvider(key: ProviderKind): pulumi.dynamic.ResourceProvider {
  // Typed as what the engine's Resource takes: `serve` adds the operations before the host calls any.
  return { kind: key, configure } as unknown as pulumi.dynamic.ResourceProvider;
}
