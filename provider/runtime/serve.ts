import type * as dynamic from "@pulumi/pulumi/dynamic";
import { KINDS } from "../kinds";
import { configure } from "./config";
import type { ProvidedKind } from "./provide";

type Operations = Pick<dynamic.ResourceProvider, "check" | "diff" | "create" | "update" | "delete" | "read">;

/**
 * The operations of the kind `key`, for the serialized provider object they are installed on (`this`: its
 * configuration is keyed by that object). Functions of this module, never serialized: what the engine stores
 * of a provider is its kind's key and a `configure` that calls {@link serve}.
 */
function operations(key: string, kind: ProvidedKind): Operations {
  const ops: Operations = {
    check(olds, news) {
      return kind.check(this, olds, news);
    },
    diff(id, olds, news) {
      return kind.diff(this, id, olds, news);
    },
    create(inputs) {
      return kind.create(this, inputs);
    },
    update(id, olds, news) {
      return kind.update(this, id, olds, news);
    },
    delete(id, props) {
      return kind.del(this, id, props);
    },
  };
  // Without a read the host echoes the recorded state by itself, which is all the other kinds' refresh does.
  if (KINDS[key as keyof typeof KINDS].kind.refresh)
    ops.read = function (id, props) {
      return kind.read(this, id, props);
    };
  return ops;
}

/**
 * The function the serialized provider's `configure` calls, over the runtime of every kind (the engine calls
 * configure before any other operation of a provider): it configures the object and gives it its kind's
 * operations. Its name and arguments are stored in every resource's state: they never change.
 */
export function serving(kinds: Readonly<Record<string, ProvidedKind>>) {
  return function serve(provider: { kind?: unknown }, req: dynamic.ConfigureRequest): void {
    const key = provider.kind;
    if (typeof key !== "string" || !Object.hasOwn(kinds, key))
      throw new Error(
        `this state was written by a version of pulumi-subscription-billing with a resource kind "${String(key)}" that the installed version does not have (it has ${Object.keys(kinds).join(", ")}): install that version or a newer one`,
      );
    configure(provider, req);
    Object.assign(provider, operations(key, kinds[key]));
  };
}
