import { afterEach, describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { mutations } from "../support";
import { failureOf, inputsOf, label, ops, type State, serverError, sms, startSite, TIERS } from "./fixtures";

/**
 * Component under the service's failures: a create whose outcome is unknown recorded with its token and site and
 * resumed with it (its own component taken silently, even with adopt: false); an adoption's converge or a create's
 * update-only fields failing, recorded as partial failures; reads and converges failing otherwise are that failure.
 */

describe("Component under the service's failures", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  /** Family `rockets`, the provider object and a direct context (fixtures.ts). */
  async function setup() {
    const site = await startSite();
    sim = site.sim;
    return site;
  }
  const held = (handle: string) => sim.components().find((c) => c.handle === handle);

  it("a create whose outcome is unknown records its token and site; resumed, it sends the create again with that token", async () => {
    const { ctx, familyId } = await setup();
    sim.injectFault({ kind: "status", status: 500, times: 1, match: { method: "POST" } });
    const inputs = inputsOf({ ...sms, site: "eu" });
    const failed = await failureOf(ops.create(ctx, inputs));
    const token = String(failed?.properties?.pendingToken);
    expect(failed?.id).toBe(`pending-${token}`);
    expect(failed?.properties).toEqual({
      handle: "sms",
      args: { ...sms, site: "eu" },
      productFamilyId: familyId,
      site: "eu",
      pendingToken: token,
    });
    expect(failed?.message).toBe(
      `creating the component "sms" may or may not have been applied: 1 attempt(s) failed ambiguously (last: POST /product_families/${familyId}/metered_components.json failed with 500: Internal Server Error) and no live component with handle "sms" is found (not found (404)); it may or may not have been created. Resuming reads it back by handle first, then creates it with the same uniqueness_token (${token}), never a new one. Recorded: the next \`pulumi up\` looks for component \`sms\` by its handle and only re-sends the create, with the same token, if it is not there.`,
    );
    expect(held("sms")).toBeUndefined();
    sim.reset();
    const resumed = await ops.update(ctx, `pending-${token}`, failed?.properties as State, inputs);
    expect(resumed.handle).toBe("sms");
    expect(sim.requests.filter((r) => r.method === "POST").map((r) => r.uniquenessToken)).toEqual([token]);
    expect(held("sms")?.id).toBe(resumed.componentId);
  });

  it("a resumed create (its token recorded) with adopt: false takes the component its first attempt made, silently", async () => {
    const { ctx, notices, familyId } = await setup();
    // What the first attempt made, its answer lost.
    const made = sim.addComponent({
      familyHandle: "rockets",
      kind: "metered",
      handle: "sms",
      name: "Text messages",
      unitName: "message",
      pricingScheme: "tiered",
      prices: TIERS,
    });
    const inputs = inputsOf({ ...sms, adopt: false });
    const pending = { handle: "sms", args: { ...sms, adopt: false }, productFamilyId: familyId, pendingToken: "token-1" } as State;
    const adopted = await ops.update(ctx, "pending-token-1", pending, inputs);
    expect(adopted.componentId).toBe(made.id);
    expect(mutations(sim)).toEqual([]);
    expect(notices).toEqual([]);
  });

  it("an adopted component whose converge fails is recorded as found, with what was declared", async () => {
    const { ctx, familyId } = await setup();
    const made = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "sms", name: "Old name", unitName: "message" });
    sim.injectFault({ kind: "status", status: 500, match: { method: "PUT" } });
    const failed = await failureOf(ops.create(ctx, inputsOf(sms)));
    const pp = made.pricePoints[0];
    expect(failed).toEqual({
      message: `${label("sms", made.id)} was adopted and recorded; converging it failed: ${serverError("PUT", `/components/${made.id}.json`)}. The next \`pulumi up\` sends what still differs.`,
      id: String(made.id),
      properties: {
        componentId: made.id,
        productFamilyId: familyId,
        handle: "sms",
        name: "Old name",
        defaultPricePointId: pp?.id,
        archivedAt: null,
        pricingScheme: "per_unit",
        prices: [{ startingQuantity: 1, endingQuantity: null, unitPrice: "1.0" }],
        args: sms,
      },
    });
  });

  it("a created component whose update-only fields fail to set is recorded as created, with what was declared", async () => {
    const { ctx, familyId } = await setup();
    sim.injectFault({ kind: "status", status: 500, match: { method: "PUT" } });
    const declared = { ...sms, accountingCode: "SMS-1" };
    const failed = await failureOf(ops.create(ctx, inputsOf(declared)));
    const c = held("sms");
    expect(failed).toEqual({
      message: `${label("sms", c?.id as number)} was created and recorded; setting what its create could not carry failed: ${serverError("PUT", `/components/${c?.id}.json`)}. The next \`pulumi up\` sends it.`,
      id: String(c?.id),
      properties: {
        componentId: c?.id,
        productFamilyId: familyId,
        handle: "sms",
        name: "Text messages",
        defaultPricePointId: c?.pricePoints[0]?.id,
        archivedAt: null,
        pricingScheme: "tiered",
        prices: [
          { startingQuantity: 1, endingQuantity: 100, unitPrice: "0.5" },
          { startingQuantity: 101, endingQuantity: null, unitPrice: "0.25" },
        ],
        args: declared,
      },
    });
  });

  it("a read that fails otherwise (not a 404) is that failure", async () => {
    const { ctx, familyId } = await setup();
    const { id, state } = await ops.create(ctx, inputsOf(sms));
    sim.injectFault({ kind: "status", status: 500, match: { method: "GET" } });
    const failed = await failureOf(ops.update(ctx, id, state, inputsOf({ ...sms, name: "SMS" })));
    expect(failed?.message).toBe(`GET /product_families/${familyId}/components/${id}.json failed with 500: Internal Server Error`);
  });

  it("a converge that fails otherwise (not a 422) is that failure", async () => {
    const { ctx } = await setup();
    const { id, state } = await ops.create(ctx, inputsOf(sms));
    sim.injectFault({ kind: "status", status: 500, match: { method: "PUT" } });
    const failed = await failureOf(ops.update(ctx, id, state, inputsOf({ ...sms, name: "SMS" })));
    expect(failed?.message).toBe(serverError("PUT", `/components/${id}.json`));
  });
});
