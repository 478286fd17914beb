import type * as pulumi from "@pulumi/pulumi";

/** The runtime module's implementations, one per resource type. */
export type ProviderKind = "webhookSettings" | "subscriptionMigration" | "webhookReplay";

/**
 * The implementation, loaded at call time. The provider host evaluates these
 * methods with its own `require`, which cannot see a package that is only the
 * program's own (the program directory is the package, as in this repo's demo),
 * so resolve from the program directory (the host's working directory) first.
 * A function of this module, not an import, so it is serialized by value with the methods.
 */
function runtime(): typeof import("./runtime") {
  // Loaded once per process: the host calls these methods for every resource.
  const cache = globalThis as { [k: symbol]: typeof import("./runtime") | undefined };
  const key = Symbol.for("pulumi-subscription-billing/provider/runtime");
  const hit = cache[key];
  if (hit) return hit;
  const name = "pulumi-subscription-billing/provider/runtime";
  let loaded: typeof import("./runtime");
  try {
    loaded = require("node:module").createRequire(require("node:path").join(process.cwd(), "index.js"))(name);
  } catch {
    loaded = require(name);
  }
  return (cache[key] = loaded);
}

/**
 * A serialized provider whose methods are thin shells: each loads the
 * implementation at call time and delegates, capturing only `kind` and
 * `runtime`. So `__provider` stays about 1 KB, and upgrading the package
 * changes behaviour without changing the text stored in every resource's state.
 */
export function shellProvider(kind: ProviderKind): pulumi.dynamic.ResourceProvider {
  return {
    async configure(req) {
      runtime().configure(this, req);
    },
    check(olds, news) {
      return runtime()[kind].check(this, olds, news);
    },
    diff(id, olds, news) {
      return runtime()[kind].diff(this, id, olds, news);
    },
    create(inputs) {
      return runtime()[kind].create(this, inputs);
    },
    update(id, olds, news) {
      return runtime()[kind].update(this, id, olds, news);
    },
    read(id, props) {
      return runtime()[kind].read(this, id, props);
    },
    delete(id, props) {
      return runtime()[kind].del(this, id, props);
    },
  };
}
