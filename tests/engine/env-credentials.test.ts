import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { KINDS } from "../../provider";
import { type Simulator, startSimulator } from "../../simulator";
import { ROOT } from "./support";

/**
 * The environment fallback is the path users take (`BILLING_API_KEY` in CI,
 * no `billing:apiKey` in stack config), and there a credential is in the
 * environment before any module of the package loads. The other engine tests
 * set it only while resources register, after the package was imported, so a
 * value captured when a module loads (and serialized with a provider's
 * methods) would pass them. Here a child process starts with every `BILLING_*`
 * variable of the README's configuration table set (the two credentials in two
 * runs: a site takes an API key or a token, not both), registers every kind
 * and runs it through the real host against the simulator; the credential must
 * appear nowhere in what it registered (`__provider` included), in any answer
 * (the state the engine would write) or in anything the host printed.
 */
const PROGRAM = path.join(__dirname, "env-credentials.program.ts");
const API_KEY = "sk_live_ENVSTART_SECRET_5151";
const ACCESS_TOKEN = "tok_ENVSTART_SECRET_6262";
const MODULES = Object.values(KINDS);

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runProgram(env: Record<string, string>): Promise<Run> {
  // The parent's own BILLING_* (a developer's shell) must not mix in.
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("BILLING_")));
  const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", PROGRAM], {
    cwd: ROOT,
    env: { ...base, ...env, PULUMI_CONFIG: "{}" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function parsed(run: Run): { registered: { type: string; inputs: Record<string, unknown> }[]; answers: unknown[]; created: string[] } {
  assert.equal(run.code, 0, `the program failed:\n${run.stderr}`);
  const last = run.stdout.trim().split("\n").pop() ?? "";
  return JSON.parse(last);
}

/** Every place the secret could sit, each named, so a failure says where it leaked. */
function assertNowhere(secret: string, run: Run, result: ReturnType<typeof parsed>): void {
  for (const r of result.registered) {
    assert.equal(typeof r.inputs.__provider, "string", `${r.type} has a __provider`);
    assert.ok(!String(r.inputs.__provider).includes(secret), `the credential is in the __provider of ${r.type}`);
    assert.ok(!JSON.stringify(r.inputs).includes(secret), `the credential is in the inputs of ${r.type}`);
  }
  assert.ok(!JSON.stringify(result.answers).includes(secret), "the credential is in an answer of the host (state)");
  assert.ok(!run.stdout.includes(secret), "the credential is in the program's output");
  assert.ok(!run.stderr.includes(secret), "the credential is in the program's or the host's log");
}

describe("credentials in the environment from process start (the documented fallback)", function () {
  this.timeout(120_000);
  let sim: Simulator;

  beforeEach(async () => {
    sim = await startSimulator({ seed: "demo", apiKey: API_KEY, accessToken: ACCESS_TOKEN });
  });
  afterEach(async () => sim?.close());

  const numbers = { BILLING_RETRY_BUDGET_SECONDS: "30", BILLING_MIGRATION_SETTLE_SECONDS: "20", BILLING_TIMEOUT_MS: "20000" };

  it("BILLING_API_KEY with BILLING_SUBDOMAIN, BILLING_ENVIRONMENT, BILLING_BASE_URL: every kind works, and the key is nowhere", async () => {
    const run = await runProgram({
      BILLING_API_KEY: API_KEY,
      BILLING_SUBDOMAIN: "acme",
      BILLING_ENVIRONMENT: "us",
      BILLING_BASE_URL: sim.url,
      ...numbers,
    });
    const result = parsed(run);
    assert.deepEqual(
      result.created,
      MODULES.map((m) => m.kind.type),
      "every kind was created with the environment's credential",
    );
    assert.ok(
      sim.requests.some((r) => r.method !== "GET"),
      "the resources wrote to the simulator (authenticated with the environment's key)",
    );
    assertNowhere(API_KEY, run, result);
  });

  it("BILLING_ACCESS_TOKEN with BILLING_BASE_URL: every kind works, and the token is nowhere", async () => {
    const run = await runProgram({ BILLING_ACCESS_TOKEN: ACCESS_TOKEN, BILLING_BASE_URL: sim.url, ...numbers });
    const result = parsed(run);
    assert.deepEqual(
      result.created,
      MODULES.map((m) => m.kind.type),
    );
    assert.ok(sim.requests.some((r) => r.method !== "GET"));
    assertNowhere(ACCESS_TOKEN, run, result);
  });
});
