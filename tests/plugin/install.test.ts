import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { installedVersionProblem, launcherScript, pluginFolder } from "../../plugin/install";
import { main } from "../../plugin/install-cli";

// `billing-plugin install`: the launcher it puts into the Pulumi plugin cache, run by a real shell on a package
// folder of its own (a bin.js that reports how it was started), and the command's refusals. The install itself
// through the real CLI, from a fresh PULUMI_HOME and offline: tests/e2e/plugin-install.test.ts.

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A package folder whose dist/plugin/bin.js prints its arguments, the node running it and the installed version. */
function fakePackage(name: string): string {
  const root = mkdtempSync(path.join(tmpdir(), "billing-launcher-"));
  dirs.push(root);
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, "dist/plugin"), { recursive: true });
  writeFileSync(
    path.join(dir, "dist/plugin/bin.js"),
    "console.log(JSON.stringify({ args: process.argv.slice(2), node: process.execPath, installed: process.env.BILLING_PLUGIN_INSTALLED_VERSION }));\n",
  );
  return dir;
}

/** Runs `script` as the plugin cache holds it (an executable file) with `args`. */
function runLauncher(script: string, args: string[], env: NodeJS.ProcessEnv = {}): { args: string[]; node: string; installed: string } {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "billing-launcher-bin-")), "pulumi-resource-billing");
  dirs.push(path.dirname(file));
  writeFileSync(file, script);
  chmodSync(file, 0o755);
  const PATH = [path.dirname(process.execPath), process.env.PATH].join(path.delimiter);
  return JSON.parse(execFileSync(file, args, { encoding: "utf8", env: { PATH, ...env } }));
}

describe("the launcher billing-plugin install writes", () => {
  it("runs the package's dist/plugin/bin.js on the installing node with the engine's arguments, saying its version", () => {
    const packageDir = fakePackage("it's a dir with spaces & $HOME");
    const got = runLauncher(launcherScript({ packageDir, version: "0.3.1", node: process.execPath }), ["127.0.0.1:4321", "--x"]);
    expect(got).toEqual({ args: ["127.0.0.1:4321", "--x"], node: process.execPath, installed: "0.3.1" });
  });

  it("takes BILLING_PLUGIN_NODE over the installing node", () => {
    const packageDir = fakePackage("pkg");
    const script = launcherScript({ packageDir, version: "0.3.1", node: "/nonexistent/node" });
    expect(runLauncher(script, [], { BILLING_PLUGIN_NODE: process.execPath }).node).toBe(process.execPath);
  });

  it("falls back to node on PATH when the installing node is gone", () => {
    const packageDir = fakePackage("pkg");
    const script = launcherScript({ packageDir, version: "0.3.1", node: "/nonexistent/node" });
    expect(runLauncher(script, []).node).toBe(process.execPath);
  });
});

describe("installedVersionProblem", () => {
  it("says a package upgraded since the install must be installed again, naming both versions", () => {
    expect(installedVersionProblem("0.1.0", "0.2.0")).toBe(
      "pulumi-resource-billing was installed into the Pulumi plugin cache as version 0.1.0, but the package it runs " +
        "(pulumi-subscription-billing) is now 0.2.0: run `billing-plugin install` again to install 0.2.0",
    );
  });

  it.each([
    ["the same version", "0.2.0"],
    ["no launcher's version (PATH, a packed plugin)", undefined],
    ["an empty one", ""],
  ])("has nothing to say for %s", (_, installed) => {
    expect(installedVersionProblem(installed, "0.2.0")).toBeUndefined();
  });
});

describe("pluginFolder", () => {
  it("is the plugin cache's folder of resource billing at the version, under PULUMI_HOME", () => {
    expect(pluginFolder("0.1.0", { PULUMI_HOME: "/h/.p" })).toBe("/h/.p/plugins/resource-billing-v0.1.0");
  });
});

describe("billing-plugin (the command)", () => {
  const io = () => {
    const stdout = new PassThrough();
    let text = "";
    stdout.on("data", (d) => (text += d));
    return { io: { stdout, stderr: new PassThrough(), env: { PATH: "" } }, text: () => text };
  };

  it("--help prints the usage, naming the plugin cache and that nothing is downloaded", async () => {
    const o = io();
    expect(await main(["--help"], o.io)).toBe(0);
    expect(o.text()).toContain("billing-plugin install [--pulumi PATH]");
    expect(o.text()).toContain("nothing is downloaded");
  });

  it.each([
    [[], /a command is required: give install/],
    [["uninstall"], /unknown command "uninstall": give install/],
    [["install", "extra"], /install: unexpected "extra"/],
    [["install", "--pulumi", ""], /--pulumi: give the path of the pulumi executable/],
  ])("refuses %j, saying what it takes", async (argv, message) => {
    await expect(main(argv, io().io)).rejects.toThrow(message);
  });

  it("without a Pulumi CLI says so and how to give one", async () => {
    await expect(main(["install", "--pulumi", "/nonexistent/pulumi"], io().io)).rejects.toThrow(
      "the Pulumi CLI (/nonexistent/pulumi) was not found: billing-plugin install runs `pulumi plugin install`. " +
        "Install Pulumi and put it on PATH, or give its path with --pulumi",
    );
  });
});
