import * as pulumi from "@pulumi/pulumi";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { captureOutput } from "./support";

// Which credential keys the program warns about, by the secret keys the language host lists: as
// `billing:apiKey`, or, from an older host, as `billing:config:apiKey`. Each test loads the warning
// afresh (it warns once per run, and a run here is the process).

const CONFIG = { "billing:apiKey": "sk_plain_KEY_0101", "billing:accessToken": "tok_plain_0202", "billing:sites": "{}" };
const warningFor = (key: string, value: string) =>
  `warning: [runtime] ${key} is stored in plain text in Pulumi.dev.yaml: run \`pulumi config set --secret ${key} ${value}\` to store it encrypted`;

describe("warnPlainCredentials, by the secret keys the language host lists", () => {
  beforeEach(async () => {
    vi.resetModules();
    await pulumi.runtime.setMocks(
      { newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }), call: (a) => a.inputs },
      "billing-app",
      "dev",
      true,
    );
  });

  it.each([
    { host: "none secret", secret: [], warned: ["billing:apiKey", "billing:accessToken", "billing:sites"] },
    { host: "a current host, every key secret", secret: ["billing:apiKey", "billing:accessToken", "billing:sites"], warned: [] },
    {
      host: "an older host (billing:config:<key>), every key secret",
      secret: ["billing:config:apiKey", "billing:config:accessToken", "billing:config:sites"],
      warned: [],
    },
    {
      host: "an older host, billing:sites left plain",
      secret: ["billing:config:apiKey", "billing:config:accessToken"],
      warned: ["billing:sites"],
    },
  ])("$host: warns about $warned", async ({ secret, warned }) => {
    pulumi.runtime.setAllConfig(CONFIG, secret);
    const { warnPlainCredentials } = await import("../../provider/credential-warning");
    const { text } = await captureOutput(async () => warnPlainCredentials());
    expect(text.split("\n").filter((l) => l !== "")).toEqual(
      warned.map((key) => warningFor(key, key === "billing:sites" ? "'{…}'" : "<value>")),
    );
  });
});
