import { BillingApiError, CatalogOutcomeUnknownError } from "../../sdk/errors";
import { isUnknown } from "../engine";
import type { Context, Verified } from "./kind";

/**
 * The one lifecycle of the service's objects that have a handle (or a coupon's code): created once,
 * with a uniqueness token and a read-back, or adopted when the site already holds the handle
 * (`adopt: false` refuses that); a create whose outcome is unknown recorded with its token, so the
 * next `up` looks before it sends again; an archived object unarchived where the service can, else
 * refused; a replacement in the order that never leaves anything without what it needs (the old
 * object's handle freed, the new one created, promoted, the old one archived); delete archives.
 * A kind supplies its service calls and field mapping ({@link Steps}); the order and what is
 * recorded at each failure are written here once.
 */

/** What every such kind records besides its outputs. */
export interface LifecycleState {
  /** The declared inputs (those set), as the kind compares them. */
  readonly args: Record<string, unknown>;
  readonly site?: string;
  /** While a create's outcome is unknown: the token it was sent with. */
  readonly pendingToken?: string;
  /** What is left after a create or adoption: promote it, archive the objects it replaced. */
  readonly todo?: { readonly promote?: boolean; readonly archive?: readonly unknown[] };
}

/** A kind's rule that refuses a declaration: an error of the user's making, never recorded as a partial failure. */
export class Refusal extends Error {}

/** The declared inputs every such kind takes. */
interface Declared {
  readonly site?: string;
  readonly adopt?: boolean;
  readonly default?: boolean;
}

/**
 * A kind's part of the lifecycle. `Obj` is what the service holds (with what the kind reads beside it),
 * `Where` where the object lives (its family's or product's id), resolved from inputs or state.
 */
export interface Steps<In extends Declared, St extends LifecycleState, Obj, Where> {
  /** The kind's type, as notices start. */
  readonly type: string;
  /** What it is a price point of ("product"), for a kind whose objects can be their owner's default. */
  readonly owner?: string;
  /** How messages name one ("product"). */
  readonly noun: string;
  /** The input and state field that names it across sites (and, for a key renamed in place, the one it holds now). */
  readonly key: "handle" | "code" | "name";
  /** True for a kind the service deletes (a reason code) rather than archives: {@link archive} deletes it, and messages say so. */
  readonly deletes?: boolean;
  /** Where a declaration's object lives; a reference the site does not have fails naming the input. */
  where(ctx: Context, inputs: In): Promise<Where>;
  /** Where a recorded object lives. */
  whereOf(ctx: Context, s: St): Promise<Where>;
  /** The object with the declared key, archived or not; undefined when the site has none. */
  find(ctx: Context, key: string, where: Where, inputs: In): Promise<Obj | undefined>;
  id(o: Obj): number;
  keyOf(o: Obj): string | undefined;
  archivedAt(o: Obj): string | undefined;
  /** Brings an archived object back; without it, an archived object is refused with {@link archivedRefusal}. */
  unarchive?(ctx: Context, o: Obj, where: Where): Promise<Obj>;
  /** Why an archived object cannot be managed (the service has no unarchive of it). */
  archivedRefusal(o: Obj): string;
  /** Why an existing object can never be this declaration's (another family, which the service cannot change). */
  foreign?(o: Obj, inputs: In, where: Where): string | undefined;
  /** What only a new object can carry (create-only fields that differ): non-empty replaces the object, its key freed first. */
  createOnly?(ctx: Context, o: Obj, inputs: In, where: Where): Promise<readonly string[]>;
  /** Frees an object's key for its replacement (renames it); what the kind records to archive it later. */
  free?(ctx: Context, o: Obj, where: Where): Promise<{ readonly freed: string; readonly old: unknown }>;
  /**
   * Why the service would refuse this create, or the converging of the object it adopts, for what other live objects
   * hold beyond the key (a component's name, unique among its family's live components); undefined when nothing.
   * Asked before anything is sent, with the object found by key: `adopted` (it keeps what it holds) or `replaced`
   * (freed for this one, it holds the rest until it is archived after; `createOnly` says why it is replaced).
   */
  conflict?(
    ctx: Context,
    inputs: In,
    where: Where,
    found: { readonly adopted?: Obj; readonly replaced?: Obj; readonly createOnly: readonly string[] },
  ): Promise<string | undefined>;
  create(ctx: Context, inputs: In, where: Where, token: string | undefined): Promise<Obj>;
  /** Sends what the service holds differently from the declaration, in place; returns what it holds then. `recorded`: an update's state. */
  converge(ctx: Context, o: Obj, inputs: In, where: Where, created: boolean, recorded?: St): Promise<Obj>;
  /** The recorded object, for an update or a refresh; a 404 throws (BillingApiError). */
  current(ctx: Context, s: St, id: number, where: Where): Promise<Obj>;
  /** The outputs and what the kind keeps of this object (its key and args are added here). */
  record(o: Obj, inputs: In, where: Where): Partial<St>;
  /** What a pending create records beside its key, args and token (ids resolved before it was sent). */
  pending?(where: Where): Record<string, unknown>;
  /** Whether it is (and so need not be made) its owner's default. */
  isDefault?(o: Obj): boolean;
  promote?(ctx: Context, o: { readonly id: number }, where: Where): Promise<void>;
  /** Archives a replaced object unless already archived or gone; what to tell the user, if anything. */
  archiveReplaced?(ctx: Context, old: unknown, where: Where): Promise<string | undefined>;
  /** Archives the object at delete (deletes it, for a kind that {@link deletes}); what to tell the user. */
  archive(ctx: Context, o: Obj, s: St, where: Where): Promise<string | undefined>;
}

/** `product \`pro\` (id 12)`: how messages name an object. */
export const labelOf = (noun: string, key: string, id: number | string) => `${noun} \`${key}\` (id ${id})`;

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** A 404, the service's "not there". */
export const isNotFound = (err: unknown): boolean => err instanceof BillingApiError && err.status === 404;

/** The result of `read`, or undefined when the service answers 404. */
export async function unless404<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** The lifecycle's operations over a kind's steps. */
export function lifecycle<In extends Declared & Record<string, unknown>, St extends LifecycleState, Obj, Where>(
  steps: Steps<In, St, Obj, Where>,
  /** The inputs recorded as `args`, and the output that holds the object's id (`productId`). */
  recorded: { readonly argKeys: readonly string[]; readonly idField: string },
) {
  const { argKeys, idField } = recorded;
  const label = (key: string, id: number | string) => labelOf(steps.noun, key, id);
  const argsOf = (inputs: In) => Object.fromEntries(argKeys.filter((k) => inputs[k] !== undefined).map((k) => [k, inputs[k]]));
  const keyOf = (inputs: In) => String(inputs[steps.key]);
  const recordOf = (o: Obj, inputs: In, where: Where, todo?: LifecycleState["todo"]): St => {
    const left = todo && (todo.promote || (todo.archive?.length ?? 0) > 0) ? { todo } : {};
    return { ...steps.record(o, inputs, where), [steps.key]: steps.keyOf(o) ?? keyOf(inputs), args: argsOf(inputs), ...left } as St;
  };
  const idOf = (id: string, s: St, own: number | undefined): number | undefined =>
    own ?? (s.pendingToken === undefined && /^[1-9][0-9]*$/.test(id) ? Number(id) : undefined);

  /** Promote, then archive what it replaced: the owner always has a live default. A failure records what is left. */
  async function finish(ctx: Context, id: string, s: St, oid: number, where: Where): Promise<St> {
    let promote = s.todo?.promote === true;
    let archive = [...(s.todo?.archive ?? [])];
    const keep = (): St => {
      const { todo: _, ...rest } = s;
      return (promote || archive.length > 0 ? { ...rest, todo: { promote, archive } } : rest) as St;
    };
    try {
      if (promote && steps.promote) {
        await steps.promote(ctx, { id: oid }, where);
        s = { ...s, isDefault: true };
        promote = false;
      }
      while (archive.length > 0) {
        const said = await steps.archiveReplaced?.(ctx, archive[0], where);
        if (said) ctx.notice(`${steps.type}: ${said}`);
        archive = archive.slice(1);
      }
    } catch (err) {
      const left = [
        promote ? `promote it to the ${steps.owner ?? "owner"}'s default` : "",
        archive.length > 0 ? `archive the replaced ${steps.noun}(s) ${archive.map((a) => JSON.stringify(a)).join(", ")}` : "",
      ].filter(Boolean);
      throw ctx.partialFailure(
        `${label(String((s as Record<string, unknown>)[steps.key]), oid)} was created and recorded; what is left (${left.join(", ")}) failed: ${message(err)}. The next \`pulumi up\` finishes it.`,
        id,
        keep(),
      );
    }
    return keep();
  }

  async function createOrAdopt(
    ctx: Context,
    id: string | undefined,
    inputs: In,
    token: string | undefined,
    replacing: readonly unknown[] = [],
  ): Promise<{ id: string; state: St }> {
    const key = keyOf(inputs);
    const where = await steps.where(ctx, inputs);
    /** A conflict the kind finds is refused here, before anything is sent (the old object's key not yet freed). */
    const refuseConflict = async (found: Parameters<NonNullable<typeof steps.conflict>>[3]) => {
      const reason = await steps.conflict?.(ctx, inputs, where, found);
      if (reason) throw new Refusal(`${steps.type} \`${key}\`: ${reason}. Nothing was changed`);
    };
    let existing = await steps.find(ctx, key, where, inputs);
    const archive = [...replacing];
    let freed: string | undefined;
    if (existing) {
      if (steps.archivedAt(existing) !== undefined) {
        if (!steps.unarchive) throw new Refusal(steps.archivedRefusal(existing));
        existing = await steps.unarchive(ctx, existing, where);
        ctx.notice(`${steps.type}: unarchived ${label(key, steps.id(existing))} to manage it.`);
      }
      const foreign = steps.foreign?.(existing, inputs, where);
      if (foreign) throw new Refusal(foreign);
      const createOnly = (await steps.createOnly?.(ctx, existing, inputs, where)) ?? [];
      // Adopting is what adopt: false refuses; freeing the key of an object this declaration replaces is not.
      if (createOnly.length === 0 && inputs.adopt === false && token === undefined)
        throw new Refusal(`${label(key, steps.id(existing))} already exists and adopt is false: nothing was changed`);
      await refuseConflict(createOnly.length === 0 ? { adopted: existing, createOnly } : { replaced: existing, createOnly });
      if (createOnly.length === 0) {
        const oid = steps.id(existing);
        const newId = id ?? String(oid);
        if (token === undefined) ctx.notice(`adopted ${steps.noun} \`${key}\` (id ${oid}) of site ${ctx.siteLabel(inputs.site)}`);
        const promote = inputs.default === true && steps.isDefault?.(existing) === false;
        let held = existing;
        try {
          held = await steps.converge(ctx, existing, inputs, where, false);
        } catch (err) {
          if (err instanceof Refusal) throw err;
          throw ctx.partialFailure(
            `${label(key, oid)} was adopted and recorded; converging it failed: ${message(err)}. The next \`pulumi up\` sends what still differs.`,
            newId,
            recordOf(existing, inputs, where, { promote, archive }),
          );
        }
        return { id: newId, state: await finish(ctx, newId, recordOf(held, inputs, where, { promote, archive }), oid, where) };
      }
      if (!steps.free)
        throw new Refusal(`${label(key, steps.id(existing))} differs in what only a new one can carry (${createOnly.join(", ")})`);
      const { freed: to, old } = await steps.free(ctx, existing, where);
      freed = to;
      ctx.notice(
        `${steps.type}: ${label(key, steps.id(existing))} is renamed \`${to}\` to free its ${steps.key} for its replacement (${createOnly.join(", ")}); it is archived once the new one exists.`,
      );
      archive.push(old);
    } else await refuseConflict({ createOnly: [] });
    let created: Obj;
    try {
      created = await steps.create(ctx, inputs, where, token);
    } catch (err) {
      const applied = freed !== undefined ? ` The old ${steps.noun} holds the ${steps.key} \`${freed}\` now.` : "";
      if (!(err instanceof CatalogOutcomeUnknownError)) {
        if (applied === "") throw err;
        throw new Error(`${message(err)}.${applied} The create was not applied; the next \`pulumi up\` creates it.`);
      }
      throw ctx.partialFailure(
        `${err.message}.${applied} Recorded: the next \`pulumi up\` looks for ${steps.noun} \`${key}\` by its ${steps.key} and only re-sends the create, with the same token, if it is not there.`,
        id ?? `pending-${err.uniquenessToken}`,
        {
          [steps.key]: key,
          args: argsOf(inputs),
          ...(inputs.site !== undefined ? { site: inputs.site } : {}),
          ...steps.pending?.(where),
          pendingToken: err.uniquenessToken,
          ...(archive.length > 0 ? { todo: { archive } } : {}),
        },
      );
    }
    const oid = steps.id(created);
    const newId = id ?? String(oid);
    const todo = { promote: inputs.default === true && steps.isDefault?.(created) === false, archive };
    let held = created;
    try {
      // What the create's body cannot carry (a component's update-only fields) is sent at once.
      held = await steps.converge(ctx, created, inputs, where, true);
    } catch (err) {
      throw ctx.partialFailure(
        `${label(key, oid)} was created and recorded; setting what its create could not carry failed: ${message(err)}. The next \`pulumi up\` sends it.`,
        newId,
        recordOf(created, inputs, where, todo),
      );
    }
    return { id: newId, state: await finish(ctx, newId, recordOf(held, inputs, where, todo), oid, where) };
  }

  /** The id of the object a state records, when it records one. */
  const recordedId = (id: string, s: St) => idOf(id, s, (s as Record<string, unknown>)[idField] as number | undefined);

  return {
    argsOf,
    label,

    create: (ctx: Context, inputs: In) => createOrAdopt(ctx, undefined, inputs, undefined),

    /** Finishes a pending create or replacement first; then reads the object, so a repeated update sends only what still differs. */
    async update(ctx: Context, id: string, s: St, inputs: In): Promise<St> {
      if (s.pendingToken !== undefined) return (await createOrAdopt(ctx, id, inputs, s.pendingToken, s.todo?.archive ?? [])).state;
      const oid = recordedId(id, s);
      if (oid === undefined) return (await createOrAdopt(ctx, id, inputs, undefined, s.todo?.archive ?? [])).state;
      const key = String((s as Record<string, unknown>)[steps.key]);
      const where = await steps.whereOf(ctx, s);
      let live: Obj;
      try {
        // Read at the declared site (the same as recorded: a change of site replaces the object).
        live = await steps.current(ctx, { ...s, site: inputs.site }, oid, where);
      } catch (err) {
        if (isNotFound(err))
          throw new Error(`${label(key, oid)} no longer exists at the service: run \`pulumi refresh\` to drop it (nothing was changed)`);
        throw err;
      }
      if (steps.archivedAt(live) !== undefined) {
        if (!steps.unarchive)
          throw new Refusal(
            `${steps.archivedRefusal(live)}. Nothing was changed; to let it go, remove it from the program (its destroy changes nothing more).`,
          );
        live = await steps.unarchive(ctx, live, where);
        ctx.notice(`${steps.type}: ${label(key, oid)} was archived outside the stack; unarchived it.`);
      }
      let held: Obj;
      try {
        held = await steps.converge(ctx, live, inputs, where, false, s);
      } catch (err) {
        if (err instanceof BillingApiError && err.status === 422)
          throw new Error(
            `${steps.type} \`${keyOf(inputs)}\`: the service refused the update: ${err.errors.join("; ") || err.message} (nothing was changed)`,
          );
        throw err;
      }
      const promote = (s.todo?.promote ?? false) || (inputs.default === true && steps.isDefault?.(held) === false);
      return finish(ctx, id, recordOf(held, inputs, where, { promote, archive: s.todo?.archive ?? [] }), oid, where);
    },

    /** `pulumi refresh`: the service's view; undefined when the object is gone. A pending create stays as recorded. */
    async read(ctx: Context, id: string, s: St): Promise<St | undefined> {
      const oid = recordedId(id, s);
      if (oid === undefined) return s;
      const where = await steps.whereOf(ctx, s);
      const o = await unless404(() => steps.current(ctx, s, oid, where));
      if (!o) return undefined;
      return { ...s, ...steps.record(o, s.args as In, where), [steps.key]: steps.keyOf(o) ?? (s as Record<string, unknown>)[steps.key] };
    },

    /** Archives the object (one a pending create made too, found by its key); what is gone or archived already stays so. */
    async del(ctx: Context, id: string, s: St): Promise<void> {
      const key = String((s as Record<string, unknown>)[steps.key]);
      const where = await steps.whereOf(ctx, s);
      const found = s.pendingToken === undefined ? undefined : await steps.find(ctx, key, where, s.args as In);
      const oid = s.pendingToken === undefined ? recordedId(id, s) : found && steps.id(found);
      if (oid === undefined)
        return ctx.notice(
          `${steps.type}: the pending create of \`${key}\` made no ${steps.noun}; nothing to ${steps.deletes ? "delete" : "archive"}.`,
        );
      const live = await unless404(() => steps.current(ctx, s, oid, where));
      if (!live || steps.archivedAt(live) !== undefined) return;
      const said = await steps.archive(ctx, live, s, where);
      if (said) ctx.notice(`${steps.type}: ${said}`);
    },

    /**
     * At preview, on a first deploy whose key, site and `where` are known (a caller that cannot tell where yet does not ask): an object the site holds with that key is adopted
     * (`preview.adopt`), refused (`adopt: false`, archived where the service cannot unarchive, another family), or
     * none is there.
     */
    async adoption(
      ctx: Context,
      inputs: Readonly<Record<string, unknown>>,
      where: Where,
      foreignInput = "productFamily",
    ): Promise<(Verified & { existing?: Obj }) | undefined> {
      const key = inputs[steps.key];
      if (isUnknown(key) || isUnknown(inputs.site)) return undefined;
      const existing = await steps.find(ctx, String(key), where, inputs as In);
      if (!existing) return { failures: [] };
      const fail = (property: string, reason: string) => ({ failures: [{ property, reason }], existing });
      const oid = steps.id(existing);
      if (steps.archivedAt(existing) !== undefined && !steps.unarchive) return fail(steps.key, steps.archivedRefusal(existing));
      if (inputs.adopt === false)
        return fail(
          steps.key,
          `${label(String(key), oid)} already exists at the service and adopt is false: choose another ${steps.key}, or set adopt: true to manage it`,
        );
      const foreign = steps.foreign?.(existing, inputs as In, where);
      if (foreign) return fail(foreignInput, foreign);
      const unarchive = steps.archivedAt(existing) !== undefined ? { unarchive: true } : {};
      return { failures: [], preview: { adopt: { id: oid, [steps.key]: steps.keyOf(existing) ?? key, ...unarchive } }, existing };
    },

    unfinished: (s: St & { archivedAt?: string | null }) =>
      s.pendingToken !== undefined || s.todo !== undefined || (s.archivedAt ?? null) !== null,
  };
}
