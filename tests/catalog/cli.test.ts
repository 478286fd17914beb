import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { promisify } from "node:util";
import { describe, expect, it, onTestFinished } from "vitest";
import { catalogProgram, readCatalog } from "../../catalog";
import { main, USAGE } from "../../catalog/cli";
import { ROOT } from "./compile";
import { SECRET_KEY, webUiSite } from "./site";

// billing-catalog as a command: export's files, diff's exit codes, errors as exit 2, progress on a terminal,
// and no credential in anything it writes. In process through main(), and once as `node dist/catalog/bin.js`.

const OTHER_KEY = "sk_other_site_5a4b3c2d1e0f9988";

async function run(argv: string[], o: { env?: NodeJS.ProcessEnv; progress?: boolean } = {}) {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = "";
  let stderr = "";
  out.on("data", (c) => {
    stdout += c;
  });
  err.on("data", (c) => {
    stderr += c;
  });
  const code = await main(argv, { stdout: out, stderr: err, progress: o.progress, env: o.env ?? { BILLING_API_KEY: SECRET_KEY } });
  return { code, stdout, stderr };
}

const site = async (o: Parameters<typeof webUiSite>[0] = {}) => {
  const sim = await webUiSite(o);
  onTestFinished(() => sim.close());
  return sim;
};
const tmp = () => mkdtempSync(path.join(tmpdir(), "billing-catalog-"));

/** Every credential form that must not appear: the keys, and the Basic header built from them. */
const leaks = (text: string) =>
  [SECRET_KEY, OTHER_KEY, Buffer.from(`${SECRET_KEY}:x`).toString("base64"), Buffer.from(`${OTHER_KEY}:x`).toString("base64")].filter((k) =>
    text.includes(k),
  );

describe("billing-catalog export", () => {
  it("writes import.json, index.ts (the plugin's program) and snapshot.json, says the plugin must be installed, and exits 0", async () => {
    const sim = await site();
    const out = tmp();
    const r = await run(["export", "--site", sim.url, "--out", out]);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    // Deliberate change: the summary counts each catalog kind the registry declares, by its noun.
    expect(r.stdout).toMatch(
      /^Read 2 product families, 2 products, 3 price points, 5 components, 1 component price point, 2 coupons, 0 reason codes, 0 custom fields, 0 offers; wrote /,
    );
    expect(readdirSync(out).sort()).toEqual(["import.json", "index.ts", "snapshot.json"]);
    const { snapshot } = await readCatalog({ baseUrl: sim.url, apiKey: SECRET_KEY });
    // Deliberate change (issue 43): the program is the provider plugin's by default, the cheaper per object.
    const program = readFileSync(path.join(out, "index.ts"), "utf8");
    expect(program).toBe(catalogProgram(snapshot, { target: "plugin" }));
    expect(program).toContain('import * as billing from "pulumi-subscription-billing/billing";');
    expect(r.stdout.split("\n").slice(1)).toEqual([
      `\`pulumi import --file ${path.join(out, "import.json")}\` and ${path.join(out, "index.ts")} run with the provider plugin: install it first with \`npx billing-plugin install\`.`,
      "",
    ]);
    expect(JSON.parse(readFileSync(path.join(out, "import.json"), "utf8")).resources).toHaveLength(15);
    const written = JSON.parse(readFileSync(path.join(out, "snapshot.json"), "utf8"));
    expect(written.format).toBe("billing-catalog-snapshot/2");
    expect(written.objects.Product.pro.name).toBe("Pro");
  });

  it("--format picks one file; --include-archived reads archived objects into the snapshot; --site-entry prefixes import ids", async () => {
    const sim = await site();
    const out = tmp();
    expect((await run(["export", "--site", sim.url, "--out", out, "--format", "import", "--site-entry", "prod"])).code).toBe(0);
    expect(readdirSync(out)).toEqual(["import.json"]);
    expect(JSON.parse(readFileSync(path.join(out, "import.json"), "utf8")).resources[0].id).toBe("prod/addons");
    const out2 = tmp();
    expect((await run(["export", "--site", sim.url, "--out", out2, "--format", "snapshot", "--include-archived"])).code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(out2, "snapshot.json"), "utf8")).objects.Product.legacy.archived).toBe(true);
  });

  it("--program dynamic writes the dynamic providers' program, and no install of the plugin is asked for it", async () => {
    const sim = await site();
    const out = tmp();
    const r = await run(["export", "--site", sim.url, "--out", out, "--format", "program", "--program", "dynamic"]);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    const { snapshot } = await readCatalog({ baseUrl: sim.url, apiKey: SECRET_KEY });
    const program = readFileSync(path.join(out, "index.ts"), "utf8");
    expect(program).toBe(catalogProgram(snapshot, { target: "dynamic" }));
    expect(program).not.toBe(catalogProgram(snapshot, { target: "plugin" }));
    expect(r.stdout).not.toMatch(/billing-plugin install/);
    // The plugin's program alone asks for it, import.json or not.
    const plugin = await run(["export", "--site", sim.url, "--out", tmp(), "--format", "program", "--program", "plugin"]);
    expect(plugin.stdout).toMatch(/index\.ts run with the provider plugin: install it first with `npx billing-plugin install`\.\n$/);
  });

  it("--program other than plugin or dynamic is a usage error (exit 2) naming the option and both values, before any request", async () => {
    const sim = await site();
    for (const value of ["Plugin", "terraform", ""]) {
      const out = tmp();
      const r = await run(["export", "--site", sim.url, "--out", out, "--program", value]);
      expect(r).toEqual({
        code: 2,
        stdout: "",
        stderr: `billing-catalog: --program ${JSON.stringify(value)}: give plugin (the provider plugin's SDK, the default) or dynamic (the dynamic providers)\n`,
      });
      expect(readdirSync(out)).toEqual([]);
    }
    expect(sim.requests).toEqual([]);
  });

  it("without --site, reads the site the provider's environment names (BILLING_BASE_URL)", async () => {
    const sim = await site();
    const out = tmp();
    const r = await run(["export", "--out", out, "--format", "snapshot"], {
      env: { BILLING_API_KEY: SECRET_KEY, BILLING_BASE_URL: sim.url },
    });
    expect(r.code).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(path.join(out, "snapshot.json"), "utf8")).objects.Product)).toEqual(["basic", "pro"]);
  });

  it("shows a count of objects read on stderr when it is a terminal, and nothing when it is not", async () => {
    const sim = await site({ bulk: 20 });
    const tty = await run(["export", "--site", sim.url, "--out", tmp(), "--format", "snapshot"], { progress: true });
    expect(tty.stderr).toMatch(/\rexport: \d+ objects read \(\d+ lists, \d+ to go\)/);
    expect(tty.stderr).toMatch(new RegExp(`export: 36 objects read \\(\\d+ lists, 0 to go\\)${"\u001b"}\\[K\n$`));
    // The first list read is counted in the singular, as is a single object.
    expect(tty.stderr).toMatch(/\rexport: \d+ objects? read \(1 list, \d+ to go\)/);
    expect(tty.stderr).not.toMatch(/\b1 (objects|lists)\b/);
    const plain = await run(["export", "--site", sim.url, "--out", tmp(), "--format", "snapshot"]);
    expect(plain.stderr).toBe("");
  });

  it("--help (or -h) prints the usage on stdout and exits 0, for export and for diff", async () => {
    for (const argv of [["export", "--help"], ["export", "-h"], ["diff", "--help"], ["diff", "-h"], ["--help"]]) {
      // No site, no key: asking for help needs neither.
      const r = await run(argv, { env: {} });
      expect(r, argv.join(" ")).toEqual({ code: 0, stdout: `${USAGE}\n`, stderr: "" });
    }
    expect(USAGE).toMatch(/^Usage:\n {2}billing-catalog export /);
    expect(USAGE).toContain("billing-catalog diff A B");
  });

  it("bad usage and failed reads exit 2 with a message naming what to fix", async () => {
    const sim = await site();
    const cases: [string[], NodeJS.ProcessEnv, RegExp][] = [
      [["export", "--out", tmp()], { BILLING_API_KEY: SECRET_KEY }, /--site is required/],
      [["export", "--site", sim.url], { BILLING_API_KEY: SECRET_KEY }, /--out is required/],
      [
        ["export", "--site", sim.url, "--out", tmp(), "--format", "yaml"],
        { BILLING_API_KEY: SECRET_KEY },
        /--format "yaml": give import, program, snapshot or all/,
      ],
      [["export", "--site", sim.url, "--out", tmp()], {}, /BILLING_API_KEY is not set/],
      [["export", "--site", "not a site", "--out", tmp()], { BILLING_API_KEY: SECRET_KEY }, /give the site's URL/],
      [
        ["export", "--site", sim.url, "--out", tmp()],
        { BILLING_API_KEY: "sk_wrong_key_000000000" },
        /^billing-catalog: the site refused the API key in BILLING_API_KEY \(401 Unauthorized to GET \/product_families\.json\): set BILLING_API_KEY to the site's API key\n$/,
      ],
      [
        ["export", "--site", sim.url, "--out", tmp(), "--key-env", "STAGING_KEY"],
        { STAGING_KEY: "sk_wrong_key_000000000" },
        /^billing-catalog: the site refused the API key in STAGING_KEY \(401 Unauthorized to GET \/product_families\.json\): set STAGING_KEY to the site's API key\n$/,
      ],
      [["diff", sim.url], { BILLING_API_KEY: SECRET_KEY }, /give two catalogs/],
      [["frobnicate"], {}, /unknown command "frobnicate"/],
    ];
    for (const [argv, env, message] of cases) {
      const r = await run(argv, { env });
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.startsWith("billing-catalog: ")).toBe(true);
    }
  });

  it("refuses a --site URL that carries the key, without repeating it", async () => {
    const sim = await site();
    const url = sim.url.replace("http://", `http://${SECRET_KEY}:x@`);
    const r = await run(["export", "--site", url, "--out", tmp()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the URL carries credentials, which never go on the command line/);
    expect(leaks(r.stderr + r.stdout)).toEqual([]);
  });
});

describe("billing-catalog diff", () => {
  it("a site and its own snapshot: exit 0, and it says they are equal; a site whose tier changed: exit 1 and the field, in Markdown or JSON", async () => {
    const a = await site();
    const b = await site({ tier: "0.12", apiKey: OTHER_KEY });
    const out = tmp();
    expect((await run(["export", "--site", a.url, "--out", out, "--format", "snapshot"])).code).toBe(0);
    const snapshot = path.join(out, "snapshot.json");
    expect(await run(["diff", a.url, snapshot])).toEqual({
      code: 0,
      stdout: `# Catalog diff: ${a.url} → ${snapshot}\n\nThe catalogs are equal: nothing added, removed or changed.\n`,
      stderr: "",
    });
    const env = { BILLING_API_KEY: SECRET_KEY, PROD_KEY: OTHER_KEY };
    const md = await run(["diff", snapshot, b.url, "--b-key-env", "PROD_KEY"], { env });
    expect(md.code).toBe(1);
    expect(md.stdout).toContain('| Component `api-calls` | `prices[0].unitPrice` | `"0.1"` | `"0.12"` |');
    const json = await run(["diff", a.url, b.url, "--b-key-env", "PROD_KEY", "--format", "json"], { env });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).changed).toEqual([
      { kind: "Component", key: "api-calls", fields: [{ field: "prices[0].unitPrice", old: "0.1", new: "0.12" }] },
    ]);
    // Each side's variable is its own: B with A's key is refused by B.
    const wrong = await run(["diff", a.url, b.url], { env });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(
      /^billing-catalog: the site refused the API key in BILLING_API_KEY \(401 Unauthorized to GET [^)]+\): set BILLING_API_KEY to the site's API key\n$/,
    );
    expect((await run(["diff", a.url, b.url, "--b-key-env", "MISSING_KEY"], { env })).stderr).toMatch(/MISSING_KEY is not set/);
    expect((await run(["diff", a.url, b.url, "--b-key-env", "sk-live/abc"], { env })).stderr).toMatch(
      /give the name of an environment variable/,
    );
    // The key itself given where a variable's name belongs is not echoed back.
    const pasted = await run(["diff", a.url, b.url, "--b-key-env", OTHER_KEY], { env });
    expect(pasted.code).toBe(2);
    expect(leaks(pasted.stderr)).toEqual([]);
  });

  it("a program's saved `pulumi preview --json` is a side too: equal to the site it came from (exit 0)", async () => {
    const a = await site();
    const preview = path.join(__dirname, "fixtures/preview-fresh-site.json");
    expect(await run(["diff", a.url, preview])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/The catalogs are equal/),
      stderr: "",
    });
    const b = await site({ tier: "0.12" });
    const r = await run(["diff", preview, b.url]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("`prices[0].unitPrice`");
  });

  it("a file that is not a snapshot exits 2 naming the file", async () => {
    const file = path.join(tmp(), "other.json");
    writeFileSync(file, '{"resources": []}');
    const r = await run(["diff", file, file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}: not a snapshot written by \`billing-catalog export\``);
    expect(r.stderr).toContain("nor the output of `pulumi preview --json`");
  });
});

describe("node dist/catalog/bin.js", () => {
  it("exports and diffs with the key only in the environment: no key in any file, on stdout or on stderr; exit codes 0, 1, 2", async () => {
    const a = await site();
    const b = await site({ tier: "0.5", apiKey: OTHER_KEY });
    const out = tmp();
    const bin = path.join(ROOT, "dist/catalog/bin.js");
    const env = { ...process.env, BILLING_API_KEY: SECRET_KEY, B_KEY: OTHER_KEY };
    const node = async (args: string[]) => {
      try {
        const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], { env });
        return { code: 0, stdout, stderr };
      } catch (e) {
        const x = e as { code: number; stdout: string; stderr: string };
        return { code: x.code, stdout: x.stdout, stderr: x.stderr };
      }
    };
    const runs = [
      await node(["export", "--site", a.url, "--out", out, "--include-archived"]),
      await node(["diff", a.url, path.join(out, "snapshot.json"), "--include-archived"]),
      await node(["diff", a.url, b.url, "--b-key-env", "B_KEY"]),
      await node(["diff", b.url, a.url]),
    ];
    expect(runs.map((r) => r.code)).toEqual([0, 0, 1, 2]);
    const written = readdirSync(out).map((f) => readFileSync(path.join(out, f), "utf8"));
    expect(written).toHaveLength(3);
    expect(leaks([...written, ...runs.flatMap((r) => [r.stdout, r.stderr])].join("\n"))).toEqual([]);
  });
});
