import type * as plugin from "@pulumi/pulumi/provider";
import { KINDS, type ProviderKind } from "../provider/kinds";
import { configure, kinds } from "../provider/runtime";
import type { ProvidedKind } from "../provider/runtime/provide";
import { forResource } from "./engine-log";
import { importRead } from "./import";
import { packageVersion } from "./package-info";
import { packageSchema, tokenOf } from "./schema";
import { plain } from "./values";

export { packageVersion };

/** Each resource token's kind key: `billing:index:WebhookEndpoint` → `webhookEndpoint`. */
const KEY_OF: ReadonlyMap<string, ProviderKind> = new Map(
  Object.values(KINDS).map((m) => [tokenOf(m.kind.type), m.kind.key as ProviderKind] as const),
);

/**
 * The resource token of a URN (`urn:pulumi:stack::project::parent$billing:index:WebhookEndpoint::name`).
 * Stack and project names cannot hold "::", the resource name can: the type is the third field.
 */
export function typeOfUrn(urn: string): string {
  return (urn.split("::")[2] ?? "").split("$").pop() ?? "";
}

/** The kind key a URN's resource token names, or an error naming the tokens this plugin serves. */
export function kindKeyOf(urn: string): ProviderKind {
  const key = KEY_OF.get(typeOfUrn(urn));
  if (key === undefined) throw new Error(`unknown resource type ${typeOfUrn(urn)} (this plugin serves ${[...KEY_OF.keys()].join(", ")})`);
  return key;
}

/**
 * The `billing` provider plugin: each resource operation is dispatched by the URN's type token to
 * the kind's runtime (`provider/runtime`), the very functions the dynamic providers' shells call,
 * with this object as the provider (its configuration is keyed by it, in the runtime's memory).
 * What differs from the dynamic host is adapted here, not in the runtime: configuration arrives
 * through {@link BillingProvider.configure} (see serve.ts), results are made Struct-safe, and a
 * read without state is `pulumi import` (import.ts).
 */
export class BillingProvider implements plugin.Provider {
  /** The plugin's version: the package's. */
  readonly version: string;
  /** The package schema, from the kind declarations (schema.ts). */
  readonly schema: string;

  constructor(version: string = packageVersion()) {
    this.version = version;
    this.schema = JSON.stringify(
      packageSchema(
        Object.values(KINDS).map((m) => m.kind),
        version,
      ),
    );
  }

  /** Provider configuration keyed `billing:<key>` (config.ts maps the request); missing keys fall back to BILLING_*. */
  configure(config: Readonly<Record<string, string>>): void {
    configure(this, { config: { get: (key) => config[key] } });
  }

  async check(urn: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<plugin.CheckResult> {
    return forResource(urn, async () => plain(await this.#kind(urn).check(this, olds, news)));
  }

  async diff(id: string, urn: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<plugin.DiffResult> {
    // Not copied (plain): its `changes` hands the changed declared inputs to the response the server builds from it
    // (provider/runtime/diff-detail.ts); its fields are all defined (a flag, a list, a flag).
    return forResource(urn, () => this.#kind(urn).diff(this, id, olds, news));
  }

  async create(urn: string, inputs: Record<string, unknown>): Promise<plugin.CreateResult> {
    return forResource(urn, () => settled(() => this.#kind(urn).create(this, inputs)));
  }

  /** `pulumi refresh` with the recorded state; `pulumi import` (no state: the engine sends the id only) builds it from the service. */
  async read(id: string, urn: string, props?: Record<string, unknown>): Promise<plugin.ReadResult> {
    if (props === undefined || Object.keys(props).length === 0) return forResource(urn, () => importRead(this, kindKeyOf(urn), id));
    return forResource(urn, async () => plain(await this.#kind(urn).read(this, id, props)));
  }

  async update(id: string, urn: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<plugin.UpdateResult> {
    return forResource(urn, () => settled(() => this.#kind(urn).update(this, id, olds, news)));
  }

  async delete(id: string, urn: string, props: Record<string, unknown>): Promise<void> {
    await forResource(urn, () => this.#kind(urn).del(this, id, props));
  }

  #kind(urn: string): ProvidedKind {
    return kinds[kindKeyOf(urn)];
  }
}

/**
 * A create or update, its result Struct-safe. A partial failure (the runtime's error with `id` and
 * `properties`, kept in state by the engine) gets its properties Struct-safe too.
 */
async function settled<T>(op: () => Promise<T>): Promise<T> {
  try {
    return plain(await op());
  } catch (err) {
    const failed = err as { properties?: Record<string, unknown> } | null;
    if (failed && typeof failed === "object" && failed.properties && typeof failed.properties === "object") {
      failed.properties = plain(failed.properties);
    }
    throw err;
  }
}
