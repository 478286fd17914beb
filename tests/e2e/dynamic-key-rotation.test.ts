import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Simulator, startSimulator } from "../../simulator";
import { ExampleStack, installedConsumer, mutations } from "./support";

// A key rotated with `pulumi config set --secret billing:sites` on a stack of the dynamic providers
// (examples/webhook-settings) that ran before, with the real CLI, against a site that accepts one key at a time.
// The engine configures the dynamic providers' host with the whole stack configuration: as the stack holds it in
// `up`, `preview` and any command given --run-program, as its state recorded it at the last of those in a plain
// `refresh`, `up --refresh` and `destroy`. The host has no other copy of the keys, so those three send the recorded
// key; the refusal says what to run instead, and each of those uses the key set last.

const KEYS = [
  "sk_e2e_dyn_first_4e1a",
  "sk_e2e_dyn_second_9b07",
  "sk_e2e_dyn_third_27cd",
  "sk_e2e_dyn_fourth_d3f8",
  "sk_e2e_dyn_fifth_6a52",
] as const;
const DUNNING = { url: "https://dunning.acme.example/billing", events: ["payment_failure"] };
const ADVICE = /the one recorded then: run them with --run-program \(or set PULUMI_RUN_PROGRAM=true\), or run `pulumi up` first/;

describe("a key rotated on a dynamic-provider stack that ran before (examples/webhook-settings)", () => {
  let dataDir: string;
  let sim: Simulator;
  let s: ExampleStack;
  let current = 0;
  const text = (r: { stdout: string; stderr: string }) => r.stdout + r.stderr;
  const refused = () => sim.requests.filter((r) => r.status === 401).length;
  const answered = () => sim.requests.filter((r) => r.status !== 401).length;
  /**
   * The service's rotation: the site, restarted on the same port and data, accepts the next key only, which is
   * set in billing:sites; the request log starts empty.
   */
  const rotate = async () => {
    current += 1;
    const port = Number(new URL(sim.url).port);
    await sim.close();
    sim = await startSimulator({ apiKey: KEYS[current], port, dataFile: path.join(dataDir, "site.json") });
    await s.config("billing:sites", JSON.stringify({ "us-store": { baseUrl: sim.url, apiKey: KEYS[current] } }), true);
  };
  /** A command that sends the current key: it succeeds, and the site refused nothing (and answered something). */
  const usesCurrentKey = async (args: string[], env?: NodeJS.ProcessEnv) => {
    sim.reset();
    const res = await s.run(args, { allowFailure: true, env });
    assert.equal(res.code, 0, `${args.join(" ")} failed:\n${text(res)}`);
    assert.equal(refused(), 0, `${args.join(" ")} sent a key the site no longer accepts`);
    assert.ok(answered() > 0, `${args.join(" ")} sent no request`);
  };

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "billing-dyn-rotation-"));
    sim = await startSimulator({ apiKey: KEYS[0], dataFile: path.join(dataDir, "site.json") });
    const c = await installedConsumer();
    s = await ExampleStack.create(c, "webhook-settings", "dyn-rotation");
    await s.config("billing:sites", JSON.stringify({ "us-store": { baseUrl: sim.url, apiKey: KEYS[0] } }), true);
    await s.config("webhooks:enabled", JSON.stringify({ "us-store": true }));
    await s.config("webhooks:endpoints", JSON.stringify({ "us-store": { dunning: DUNNING } }));
    await s.run(["up", "--yes", "--skip-preview"]);
  });

  after(async () => {
    const printed = s?.outputs.join("\n") ?? "";
    const state = s ? await s.exportState().catch(() => "") : "";
    await s?.dispose();
    await sim?.close();
    await rm(dataDir, { recursive: true, force: true });
    for (const key of KEYS) {
      assert.ok(!printed.includes(key), `a key (${key.slice(0, 12)}…) appeared in the CLI's output`);
      assert.ok(!state.includes(key), `a key (${key.slice(0, 12)}…) is in the stack's state in clear`);
    }
  });

  it("refresh, up --refresh and destroy send the key recorded at the last up, and the refusal says what to run", async () => {
    await rotate();
    for (const [args, request] of [
      [["refresh", "--yes", "--skip-preview"], /401 Unauthorized to GET \/endpoints\.json/],
      [["up", "--yes", "--skip-preview", "--refresh"], /401 Unauthorized to GET \/endpoints\.json/],
      [["destroy", "--yes", "--skip-preview"], /401 Unauthorized to PUT \/endpoints\/\d+\.json/],
    ] as const) {
      sim.reset();
      const res = await s.run([...args], { allowFailure: true });
      assert.notEqual(res.code, 0, `${args.join(" ")} succeeded with the recorded key:\n${text(res)}`);
      assert.match(text(res), request);
      assert.match(text(res), ADVICE, `${args.join(" ")} did not say what to run`);
      assert.equal(refused(), 1);
      assert.deepEqual(mutations(sim.requests.filter((r) => r.status !== 401)), []);
    }
    assert.deepEqual(sim.endpoints()[0]?.events, DUNNING.events, "the endpoint was changed");
  });

  it("with --run-program (or PULUMI_RUN_PROGRAM=true) refresh uses the key set since, and records it", async () => {
    await usesCurrentKey(["refresh", "--yes", "--skip-preview", "--run-program"]);
    // Recorded: a plain refresh now sends that key.
    await usesCurrentKey(["refresh", "--yes", "--skip-preview"]);
    await rotate();
    await usesCurrentKey(["refresh", "--yes", "--skip-preview"], { PULUMI_RUN_PROGRAM: "true" });
    await rotate();
    await usesCurrentKey(["up", "--yes", "--skip-preview", "--refresh", "--run-program"]);
  });

  it("an up with nothing to change records the key set since, for the next refresh and destroy", async () => {
    await rotate();
    sim.reset();
    await s.run(["preview"]);
    await s.run(["up", "--yes", "--skip-preview"]);
    // Neither had anything to send: the key is tested by what follows.
    assert.equal(sim.requests.length, 0);
    await usesCurrentKey(["refresh", "--yes", "--skip-preview"]);
    await usesCurrentKey(["destroy", "--yes", "--skip-preview"]);
    for (const e of sim.endpoints()) assert.deepEqual(e.events, [], `endpoint ${e.id} still subscribed`);
  });
});
