import assert from "node:assert/strict";
import { type Simulator, startSimulator } from "../../simulator";
import { ExampleStack, installedConsumer, mutations } from "./support";

const KEY = "sk_e2e_custom_fields_9d04a7";

// examples/site-config's custom fields with the real CLI on a local file backend: created, renamed in place (the
// preview says update, not replace, and shows the field's data count), refused at destroy while it holds data,
// deleted with its data once deleteData: true was applied.
describe("examples/site-config with the real CLI: a CustomField", () => {
  let sim: Simulator;
  let s: ExampleStack;
  const field = { resourceType: "subscriptions", name: "Region", inputType: "dropdown", enum: ["EU", "US"] };
  const fields = (v: object) => s.config("siteConfig:customFields", JSON.stringify({ region: v }));
  async function held(): Promise<{ name: string; data_count: number }[]> {
    const r = await fetch(`${sim.url}/subscriptions/metafields.json`, {
      headers: { authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}` },
    });
    return ((await r.json()) as { metafields: { name: string; data_count: number }[] }).metafields;
  }

  before(async () => {
    const c = await installedConsumer();
    sim = await startSimulator({ apiKey: KEY });
    s = await ExampleStack.create(c, "site-config", "fields");
    await s.config("billing:baseUrl", sim.url);
    await s.config("billing:apiKey", KEY, true);
    await fields(field);
  });

  after(async () => {
    await s?.dispose();
    await sim?.close();
  });

  it("up creates the field once; a second up changes nothing", async () => {
    await s.run(["up", "--yes", "--skip-preview"]);
    assert.deepEqual(
      (await held()).map((f) => f.name),
      ["Region"],
    );
    await s.run(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
  });

  it("a rename previews as an update with the data count, and renames in place with current_name", async () => {
    sim.setMetafieldDataCount("subscriptions", "Region", 5);
    await fields({ ...field, name: "Sales region" });
    const preview = JSON.parse((await s.run(["preview", "--json"])).stdout) as {
      steps: { op: string; newState?: { type: string; inputs?: { preview?: { dataCount?: number } } } }[];
    };
    const step = preview.steps.find((x) => x.newState?.type.endsWith("CustomField"));
    assert.equal(step?.op, "update");
    assert.equal(step?.newState?.inputs?.preview?.dataCount, 5);
    sim.reset();
    await s.run(["up", "--yes", "--skip-preview"]);
    assert.deepEqual(
      mutations(sim.requests).map((r) => [
        r.method,
        r.path,
        (r as { body?: { metafields?: { current_name?: string } } }).body?.metafields?.current_name,
      ]),
      [["PUT", "/subscriptions/metafields.json", "Region"]],
    );
    assert.deepEqual(
      (await held()).map((f) => [f.name, f.data_count]),
      [["Sales region", 5]],
    );
  });

  it("destroy of a field with data is refused naming the count and deleteData; applied, it deletes field and data", async () => {
    const refused = await s.run(["destroy", "--yes", "--skip-preview"], { allowFailure: true });
    assert.match(refused.stdout + refused.stderr, /holds data on 5 subscriptions/);
    assert.match(refused.stdout + refused.stderr, /declare deleteData: true and run `pulumi up`/);
    assert.equal((await held()).length, 1);
    await fields({ ...field, name: "Sales region", deleteData: true });
    await s.run(["up", "--yes", "--skip-preview"]);
    await s.run(["destroy", "--yes", "--skip-preview"]);
    assert.deepEqual(await held(), []);
  });

  it("no credential in state or CLI output", async () => {
    assert.ok(!(await s.exportState()).includes(KEY), "state holds the key");
    assert.ok(!s.outputs.join("\n").includes(KEY), "CLI output holds the key");
  });
});
