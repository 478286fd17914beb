import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseFleet } from "../../fleet/fleet-file";
import { type FleetRunOptions, runFleet } from "../../fleet/runner";
import { keepNodeEnv, PRODUCT, pre, setUp, summary } from "./fake-pulumi-site";

/**
 * What runFleet draws while its sites run (against the fake CLI of fake-pulumi.ts): a line per event in CI logs
 * ("lines", the default off a TTY), each progress line naming its site; nothing when quiet; listr2's live task
 * list on a TTY.
 */

keepNodeEnv();

const tty = process.stdout.isTTY;
afterEach(() => {
  process.stdout.isTTY = tty;
  vi.restoreAllMocks();
});

/** Runs a fleet of two sites (us succeeds, uk fails on its unset secret), one at a time; returns what was written. */
async function drawn(o: Partial<FleetRunOptions>): Promise<string[]> {
  const c = await setUp({ up: [{ events: [pre("create", PRODUCT), summary({ create: 1 })] }] });
  const file = path.join(c.dir, "fleet.yaml");
  const text = [
    `program: ${c.site.program}`,
    "backend: file:///srv/state",
    "concurrency: 1",
    "secrets: { billing:apiKey: FLEET_KEY }",
    "sites:",
    "  - name: us",
    "  - { name: uk, secrets: { billing:apiKey: NOT_SET } }",
  ].join("\n");
  await writeFile(file, text);
  const out: string[] = [];
  for (const stream of [process.stdout, process.stderr])
    vi.spyOn(stream, "write").mockImplementation((s: string | Uint8Array) => {
      out.push(String(s));
      return true;
    });
  const report = await runFleet(await parseFleet(text, file), {
    operation: "up",
    env: { FLEET_KEY: "sk_live_1", PULUMI_CONFIG_PASSPHRASE: "correct horse" },
    ...o,
  });
  vi.restoreAllMocks();
  expect(report.sites.map((s) => [s.name, s.result])).toEqual([
    ["us", "succeeded"],
    ["uk", "failed"],
  ]);
  return out;
}

/** Lines of text with the seconds made constant: each must be under 10 s. */
const lines = (out: string[]) =>
  out
    .join("")
    .split("\n")
    .filter(Boolean)
    .map((l) => l.replace(/ in \d\.\d s/, " in N s"))
    .sort();

const LINES = [
  "› us: create pro",
  "› us: making the stack",
  "✔ us: 1 changed in N s",
  "✖ uk: failed in N s [FAILED: uk: secret config billing:apiKey needs the environment variable NOT_SET, which is not set]",
  "❯ uk (up)",
  "❯ us (up)",
];

describe("runFleet's display", () => {
  it("lines: each task's title, its progress named by its site, its result", async () => {
    expect(lines(await drawn({ display: "lines" }))).toEqual(LINES);
  });

  it("lines by default off a TTY", async () => {
    process.stdout.isTTY = false;
    expect(lines(await drawn({}))).toEqual(LINES);
  });

  it("none: nothing is written", async () => {
    expect(await drawn({ display: "none" })).toEqual([]);
  });

  it("live by default on a TTY: the task list, the progress not named by its site", async () => {
    process.stdout.isTTY = true;
    const text = (await drawn({})).join("");
    expect(text).toContain("us: 1 changed in");
    expect(text).not.toContain("us: making the stack");
  });
});
