import assert from "node:assert/strict";
import { type Simulator, startSimulator } from "../../simulator";
import { ExampleStack, installedConsumer, mutations } from "./support";

const KEY = "sk_e2e_reason_codes_4e21b9";

// examples/site-config's reason codes with the real CLI on a local file backend: created once, changed in place (its
// code too, the id kept), an outside edit restored after a refresh, deleted by destroy; no key in state or output.
describe("examples/site-config with the real CLI: a ReasonCode", () => {
  let sim: Simulator;
  let s: ExampleStack;
  const codes = (v: object) => s.config("siteConfig:reasonCodes", JSON.stringify(v));

  before(async () => {
    const c = await installedConsumer();
    sim = await startSimulator({ apiKey: KEY });
    s = await ExampleStack.create(c, "site-config", "codes");
    await s.config("billing:baseUrl", sim.url);
    await s.config("billing:apiKey", KEY, true);
    await codes({ pricey: { code: "too_expensive", description: "It costs too much", position: 1 } });
  });

  after(async () => {
    await s?.dispose();
    await sim?.close();
  });

  it("preview sends nothing; up creates the code once; a second up changes nothing", async () => {
    await s.run(["preview"]);
    assert.deepEqual(mutations(sim.requests), []);
    await s.run(["up", "--yes", "--skip-preview"]);
    assert.deepEqual(
      sim.reasonCodes().map((r) => [r.code, r.description, r.position]),
      [["too_expensive", "It costs too much", 1]],
    );
    await s.run(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
    assert.deepEqual(
      mutations(sim.requests).map((r) => `${r.method} ${r.path}`),
      ["POST /reason_codes.json"],
    );
  });

  it("a new code and description update in place: one PUT, the same id", async () => {
    const before = (await s.stackOutputs()).reasonCodes as Record<string, { id: number }>;
    await codes({ pricey: { code: "pricey", description: "Too dear", position: 1 } });
    const res = await s.run(["up", "--yes", "--skip-preview"]);
    assert.match(res.stdout, /1 updated/);
    const after = (await s.stackOutputs()).reasonCodes as Record<string, { id: number; code: string }>;
    assert.deepEqual(after.pricey, { id: before.pricey?.id, code: "pricey" });
    assert.equal(mutations(sim.requests).filter((r) => r.method === "PUT").length, 1);
  });

  it("an edit made outside shows after refresh, and up restores the declaration", async () => {
    const [held] = sim.reasonCodes();
    await fetch(`${sim.url}/reason_codes/${held?.id}.json`, {
      method: "PUT",
      headers: { authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}`, "content-type": "application/json" },
      body: JSON.stringify({ reason_code: { description: "Edited in the web UI" } }),
    });
    await s.run(["refresh", "--yes", "--skip-preview"]);
    await s.run(["up", "--yes", "--skip-preview"]);
    assert.equal(sim.reasonCodes()[0]?.description, "Too dear");
    await s.run(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
  });

  it("destroy deletes the code at the service", async () => {
    await s.run(["destroy", "--yes", "--skip-preview"]);
    assert.deepEqual(sim.reasonCodes(), []);
  });

  it("no credential in state or CLI output; the key is stored encrypted", async () => {
    await s.run(["up", "--yes", "--skip-preview"]);
    const state = await s.exportState();
    assert.ok(!state.includes(KEY), "state holds the key");
    assert.ok(!s.outputs.join("\n").includes(KEY), "CLI output holds the key");
    assert.ok(!(await s.stackConfigFile()).includes(KEY), "stack config holds the key in clear");
  });
});
