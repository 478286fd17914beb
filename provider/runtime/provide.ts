import type * as dynamic from "@pulumi/pulumi/dynamic";
import { z } from "zod";
import { BillingError } from "../../sdk/errors";
import { readingOnce } from "../../sdk/reads-once";
import { keysOf, problemsOf } from "../../sdk/validation";
import {
  type CheckFailure,
  failuresOf,
  isUnknown,
  notice,
  onTopLevel,
  PREVIEW_KEY,
  partialFailure,
  UNKNOWN,
  unknownInputs,
  userInputs,
} from "../engine";
import type { Context, Importer, InputsOf, Kind, KindModule, PreviewedInputs } from "../kinds/kind";
import { catalogImporter } from "./catalog-import";
import { clientFor, configuredFromRecord, siteCheck, siteLabel } from "./config";
import { diffDetail, withDetail } from "./diff-detail";
import { withRecordedKeyAdvice } from "./recorded-config";
import { noteDeclared, type ReferenceCheck, referenceCheck } from "./references";
import { reported } from "./reported";

/** Props as the engine hands them over: the one place they are untyped, read by the functions below and nowhere else. */
type EngineProps = Parameters<dynamic.ResourceProvider["create"]>[0];

/** The operations the serialized shell calls, each with the provider object first (its configuration is keyed by it). */
export interface ProvidedKind {
  check(provider: object, olds: EngineProps, news: EngineProps): Promise<dynamic.CheckResult>;
  diff(provider: object, id: string, olds: EngineProps, news: EngineProps): Promise<dynamic.DiffResult>;
  create(provider: object, news: EngineProps): Promise<dynamic.CreateResult>;
  update(provider: object, id: string, olds: EngineProps, news: EngineProps): Promise<dynamic.UpdateResult>;
  read(provider: object, id: string, props: EngineProps): Promise<dynamic.ReadResult>;
  del(provider: object, id: string, props: EngineProps): Promise<void>;
  /** `pulumi import` (the plugin's read without state): the state and the inputs of what `importId` names. */
  import(provider: object, importId: string): Promise<{ id: string; props: Record<string, unknown>; inputs: Record<string, unknown> }>;
}

/** The keys each object input accepts ("" for the inputs themselves, "selector" for a nested one), for messages. */
function acceptedKeys(inputs: z.ZodObject): { [path: string]: readonly string[] } {
  const out: { [path: string]: readonly string[] } = {};
  // Every object the inputs hold, at any depth: in a list ("prices.*") or as a record's values ("currencyPrices.*") too,
  // so that an unknown key in a tier or in a currency's amounts says what would be accepted there.
  const walk = (schema: z.core.$ZodType, path: readonly string[]): void => {
    let inner: z.core.$ZodType = schema;
    // Through .optional(), .default(), .nullable() (their innerType) and .transform() (the pipe's input).
    for (;;) {
      const def = inner._zod.def as { innerType?: z.core.$ZodType; type: string; in?: z.core.$ZodType };
      if (def.innerType) inner = def.innerType;
      else if (def.type === "pipe" && def.in) inner = def.in;
      else break;
    }
    if (inner instanceof z.ZodObject) {
      out[path.join(".")] = Object.keys(inner.shape);
      for (const [key, field] of Object.entries(inner.shape)) walk(field as z.core.$ZodType, [...path, key]);
    } else if (inner instanceof z.ZodArray) walk(inner.element as z.core.$ZodType, [...path, "*"]);
    else if (inner instanceof z.ZodRecord) walk(inner._zod.def.valueType as z.core.$ZodType, [...path, "*"]);
  };
  walk(inputs, []);
  return out;
}

/** Whether the value at `path` in `value`, or one on the way to it, is (or holds) the engine's unknown placeholder. */
export function unknownAt(value: unknown, path: readonly PropertyKey[]): boolean {
  let v = value;
  for (const key of path) {
    if (v === UNKNOWN) return true;
    // Past a null or a primitive there is nothing to find: undefined, which is known.
    v = (v as { [k: PropertyKey]: unknown } | null | undefined)?.[key];
  }
  return isUnknown(v);
}

/**
 * The runtime of one kind: turns the engine's props into the kind's typed
 * values (check with its input schema, state read with its state schema) and
 * calls its operations.
 */
export function provide<K extends string, In extends z.ZodObject, Out extends z.ZodObject, St extends object>(
  { kind, operations: ops, importer: own }: KindModule<Kind<K, In, Out>, St>,
  /** The kind's import when it declares none of its own (the catalog's, read from its reader). */
  imports: Importer<object> | undefined = undefined,
  /** The check of its `handle:` references at the site (from its catalog facet's `references`), before its preflight. */
  references: ReferenceCheck | undefined = undefined,
): ProvidedKind {
  const importer = own ?? imports;
  type D = Kind<K, In, Out>;
  const accepted = keysOf(kind.inputs);
  const acceptedByPath = acceptedKeys(kind.inputs);
  const field = (key: string): z.ZodType => kind.inputs.shape[key] as z.ZodType;

  const context = (provider: object, providerText: unknown): Context => ({
    client: (site) => clientFor(provider, site),
    siteLabel: (site) => siteLabel(provider, site),
    partialFailure: (message, id, recorded) => partialFailure(message, id, { ...recorded }, providerText),
    notice,
  });

  /** The context of one check: each read sent once across its steps (references, verify, preflight, stable). */
  const checkContext = (provider: object, providerText: unknown): Context => {
    const base = context(provider, providerText);
    const once = new Map<string | undefined, ReturnType<Context["client"]>>();
    return {
      ...base,
      client(site) {
        const client = once.get(site) ?? readingOnce(base.client(site));
        once.set(site, client);
        return client;
      },
    };
  };

  /** Only the keys the kind declares: check has reported any other. */
  const declared = (props: EngineProps) => {
    const inputs = userInputs(props);
    return Object.fromEntries(accepted.filter((k) => Object.hasOwn(inputs, k)).map((k) => [k, inputs[k]]));
  };

  const inputsOf = (props: EngineProps): InputsOf<D> => {
    const r = kind.inputs.safeParse(declared(props));
    if (!r.success) {
      // check() has passed these, so this is a defect, not a user error; say what failed.
      const what = problemsOf(r.error).map((p) => `${p.property}: ${p.message}`);
      throw new Error(`${kind.type}: inputs that passed check do not parse: ${what.join("; ")}`);
    }
    return r.data;
  };

  const stateOf = (id: string, props: EngineProps): St => {
    const r = ops.state.safeParse(userInputs(props));
    if (!r.success) {
      const what = problemsOf(r.error).map((p) => `${p.property}: ${p.message}`);
      throw new Error(
        `${kind.type} ${id}: the recorded state is not one this version of pulumi-subscription-billing reads (${what.join("; ")}). ` +
          "Nothing was sent. If the package was downgraded, upgrade it again.",
      );
    }
    return r.data;
  };

  /** A value normalised by its field's schema (defaults, sorting), so that equal choices compare equal. */
  const normal = (key: string, v: unknown): string => {
    const r = field(key).safeParse(v);
    // Keys in one order: a record's (currencyPrices) is the service's order when imported, sorted as the exported program writes it.
    return JSON.stringify((r.success ? r.data : v) ?? null, (_k, x: unknown) =>
      x !== null && typeof x === "object" && !Array.isArray(x)
        ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : x,
    );
  };

  /** Known inputs parsed by their field schemas; unknown ones stay the placeholder. */
  const previewed = (props: EngineProps): PreviewedInputs<D> => {
    const inputs = declared(props);
    const out: { [key: string]: unknown } = {};
    for (const [k, v] of Object.entries(inputs)) {
      const r = isUnknown(v) ? undefined : field(k).safeParse(v);
      out[k] = r?.success ? r.data : v;
    }
    return out as PreviewedInputs<D>;
  };

  const replacingKeys = kind.replaceOn === "all" ? accepted : (kind.replaceOn as readonly string[]);
  const replacingChange = (olds: { [key: string]: unknown }, news: { [key: string]: unknown }) =>
    replacingKeys.some((k) => normal(k, olds[k]) !== normal(k, news[k]));

  /** The preview key that announces what an update will do, rather than what was found. */
  const ANNOUNCED = "pricingChange";
  const declaredChange = (olds: { [key: string]: unknown }, news: { [key: string]: unknown }) =>
    accepted.some((k) => isUnknown(news[k]) || normal(k, olds[k]) !== normal(k, news[k]));
  /**
   * The preview a check without a declared change stores: what was found before (an adoption, a data count, a
   * migration's charge) as recorded, but a pricing change as found now. That one announces what the next update does
   * (the policy pack and the review read it): an update that reverts drift at the service makes one with the same
   * declaration, and once applied it is gone.
   */
  const recordedPreview = (recorded: unknown, fresh: Record<string, unknown> | undefined) => {
    const { [ANNOUNCED]: _, ...kept } = (recorded ?? {}) as Record<string, unknown>;
    const merged = fresh?.[ANNOUNCED] !== undefined ? { ...kept, [ANNOUNCED]: fresh[ANNOUNCED] } : kept;
    return Object.keys(merged).length > 0 ? merged : undefined;
  };
  /** What an earlier update's check added to the inputs (the stable outputs), as recorded. */
  const carried = (olds: { [key: string]: unknown }) => {
    const kept = Object.entries(userInputs(olds)).filter(([k]) => !accepted.includes(k) && k !== PREVIEW_KEY);
    return kept.length > 0 ? Object.fromEntries(kept) : undefined;
  };

  return {
    async check(provider, olds, given) {
      const ctx = checkContext(provider, given.__provider);
      const firstDeploy = Object.keys(userInputs(olds)).length === 0;
      // The same objects referred to the other way (an id output where the recorded inputs say `handle:<h>`, as the exported
      // program after `pulumi import`) are no change: written as recorded, else the engine would replace or update on the
      // written values. Only a declaration that holds together and is known is read for it (one read per such reference).
      const asRecorded =
        references &&
        !firstDeploy &&
        kind.inputs.safeParse(declared(given)).success &&
        // A site the provider does not serve is check's own failure below, not a thrown read.
        siteCheck(provider, declared(given).site).length === 0
          ? await references.asRecorded(ctx, previewed(given), previewed(olds))
          : [];
      const news = asRecorded.length > 0 ? { ...given, ...Object.fromEntries(asRecorded.map((k) => [k, declared(olds)[k]])) } : given;
      const raw = declared(news);
      const failures: CheckFailure[] = unknownInputs(kind.type, accepted, userInputs(news));
      const parsed = kind.inputs.safeParse(raw);
      if (!parsed.success) {
        // A rule on which fields are present holds whatever an unknown value turns out to be.
        const presence = (issue: z.core.$ZodIssue) => issue.code === "custom" && issue.params?.presence === true;
        const known = parsed.error.issues.filter((issue) => presence(issue) || !unknownAt(raw, issue.path));
        failures.push(...failuresOf(problemsOf(new z.ZodError(known), undefined, acceptedByPath)));
      }
      if (!failures.some((f) => f.property === "site")) failures.push(...siteCheck(provider, raw.site));
      // A first deploy, or a replacement: either is a new resource at the service, to verify (and preview) anew.
      const replacing = !firstDeploy && replacingChange(declared(olds), raw);
      // Only a declaration that holds together is read at the site (a bad one sends nothing, reads included).
      if (failures.length === 0 && kind.catalog) noteDeclared(ctx, kind, previewed(news));
      let preview: Record<string, unknown> | undefined;
      if (failures.length === 0 && parsed.success && !isUnknown(raw) && (firstDeploy || replacing) && ops.verify) {
        const verified = await ops.verify(ctx, parsed.data);
        failures.push(...verified.failures);
        preview = verified.preview && { ...verified.preview };
      }
      if (failures.length === 0 && ops.preflight) {
        const oldInputs = firstDeploy ? undefined : (previewed(olds) as Partial<InputsOf<D>>);
        const checked = await ops.preflight(ctx, previewed(news), oldInputs);
        failures.push(...checked.failures);
        if (checked.preview) preview = { ...preview, ...checked.preview };
      }
      // After the kind's own reads (which name what they find wrong in its words): a `handle:` the site has no object for.
      if (failures.length === 0 && references)
        failures.push(...(await references.failures(ctx, previewed(news), firstDeploy ? undefined : previewed(olds))));
      // Without a declared change the checked inputs are the recorded ones: what check adds (the ids below, what preview
      // found) is carried as recorded, not read again. A no-change `up` then stores what it found, and the engine has no
      // checkpoint to write for the resource (issue 43: one rewrite per resource made a no-change `up` quadratic).
      const unchanged = failures.length === 0 && !firstDeploy && !replacing && !declaredChange(declared(olds), raw);
      if (unchanged) preview = recordedPreview(userInputs(olds)[PREVIEW_KEY], preview);
      // Outputs an in-place update keeps (ids), so that preview shows them known: not declared inputs, so no diff reads them.
      // Only an update needs them: the engine previews its outputs from its inputs.
      const stable = unchanged
        ? carried(olds)
        : failures.length === 0 && !firstDeploy && !replacing && ops.stable
          ? await ops.stable(ctx, userInputs(olds))
          : undefined;
      const checked = stable ? { ...news, ...Object.fromEntries(Object.entries(stable).filter(([k]) => !accepted.includes(k))) } : news;
      // Not a declared input: diff, create and update read declared keys only, so it never causes a change.
      const failed = failures.map((f) => onTopLevel(f, accepted));
      if (preview) return { inputs: { ...checked, [PREVIEW_KEY]: preview }, failures: failed };
      return { inputs: checked, failures: failed };
    },

    async diff(_provider, id, olds, news) {
      const state = stateOf(id, olds);
      const recorded: { [key: string]: unknown } = ops.recordedInputs(state);
      const now = declared(news);
      const changed = accepted.filter((k) => isUnknown(now[k]) || normal(k, recorded[k]) !== normal(k, now[k]));
      if (changed.length === 0) return { changes: ops.unfinished?.(state) ?? false, replaces: [], deleteBeforeReplace: false };
      ops.refuse?.(state, previewed(news), changed);
      const replaces = kind.replaceOn === "all" ? changed : changed.filter((k) => (kind.replaceOn as readonly string[]).includes(k));
      // The changed declared inputs, so that the diff users read names those, never `preview` or the ids check() adds.
      return withDetail({ changes: true, replaces, deleteBeforeReplace: false }, diffDetail(recorded, now, changed, replaces));
    },

    async create(provider, news) {
      const { id, state } = await ops.create(context(provider, news.__provider), inputsOf(news));
      return { id, outs: defined(state) };
    },

    async update(provider, id, olds, news) {
      return { outs: defined(await ops.update(context(provider, news.__provider), id, stateOf(id, olds), inputsOf(news))) };
    },

    async read(provider, id, props) {
      if (!ops.read) return { id, props: userInputs(props) };
      const state = await ops.read(context(provider, props.__provider), id, stateOf(id, props)).catch((err: unknown) => {
        throw configuredFromRecord(provider) ? withRecordedKeyAdvice(err) : err;
      });
      // An empty id tells the engine the resource is gone: refresh drops it from the stack.
      return state ? { id, props: defined(state) } : { id: "", props: {} };
    },

    async del(provider, id, props) {
      await ops.del(context(provider, props.__provider), id, stateOf(id, props)).catch((err: unknown) => {
        throw configuredFromRecord(provider) ? withRecordedKeyAdvice(err) : err;
      });
    },

    async import(provider, importId) {
      const named = (message: string) => `${kind.type} import id "${importId}": ${message}`;
      if (!importer) throw new Error(`${kind.type} cannot be imported.`);
      if ("refused" in importer) throw new Error(importer.refused);
      try {
        const { id, state, inputs } = await importer.read(context(provider, undefined), importId);
        return { id, props: defined(state) as Record<string, unknown>, inputs: defined(inputs) };
      } catch (err) {
        // The client's own errors pass as they are (typed, and they say which request failed); the kind's are said of this id.
        if (err instanceof Error && !(err instanceof BillingError) && !err.message.startsWith(`${kind.type} import id`))
          err.message = named(err.message);
        throw err;
      }
    },
  };
}

/**
 * A state without its `undefined` values (an optional field left unset), which the host's
 * protobuf Struct refuses ("Unexpected struct type") after the service has acted.
 */
const defined = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** The runtime of every kind of a registry, under the same keys. */
export function provideAll<R extends { readonly [K in keyof R]: { readonly kind: Kind } }>(
  registry: R,
): { readonly [K in keyof R]: ProvidedKind } {
  const out: { [key: string]: ProvidedKind } = {};
  // Each entry is a KindModule (the registry's own type says so); its types do not matter here.
  const modules = Object.values<unknown>(registry) as KindModule<Kind, object>[];
  for (const [key, module] of Object.entries<unknown>(registry))
    out[key] = reported(provide(module as KindModule<Kind, object>, catalogImporter(modules, key), referenceCheck(modules, key)));
  return out as { readonly [K in keyof R]: ProvidedKind };
}
