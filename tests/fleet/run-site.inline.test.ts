import "./native-import";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runSite, stackFileName } from "../../fleet/run-site";
import { callsIn } from "./fake-pulumi";
import { argvs, INIT, keepNodeEnv, MODULES, SET_ALL, STACK, setUp, succeeded, summary } from "./fake-pulumi-site";

/**
 * runSite with a module program (an inline program): its workspace in the state folder, the project file that names
 * the launcher of this package's provider plugin, the launcher itself. Node's own import() loads the program
 * (native-import.ts).
 */

keepNodeEnv();

const ENTRY = path.resolve(__dirname, "../../dist/plugin/bin.js");
const LAUNCHER = `#!/bin/sh\nexec "${process.execPath}" "${ENTRY}" "$@"\n`;

describe("runSite with a module program", () => {
  it("runs in its workspace under the state folder, with the project file and the plugin's launcher", async () => {
    const c = await setUp({ up: [{ events: [summary({ create: 3 })] }] });
    const program = path.join(c.dir, "site.js");
    await writeFile(program, "exports.program = () => ({});\n");
    // A launcher from another build, not executable (copied without its mode): written anew, executable.
    await mkdir(path.join(c.o.stateDir, "plugin"), { recursive: true });
    await writeFile(path.join(c.o.stateDir, "plugin", "pulumi-resource-billing"), "#!/bin/sh\nexec old\n", { mode: 0o644 });
    const site = { ...c.site, program, programKind: "module" as const };
    expect(await runSite(site, c.o)).toEqual(succeeded({ create: 3 }, 3));
    const workDir = path.join(c.o.stateDir, "stacks", "acme_billing_us");
    const up = ["up", "--yes", "--skip-preview", "--client=<port>", "--exec-kind", "auto.inline", "--event-log", "<event-log>"];
    expect(await argvs(c.dir)).toEqual([INIT, SET_ALL, [...up, "--stack", STACK, "--non-interactive"]]);
    expect((await callsIn(c.dir)).map((k) => [k.cwd, k.env.NODE_PATH])).toEqual([0, 1, 2].map(() => [workDir, MODULES]));
    expect(await readFile(path.join(workDir, "Pulumi.yaml"), "utf8")).toBe(
      [
        "name: billing",
        "runtime: nodejs",
        "backend:",
        "  url: file:///srv/state",
        "plugins:",
        "  providers:",
        "    - name: billing",
        `      path: ${path.join(c.o.stateDir, "plugin")}`,
        "",
      ].join("\n"),
    );
    const launcher = path.join(c.o.stateDir, "plugin", "pulumi-resource-billing");
    expect(await readFile(launcher, "utf8")).toBe(LAUNCHER);
    expect((await stat(launcher)).mode & 0o777).toBe(0o755);
  });

  it("makes the launcher's folder when there is none, the launcher executable", async () => {
    const c = await setUp({});
    const program = path.join(c.dir, "site.js");
    await writeFile(program, "exports.program = () => ({});\n");
    expect(await runSite({ ...c.site, program, programKind: "module" }, c.o)).toEqual(succeeded({}, 0));
    const launcher = path.join(c.o.stateDir, "plugin", "pulumi-resource-billing");
    expect(await readFile(launcher, "utf8")).toBe(LAUNCHER);
    expect((await stat(launcher)).mode & 0o777).toBe(0o755);
  });
});

describe("stackFileName", () => {
  it("replaces each run of characters a file name should not hold with one _", () => {
    expect(stackFileName("acme//billing::us east.1_a-B")).toBe("acme_billing_us_east.1_a-B");
  });
});
