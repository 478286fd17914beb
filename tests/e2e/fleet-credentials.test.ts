import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { FleetReport } from "../../fleet/report";
import { createWorkspace, type Workspace } from "../../scripts/lib/pulumi-cli";
import { type Simulator, startSimulator } from "../../simulator";
import { type Consumer, installedConsumer } from "./support";

/**
 * Credentials in a fleet, as a user gives them: only through `secrets:` (environment variables),
 * also a whole `billing:sites` whose entry holds the key. `billing-fleet` from the installed package
 * runs preview, up and destroy on three simulators, then every file under the fleet's folder (state
 * folder, inline workspaces' stack config, logs, file backend, reports), the Pulumi home and every
 * output are searched for each key: none is found. And every form of a credential written into the
 * fleet file is refused by the real bin with exit 2, naming where it sits, writing nothing.
 */
const KEYS = { us: "sk_cred_us_4f9a1c7e22", ca: "sk_cred_ca_8b3d5e0f61", eu: "sk_cred_eu_2c6e9a4d13" } as const;
const RECEIVER = "https://hooks.acme.example/billing";

/** A site's program as plain CommonJS: this test is about credentials, not about loading TypeScript. */
const PROGRAM = `const pulumi = require("@pulumi/pulumi");
const { WebhookEndpoint, WebhookSettings } = require("pulumi-subscription-billing");
// site:entry names an entry of billing:sites; without it the top-level billing:* keys apply.
exports.program = () => {
  const site = new pulumi.Config("site").get("entry");
  const settings = new WebhookSettings("webhooks", { site, webhooksEnabled: true });
  const endpoint = new WebhookEndpoint("receiver", { site, url: ${JSON.stringify(RECEIVER)}, events: ["payment_failure"] });
  return { webhooksEnabled: settings.webhooksEnabled, endpointId: endpoint.endpointId };
};
`;

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile() && (await stat(p)).size < 32 << 20) out.push(p);
    }
  };
  await walk(dir);
  return out;
}

describe("billing-fleet: no credential in any file or output", function () {
  this.timeout(900_000);
  let c: Consumer;
  let ws: Workspace;
  let dir: string;
  let sitesJson: string;
  const sims: Simulator[] = [];
  const outputs: string[] = [];

  /** The installed bin, in `cwd`, its outputs kept for the search. No PULUMI_BACKEND_URL: the fleet's own file backend. */
  async function fleet(args: string[], cwd = dir, extraEnv: NodeJS.ProcessEnv = {}): Promise<Run> {
    const bin = path.join(c.dir, "node_modules/pulumi-subscription-billing/dist/fleet/bin.js");
    const { PULUMI_BACKEND_URL: _, ...env }: NodeJS.ProcessEnv = {
      ...ws.env,
      US_STORE_BILLING_API_KEY: KEYS.us,
      CA_STORE_BILLING_API_KEY: KEYS.ca,
      EU_STORE_BILLING_SITES: sitesJson,
      ...extraEnv,
    };
    const run = await new Promise<Run>((resolve) => {
      execFile(process.execPath, [bin, ...args], { cwd, env, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
    outputs.push(run.stdout, run.stderr);
    return run;
  }

  const report = async (name: string): Promise<FleetReport> => JSON.parse(await readFile(path.join(dir, name), "utf8")) as FleetReport;

  before(async () => {
    c = await installedConsumer();
    ws = await createWorkspace(c.bin);
    dir = path.join(c.dir, "fleet-credentials");
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, "site.js"), PROGRAM);
    for (const key of Object.values(KEYS)) sims.push(await startSimulator({ apiKey: key }));
    // The eu site's whole billing:sites is one secret: the entry's apiKey can only come from the environment.
    sitesJson = JSON.stringify({ "eu-shop": { baseUrl: sims[2].url, apiKey: KEYS.eu } });
    await writeFile(
      path.join(dir, "fleet.yaml"),
      [
        "program: ./site.js",
        "config:",
        "  site:note: the token is read from the environment at run time",
        "sites:",
        "  - name: us-store",
        `    config: { billing:baseUrl: "${sims[0].url}" }`,
        "    secrets: { billing:apiKey: US_STORE_BILLING_API_KEY }",
        "  - name: ca-store",
        `    config: { billing:baseUrl: "${sims[1].url}" }`,
        "    secrets: { billing:apiKey: CA_STORE_BILLING_API_KEY }",
        "  - name: eu-store",
        "    config: { site:entry: eu-shop }",
        "    secrets: { billing:sites: EU_STORE_BILLING_SITES }",
        "",
      ].join("\n"),
    );
  });

  after(async () => {
    for (const s of sims) await s.close().catch(() => undefined);
    await ws?.dispose();
  });

  it("preview, up and destroy run every site with its credential from the environment", async () => {
    const preview = await fleet(["preview", "fleet.yaml", "--plain", "--json", "preview.json"]);
    assert.equal(preview.code, 0, preview.stderr + preview.stdout);
    const previewed = await report("preview.json");
    assert.deepEqual(
      previewed.sites.map((s) => [s.name, s.result]),
      [
        ["us-store", "succeeded"],
        ["ca-store", "succeeded"],
        ["eu-store", "succeeded"],
      ],
    );
    // The default provider's inputs carry the stack's config: the report has them, its secrets blanked.
    const euSteps = JSON.stringify(previewed.sites[2].preview?.steps);
    assert.match(euSteps, /billing:sites/);

    const up = await fleet(["up", "fleet.yaml", "--plain", "--json", "up.json"]);
    assert.equal(up.code, 0, up.stderr + up.stdout);
    for (const sim of sims) {
      assert.equal(sim.webhooksEnabled, true);
      assert.deepEqual(
        sim.endpoints().map((e) => e.url),
        [RECEIVER],
      );
    }

    // What the CLI itself writes: the inline workspaces' stack config holds the secrets only encrypted.
    for (const [stack, key] of [
      ["us-store", "billing:apiKey"],
      ["eu-store", "billing:sites"],
    ]) {
      const config = await readFile(path.join(dir, ".billing-fleet/stacks", stack, `Pulumi.${stack}.yaml`), "utf8");
      assert.match(config, new RegExp(`${key}:\\s*\\n\\s*secure: `), config);
    }

    const destroyed = await fleet(["destroy", "fleet.yaml", "--plain", "--json", "destroy.json"]);
    assert.equal(destroyed.code, 0, destroyed.stderr + destroyed.stdout);
    assert.ok((await report("destroy.json")).sites.every((s) => s.result === "succeeded" && (s.changes.delete ?? 0) >= 2));
  });

  it("a failing site's log, report and table hold no credential either", async () => {
    // us-store's simulator refuses a wrong key: the error path writes the log, the report and the table.
    const wrong = "sk_cred_wrong_7d2b9e5a10";
    const run = await fleet(["up", "fleet.yaml", "--plain", "--json", "failed.json"], dir, { US_STORE_BILLING_API_KEY: wrong });
    assert.equal(run.code, 1, run.stderr + run.stdout);
    const failed = await report("failed.json");
    assert.equal(failed.sites[0].result, "failed");
    assert.match(failed.sites[0].error ?? "", /401|unauthori[sz]ed|credential|key/i);
    const texts = [...outputs, ...(await Promise.all((await filesUnder(dir)).map((f) => readFile(f, "utf8"))))];
    assert.deepEqual(
      texts.filter((t) => t.includes(wrong)).map((t) => t.slice(Math.max(0, t.indexOf(wrong) - 200), t.indexOf(wrong) + 40)),
      [],
    );
    await fleet(["destroy", "fleet.yaml", "--plain"]);
  });

  it("no key is found in any file under the fleet's folder, the Pulumi home, or any output", async () => {
    const files = [...(await filesUnder(dir)), ...(await filesUnder(ws.dir))];
    const rel = files.map((f) => path.relative(dir, f));
    // Every kind of file the runner and the CLI write is there to be searched.
    for (const kind of [
      /^\.billing-fleet\/logs\/eu-store\.log$/,
      /^\.billing-fleet\/last-preview\.json$/,
      /^\.billing-fleet\/last-up\.json$/,
      /^\.billing-fleet\/stacks\/eu-store\/Pulumi\.eu-store\.yaml$/,
      /^\.billing-fleet\/state\/\.pulumi\/stacks\/.*eu-store\.json/,
      /^\.billing-fleet\/state\/\.pulumi\/history\//,
    ]) {
      assert.ok(
        rel.some((f) => kind.test(f)),
        `${kind} among ${rel.filter((f) => !f.startsWith("..")).join(", ")}`,
      );
    }
    const texts = [...outputs, ...(await Promise.all(files.map((f) => readFile(f, "utf8"))))];
    for (const [site, key] of [...Object.entries(KEYS), ["eu-sites", sitesJson]]) {
      const hits = texts.filter((t) => t.includes(key));
      assert.equal(hits.length, 0, `the key of ${site} was found`);
    }
  });

  describe("a credential written into the fleet file is refused by the bin: exit 2, where it sits, nothing written", () => {
    const KEY = "sk_cred_refused_5e8a2c4f90";
    const json = JSON.stringify({ us: { baseUrl: "https://us.example", apiKey: KEY } });
    const forms: [string, string, string][] = [
      ["a plain key", `config: { billing:apiKey: ${KEY} }`, "the fleet's config: config billing:apiKey holds a credential:"],
      [
        "a JSON string under billing:sites (the README's form)",
        `sites: [{ name: us-store, config: { billing:sites: '${json}' } }]`,
        "sites[0] (us-store): config billing:sites holds a credential at .us.apiKey (a JSON string):",
      ],
      [
        "a YAML string",
        `sites: [{ name: us-store, config: { billing:sites: "us:\\n  apiKey: ${KEY}\\n" } }]`,
        "sites[0] (us-store): config billing:sites holds a credential at .us.apiKey (a YAML string):",
      ],
      [
        "a JSON string inside a YAML string under any key",
        `sites: [{ name: us-store, config: { foo:bar: ${JSON.stringify(`all: '${json}'`)} } }]`,
        "sites[0] (us-store): config foo:bar holds a credential at .all.us.apiKey (a JSON string inside a YAML string):",
      ],
      [
        "a nested object in an array",
        `sites: [{ name: us-store, config: { site:hooks: [{ url: "https://a" }, { auth: { accessToken: ${KEY} } }] } }]`,
        "sites[0] (us-store): config site:hooks holds a credential at [1].auth.accessToken:",
      ],
    ];
    for (const [i, [form, yaml, message]] of forms.entries()) {
      it(form, async () => {
        const at = path.join(c.dir, `fleet-refused-${i}`);
        await mkdir(at, { recursive: true });
        await writeFile(path.join(at, "site.js"), PROGRAM);
        const text = `program: ./site.js\n${yaml}\n${yaml.startsWith("sites:") ? "" : "sites: [{ name: us-store }]\n"}`;
        await writeFile(path.join(at, "fleet.yaml"), text);
        const run = await fleet(["preview", "fleet.yaml", "--json", "report.json"], at);
        assert.equal(run.code, 2, run.stderr);
        assert.ok(run.stderr.includes(message), run.stderr);
        assert.match(run.stderr, /secrets: \{ \S+: [A-Z_]+ \}/);
        assert.ok(!run.stderr.includes(KEY) && !run.stdout.includes(KEY), "the value is never repeated");
        // Only what the test wrote: no state folder, no report, no log.
        assert.deepEqual((await readdir(at)).sort(), ["fleet.yaml", "site.js"]);
      });
    }
  });
});
