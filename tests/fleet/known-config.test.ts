import { createHash } from "node:crypto";
import { cp, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { knownConfig, recordFile, settingsFile } from "../../fleet/known-config";

const SECRET = "sk_known_config_5e1c0b";
const PASSPHRASE = { PULUMI_CONFIG_PASSPHRASE: "correct horse battery staple" };

async function setup(env: NodeJS.ProcessEnv = PASSPHRASE) {
  const stateDir = await mkdtemp(path.join(tmpdir(), "known-config-"));
  const workDir = await mkdtemp(path.join(tmpdir(), "known-config-work-"));
  const site = (stack: string, plain: Record<string, string>, secret: string | undefined) => ({
    stateDir,
    stackFile: stack,
    stack,
    workDir,
    plain: Object.fromEntries(Object.entries(plain).map(([k, value]) => [k, { value }])),
    secrets: (secret === undefined ? {} : { "billing:apiKey": { value: secret, secret: true } }) as ConfigMap,
    env,
  });
  /** What `config set-all` leaves: a settings file whose ciphertext changes on every write. */
  const setAll = (stack: string, n: number) =>
    writeFile(settingsFile(workDir, stack), `config:\n  billing:apiKey:\n    secure: v1:${n}:ciphertext\n`);
  return { stateDir, workDir, site, setAll };
}

describe("fleet: what the runner remembers of a stack's config", () => {
  it("unchanged only after it was set and remembered, and while config, secrets and the settings file stay as they were", async () => {
    const { site, setAll, workDir } = await setup();
    const us = site("us", { "billing:baseUrl": "https://us.example" }, SECRET);
    expect((await knownConfig(us)).unchanged).toBe(false);
    await setAll("us", 1);
    await (await knownConfig(us)).remember();
    expect((await knownConfig(us)).unchanged).toBe(true);

    expect((await knownConfig(site("us", { "billing:baseUrl": "https://other.example" }, SECRET))).unchanged).toBe(false);
    expect((await knownConfig(site("us", { "billing:baseUrl": "https://us.example" }, `${SECRET}x`))).unchanged).toBe(false);
    expect((await knownConfig(site("us", { "billing:baseUrl": "https://us.example" }, undefined))).unchanged).toBe(false);
    expect((await knownConfig(site("us", { "billing:baseUrl": "https://us.example", "billing:x": "1" }, SECRET))).unchanged).toBe(false);

    // A `pulumi config set` by hand changes the settings file: configured again.
    await writeFile(settingsFile(workDir, "us"), "config:\n  billing:timeoutMs: 5000\n");
    expect((await knownConfig(us)).unchanged).toBe(false);
  });

  it("forget() makes the next run configure the stack again", async () => {
    const { site, setAll } = await setup();
    const eu = site("eu", {}, SECRET);
    await setAll("eu", 1);
    await (await knownConfig(eu)).remember();
    await (await knownConfig(eu)).forget();
    expect((await knownConfig(eu)).unchanged).toBe(false);
  });

  it("the record holds no secret, no plain hash of one, and differs per stack for the same secret", async () => {
    const { site, setAll, stateDir } = await setup();
    for (const stack of ["us", "eu"]) {
      await setAll(stack, 1);
      await (await knownConfig(site(stack, {}, SECRET))).remember();
    }
    const files = await readdir(path.join(stateDir, "config"));
    const texts = await Promise.all(files.map((f) => readFile(path.join(stateDir, "config", f), "utf8")));
    const all = texts.join("\n");
    const plainHashes = [SECRET, JSON.stringify(SECRET)].flatMap((v) => [
      createHash("sha256").update(v).digest("hex"),
      createHash("sha1").update(v).digest("hex"),
    ]);
    expect(all).not.toContain(SECRET);
    for (const h of plainHashes) expect(all).not.toContain(h);
    const us = JSON.parse(await readFile(recordFile(stateDir, "us"), "utf8"));
    const eu = JSON.parse(await readFile(recordFile(stateDir, "eu"), "utf8"));
    expect(us.secrets).toMatch(/^[0-9a-f]{64}$/);
    expect(us.secrets).not.toBe(eu.secrets);
  });

  it("without a passphrase, secrets are never remembered: a site with secrets is configured every time; one without is not", async () => {
    const { site, setAll, stateDir } = await setup({});
    await setAll("us", 1);
    const withSecret = site("us", { "billing:baseUrl": "https://us.example" }, SECRET);
    await (await knownConfig(withSecret)).remember();
    expect((await knownConfig(withSecret)).unchanged).toBe(false);
    await expect(readFile(recordFile(stateDir, "us"), "utf8")).rejects.toThrow();

    const plainOnly = site("us", { "billing:baseUrl": "https://us.example" }, undefined);
    await (await knownConfig(plainOnly)).remember();
    expect((await knownConfig(plainOnly)).unchanged).toBe(true);
  });

  it("a record made under another passphrase does not match (the key is the passphrase's)", async () => {
    const { site, setAll, stateDir, workDir } = await setup();
    await setAll("us", 1);
    await (await knownConfig(site("us", {}, SECRET))).remember();
    // The same state dir read by a process with another passphrase (keys are cached per process and state dir: use a copy).
    const other = {
      stateDir: `${stateDir}-copy`,
      stackFile: "us",
      stack: "us",
      workDir,
      plain: {},
      secrets: { "billing:apiKey": { value: SECRET, secret: true } },
      env: { PULUMI_CONFIG_PASSPHRASE: "another passphrase" },
    };
    await cp(stateDir, other.stateDir, { recursive: true });
    expect((await knownConfig(other)).unchanged).toBe(false);
  });
});
