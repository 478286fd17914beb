import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { packInto } from "../../scripts/lib/packed-install";
import { type Simulator, startSimulator } from "../../simulator";
import { fencedBlocks } from "../docs/examples";
import { held, seedUsedTestSite } from "../site/seed";
import { ROOT } from "./support";

/**
 * `billing-site reset` as the README and docs/site.md show it, each of their `billing-site` lines run by a shell
 * in a fresh project (`npm init -y`, then `npm install` of the packed tarball), against a simulated test site
 * that holds what a CI run leaves and clears asynchronously (its default delay). A line's `# exit N` comment is
 * its expected exit code (0 without one). Every output is searched for the site's key.
 */

const KEY = "sk_e2e_site_reset_4d2c9a71";

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Every `billing-site` line of the sh blocks of a page, as written there. */
async function shownCommands(page: string): Promise<string[]> {
  const text = await readFile(path.join(ROOT, page), "utf8");
  return fencedBlocks(text)
    .filter((b) => b.info === "sh")
    .flatMap((b) => b.code.split("\n"))
    .filter((l) => /^(\S+=\S+ )*npx billing-site /.test(l));
}

const expectedExit = (line: string) => Number(/#.*\bexit (\d)/.exec(line)?.[1] ?? 0);

describe("billing-site reset as the README and docs/site.md show it, from a fresh npm project", () => {
  let dir: string;
  const outputs: string[] = [];
  const sims: Simulator[] = [];

  function sh(line: string, env: NodeJS.ProcessEnv): Promise<Run> {
    return new Promise((resolve) => {
      execFile("bash", ["-c", line], { cwd: dir, env, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
        outputs.push(stdout, stderr);
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
  }

  /** A user's shell: no BILLING_ variable of the caller's, the key exported as the README's first line does. */
  const shell = () => ({
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("BILLING_"))),
    BILLING_API_KEY: KEY,
  });

  before(async function () {
    this.timeout(600_000);
    dir = await mkdtemp(path.join(tmpdir(), "billing-site-reset-"));
    const init = await sh("npm init -y", shell());
    assert.equal(init.code, 0, init.stderr);
    const tarball = packInto(dir);
    const install = await sh(`npm install ./${tarball} --no-audit --no-fund --prefer-offline --loglevel=error`, shell());
    assert.equal(install.code, 0, install.stderr);
  });

  after(async () => {
    for (const s of sims) await s.close();
    const everything = outputs.join("\n");
    assert.ok(everything.includes("billing-site"), "the outputs were collected");
    assert.ok(!everything.includes(KEY), "the key appeared in an output");
    assert.ok(!everything.includes(Buffer.from(`${KEY}:x`).toString("base64")), "the key's Basic header appeared in an output");
  });

  /** A used test site for one command, `acme-ci` in the line pointed at it. */
  async function runShown(line: string): Promise<{ run: Run; sim: Simulator }> {
    const sim = seedUsedTestSite(await startSimulator({ apiKey: KEY }));
    sims.push(sim);
    const run = await sh(line.replaceAll("acme-ci", sim.url), shell());
    assert.equal(run.code, expectedExit(line), `${line}\n${run.stdout}${run.stderr}`);
    return { run, sim };
  }

  it("the README's and docs/site.md's commands are the ones these tests run, the key in the environment only", async () => {
    assert.deepEqual(await shownCommands("README.md"), ["npx billing-site reset --site acme-ci --scope all"]);
    assert.deepEqual(
      (await shownCommands("docs/site.md")).map((l) => l.replace(/\s+#.*$/, "")),
      [
        "npx billing-site reset --site acme-ci --scope all --timeout 300",
        "npx billing-site reset --site acme-ci --scope customers",
        "BILLING_PRODUCTION=true npx billing-site reset --site acme-ci --scope customers",
      ],
    );
  });

  it("README: --scope all empties the catalog and the customers, waits out the clear, prints what each held", async () => {
    const [line] = await shownCommands("README.md");
    const { run, sim } = await runShown(line as string);
    assert.deepEqual(held(sim), { subscriptions: 0, fieldValues: [0, 0], offers: 0, coupons: 0, components: 0, reasonCodes: 1 });
    assert.match(run.stdout, /^Cleared site \S+ \(scope all\): empty after \d+\.\d s\./);
    assert.match(run.stdout, /^ {2}products \(archived included\) +2$/m);
    assert.match(run.stdout, /^ {2}custom field values on subscriptions +2$/m);
  });

  it("docs/site.md: each line does what the page says, the production marker's with no request sent", async () => {
    for (const line of await shownCommands("docs/site.md")) {
      const { run, sim } = await runShown(line);
      const clears = sim.requests.filter((r) => r.path === "/sites/clear_data.json").map((r) => r.query.cleanup_scope);
      if (line.startsWith("BILLING_PRODUCTION=true")) {
        assert.deepEqual(sim.requests, []);
        assert.match(run.stderr, /BILLING_PRODUCTION=true marks this site production: refusing to clear it; nothing was sent/);
        assert.equal(held(sim).subscriptions, 2);
      } else if (line.includes("--scope customers")) {
        assert.deepEqual(clears, ["customers"]);
        assert.deepEqual(held(sim), { subscriptions: 0, fieldValues: [0, 0], offers: 1, coupons: 1, components: 1, reasonCodes: 1 });
      } else {
        assert.deepEqual(clears, ["all"]);
        assert.equal(held(sim).offers, 0);
      }
    }
  });
});
