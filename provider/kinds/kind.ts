import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { BillingClient } from "../../sdk/client";
import { warnPlainCredentials } from "../credential-warning";
import type { CheckFailure, Unknown } from "../engine";
import { beginRegistration, endRegistration, registrationError } from "../registration-stacks";
import { storedProvider } from "../shell";
import type { ProviderKind } from ".";

/**
 * The one declaration of a resource kind. Everything that lists kinds reads
 * it: the provider shell (`key`), the runtime (schemas and operations), the
 * resource class (output names and the TypeScript types), the README's
 * resource table, the serialization tests and the benchmark (`example`).
 */
export interface Kind<K extends string = string, In extends z.ZodObject = z.ZodObject, Out extends z.ZodObject = z.ZodObject> {
  /** The runtime module's name for it; stored in every resource's `__provider` text, so it never changes. */
  readonly key: K;
  /** The Pulumi type name: `billing:<type>`. */
  readonly type: string;
  /** One sentence for the docs. */
  readonly summary: string;
  /**
   * Inputs: the source of check() failures (after the engine's unknowns are set aside),
   * of the TypeScript input type, and of the docs (each field's `.describe()`).
   */
  readonly inputs: In;
  /** Outputs users read: the resource class declares them, the docs list them. */
  readonly outputs: Out;
  /** Inputs whose change replaces the resource; `"all"` for one-shot kinds, where any change is a new event. */
  readonly replaceOn: "all" | readonly (keyof z.input<In> & string)[];
  /** Whether `pulumi refresh` asks the service; without it the host keeps the recorded state. */
  readonly refresh: boolean;
  /** What `pulumi destroy` does on the service, in a few words, for the docs. */
  readonly onDelete: string;
  /** A valid value: the docs show it, the serialization tests and the benchmark construct one of each kind. */
  readonly example: z.input<In>;
  /** For a kind whose objects make up a site's catalog: what export, import, diff, the review and the policy pack read of it. */
  readonly catalog?: CatalogFacet;
}

/**
 * How a kind's objects appear in a site's catalog, said once for every consumer: `billing-catalog`
 * (export, diff, the import file), the plugin's `pulumi import`, `billing-review` and the policy pack.
 */
export interface CatalogFacet {
  /** The input that names an object across sites (ids differ per site): its handle, a coupon's code, a custom field's name. */
  readonly key: "handle" | "code" | "name";
  /**
   * The input whose value the key is unique within, for a kind whose keys repeat across it (a custom field's name, per
   * resource type): the object's key across sites is then `<that value>:<key>`, as its reader's `key` gives it.
   */
  readonly within?: string;
  /** For an object that lives in another (a price point in its product): the input naming it, and the owner kind's key. */
  readonly owner?: { readonly input: string; readonly kind: string };
  /**
   * Inputs that reference other kinds' objects, each `"handle:<h>"` (or a list of them) in a snapshot: the
   * referenced kind's key and the output a program passes for it. `<input>.<field>` names the `field` of each
   * object of a list input (an offer's `components.component`). A reference to an owned kind (a price point) is
   * looked up in the owner that a reference beside it names.
   */
  readonly references: Readonly<Record<string, { readonly kind: string; readonly output: string }>>;
  /** Inputs that say how the kind runs rather than what the service holds: never exported, imported or compared. */
  readonly runtimeInputs: readonly string[];
  /**
   * Inputs the service takes but never answers (its published answers have no such field): export and `pulumi
   * import` cannot carry them (a program declares them again), and drift cannot see a change made outside.
   */
  readonly writeOnly?: readonly string[];
  /**
   * An object with this input true is its owner's own part, not an object of its own, in a snapshot (a product's
   * default price point: its pricing is the product's); its handle and name go under `as` in the owner's entry.
   */
  readonly partOfOwner?: { readonly input: string; readonly as: string };
  /** What the service holds when a create leaves the field out: export leaves such values out, diff reads a missing one so. */
  readonly defaults: Readonly<Record<string, unknown>>;
  /** How a sentence names one ("price point"). */
  readonly noun: string;
  /** How a heading or a line's start names one ("Price point"). */
  readonly title: string;
  /** The fields whose change changes what subscriptions pay, and what the service does with such a change (review, policy). */
  readonly pricing?: {
    readonly fields: readonly string[];
    /** What an in-place pricing change does, for the review; absent where a pricing change replaces the object. */
    readonly onUpdate?: string;
    /** What an adopted object's pricing change does (converging it), for the review. */
    readonly onAdopt?: string;
    /** What a replacement with a pricing change does, by its new inputs, for the review. */
    readonly onReplace?: (inputs: Readonly<Record<string, unknown>>) => string;
    /** How the service applies it, for the policy pack's violation. */
    readonly policy?: string;
  };
  /** A replacement's steps at the service, in order, by the new inputs. */
  replaced(inputs: Readonly<Record<string, unknown>>): readonly string[];
  /** What a delete does at the service, by the inputs it had. */
  deleted(before: Readonly<Record<string, unknown>>): readonly string[];
  /** True when a delete only removes it from the stack (the service keeps it: it has no delete); else a delete archives it. */
  readonly removes?: boolean;
  /** True when a delete deletes it at the service (it has a delete and no archive), which cannot be undone. */
  readonly deletes?: boolean;
  /**
   * The input that lets its delete take data held elsewhere with it (a custom field's `deleteData`: its values on
   * every subscription or customer), and how that data is named from the checked inputs, read through `get` (a path;
   * a value not known yet is not a number): "its values on 12 subscriptions". The policy pack refuses it on a
   * production stack.
   */
  readonly deletesData?: {
    readonly input: string;
    readonly held: (get: (...path: string[]) => unknown) => string;
  };
}

/** A reference's input, and for a reference in each object of a list input, the field of each ("components.component"). */
export const referencePath = (reference: string): readonly [string, string | undefined] => {
  const dot = reference.indexOf(".");
  return dot < 0 ? [reference, undefined] : [reference.slice(0, dot), reference.slice(dot + 1)];
};

/** A kind's checked inputs. */
export type InputsOf<D extends Kind> = z.output<D["inputs"]>;
/** A kind's outputs, as `create`, `update` and `read` return them. */
export type OutputsOf<D extends Kind> = z.output<D["outputs"]>;

/** A value as the engine gives it in preview: the value, or its unknown placeholder (also nested). */
export type Previewed<T> = T extends readonly (infer E)[]
  ? readonly Previewed<E>[] | Unknown
  : T extends object
    ? { readonly [K in keyof T]: Previewed<T[K]> } | Unknown
    : T | Unknown;

/** Inputs at diff time: each checked, or unknown until apply. */
export type PreviewedInputs<D extends Kind> = { readonly [K in keyof InputsOf<D>]: Previewed<InputsOf<D>[K]> };

/** The inputs of a kind's resource class: each may be an Output of another resource. */
export type ArgsOf<D extends Kind> = { readonly [K in keyof z.input<D["inputs"]>]: DeepInput<z.input<D["inputs"]>[K]> };
type DeepInput<T> = T extends readonly (infer E)[]
  ? pulumi.Input<DeepInput<E>[]>
  : T extends object
    ? pulumi.Input<{ readonly [K in keyof T]: DeepInput<T[K]> }>
    : pulumi.Input<T>;

/** The outputs of a kind's resource class, merged into it. */
export type OutputPropsOf<D extends Kind> = { readonly [K in keyof OutputsOf<D>]-?: pulumi.Output<OutputsOf<D>[K]> };

export type { Assert, Same } from "../../sdk/type-checks";

/** What an operation gets besides its values. */
export interface Context {
  /** The client for a site (`billing:sites` entry, or the top-level keys), shared across operations. */
  client(site: string | undefined): BillingClient;
  /** The id a site-scoped resource uses: the site name, else the host it talks to. */
  siteLabel(site: string | undefined): string;
  /**
   * An error that keeps the resource in state with `recorded` (a partial failure),
   * so that the next `up` finishes the job instead of starting it again.
   */
  partialFailure(message: string, id: string, recorded: object): Error;
  /** A message on the CLI's diagnostics. */
  notice(message: string): void;
}

/**
 * A kind's operations, typed against its declaration. `St` is what the kind
 * records in state: its outputs, plus whatever it keeps for itself.
 */
export interface Operations<D extends Kind, St extends object> {
  /**
   * What the kind records in state: its outputs, plus what it keeps for itself. It reads
   * state written by this or an earlier version; what it cannot read is an error naming
   * the field, never a guess.
   */
  readonly state: z.ZodType<St, unknown>;
  /** The inputs as recorded in `state`, to compare with new ones in diff. */
  recordedInputs(state: St): Partial<Record<keyof InputsOf<D>, unknown>>;
  /** Checks only the service can answer (e.g. the subscription's product), on a first deploy, when inputs are known. */
  verify?(ctx: Context, inputs: InputsOf<D>): Promise<Verified>;
  /**
   * Checks and annotations only the service can answer, on every check whose known inputs passed: a first deploy
   * (`olds` undefined), a replacement or an update. Unlike `verify` it runs while other inputs are still unknown
   * (the engine's placeholder stays in `inputs`), so adoption and catalog rules are judged at preview as soon as
   * the values they need are known. Its `preview` is merged into the checked inputs' `preview` field.
   */
  preflight?(ctx: Context, inputs: PreviewedInputs<D>, olds: Partial<InputsOf<D>> | undefined): Promise<Verified>;
  /**
   * Outputs an in-place update never changes (the object's id), for the checked inputs of an update.
   * The engine previews an update's outputs from its inputs, so without them an id that other resources
   * take (a migration's `productId`) would be unknown at preview, and their diff would plan a replacement.
   * `olds` are the previous checked inputs (which carry these once an update has been checked).
   */
  stable?(ctx: Context, olds: Readonly<Record<string, unknown>>): Promise<Readonly<Record<string, unknown>> | undefined>;
  /** True when the recorded work is unfinished (pending, partial): diff then calls update even with equal inputs. */
  unfinished?(state: St): boolean;
  /** Throws (with a message for the user) when the change must not be planned at all. */
  refuse?(state: St, news: PreviewedInputs<D>, changed: readonly string[]): void;
  create(ctx: Context, inputs: InputsOf<D>): Promise<{ id: string; state: St }>;
  update(ctx: Context, id: string, state: St, inputs: InputsOf<D>): Promise<St>;
  /** `pulumi refresh`: the service's view, or undefined when the resource is gone there. Only for `refresh: true`. */
  read?(ctx: Context, id: string, state: St): Promise<St | undefined>;
  del(ctx: Context, id: string, state: St): Promise<void>;
}

/**
 * What verify found: failures for check(), and what the service says now, which check() adds to
 * the checked inputs as `preview` (not an input a program sets) so that policy packs and
 * review summaries of `pulumi preview --json` can read it.
 */
export interface Verified {
  readonly failures: readonly CheckFailure[];
  readonly preview?: Readonly<Record<string, unknown>>;
}

/**
 * The inputs that declare an object, from what its kind's `fromService` read: without what says how the kind
 * runs, what the service holds by default, or nothing (undefined, null); `asEntry` (a snapshot's entry) also
 * without the input that makes it its owner's part. The one filter export, import and diff apply.
 */
export function declaredInputs(facet: CatalogFacet, inputs: Readonly<Record<string, unknown>>, asEntry = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(inputs)) {
    if (v === undefined || v === null || facet.runtimeInputs.includes(k) || (asEntry && k === facet.partOfOwner?.input)) continue;
    if (k in facet.defaults && JSON.stringify(facet.defaults[k]) === JSON.stringify(v)) continue;
    out[k] = v;
  }
  return out;
}

/** What the catalog's read gives a kind's `fromService`: the rest of the site, by kind key. */
export interface SiteView {
  /** The key (handle or code) of an object of a kind by its id at this site; undefined when it has none or is not there. */
  keyOf(kind: string, id: number): Promise<string | undefined>;
  /** The objects of `kind` that `owner` holds (a product's price points), archived ones included. */
  children(kind: string, owner: unknown): Promise<readonly unknown[]>;
}

/**
 * A catalog kind's reading of the service: how its objects are listed and found, and `fromService`, the one
 * rule from what the service holds to the inputs that declare it, read by export, the import file, the plugin's
 * `pulumi import` and diff alike.
 */
export interface CatalogReader<Obj = unknown> {
  /** Every object of the kind at the site (those `owner` holds, for a kind with an owner), archived ones included. */
  list(client: BillingClient, owner?: unknown): Promise<readonly Obj[]>;
  /** The object an import id's part names (a key, or an id), in `owner` for a kind with one; undefined when none. */
  find(client: BillingClient, key: string, owner?: unknown): Promise<Obj | undefined>;
  /**
   * The object with this key exactly (a key of digits is a key here, never an id), in `owner` (an object with the
   * owner's `id`) for a kind with one; undefined when the site has none, archived ones included. The check of
   * `handle:` references at preview reads it: one read, without what `find` reads beside it (only its id is used). Required of
   * every kind another kind's `references` name (a test reads the declarations).
   */
  withKey?(client: BillingClient, key: string, owner?: { readonly id: number }): Promise<{ readonly id: number } | undefined>;
  /** Its id at the site. */
  id(o: Obj): number;
  /** Its key across sites; undefined when it has none (then nothing keys it, and the read skips it). */
  key(o: Obj): string | undefined;
  /** Whether the service archived it. */
  archived(o: Obj): boolean;
  /** The inputs that declare what the service holds: references as `handle:<h>`, defaults left out, no runtime inputs. */
  fromService(o: Obj, site: SiteView): Promise<Record<string, unknown>>;
  /** The state the kind records for this object, adopted with these inputs (what an import records). */
  record(client: BillingClient, o: Obj, inputs: Record<string, unknown>, site: string | undefined): Promise<object>;
}

/** What `pulumi import` does for a kind: read what the id names, or why the kind cannot be imported. */
export type Importer<St> =
  | {
      /** The id forms, for messages ("the family's handle or id (e.g. plans), or <site>/<handle> for an entry of billing:sites"). */
      readonly forms: string;
      /** The state and the inputs of what `id` names; an Error for an id that names nothing, in the user's words. */
      read(ctx: Context, id: string): Promise<{ readonly id: string; readonly state: St; readonly inputs: Record<string, unknown> }>;
    }
  | { readonly refused: string };

/** A kind: its declaration and its operations. */
export interface KindModule<D extends Kind = Kind, St extends object = object> {
  readonly kind: D;
  readonly operations: Operations<D, St>;
  /** For a catalog kind ({@link Kind.catalog}): how the service's objects are read. */
  readonly reader?: CatalogReader;
  /** `pulumi import`, through the provider plugin. */
  readonly importer?: Importer<St>;
}

/** A registry of kinds: each module under the key its declaration names (the key `__provider` stores). */
export const registry = <R extends { readonly [K in keyof R]: { readonly kind: { readonly key: K } } }>(r: R): R => r;

/** Names a declaration's literal types for inference (a typed identity). */
export const declareKind = <K extends string, In extends z.ZodObject, Out extends z.ZodObject>(d: Kind<K, In, Out>): Kind<K, In, Out> => d;

/**
 * The constructor of a kind's resource class: its args in, its declared outputs on the instance. `A` and `O`
 * are the kind's generated interfaces (the same types, with each property's docs), so an editor shows them.
 */
export type ResourceClass<D extends Kind, A = ArgsOf<D>, O = OutputPropsOf<D>> = new (
  name: string,
  args: A,
  opts?: pulumi.CustomResourceOptions,
) => pulumi.dynamic.Resource & O;

/**
 * The base of a kind's resource class (`class X extends resourceClass(kind) {}`): it
 * registers `billing:<type>` with the kind's stored provider (one per kind: each instance costs a serialization), each declared output as an output
 * (undefined), then the inputs, after `prepare` (a check that needs the program, e.g. across resources).
 * The first one of a run warns about credentials in the stack config without `--secret`.
 */
export function resourceClass<D extends Kind, A extends ArgsOf<D> = ArgsOf<D>, O extends OutputPropsOf<D> = OutputPropsOf<D>>(
  kind: D,
  prepare: (name: string, args: A) => A = (_, args) => args,
): ResourceClass<D, A, O> {
  const provider = storedProvider(kind.key as ProviderKind);
  const base = class extends pulumi.dynamic.Resource {
    constructor(name: string, args: A, opts?: pulumi.CustomResourceOptions) {
      warnPlainCredentials();
      const props: pulumi.Inputs = {};
      for (const output of Object.keys(kind.outputs.shape)) props[output] = undefined;
      Object.assign(props, prepare(name, args));
      // Every property is four promises with a stack trace each, read only by a leak report: registration-stacks.ts.
      const limit = beginRegistration();
      try {
        super(provider, name, props, opts, "billing", kind.type);
      } catch (err) {
        throw registrationError(limit, err);
      } finally {
        endRegistration(limit);
      }
    }
  };
  // The outputs are properties the engine fills in; the kind declares them (OutputPropsOf), which TypeScript cannot see here.
  return base as unknown as ResourceClass<D, A, O>;
}
