import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator";
import { CONTRACT } from "../contract/validator";
import { call, start } from "./helpers";

// A component's name is unique among the live components of its product family: a create (by each kind's path) or a
// rename to a name another live component of the family holds is the contract's 422, in its words and shape; an
// archived component's name and another family's are free (the simulator's reading of a scope the contract leaves out).

const KINDS = ["metered", "quantity_based", "on_off", "prepaid_usage", "event_based"] as const;
const TAKEN = "Name: must be unique - that value has been taken.";

/** The contract's createPrepaidUsageComponent 422 Example-1: a taken handle, then a taken name. */
const published = (): unknown => {
  const doc = JSON.parse(readFileSync(CONTRACT, "utf8"));
  const op = doc.paths["/product_families/{product_family_id}/prepaid_usage_components.json"].post;
  return op.responses["422"].content["application/json"].examples["Example-1"].value;
};

/** Family "saas" (9001) with live "texts" named "Text messages" and archived "old" named "Old texts"; family "other" (9002) with "calls" named "Calls". */
async function site(): Promise<Simulator> {
  const sim = await start();
  sim.addProductFamily({ id: 9001, handle: "saas", name: "SaaS" });
  sim.addProductFamily({ id: 9002, handle: "other", name: "Other" });
  sim.addComponent({ id: 31, familyHandle: "saas", kind: "metered", handle: "texts", name: "Text messages" });
  sim.addComponent({ id: 32, familyHandle: "saas", kind: "metered", handle: "old", name: "Old texts", archived: true });
  sim.addComponent({ id: 33, familyHandle: "other", kind: "metered", handle: "calls", name: "Calls" });
  return sim;
}

const body = (kind: string, extra: Record<string, unknown>) => {
  const base: Record<string, unknown> = { handle: `${kind.replace(/_/g, "-")}-x`, ...extra };
  if (kind !== "on_off") Object.assign(base, { unit_name: "unit", pricing_scheme: "per_unit", unit_price: "1.5" });
  else base.prices = [{ starting_quantity: 0, unit_price: "100.00" }];
  if (kind === "event_based") base.event_based_billing_metric_id = 7;
  return { [`${kind}_component`]: base };
};
const create = (sim: Simulator, family: number, kind: string, extra: Record<string, unknown>) =>
  call(sim, "POST", `/product_families/${family}/${kind}_components.json`, { body: body(kind, extra) });
const rename = (sim: Simulator, id: number, name: string) => call(sim, "PUT", `/components/${id}.json`, { body: { component: { name } } });
const names = (sim: Simulator) =>
  sim
    .components()
    .map((c) => [c.id, c.name])
    .sort();

describe("a component create: the name unique among its family's live components", () => {
  it.each(KINDS)("%s: a name another live component of the family holds is the published 422; nothing is made", async (kind) => {
    const sim = await site();
    const before = names(sim);
    const res = await create(sim, 9001, kind, { name: "Text messages" });
    expect(res).toMatchObject({ status: 422, body: { errors: [TAKEN] } });
    expect(names(sim)).toEqual(before);
  });

  it("a taken handle and a taken name: the contract's example, word for word and in its order", async () => {
    const sim = await site();
    const res = await create(sim, 9001, "prepaid_usage", { handle: "texts", name: "Text messages" });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(published());
  });

  it.each([
    ["an archived component's name", 9001, "Old texts"],
    ["another family's component's name", 9001, "Calls"],
    ["its name in another family", 9002, "Text messages"],
  ])("%s is free", async (_, family, name) => {
    const sim = await site();
    const res = await create(sim, family, "metered", { name });
    expect(res.status).toBe(201);
    expect(res.body.component).toMatchObject({ name, product_family_id: family });
  });
});

describe("a component rename: the same rule", () => {
  it("to a name another live component of its family holds: the 422 in the update's list shape, nothing changed", async () => {
    const sim = await site();
    sim.addComponent({ id: 34, familyHandle: "saas", kind: "on_off", handle: "support", name: "Support" });
    const res = await rename(sim, 34, "Text messages");
    expect(res).toMatchObject({ status: 422, body: { errors: [TAKEN] } });
    expect(sim.components().find((c) => c.id === 34)?.name).toBe("Support");
    // With a taken handle too: both, the handle first (the create's order).
    const both = await call(sim, "PUT", "/product_families/9001/components/34.json", {
      body: { component: { handle: "texts", name: "Text messages" } },
    });
    expect(both.body).toEqual({ errors: ["Handle must be unique within a Site.", TAKEN] });
  });

  it.each([
    ["an archived component's name", 31, "Old texts"],
    ["another family's component's name", 31, "Calls"],
    ["its own name", 31, "Text messages"],
    ["a live one's name, given to an archived component (it does not count)", 32, "Text messages"],
  ])("to %s: 200", async (_, id, name) => {
    const sim = await site();
    const res = await rename(sim, id, name);
    expect(res.status).toBe(200);
    expect(res.body.component.name).toBe(name);
  });

  it("the name an archived component held is free once it is archived (a replacement renamed back in place)", async () => {
    const sim = await site();
    const made = await create(sim, 9001, "quantity_based", { name: "Texts" });
    expect((await rename(sim, made.body.component.id, "Text messages")).status).toBe(422);
    expect((await call(sim, "DELETE", "/product_families/9001/components/31.json")).status).toBe(200);
    expect((await rename(sim, made.body.component.id, "Text messages")).status).toBe(200);
  });
});

describe("seeding: addComponent holds names to the same rule", () => {
  it("a live component's name in its family throws; archived, or in another family, it is seeded", async () => {
    const sim = await site();
    expect(() => sim.addComponent({ familyHandle: "saas", kind: "on_off", handle: "t2", name: "Text messages" })).toThrow(
      /addComponent: name 'Text messages' is held by live component 31/,
    );
    expect(() =>
      sim.addComponent({ familyHandle: "saas", kind: "on_off", handle: "t3", name: "Text messages", archived: true }),
    ).not.toThrow();
    expect(() => sim.addComponent({ familyHandle: "other", kind: "on_off", handle: "t4", name: "Text messages" })).not.toThrow();
  });
});
