import { afterEach, describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput, mutations, type Redirect, redirectingProxy } from "../support";
import { ARCHIVED, failureOf, inputsOf, ops, requests, type State, serverError, sms, startSite, steps } from "./fixtures";

/**
 * Component's delete: it archives (the handle stays taken), read by id first and never looked up by handle but for
 * a pending create; a second delete, a pending create that made nothing and an archive answered 404 send or say
 * nothing more; an archive that fails otherwise is that failure.
 */

describe("Component: delete", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  /** Family `rockets`, the provider object and a direct context (fixtures.ts). */
  async function setup() {
    const site = await startSite();
    sim = site.sim;
    return site;
  }
  const held = (handle: string) => sim.components().find((c) => c.handle === handle);
  /** The simulator behind a proxy that sends the requests `to` names elsewhere (support.ts). */
  const proxy = (to: Redirect) => redirectingProxy(sim.url, to);

  it("delete archives it, its handle stays taken; a second delete sends nothing", async () => {
    const { components, familyId } = await setup();
    const { id, outs } = await components.create(sms);
    sim.reset();
    const { text } = await captureOutput(() => components.delete!(id, outs));
    expect(steps(sim)).toEqual([`DELETE /product_families/${familyId}/components/${id}.json`]);
    expect(text).toMatch(/archived component `sms`.*handle stays taken/);
    expect(held("sms")?.archivedAt).not.toBeNull();
    sim.reset();
    await components.delete!(id, outs);
    expect(mutations(sim)).toEqual([]);
  });

  it("of a pending create that made nothing: says so, sends nothing", async () => {
    const { ctx, notices, familyId } = await setup();
    const s = { handle: "sms", args: sms, productFamilyId: familyId, pendingToken: "token-1" } as State;
    await ops.del(ctx, "pending-token-1", s);
    expect(notices).toEqual(["Component: the pending create of `sms` made no component; nothing to archive."]);
    expect(mutations(sim)).toEqual([]);
  });

  it("an archive answered 404 (gone meanwhile) is done: no error, no notice", async () => {
    const { ctx, notices, connect, familyId } = await setup();
    const { id, state } = await ops.create(ctx, inputsOf(sms));
    connect(
      await proxy((method, path) =>
        method === "DELETE" && path === `/product_families/${familyId}/components/${id}.json`
          ? `/product_families/${familyId}/components/999999.json`
          : undefined,
      ),
    );
    await ops.del(ctx, id, state);
    expect(notices).toEqual([]);
    expect(held("sms")?.archivedAt).toBeNull();
  });

  it("an archive that fails otherwise is that failure, and says nothing was archived", async () => {
    const { ctx, notices, familyId } = await setup();
    const { id, state } = await ops.create(ctx, inputsOf(sms));
    sim.injectFault({ kind: "status", status: 500, match: { method: "DELETE" } });
    const failed = await failureOf(ops.del(ctx, id, state));
    expect(failed?.message).toBe(serverError("DELETE", `/product_families/${familyId}/components/${id}.json`));
    expect(notices).toEqual([]);
    expect(held("sms")?.archivedAt).toBeNull();
  });

  it("of a recorded component reads it by id and archives it: no lookup by handle", async () => {
    const { ctx, notices, familyId } = await setup();
    const made = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "sms", unitName: "message" });
    sim.reset();
    await ops.del!(ctx, String(made.id), { handle: "sms", args: sms, productFamilyId: familyId, componentId: made.id } as State);
    expect(requests(sim)).toEqual([
      `GET /product_families/${familyId}/components/${made.id}.json`,
      `DELETE /product_families/${familyId}/components/${made.id}.json`,
    ]);
    expect(notices).toEqual([ARCHIVED("sms", made.id)]);
  });

  it("of a pending create whose first attempt made the component finds it by handle and archives it", async () => {
    const { ctx, notices, familyId } = await setup();
    const made = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "sms", unitName: "message" });
    sim.reset();
    const pending = { handle: "sms", args: sms, productFamilyId: familyId, pendingToken: "token-1" } as State;
    await ops.del!(ctx, "pending-token-1", pending);
    expect(requests(sim)).toEqual([
      "GET /components/lookup.json",
      `GET /product_families/${familyId}/components/${made.id}.json`,
      `DELETE /product_families/${familyId}/components/${made.id}.json`,
    ]);
    expect(notices).toEqual([ARCHIVED("sms", made.id)]);
    expect(held("sms")?.archivedAt).not.toBeNull();
  });
});
