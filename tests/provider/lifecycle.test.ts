import { describe, expect, it } from "vitest";
import { partialFailure } from "../../provider/engine";
import type { Context } from "../../provider/kinds/kind";
import { type LifecycleState, lifecycle, type Steps } from "../../provider/kinds/lifecycle";
import { BillingApiError, BillingConnectionError, CatalogOutcomeUnknownError } from "../../sdk/errors";

/**
 * The one lifecycle of the objects with a handle (provider/kinds/lifecycle.ts), tested once, against faults,
 * over an in-memory service whose every call can fail: the order of the steps, what each failure records (a
 * partial failure keeps the resource in state with what was applied, and the next up finishes it without doing
 * anything twice), and what it refuses. The kinds' own tests check their calls; this checks what all share.
 */

interface Obj {
  id: number;
  handle: string;
  price: number;
  archived: boolean;
  isDefault: boolean;
}
type In = { handle: string; price: number; adopt?: boolean; default?: boolean; site?: string };
type St = LifecycleState & { handle: string; objId?: number; price?: number; isDefault?: boolean; archivedAt?: string | null };

/** An in-memory service: objects by id, a log of the changes it applied, and the next call of a name to fail with an error. */
function service(o: { unarchive?: boolean } = {}) {
  const objects = new Map<number, Obj>();
  const log: string[] = [];
  const failing = new Map<string, Error>();
  let next = 1;
  const call = <T>(name: string, f: () => T): Promise<T> => {
    const err = failing.get(name);
    failing.delete(name);
    return err ? Promise.reject(err) : Promise.resolve(f());
  };
  const notFound = (what: string) =>
    new BillingApiError({
      method: "GET",
      path: `/objects/${what}.json`,
      status: 404,
      errors: ["Not found"],
      mayHaveApplied: false,
    } as never);
  const add = (handle: string, price: number, extra: Partial<Obj> = {}) => {
    const made = { id: next++, handle, price, archived: false, isDefault: false, ...extra };
    objects.set(made.id, made);
    return made;
  };
  const steps: Steps<In, St, Obj, undefined> = {
    type: "Thing",
    owner: "shelf",
    noun: "thing",
    key: "handle",
    where: async () => undefined,
    whereOf: async () => undefined,
    find: (_ctx, handle) => call("find", () => [...objects.values()].find((x) => x.handle === handle)),
    id: (x) => x.id,
    keyOf: (x) => x.handle,
    archivedAt: (x) => (x.archived ? "2026-01-01T00:00:00Z" : undefined),
    ...(o.unarchive
      ? {
          unarchive: (_ctx: Context, x: Obj) =>
            call("unarchive", () => {
              log.push(`unarchive ${x.id}`);
              return Object.assign(x, { archived: false });
            }),
        }
      : {}),
    archivedRefusal: (x) => `thing \`${x.handle}\` (id ${x.id}) is archived and cannot come back`,
    createOnly: async (_ctx, x, inputs) => (x.price === inputs.price ? [] : [`price ${x.price} → ${inputs.price}`]),
    free: (_ctx, x) =>
      call("free", () => {
        log.push(`free ${x.id}`);
        x.handle = `${x.handle}-replaced-${x.id}`;
        return { freed: x.handle, old: x.id };
      }),
    create: (_ctx, inputs, _where, token) =>
      call("create", () => {
        log.push(`create ${inputs.handle}${token ? ` with ${token}` : ""}`);
        return add(inputs.handle, inputs.price);
      }),
    converge: (_ctx, x) => call("converge", () => x),
    current: (_ctx, _s, id) =>
      call("current", () => {
        const x = objects.get(id);
        if (!x) throw notFound(String(id));
        return x;
      }),
    record: (x) => ({ objId: x.id, price: x.price, isDefault: x.isDefault, archivedAt: x.archived ? "2026-01-01T00:00:00Z" : null }),
    isDefault: (x) => x.isDefault,
    promote: (_ctx, x) =>
      call("promote", () => {
        log.push(`promote ${x.id}`);
        for (const y of objects.values()) y.isDefault = y.id === x.id;
      }),
    archiveReplaced: (_ctx, old) =>
      call("archiveReplaced", () => {
        const x = objects.get(old as number);
        if (!x || x.archived) return undefined;
        log.push(`archive ${x.id}`);
        x.archived = true;
        return `archived the replaced thing (id ${x.id})`;
      }),
    archive: (_ctx, x) =>
      call("archive", () => {
        log.push(`archive ${x.id}`);
        x.archived = true;
        return `archived thing \`${x.handle}\` (id ${x.id})`;
      }),
  };
  const notices: string[] = [];
  const ctx: Context = {
    client: () => {
      throw new Error("no client: the steps are the service");
    },
    siteLabel: () => "default",
    partialFailure: (message, id, recorded) => partialFailure(message, id, { ...recorded }, undefined),
    notice: (m) => notices.push(m),
  };
  const life = lifecycle(steps, { argKeys: ["handle", "price", "adopt", "default", "site"], idField: "objId" });
  const fail = (name: string, err: Error) => failing.set(name, err);
  return { objects, log, notices, ctx, life, add, fail };
}

/** The error thrown, with the properties a partial failure carries. */
const caught = async (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error("resolved");
    },
    (e: unknown) => e as Error & { id?: string; properties?: Record<string, unknown> },
  );

const outcomeUnknown = (handle: string) =>
  new CatalogOutcomeUnknownError({
    kind: "product",
    handle,
    uniquenessToken: "tok-1",
    cause: new BillingConnectionError({ method: "POST", path: "/things.json", reason: "reset" } as never),
    why: "the connection was reset after the request was sent",
  });

describe("the lifecycle of an object with a handle", () => {
  it("creates once when the site has none; adopts (and says so) when it has one; adopt: false refuses before anything changes", async () => {
    const s = service();
    const made = await s.life.create(s.ctx, { handle: "a", price: 5 });
    expect(made).toEqual({
      id: "1",
      state: { objId: 1, price: 5, isDefault: false, archivedAt: null, handle: "a", args: { handle: "a", price: 5 } },
    });
    s.add("b", 7);
    const adopted = await s.life.create(s.ctx, { handle: "b", price: 7 });
    expect(adopted.id).toBe("2");
    expect(s.notices).toEqual(["adopted thing `b` (id 2) of site default"]);
    await expect(s.life.create(s.ctx, { handle: "b", price: 7, adopt: false })).rejects.toThrow(
      "thing `b` (id 2) already exists and adopt is false: nothing was changed",
    );
    expect(s.log).toEqual(["create a"]);
  });

  it("a create whose outcome is unknown is recorded with its token; the next up looks first, and sends again with the same token only if nothing is there", async () => {
    const s = service();
    s.fail("create", outcomeUnknown("a"));
    const err = await caught(s.life.create(s.ctx, { handle: "a", price: 5 }));
    expect(err.id).toBe("pending-tok-1");
    expect(err.properties).toEqual({ handle: "a", args: { handle: "a", price: 5 }, pendingToken: "tok-1" });
    expect(err.message).toContain(
      "Recorded: the next `pulumi up` looks for thing `a` by its handle and only re-sends the create, with the same token",
    );
    // The next up: nothing there, so the create is sent again with the token.
    const again = await s.life.update(s.ctx, "pending-tok-1", err.properties as unknown as St, { handle: "a", price: 5 });
    expect(again).toMatchObject({ objId: 1, handle: "a" });
    // The first create did not apply (it failed before the service applied it): the resend is the one create.
    expect(s.log).toEqual(["create a with tok-1"]);
    // Had the first create applied, the next up finds it and sends nothing.
    const t = service();
    t.add("a", 5);
    const found = await t.life.update(t.ctx, "pending-tok-1", err.properties as unknown as St, { handle: "a", price: 5 });
    expect(found).toMatchObject({ objId: 1 });
    expect(t.log).toEqual([]);
    expect(t.notices).toEqual([]);
  });

  it("an archived object is unarchived where the service can, and refused (nothing changed) where it cannot", async () => {
    const can = service({ unarchive: true });
    can.add("a", 5, { archived: true });
    expect((await can.life.create(can.ctx, { handle: "a", price: 5 })).id).toBe("1");
    expect(can.log).toEqual(["unarchive 1"]);
    expect(can.notices[0]).toBe("Thing: unarchived thing `a` (id 1) to manage it.");
    const cannot = service();
    cannot.add("a", 5, { archived: true });
    await expect(cannot.life.create(cannot.ctx, { handle: "a", price: 5 })).rejects.toThrow("is archived and cannot come back");
    expect(cannot.log).toEqual([]);
  });

  it("a replacement frees the key, creates, promotes, then archives the old one, in that order", async () => {
    const s = service();
    s.add("a", 5, { isDefault: true });
    const r = await s.life.create(s.ctx, { handle: "a", price: 9, default: true });
    expect(s.log).toEqual(["free 1", "create a", "promote 2", "archive 1"]);
    expect(r.state).toMatchObject({ objId: 2, handle: "a", isDefault: true });
    expect(r.state.todo).toBeUndefined();
    expect(s.notices[0]).toBe(
      "Thing: thing `a` (id 1) is renamed `a-replaced-1` to free its handle for its replacement (price 5 → 9); it is archived once the new one exists.",
    );
  });

  it("a replacement whose later steps fail is recorded with what is left; the next up finishes it, and does nothing twice", async () => {
    const s = service();
    s.add("a", 5, { isDefault: true });
    s.fail("promote", new Error("socket hang up"));
    const err = await caught(s.life.create(s.ctx, { handle: "a", price: 9, default: true }));
    expect(err.id).toBe("2");
    expect(err.properties).toMatchObject({ objId: 2, handle: "a", todo: { promote: true, archive: [1] } });
    expect(err.message).toContain(
      "what is left (promote it to the shelf's default, archive the replaced thing(s) 1) failed: socket hang up",
    );
    expect(s.log).toEqual(["free 1", "create a"]);
    const done = await s.life.update(s.ctx, "2", err.properties as unknown as St, { handle: "a", price: 9, default: true });
    expect(done.todo).toBeUndefined();
    expect(s.log).toEqual(["free 1", "create a", "promote 2", "archive 1"]);
    // Archiving fails after the promotion: only the archive is left.
    const t = service();
    t.add("a", 5, { isDefault: true });
    t.fail("archiveReplaced", new Error("502"));
    const later = await caught(t.life.create(t.ctx, { handle: "a", price: 9, default: true }));
    expect(later.properties).toMatchObject({ isDefault: true, todo: { promote: false, archive: [1] } });
  });

  it("an adoption whose converge fails is recorded (adopted), and the next up sends what still differs", async () => {
    const s = service();
    s.add("a", 5);
    s.fail("converge", new Error("timeout"));
    const err = await caught(s.life.create(s.ctx, { handle: "a", price: 5 }));
    expect(err.id).toBe("1");
    expect(err.properties).toMatchObject({ objId: 1, handle: "a" });
    expect(err.message).toBe(
      "thing `a` (id 1) was adopted and recorded; converging it failed: timeout. The next `pulumi up` sends what still differs.",
    );
  });

  it("update reads first: gone says refresh; a refusal (422) says nothing was changed", async () => {
    const s = service();
    const { id, state } = await s.life.create(s.ctx, { handle: "a", price: 5 });
    s.objects.clear();
    await expect(s.life.update(s.ctx, id, state, { handle: "a", price: 5 })).rejects.toThrow(
      "thing `a` (id 1) no longer exists at the service: run `pulumi refresh` to drop it (nothing was changed)",
    );
    const t = service();
    const made = await t.life.create(t.ctx, { handle: "a", price: 5 });
    t.fail("converge", new BillingApiError({ method: "PUT", path: "/things/1.json", status: 422, errors: ["price: too high"] } as never));
    await expect(t.life.update(t.ctx, made.id, made.state, { handle: "a", price: 5 })).rejects.toThrow(
      "Thing `a`: the service refused the update: price: too high (nothing was changed)",
    );
  });

  it("refresh: what the service holds, or gone; a pending create stays as recorded", async () => {
    const s = service();
    const { id, state } = await s.life.create(s.ctx, { handle: "a", price: 5 });
    (s.objects.get(1) as Obj).price = 6;
    expect(await s.life.read(s.ctx, id, state)).toMatchObject({ price: 6, args: { price: 5 } });
    s.objects.clear();
    expect(await s.life.read(s.ctx, id, state)).toBeUndefined();
    const pending = { handle: "b", args: { handle: "b", price: 1 }, pendingToken: "tok" } as St;
    expect(await s.life.read(s.ctx, "pending-tok", pending)).toBe(pending);
  });

  it("delete archives; one archived or gone already is left as it is; a pending create that made nothing says so", async () => {
    const s = service();
    const { id, state } = await s.life.create(s.ctx, { handle: "a", price: 5 });
    await s.life.del(s.ctx, id, state);
    await s.life.del(s.ctx, id, state);
    expect(s.log).toEqual(["create a", "archive 1"]);
    expect(s.notices).toEqual(["Thing: archived thing `a` (id 1)"]);
    await s.life.del(s.ctx, "pending-tok", { handle: "b", args: { handle: "b", price: 1 }, pendingToken: "tok" } as St);
    expect(s.notices[1]).toBe("Thing: the pending create of `b` made no thing; nothing to archive.");
    // A pending create that did apply is found by its key and archived.
    s.add("c", 1);
    await s.life.del(s.ctx, "pending-tok", { handle: "c", args: { handle: "c", price: 1 }, pendingToken: "tok" } as St);
    expect(s.log).toEqual(["create a", "archive 1", "archive 2"]);
  });

  it("the preview's adoption: none, adopted (said in preview.adopt), refused by adopt: false, or archived beyond unarchiving", async () => {
    const s = service();
    expect(await s.life.adoption(s.ctx, { handle: "a", price: 1 }, undefined)).toEqual({ failures: [] });
    s.add("a", 1);
    expect(await s.life.adoption(s.ctx, { handle: "a", price: 1 }, undefined)).toMatchObject({
      failures: [],
      preview: { adopt: { id: 1, handle: "a" } },
    });
    expect((await s.life.adoption(s.ctx, { handle: "a", adopt: false }, undefined))?.failures).toEqual([
      {
        property: "handle",
        reason: "thing `a` (id 1) already exists at the service and adopt is false: choose another handle, or set adopt: true to manage it",
      },
    ]);
    s.add("z", 1, { archived: true });
    expect((await s.life.adoption(s.ctx, { handle: "z" }, undefined))?.failures[0]?.reason).toContain("cannot come back");
    expect(s.log).toEqual([]);
  });
});
