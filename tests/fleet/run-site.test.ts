import path from "node:path";
import { describe, expect, it } from "vitest";
import { runSite } from "../../fleet/run-site";
import { callsIn, nextScenario, type Scenario, versionCalls } from "./fake-pulumi";
import {
  argvs,
  type Case,
  COUPON,
  failed,
  failure,
  INIT,
  keepNodeEnv,
  logOf,
  MODULES,
  NO_STACK,
  PRODUCT,
  pre,
  SECRET,
  SET_ALL,
  STACK,
  setUp,
  succeeded,
  summary,
  UP,
} from "./fake-pulumi-site";

/**
 * runSite against a fake `pulumi` (fake-pulumi.ts) first on PATH: the CLI calls it makes, the report it returns,
 * the site's log, its progress, for each path through it (a new stack, a recorded one, a record that outlived
 * its stack, each operation, failures, a stop).
 */

keepNodeEnv();

describe("runSite on a new stack", () => {
  it("makes the stack, sets its config (secrets from the environment), runs up; the changes from the engine's summary", async () => {
    const c = await setUp({
      up: [
        {
          events: [pre("create", PRODUCT), pre("same", COUPON), summary({ create: 2, update: 1, same: 4 })],
          stdout: `Updating (us)\n + billing:index:Product pro created (key ${SECRET})\n`,
        },
      ],
    });
    const before = performance.now();
    const r = await runSite(c.site, c.o);
    const took = performance.now() - before;
    expect(r).toEqual(succeeded({ create: 2, update: 1, same: 4 }, 3));
    expect(Object.keys(r)).toEqual(["name", "stack", "result", "changes", "changed", "durationMs", "preview"]);
    // Its own measure of the time this call took.
    expect(r.durationMs).toBeGreaterThanOrEqual(0);
    expect(r.durationMs).toBeLessThanOrEqual(Math.round(took));
    const calls = await callsIn(c.dir);
    const env = {
      PULUMI_BACKEND_URL: "file:///srv/state",
      NODE_PATH: MODULES,
      NODE_COMPILE_CACHE: path.join(c.o.stateDir, "node-compile-cache"),
      PULUMI_AUTOMATION_API: "true",
    };
    expect(calls.map((k) => ({ cwd: k.cwd, env: k.env }))).toEqual([0, 1, 2].map(() => ({ cwd: c.site.program, env })));
    expect(await argvs(c.dir)).toEqual([INIT, SET_ALL, UP]);
    expect(c.progress).toEqual(["making the stack", "create pro", "same launch"]);
    expect(await logOf(c)).toBe("Updating (us)\n + billing:index:Product pro created (key [secret])\n");
  });

  it("leaves NODE_COMPILE_CACHE as the environment has it, and adds NODE_PATH's folders after its own", async () => {
    process.env.NODE_COMPILE_CACHE = "/var/cache/node";
    process.env.NODE_PATH = "/opt/modules";
    const c = await setUp({});
    expect(await runSite(c.site, c.o)).toEqual(succeeded({}, 0));
    expect((await callsIn(c.dir)).map((k) => k.env)).toEqual(
      [0, 1, 2].map(() => ({
        PULUMI_BACKEND_URL: "file:///srv/state",
        NODE_PATH: `${MODULES}${path.delimiter}/opt/modules`,
        NODE_COMPILE_CACHE: "/var/cache/node",
        PULUMI_AUTOMATION_API: "true",
      })),
    );
  });

  it("finds and checks the CLI once for all its sites (one `pulumi version` at most, none once found)", async () => {
    const c = await setUp({});
    expect(await runSite(c.site, c.o)).toEqual(succeeded({}, 0));
    expect(await runSite({ ...c.site, name: "uk", stack: "acme/billing/uk" }, c.o)).toEqual(
      succeeded({}, 0, { name: "uk", stack: "acme/billing/uk" }),
    );
    expect(await versionCalls(c.dir)).toBeLessThanOrEqual(1);
  });

  it("takes a stack that already exists (stack init says so) as made", async () => {
    const c = await setUp({ "stack init": [{ stderr: `error: stack '${STACK}' already exists\n`, code: 255 }] });
    expect(await runSite(c.site, c.o)).toEqual(succeeded({}, 0));
    expect(await argvs(c.dir)).toEqual([INIT, SET_ALL, UP]);
  });

  it("fails on any other stack init error, before config or up", async () => {
    const c = await setUp({ "stack init": [{ stderr: "error: could not reach the backend\n", code: 255 }] });
    const before = performance.now();
    const r = await runSite(c.site, c.o);
    const took = performance.now() - before;
    expect(r).toEqual(failed("could not reach the backend"));
    expect(r.durationMs).toBeGreaterThanOrEqual(0);
    expect(r.durationMs).toBeLessThanOrEqual(Math.round(took));
    expect(await argvs(c.dir)).toEqual([INIT]);
    expect(await logOf(c)).toBe(`\n${failure(255, INIT, "error: could not reach the backend")}\n`);
  });

  it("fails when config set-all finds no stack (no second try for a stack it just made)", async () => {
    const c = await setUp({ "config set-all": [{ stderr: `${NO_STACK}\n`, code: 255 }] });
    expect(await runSite(c.site, c.o)).toEqual(failed(`no stack named '${STACK}' found`));
    expect(await argvs(c.dir)).toEqual([INIT, SET_ALL]);
  });

  it("fails on an up that finds no stack when the config was just set (no retry)", async () => {
    const c = await setUp({ up: [{ stdout: "Updating (us)\n", stderr: `${NO_STACK}\n`, code: 255 }] });
    expect(await runSite(c.site, c.o)).toEqual(failed(`no stack named '${STACK}' found`));
    expect(await argvs(c.dir)).toEqual([INIT, SET_ALL, UP]);
    expect(await logOf(c)).toBe(`Updating (us)\n\n${failure(255, UP, NO_STACK, "Updating (us)")}\n`);
  });
});

describe("runSite on a stack it made before", () => {
  /** One run that makes the stack and records its config, then the scenario of the next one. */
  async function afterFirstRun(scenario: Scenario, config?: Record<string, string>): Promise<Case> {
    const c = await setUp({});
    expect(await runSite(c.site, c.o)).toEqual(succeeded({}, 0));
    await nextScenario(c.dir, scenario);
    c.progress.length = 0;
    return config ? { ...c, site: { ...c.site, config } } : c;
  }

  it("runs up alone when the config is unchanged, and says so in the log", async () => {
    const c = await afterFirstRun({ up: [{ stdout: "Updating (us)\n" }] });
    expect(await runSite(c.site, c.o)).toEqual(succeeded({}, 0));
    expect(await argvs(c.dir)).toEqual([UP]);
    expect(c.progress).toEqual([]);
    expect(await logOf(c)).toBe("config unchanged since the last run: no stack init, no config set-all\nUpdating (us)\n");
  });

  it("sets a changed config without stack init", async () => {
    const c = await afterFirstRun({}, { "billing:site": "us-east" });
    expect(await runSite(c.site, c.o)).toEqual(succeeded({}, 0));
    const setAll = SET_ALL.map((a) => (a === "billing:site=us" ? "billing:site=us-east" : a));
    expect(await argvs(c.dir)).toEqual([setAll, UP]);
    expect(c.progress).toEqual(["setting the config"]);
  });

  it("makes the stack again when config set-all finds none (its record outlived it), then sets the config once more", async () => {
    const c = await afterFirstRun({ "config set-all": [{ stderr: `${NO_STACK}\n`, code: 255 }, {}] }, { "billing:site": "us-east" });
    expect(await runSite(c.site, c.o)).toEqual(succeeded({}, 0));
    const setAll = SET_ALL.map((a) => (a === "billing:site=us" ? "billing:site=us-east" : a));
    expect(await argvs(c.dir)).toEqual([setAll, INIT, setAll, UP]);
  });

  it("fails on another config set-all error, with no stack init", async () => {
    const c = await afterFirstRun(
      { "config set-all": [{ stderr: "error: the passphrase is wrong\n", code: 255 }] },
      { "billing:site": "us-east" },
    );
    expect(await runSite(c.site, c.o)).toEqual(failed("the passphrase is wrong"));
    expect((await argvs(c.dir)).map((a) => a.slice(0, 2))).toEqual([["config", "set-all"]]);
  });

  it("forgets the record when up finds no stack, makes the stack, sets the config and runs up again", async () => {
    const c = await afterFirstRun({ up: [{ stderr: `${NO_STACK}\n`, code: 255 }, { events: [summary({ create: 1 })] }] });
    expect(await runSite(c.site, c.o)).toEqual(succeeded({ create: 1 }, 1));
    expect(await argvs(c.dir)).toEqual([UP, INIT, SET_ALL, UP]);
    expect(c.progress).toEqual(["making the stack"]);
    // Remembered again: the next run is up alone.
    await nextScenario(c.dir, {});
    expect(await runSite(c.site, c.o)).toEqual(succeeded({}, 0));
    expect(await argvs(c.dir)).toEqual([UP]);
  });

  it("fails on another up error with the config unchanged, trying nothing else", async () => {
    const c = await afterFirstRun({ up: [{ stderr: "error: the backend is locked\n", code: 255 }] });
    expect(await runSite(c.site, c.o)).toEqual(failed("the backend is locked"));
    expect(await argvs(c.dir)).toEqual([UP]);
  });
});
