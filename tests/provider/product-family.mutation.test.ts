import { afterEach, describe, expect, it } from "vitest";
import { productFamilyProvider } from "../../provider";
import { type Simulator, startSimulator } from "../../simulator";
import { captureOutput, configureRequest, KEY, mutations } from "./support";

/**
 * ProductFamily paths the mutation run found no test took (product-family.ts), against the simulator over
 * a real socket: what an adoption compares (a description the service holds as null, the same one, another
 * one, another name) and the exact refusal it gives, adopt: false at create and when resuming a pending
 * create, the declared values recorded beside the outputs (create, update), the site kept with a create
 * whose outcome is unknown, and which property a preview failure names.
 */

const family = { handle: "rockets", name: "Rockets" };
const steps = (sim: Simulator) => mutations(sim).map((r) => `${r.method} ${r.path}`);
const cannotChange = (fixes: string) =>
  `product family \`rockets\` cannot be changed: the service has no update of a family (${fixes}). ` +
  "Declare the values it holds, or declare a new family with a new handle and move products to it.";

describe("ProductFamily, its less travelled paths", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  /** A fresh simulator; the provider talks to it at the top level and as billing:sites entry `eu`. */
  async function setup() {
    sim = await startSimulator({ apiKey: KEY });
    const families = { ...productFamilyProvider };
    await families.configure!(
      configureRequest({
        "billing:baseUrl": sim.url,
        "billing:apiKey": KEY,
        "billing:sites": JSON.stringify({ eu: { baseUrl: sim.url, apiKey: KEY } }),
      }),
    );
    return families;
  }

  /** The family with this handle as the service answers it. */
  async function held(handle: string) {
    const res = await fetch(`${sim.url}/product_families/handle:${handle}.json`, {
      headers: { authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}` },
    });
    return ((await res.json()) as { product_family: Record<string, unknown> }).product_family;
  }

  describe("create", () => {
    it("sends the description, and records the declared name, description and adopt beside the outputs", async () => {
      const families = await setup();
      const { id, outs } = await families.create({ ...family, description: "Everything that flies", adopt: true });
      expect(outs).toEqual({
        familyId: Number(id),
        handle: "rockets",
        name: "Rockets",
        description: "Everything that flies",
        createdAt: expect.any(String),
        args: { name: "Rockets", description: "Everything that flies", adopt: true },
      });
      expect(await held("rockets")).toMatchObject({ name: "Rockets", description: "Everything that flies" });
    });

    it("without description or adopt, records the name alone", async () => {
      const families = await setup();
      const { outs } = await families.create(family);
      expect(outs.args).toEqual({ name: "Rockets" });
      expect(await held("rockets")).toMatchObject({ description: null });
    });

    it("adopt: false and the handle taken: refused, nothing created", async () => {
      const families = await setup();
      const made = sim.addProductFamily(family);
      await expect(families.create({ ...family, adopt: false })).rejects.toThrow(
        new Error(`product family \`rockets\` (id ${made.id}) already exists and adopt is false: nothing was changed`),
      );
      expect(mutations(sim)).toEqual([]);
    });

    it("a create whose outcome is unknown, at a named site, records the site with the pending create", async () => {
      const families = await setup();
      sim.injectFault({ kind: "status", status: 503, rate: 1, match: { method: "POST" } });
      const { error } = await captureOutput(() => families.create({ ...family, description: "Flying", site: "eu" }));
      const partial = error as { message: string; id: string; properties: Record<string, unknown> };
      expect(partial.id).toMatch(/^pending-/);
      expect(partial.message).toMatch(
        /\. Recorded: the next `pulumi up` looks for product family `rockets` by its handle and only re-sends the create, with the same token, if it is not there\.$/,
      );
      const { __provider: _, ...recorded } = partial.properties;
      expect(recorded).toEqual({
        handle: "rockets",
        site: "eu",
        args: { name: "Rockets", description: "Flying" },
        pendingToken: partial.id.slice("pending-".length),
      });
    });
  });

  describe("adoption compares what the service holds, which it cannot change", () => {
    it.each([
      ["the same description", "made in the web UI", "made in the web UI"],
      ["no description there (null), declared empty", null, ""],
    ])("%s: adopted as it is, nothing sent", async (_, there, declared) => {
      const families = await setup();
      const made = sim.addProductFamily({ ...family, description: there });
      const { result, text, error } = await captureOutput(() => families.create({ ...family, description: declared }));
      expect(error).toBeUndefined();
      expect(result?.id).toBe(String(made.id));
      expect(result?.outs).toMatchObject({ description: there, args: { name: "Rockets", description: declared } });
      expect(text).toContain(`adopted product family \`rockets\` (id ${made.id})`);
      expect(steps(sim)).toEqual([]);
    });

    it.each([
      ["another name", { name: "Rockets" }, { name: "Spaceships" }, 'name: the service holds "Rockets"'],
      [
        "another description",
        { name: "Rockets", description: "made in the web UI" },
        { name: "Rockets", description: "declared here" },
        'description: the service holds "made in the web UI"',
      ],
      [
        "a description where the service holds none",
        { name: "Rockets" },
        { name: "Rockets", description: "declared here" },
        "description: the service holds null",
      ],
    ])("%s: refused with the value the service holds, nothing sent", async (_, there, declared, fix) => {
      const families = await setup();
      sim.addProductFamily({ handle: "rockets", ...there });
      await expect(families.create({ handle: "rockets", ...declared })).rejects.toThrow(new Error(cannotChange(fix)));
      expect(mutations(sim)).toEqual([]);
    });
  });

  describe("preview names the property the service holds differently", () => {
    it.each([
      ["the name", { name: "Spaceships" }, "name", 'name: the service holds "Rockets"'],
      ["the description", { name: "Rockets", description: "declared here" }, "description", 'description: the service holds "held"'],
      [
        "both: the name first",
        { name: "Spaceships", description: "declared here" },
        "name",
        'name: the service holds "Rockets"; description: the service holds "held"',
      ],
    ])("%s", async (_, declared, property, fixes) => {
      const families = await setup();
      sim.addProductFamily({ ...family, description: "held" });
      const checked = await families.check!({}, { handle: "rockets", ...declared });
      expect(checked.failures).toEqual([{ property, reason: cannotChange(fixes) }]);
    });
  });

  it("a pending create resumed with adopt: false finds the family its own create made, and adopts it without a word", async () => {
    const families = await setup();
    const made = sim.addProductFamily(family);
    const { result, text, error } = await captureOutput(() =>
      families.update!("pending-tok", { handle: "rockets", args: { name: "Rockets" }, pendingToken: "tok" }, { ...family, adopt: false }),
    );
    expect(error).toBeUndefined();
    expect(result?.outs).toEqual({
      familyId: made.id,
      handle: "rockets",
      name: "Rockets",
      description: null,
      createdAt: made.createdAt,
      args: { name: "Rockets", adopt: false },
    });
    expect(text).toBe("");
    expect(mutations(sim)).toEqual([]);
  });

  it("an update records the declared values beside what the service holds", async () => {
    const families = await setup();
    const { id, outs } = await families.create({ ...family, description: "Flying" });
    sim.reset();
    const { outs: updated } = await families.update!(id, outs, { ...family, description: "Flying", adopt: false });
    expect(updated).toEqual({ ...outs, args: { name: "Rockets", description: "Flying", adopt: false } });
    expect(sim.requests).toEqual([]);
  });

  it("adopted with no description there (null) and one declared empty: diff sees no change", async () => {
    const families = await setup();
    sim.addProductFamily({ ...family, description: null });
    const declared = { ...family, description: "" };
    const { result } = await captureOutput(() => families.create(declared));
    const { id, outs } = result ?? { id: "", outs: {} };
    expect(outs.description).toBe(null);
    expect(await families.diff!(id, outs, declared)).toStrictEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  });
});
