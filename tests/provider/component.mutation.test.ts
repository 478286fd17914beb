import { afterEach, describe, expect, it } from "vitest";
import { component } from "../../provider/kinds/component";
import { componentWithHandle } from "../../provider/kinds/component-fields";
import { BillingClient } from "../../sdk/client";
import { type Simulator, startSimulator } from "../../simulator";
import { componentSetup, inputsOf, label, type State, sms, support, TIERS } from "./component-fixtures";
import { captureOutput, KEY, mutations, type Redirect, redirectingProxy } from "./support";

/**
 * Component paths the mutation run found unchecked (provider/kinds/component.ts and component-fields.ts):
 * the kind rule on inputs that are no object, have no kind or carry keys it must not send; the outputs and
 * state as the kind itself returns them (before the runtime drops undefined values); the refusals and partial
 * failures of create, update and delete; a resumed create; the interval diff; the read of an id that is not
 * one; the lookup of an archived component by the site's list. Against the simulator over a real socket;
 * where the service must answer what the simulator never would at that moment (a lookup or an archive
 * that 404s), a proxy sends that one request to another path, so the simulator answers it.
 */

/** The SDK's message for a 500 it did not retry. */
const serverError = (method: string, path: string) =>
  `${method} ${path} failed with 500: Internal Server Error; it may or may not have been applied (the read-back could not confirm it), so read it back before relying on either`;
const issuesOf = (raw: unknown) => {
  const r = component.kind.inputs.safeParse(raw);
  return r.success ? [] : r.error.issues.map((i) => ({ code: i.code, path: i.path, message: i.message }));
};

describe("the kind rule, on the input schema itself", () => {
  it.each([
    ["null", null, "null"],
    ["undefined", undefined, "undefined"],
    ["a string", "sms", "string"],
  ])("%s is refused as no object, the rule across fields not run on it", (_, raw, type) => {
    expect(issuesOf(raw)).toEqual([{ code: "invalid_type", path: [], message: `Invalid input: expected object, received ${type}` }]);
  });

  it("without a kind, the flat schema names the kind and the tier rules still hold, each once", () => {
    expect(issuesOf({ ...sms, kind: undefined, prices: [{ startingQuantity: 2, unitPrice: 1 }] })).toEqual([
      {
        code: "invalid_value",
        path: ["kind"],
        message: 'must be one of "metered", "quantity_based", "on_off", "prepaid_usage", "event_based", got undefined',
      },
      { code: "custom", path: ["prices", 0, "startingQuantity"], message: "must be 1: the first tier (prices[0]) starts at 1, got 2" },
    ]);
  });

  it("the family, adopt, site, accountingCode and itemCategory, keys left undefined and keys no kind declares are not the create's: no issue", () => {
    expect(
      issuesOf({
        ...sms,
        productFamily: 7,
        adopt: true,
        site: "eu",
        accountingCode: "SMS-1",
        itemCategory: "Other",
        recurring: undefined,
        unitPrice: undefined,
      }),
    ).toEqual([]);
    // Unknown keys are the runtime's to name (once): the kind rule leaves them out of the create's body.
    expect(issuesOf({ ...sms, bogus: 1 })).toEqual([]);
  });

  it("a key another kind takes is named with every kind that takes it", () => {
    expect(issuesOf({ ...support, allowFractionalQuantities: true })).toEqual([
      {
        code: "custom",
        path: ["allowFractionalQuantities"],
        message:
          'must be left out: it is not taken by a "on_off" component (only "metered", "quantity_based", "prepaid_usage", "event_based" components take it)',
      },
    ]);
  });

  it("a rule across fields keeps its own message; a field the kind requires left out is asked for", () => {
    expect(issuesOf({ ...sms, interval: 1 })).toEqual([
      { code: "custom", path: ["intervalUnit"], message: 'is required with interval: "day" or "month"' },
    ]);
    expect(issuesOf({ ...sms, kind: "prepaid_usage" })).toEqual([
      { code: "custom", path: ["overagePricing"], message: 'is required for a "prepaid_usage" component' },
    ]);
  });
});

describe("against the simulator", () => {
  let sim: Simulator;
  const clients: BillingClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    await sim?.close();
  });

  /** The simulator behind a proxy that sends the requests `to` names elsewhere (support.ts). */
  const proxy = (to: Redirect) => redirectingProxy(sim.url, to);

  /** Family `rockets`, the provider object and a direct context (component-fixtures.ts). */
  async function setup() {
    sim = await startSimulator({ apiKey: KEY });
    return componentSetup(sim);
  }

  const ops = component.operations;
  const held = (handle: string) => sim.components().find((c) => c.handle === handle);
  const steps = () => mutations(sim).map((r) => `${r.method} ${r.path}`);
  const failureOf = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: Error & { id?: string; properties?: Record<string, unknown> }) => ({ message: e.message, id: e.id, properties: e.properties }),
    );

  it("a create's state as the kind returns it: only the declared args, no site or archive key", async () => {
    const { ctx, familyId } = await setup();
    const { id, state } = await ops.create(ctx, inputsOf(sms));
    const c = held("sms");
    expect(id).toBe(String(c?.id));
    expect(state).toStrictEqual({
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
      args: inputsOf(sms),
    });
  });

  it("an in-place update's outputs carry no archive key when nothing is left to archive", async () => {
    const { components, familyId } = await setup();
    const { id, outs } = await components.create(sms);
    const c = held("sms");
    const updated = await components.update!(id, outs, { ...sms, name: "SMS" });
    expect(updated.outs).toEqual({
      componentId: c?.id,
      productFamilyId: familyId,
      handle: "sms",
      name: "SMS",
      defaultPricePointId: c?.pricePoints[0]?.id,
      archivedAt: null,
      pricingScheme: "tiered",
      prices: [
        { startingQuantity: 1, endingQuantity: 100, unitPrice: "0.5" },
        { startingQuantity: 101, endingQuantity: null, unitPrice: "0.25" },
      ],
      args: { ...sms, name: "SMS" },
    });
  });

  describe("recorded inputs: tiers changed outside, in the declaration's terms", () => {
    const outside = [
      { startingQuantity: 1, endingQuantity: 50, unitPrice: "0.6" },
      { startingQuantity: 51, endingQuantity: null, unitPrice: "0.3" },
    ];
    const state = { handle: "sms", args: sms, pricingScheme: "tiered", prices: outside } as unknown as State;

    it("the held tiers, the open one without an endingQuantity key", () => {
      expect(ops.recordedInputs(state)).toStrictEqual({
        ...sms,
        prices: [
          { startingQuantity: 1, endingQuantity: 50, unitPrice: "0.6" },
          { startingQuantity: 51, unitPrice: "0.3" },
        ],
      });
    });

    it("a declaration that now says what the service holds is no change", async () => {
      const { components } = await setup();
      const { id, outs } = await components.create(sms);
      const read = { ...outs, prices: outside };
      const now = { ...sms, prices: [outside[0], { startingQuantity: 51, unitPrice: "0.3" }] };
      expect(await components.diff!(id, read, now)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
      expect((await components.diff!(id, read, sms)).changes).toBe(true);
    });
  });

  describe("interval and its unit change the default price point in place; unchanged, nothing is sent for them", () => {
    const monthly = { ...sms, interval: 1, intervalUnit: "month" };
    it.each([
      ["interval", { interval: 2 }, { interval: 2, intervalUnit: "month" }],
      ["intervalUnit", { intervalUnit: "day" }, { interval: 1, intervalUnit: "day" }],
    ])("a new %s", async (_, change, expected) => {
      const { components } = await setup();
      const { id, outs } = await components.create(monthly);
      sim.reset();
      await captureOutput(() => components.update!(id, outs, { ...monthly, ...change }));
      expect(steps()).toEqual([`PUT /components/${id}/price_points/${outs.defaultPricePointId}.json`]);
      const def = held("sms")?.pricePoints.find((pp) => pp.default);
      expect({ interval: def?.interval, intervalUnit: def?.intervalUnit }).toEqual(expected);
    });

    it("the same interval and unit, a new name: only the component's update", async () => {
      const { components } = await setup();
      const { id, outs } = await components.create(monthly);
      sim.reset();
      await components.update!(id, outs, { ...monthly, name: "SMS" });
      expect(steps()).toEqual([`PUT /components/${id}.json`]);
    });
  });

  it("an on/off component's new price is one open tier of its default price point, in place", async () => {
    const { ctx, notices } = await setup();
    const { id, state } = await ops.create(ctx, inputsOf(support));
    sim.reset();
    const after = await ops.update(ctx, id, state, inputsOf({ ...support, unitPrice: "30" }));
    expect(steps()).toEqual([`PUT /components/${id}/price_points/${state.defaultPricePointId}.json`]);
    expect(after.prices).toEqual([{ startingQuantity: 1, endingQuantity: null, unitPrice: "30.0" }]);
    expect(notices).toEqual([
      `Component \`support\`: pricing of its default price point (id ${state.defaultPricePointId}) changed in place; every subscription on it pays the new prices.`,
    ]);
  });

  it("a family handle no family has: the create says so, nothing sent", async () => {
    const { ctx } = await setup();
    await expect(ops.create(ctx, inputsOf({ ...sms, productFamily: "handle:boosters" }))).rejects.toThrow(
      new Error(
        "productFamily: no product family has the handle `boosters` at site default: declare a ProductFamily and pass its familyId",
      ),
    );
    expect(mutations(sim)).toEqual([]);
  });

  describe("create and adoption", () => {
    it("adopt: false and a component with the handle: refused, nothing sent", async () => {
      const { ctx } = await setup();
      const made = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "sms", unitName: "message" });
      await expect(ops.create(ctx, inputsOf({ ...sms, adopt: false }))).rejects.toThrow(
        new Error(`${label("sms", made.id)} already exists and adopt is false: nothing was changed`),
      );
      expect(mutations(sim)).toEqual([]);
    });

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
  });

  describe("update", () => {
    it("of a component the service no longer has: says to refresh, nothing sent", async () => {
      const { ctx, familyId } = await setup();
      const s = { handle: "sms", args: sms, componentId: 999999, productFamilyId: familyId } as State;
      await expect(ops.update(ctx, "999999", s, inputsOf(sms))).rejects.toThrow(
        new Error(`${label("sms", 999999)} no longer exists at the service: run \`pulumi refresh\` to drop it (nothing was changed)`),
      );
      expect(mutations(sim)).toEqual([]);
    });

    it("a read that fails otherwise (not a 404) is that failure", async () => {
      const { ctx, familyId } = await setup();
      const { id, state } = await ops.create(ctx, inputsOf(sms));
      sim.injectFault({ kind: "status", status: 500, match: { method: "GET" } });
      const failed = await failureOf(ops.update(ctx, id, state, inputsOf({ ...sms, name: "SMS" })));
      expect(failed?.message).toBe(`GET /product_families/${familyId}/components/${id}.json failed with 500: Internal Server Error`);
    });

    it("of a component archived at the service (its handle gone too): refused, by id", async () => {
      const { ctx, familyId } = await setup();
      const gone = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: null, unitName: "message", archived: true });
      const s = { handle: "sms", args: sms, componentId: gone.id, productFamilyId: familyId } as State;
      await expect(ops.update(ctx, String(gone.id), s, inputsOf(sms))).rejects.toThrow(
        new Error(
          `${label("?", gone.id)} is archived at the service (since ${gone.archivedAt}), an archived component keeps its handle, ` +
            "and the service has no unarchive for components: declare the component with another handle. " +
            "Nothing was changed; to let it go, remove it from the program (its destroy changes nothing more).",
        ),
      );
      expect(mutations(sim)).toEqual([]);
    });

    it("archives what it replaced first, named by id when it has no handle, and records none left", async () => {
      const { ctx, notices, familyId } = await setup();
      const { id, state } = await ops.create(ctx, inputsOf(sms));
      const old = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: null, unitName: "message" });
      sim.reset();
      const after = await ops.update(
        ctx,
        id,
        { ...state, todo: { archive: [{ componentId: old.id, productFamilyId: familyId }] } },
        inputsOf(sms),
      );
      expect(steps()).toEqual([`DELETE /product_families/${familyId}/components/${old.id}.json`]);
      expect(notices).toEqual([`Component: archived the replaced ${label("?", old.id)}.`]);
      expect(after).toStrictEqual(state);
    });

    it("a converge the service refuses (422) names the update and every error the service gave", async () => {
      const { ctx } = await setup();
      const { id, state } = await ops.create(ctx, inputsOf(sms));
      // The SDK lets it through (the contract publishes no bound on a description); the service refuses one over 65,535
      // characters. (A blank name and a long tax code, which this test sent before, are now refused by the SDK.)
      const failed = await failureOf(ops.update(ctx, id, state, inputsOf({ ...sms, description: "d".repeat(65_536) })));
      expect(failed?.message).toBe(
        "Component `sms`: the service refused the update: description: is too long (maximum is 65535 characters). (nothing was changed)",
      );
    });

    it("a converge that fails otherwise (not a 422) is that failure", async () => {
      const { ctx } = await setup();
      const { id, state } = await ops.create(ctx, inputsOf(sms));
      sim.injectFault({ kind: "status", status: 500, match: { method: "PUT" } });
      const failed = await failureOf(ops.update(ctx, id, state, inputsOf({ ...sms, name: "SMS" })));
      expect(failed?.message).toBe(serverError("PUT", `/components/${id}.json`));
    });
  });

  describe("delete", () => {
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
  });

  describe("refresh by the resource id when the state has no component id: only a decimal id without a leading zero is one", () => {
    it.each([
      ["the component's id", (id: number) => String(id), true],
      ["a leading zero", (id: number) => `0${id}`, false],
      ["a trailing letter", (id: number) => `${id}x`, false],
      ["a leading letter", (id: number) => `x${id}`, false],
    ])("%s", async (_, idOf, reads) => {
      const { components, familyId } = await setup();
      const made = sim.addComponent({
        familyHandle: "rockets",
        kind: "metered",
        handle: "sms",
        name: "Text messages",
        unitName: "message",
      });
      const s = { handle: "sms", args: sms, productFamilyId: familyId };
      sim.reset();
      const read = await components.read!(idOf(made.id), s);
      expect(read).toEqual({
        id: idOf(made.id),
        props: reads
          ? {
              ...s,
              componentId: made.id,
              name: "Text messages",
              defaultPricePointId: made.pricePoints[0]?.id,
              archivedAt: null,
              pricingScheme: "per_unit",
              prices: [{ startingQuantity: 1, endingQuantity: null, unitPrice: "1.0" }],
            }
          : s,
      });
      expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual(
        reads
          ? [
              `GET /product_families/${familyId}/components/${made.id}.json`,
              `GET /components/${made.id}/price_points/${made.pricePoints[0]?.id}.json`,
            ]
          : [],
      );
    });
  });

  describe("check of an update", () => {
    it("carries the recorded ids, so preview shows them known", async () => {
      const { components } = await setup();
      const olds = { ...sms, componentId: 30001, productFamilyId: 9001, defaultPricePointId: 40001 };
      const news = { ...sms, name: "SMS" };
      expect(await components.check!(olds, news)).toEqual({
        inputs: { ...news, componentId: 30001, productFamilyId: 9001, defaultPricePointId: 40001 },
        failures: [],
      });
      expect(sim.requests).toEqual([]);
    });

    it("a new handle a live component holds is refused, not called archived", async () => {
      const { components } = await setup();
      const { outs } = await components.create(sms);
      const other = sim.addComponent({ familyHandle: "rockets", kind: "on_off", handle: "taken" });
      const checked = await components.check!({ ...sms, componentId: outs.componentId }, { ...sms, handle: "taken" });
      expect(checked.failures).toEqual([
        {
          property: "handle",
          reason: `must be a handle no other component has: ${label("taken", other.id)} holds it, and handles are unique among the site's components, archived ones included; choose another`,
        },
      ]);
    });
  });

  describe("the component with a handle, where the lookup does not answer archived ones (404)", () => {
    it("is found in the site's list, archived ones included", async () => {
      await setup();
      sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "live", unitName: "message" });
      const gone = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "sms", unitName: "message", archived: true });
      const url = await proxy((method, path) =>
        method === "GET" && path === "/components/lookup.json" ? "/product_families/999999/components/999999.json" : undefined,
      );
      const client = new BillingClient({ baseUrl: url, apiKey: KEY, maxRetries: 0 });
      clients.push(client);
      const found = await componentWithHandle(client, "sms");
      expect({ id: found?.id, handle: found?.handle, archivedAt: found?.archivedAt }).toEqual({
        id: gone.id,
        handle: "sms",
        archivedAt: gone.archivedAt,
      });
      expect(await componentWithHandle(client, "none")).toBeUndefined();
    });
  });
});
