import { afterEach, describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { mutations, UNKNOWN } from "../support";
import { failureOf, NAME_TAKEN, sms, startSite } from "./fixtures";

/**
 * A component's name is unique among the live components of its family (provider/kinds/component-names.ts): a new
 * component whose name another one holds is refused at check, naming the holder, before anything is sent; what check
 * could not see (an unknown value) is refused at up, before anything is sent. An archived component's name, another
 * family's, and the name of the component the create adopts by handle are no refusal. Replacements: replace.test.ts;
 * renames: update.test.ts.
 */

describe("Component: a new component's name", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  async function setup() {
    const site = await startSite();
    sim = site.sim;
    sim.addProductFamily({ handle: "boosters", name: "Boosters" });
    sim.reset();
    return site;
  }

  it("held by another live component of the family: refused at check, naming it; nothing is sent", async () => {
    const { components } = await setup();
    const holder = sim.addComponent({ familyHandle: "rockets", kind: "on_off", handle: "texts-v1", name: "Text messages" });
    const checked = await components.check!({}, sms);
    expect(checked.failures).toEqual([{ property: "name", reason: NAME_TAKEN("Text messages", "texts-v1", holder.id) }]);
    expect(mutations(sim)).toEqual([]);
  });

  it("the component adopted by handle under another name, declared with a name another holds: refused (its rename would be)", async () => {
    const { components } = await setup();
    sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "sms", name: "SMS", unitName: "message" });
    const holder = sim.addComponent({ familyHandle: "rockets", kind: "on_off", handle: "texts-v1", name: "Text messages" });
    expect((await components.check!({}, sms)).failures).toEqual([
      { property: "name", reason: NAME_TAKEN("Text messages", "texts-v1", holder.id) },
    ]);
  });

  it.each([
    ["an archived component's", "rockets", "texts-v1", true],
    ["another family's", "boosters", "texts-v1", false],
    ["the one the create adopts by handle", "rockets", "sms", false],
  ])("%s is no refusal, and up makes or adopts it", async (_, family, handle, archived) => {
    const { components } = await setup();
    sim.addComponent({ familyHandle: family, kind: "metered", handle, name: "Text messages", unitName: "message", archived });
    expect((await components.check!({}, sms)).failures).toEqual([]);
    const made = await components.create(sms);
    expect(made.outs).toMatchObject({ handle: "sms", name: "Text messages", archivedAt: null });
  });

  it.each([
    ["its family", { productFamily: UNKNOWN }],
    ["its name", { name: UNKNOWN }],
    ["its handle", { handle: UNKNOWN }],
  ])("%s unknown at preview: not judged at check; refused at up before anything is sent", async (_, unknown) => {
    const { components } = await setup();
    const holder = sim.addComponent({ familyHandle: "rockets", kind: "on_off", handle: "texts-v1", name: "Text messages" });
    expect((await components.check!({}, { ...sms, ...unknown })).failures).toEqual([]);
    const failed = await failureOf(components.create(sms));
    expect(failed?.message).toBe(`Component \`sms\`: name ${NAME_TAKEN("Text messages", "texts-v1", holder.id)}. Nothing was changed`);
    expect(mutations(sim)).toEqual([]);
  });
});
