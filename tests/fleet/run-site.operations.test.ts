import { access, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { PolicyViolation } from "../../fleet/report";
import { runSite } from "../../fleet/run-site";
import { callsIn } from "./fake-pulumi";
import {
  argvs,
  diagnostic,
  failed,
  INIT,
  keepNodeEnv,
  logOf,
  PRODUCT,
  policy,
  pre,
  SECRET,
  SET_ALL,
  STACK,
  setUp,
  succeeded,
  summary,
  UP,
} from "./fake-pulumi-site";

/** runSite's operations (preview with its document, up, refresh, destroy, policy packs), failures and stops, against the fake CLI. */

keepNodeEnv();

const PACKS = { policyPacks: ["/packs/billing", "/packs/tags"], policyPackConfigs: ["/config/billing.json", "/config/tags.json"] };
const PACK_ARGS = [
  "--policy-pack",
  "/packs/billing",
  "--policy-pack",
  "/packs/tags",
  "--policy-pack-config",
  "/config/billing.json",
  "--policy-pack-config",
  "/config/tags.json",
];
const TAIL = ["--event-log", "<event-log>", "--stack", STACK, "--non-interactive"];
const violation = (enforcementLevel: PolicyViolation["enforcementLevel"], message: string): PolicyViolation => ({
  urn: PRODUCT,
  policyPackName: "billing-policies",
  policyName: "webhooks-stay-enabled",
  enforcementLevel,
  message,
});

describe("runSite's operations", () => {
  it("preview: the packs and their configs, the changes of its summary, its document and the violations", async () => {
    const c = await setUp(
      { preview: [{ events: [pre("create", PRODUCT), policy("advisory", "webhooks are off\n"), summary({ create: 1, same: 2 })] }] },
      "preview",
      PACKS,
    );
    const r = await runSite(c.site, c.o);
    expect(r).toEqual(
      succeeded({ create: 1, same: 2 }, 1, {
        preview: {
          steps: [{ op: "create", urn: PRODUCT, type: "billing:index:Product" }],
          diagnostics: [],
          policyViolations: [violation("advisory", "webhooks are off")],
          changeSummary: { create: 1, same: 2 },
        },
        policyViolations: [violation("advisory", "webhooks are off")],
      }),
    );
    expect(await argvs(c.dir)).toEqual([INIT, SET_ALL, ["preview", ...PACK_ARGS, "--exec-kind", "auto.local", ...TAIL]]);
    expect(c.progress).toEqual(["making the stack", "create pro"]);
  });

  it("up: the packs too; no --policy-pack-config for an empty list, no --policy-pack without packs", async () => {
    const c = await setUp({ up: [{ events: [summary({ delete: 2, same: 1 })] }] }, "up", {
      policyPacks: ["/packs/billing"],
      policyPackConfigs: [],
    });
    expect(await runSite(c.site, c.o)).toEqual(succeeded({ delete: 2, same: 1 }, 2));
    const c2 = await setUp({}, "preview", { policyPackConfigs: ["/config/billing.json"] });
    expect(await runSite(c2.site, c2.o)).toEqual(
      succeeded({}, 0, { preview: { steps: [], diagnostics: [], policyViolations: [], changeSummary: {} } }),
    );
    expect((await argvs(c.dir))[2]).toEqual([
      "up",
      "--yes",
      "--skip-preview",
      "--policy-pack",
      "/packs/billing",
      "--exec-kind",
      "auto.local",
      ...TAIL,
    ]);
    expect((await argvs(c2.dir))[2]).toEqual([
      "preview",
      "--policy-pack-config",
      "/config/billing.json",
      "--exec-kind",
      "auto.local",
      ...TAIL,
    ]);
  });

  it.each([
    ["refresh", ["refresh", "--skip-preview", "--yes", "--event-log", "<event-log>", "--exec-kind", "auto.local"]],
    ["destroy", ["destroy", "--yes", "--skip-preview", "--event-log", "<event-log>", "--exec-kind", "auto.local"]],
  ] as const)("%s: no policy packs; the changes of the engine's summary", async (operation, head) => {
    const c = await setUp({ [operation]: [{ events: [summary({ update: 1, delete: 3, same: 5 })] }] }, operation, PACKS);
    expect(await runSite(c.site, c.o)).toEqual(succeeded({ update: 1, delete: 3, same: 5 }, 4));
    expect(await argvs(c.dir)).toEqual([INIT, SET_ALL, [...head, "--stack", STACK, "--non-interactive"]]);
  });
});

describe("runSite's failures", () => {
  it("a failed preview: the mandatory violation is the error; the document without a change summary", async () => {
    const c = await setUp(
      { preview: [{ events: [pre("create", PRODUCT), policy("mandatory", "webhooks must stay on")], code: 1 }] },
      "preview",
    );
    expect(await runSite(c.site, c.o)).toEqual(
      failed("policy webhooks-stay-enabled (pack billing-policies): pro: webhooks must stay on", {
        preview: {
          steps: [{ op: "create", urn: PRODUCT, type: "billing:index:Product" }],
          diagnostics: [],
          policyViolations: [violation("mandatory", "webhooks must stay on")],
        },
        policyViolations: [violation("mandatory", "webhooks must stay on")],
      }),
    );
  });

  it("a failed up: the resource's error diagnostic, the secret blanked in the report and the log", async () => {
    const c = await setUp({
      up: [
        {
          events: [pre("create", PRODUCT), diagnostic(`422 Unprocessable Entity for key ${SECRET}\n`, PRODUCT)],
          stdout: `Updating (us)\n key ${SECRET}\n`,
          stderr: "error: update failed\n",
          code: 255,
        },
      ],
    });
    expect(await runSite(c.site, c.o)).toEqual(failed("pro: 422 Unprocessable Entity for key [secret]"));
    const out = ["error: update failed", "Updating (us)", " key [secret]"];
    const text = [`Command failed with exit code 255: pulumi ${UP.join(" ")}`, ...out].join("\n");
    expect(await logOf(c)).toBe(`Updating (us)\n key [secret]\n\ncode: -2\n stdout: \n stderr: ${text}\n err?: Error: ${text}\n\n`);
  });

  it("a variable that is not set fails the site before any CLI call, naming each such variable", async () => {
    const c = await setUp({}, "up", { env: { PULUMI_CONFIG_PASSPHRASE: "correct horse", OTHER: "x" } });
    const site = { ...c.site, secrets: { "billing:apiKey": "FLEET_KEY", "billing:webhookSecret": "HOOK_KEY", "billing:other": "OTHER" } };
    const error =
      "secret config billing:apiKey needs the environment variable FLEET_KEY, billing:webhookSecret needs the environment variable HOOK_KEY, which is not set";
    expect(await runSite(site, c.o)).toEqual(failed(error));
    expect(await callsIn(c.dir)).toEqual([]);
    expect(await logOf(c)).toBe(`\n${error}\n`);
  });

  it("a run stopped before the site started: its config is set, nothing operates", async () => {
    const c = await setUp({}, "preview", { signal: AbortSignal.abort() });
    const error = "not run: the fleet run was interrupted before this site started";
    expect(await runSite(c.site, c.o)).toEqual(failed(error, { preview: { steps: [], diagnostics: [], policyViolations: [] } }));
    expect(await argvs(c.dir)).toEqual([INIT, SET_ALL]);
    expect(await logOf(c, "preview")).toBe(`\n${error}\n`);
  });

  /** Waits (polling) for `file` to exist. */
  const exists = async (file: string) => {
    while (
      !(await access(file).then(
        () => true,
        () => false,
      ))
    )
      await new Promise((r) => setTimeout(r, 50));
  };

  it.each([
    ["no error", [], "interrupted: the CLI was asked to stop; what it applied is in the stack's state"],
    ["its first error", [diagnostic("stopped while creating\n", PRODUCT)], "interrupted: pro: stopped while creating"],
  ])("a run stopped during the operation: 'interrupted', with %s", async (_, events, error) => {
    const stop = new AbortController();
    const c = await setUp({ up: [{ events, stdout: ["Updating (us)\n + pro creat", "ing\n"], hang: true }] }, "up", {
      signal: stop.signal,
    });
    const running = runSite(c.site, c.o);
    await exists(path.join(c.dir, "hanging"));
    await new Promise((r) => setTimeout(r, 300));
    // The whole lines are in the log as they come, the one begun is not.
    expect(await logOf(c)).toBe("Updating (us)\n + pro creating\n");
    stop.abort();
    expect(await running).toEqual(failed(error));
  });

  it("a line split across chunks is written whole, the last without a newline at the end", async () => {
    const c = await setUp({ up: [{ stdout: ["Updating (us)\n key sk_live_0123", "456789abcdef and", " more\nhal", "f"] }] });
    expect(await runSite(c.site, c.o)).toEqual(succeeded({}, 0));
    expect(await logOf(c)).toBe("Updating (us)\n key [secret] and more\nhalf");
    expect(await readFile(path.join(c.o.stateDir, "logs", "acme_billing_us.log"), "utf8")).not.toContain("sk_live");
  });
});
