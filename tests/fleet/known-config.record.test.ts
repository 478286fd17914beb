import { createHash, createHmac, pbkdf2Sync } from "node:crypto";
import { mkdir, mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { knownConfig, recordFile, settingsFile } from "../../fleet/known-config";

// The record's format, where its files are and how they are written; the key behind the secrets' HMAC.
// Keys are cached per process and state dir: every test uses fresh state dirs.

const SECRET = "sk_record_test_8d2f";
const PASSPHRASE = "correct horse battery staple";
const SETTINGS = "config:\n  billing:apiKey:\n    secure: v1:1:ciphertext\n";
const SALT_A = "0123456789abcdef".repeat(4);
const SALT_B = "fedcba9876543210".repeat(4);

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
/** The HMAC a record holds for the stack's secrets: its key derived from the passphrase and the state dir's salt. */
const secretsMac = (passphrase: string, salt: string, stack: string, secrets: [string, string][]) =>
  createHmac("sha256", pbkdf2Sync(passphrase, Buffer.from(salt, "hex"), 600_000, 32, "sha256"))
    .update(JSON.stringify([stack, secrets]))
    .digest("hex");

async function site(o: { env?: NodeJS.ProcessEnv; secret?: boolean; stateDir?: string; plain?: Record<string, string> } = {}) {
  const stateDir = o.stateDir ?? (await mkdtemp(path.join(tmpdir(), "known-config-record-")));
  const workDir = await mkdtemp(path.join(tmpdir(), "known-config-record-work-"));
  await writeFile(settingsFile(workDir, "us"), SETTINGS);
  return {
    stateDir,
    stackFile: "us",
    stack: "us",
    workDir,
    plain: Object.fromEntries(Object.entries(o.plain ?? { "billing:baseUrl": "https://us.example" }).map(([k, value]) => [k, { value }])),
    secrets: (o.secret === false ? {} : { "billing:apiKey": { value: SECRET, secret: true } }) as ConfigMap,
    env: o.env ?? { PULUMI_CONFIG_PASSPHRASE: PASSPHRASE },
  };
}

const readRecord = async (stateDir: string) => JSON.parse(await readFile(recordFile(stateDir, "us"), "utf8"));
const saltOf = (stateDir: string) => readFile(path.join(stateDir, "config", "salt"), "utf8");
const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

describe("fleet: where the config records are kept", () => {
  it("a record in <state dir>/config/<stack file>.json; the settings file named by the stack's last name part", () => {
    expect(recordFile("/state", "org_proj_us")).toBe(path.join("/state", "config", "org_proj_us.json"));
    expect(settingsFile("/work", "org/proj/us")).toBe(path.join("/work", "Pulumi.us.yaml"));
    expect(settingsFile("/work", "us")).toBe(path.join("/work", "Pulumi.us.yaml"));
  });
});

describe("fleet: a config record's content", () => {
  it("holds the settings file's hash, the plain config's hash (keys in order) and the secrets' HMAC under the salt in <state dir>/config/salt", async () => {
    const s = await site({ plain: { "billing:z": "2", "billing:a": "1" } });
    await mkdir(path.join(s.stateDir, "config"), { recursive: true });
    await writeFile(path.join(s.stateDir, "config", "salt"), SALT_A);
    await (await knownConfig(s)).remember();
    expect(await readRecord(s.stateDir)).toEqual({
      version: 1,
      settings: sha256(SETTINGS),
      plain: sha256(
        JSON.stringify([
          "us",
          [
            ["billing:a", "1"],
            ["billing:z", "2"],
          ],
        ]),
      ),
      secrets: secretsMac(PASSPHRASE, SALT_A, "us", [["billing:apiKey", SECRET]]),
    });
    // A valid salt is kept.
    expect(await saltOf(s.stateDir)).toBe(SALT_A);
  });

  it("makes the state dir, a salt of 64 hex digits and the record, both readable by their owner only", async () => {
    const parent = await mkdtemp(path.join(tmpdir(), "known-config-record-parent-"));
    const s = await site({ stateDir: path.join(parent, "not", "yet") });
    await (await knownConfig(s)).remember();
    const salt = await saltOf(s.stateDir);
    expect(salt).toMatch(/^[0-9a-f]{64}$/);
    expect((await readRecord(s.stateDir)).secrets).toBe(secretsMac(PASSPHRASE, salt, "us", [["billing:apiKey", SECRET]]));
    expect(await modeOf(path.join(s.stateDir, "config", "salt"))).toBe(0o600);
    expect(await modeOf(recordFile(s.stateDir, "us"))).toBe(0o600);
  });

  it.each([
    ["a character before the hex digits", `x${SALT_A}`],
    ["a digit too many", `${SALT_A}0`],
    ["a trailing newline", `${SALT_A}\n`],
    ["too few digits", "0123"],
    ["upper-case digits", SALT_A.toUpperCase()],
  ])("replaces a salt file with %s by a new salt", async (_, bad) => {
    const s = await site();
    await mkdir(path.join(s.stateDir, "config"), { recursive: true });
    await writeFile(path.join(s.stateDir, "config", "salt"), bad);
    await (await knownConfig(s)).remember();
    const salt = await saltOf(s.stateDir);
    expect(salt).toMatch(/^[0-9a-f]{64}$/);
    expect((await readRecord(s.stateDir)).secrets).toBe(secretsMac(PASSPHRASE, salt, "us", [["billing:apiKey", SECRET]]));
  });

  it("derives the key once per process and state dir: a salt file replaced meanwhile does not change it", async () => {
    const s = await site();
    await mkdir(path.join(s.stateDir, "config"), { recursive: true });
    await writeFile(path.join(s.stateDir, "config", "salt"), SALT_A);
    await (await knownConfig(s)).remember();
    await writeFile(path.join(s.stateDir, "config", "salt"), SALT_B);
    expect((await knownConfig(s)).unchanged).toBe(true);
  });
});

describe("fleet: the key of another passphrase in the same process and state dir", () => {
  it("is derived anew: the record's HMAC is under the passphrase of the run that wrote it", async () => {
    const s = await site();
    await mkdir(path.join(s.stateDir, "config"), { recursive: true });
    await writeFile(path.join(s.stateDir, "config", "salt"), SALT_A);
    await (await knownConfig(s)).remember();
    const other = { ...s, env: { PULUMI_CONFIG_PASSPHRASE: "another passphrase" } };
    // The first passphrase's record does not match under the second one's key, and its record is the second's.
    expect((await knownConfig(other)).unchanged).toBe(false);
    await (await knownConfig(other)).remember();
    expect((await readRecord(s.stateDir)).secrets).toBe(secretsMac("another passphrase", SALT_A, "us", [["billing:apiKey", SECRET]]));
    expect((await knownConfig(s)).unchanged).toBe(false);
  });
});

describe("fleet: the passphrase from PULUMI_CONFIG_PASSPHRASE_FILE", () => {
  it("keys the secrets' HMAC with the file's content", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "known-config-passphrase-"));
    await writeFile(path.join(dir, "passphrase"), "from a file");
    const s = await site({ env: { PULUMI_CONFIG_PASSPHRASE_FILE: path.join(dir, "passphrase") } });
    await mkdir(path.join(s.stateDir, "config"), { recursive: true });
    await writeFile(path.join(s.stateDir, "config", "salt"), SALT_B);
    await (await knownConfig(s)).remember();
    expect((await readRecord(s.stateDir)).secrets).toBe(secretsMac("from a file", SALT_B, "us", [["billing:apiKey", SECRET]]));
    expect((await knownConfig(s)).unchanged).toBe(true);
  });

  it.each([
    ["is missing", undefined],
    ["is empty", ""],
  ])("when the file %s there is no passphrase: secrets are not remembered", async (_, content) => {
    const dir = await mkdtemp(path.join(tmpdir(), "known-config-passphrase-"));
    if (content !== undefined) await writeFile(path.join(dir, "passphrase"), content);
    const s = await site({ env: { PULUMI_CONFIG_PASSPHRASE_FILE: path.join(dir, "passphrase") } });
    await (await knownConfig(s)).remember();
    await expect(readFile(recordFile(s.stateDir, "us"), "utf8")).rejects.toThrow("ENOENT");
    expect((await knownConfig(s)).unchanged).toBe(false);
  });
});

describe("fleet: whether a stack has a record", () => {
  it("recorded only between remember() and forget(); forget() of nothing is no error", async () => {
    const s = await site({ secret: false });
    await expect((await knownConfig(s)).forget()).resolves.toBeUndefined();
    expect(await knownConfig(s)).toMatchObject({ unchanged: false, recorded: false });
    await (await knownConfig(s)).remember();
    expect(await knownConfig(s)).toMatchObject({ unchanged: true, recorded: true });
    await (await knownConfig(s)).forget();
    expect(await knownConfig(s)).toMatchObject({ unchanged: false, recorded: false });
  });

  it("a record of another version is recorded but not unchanged", async () => {
    const s = await site({ secret: false });
    await (await knownConfig(s)).remember();
    const record = await readRecord(s.stateDir);
    await writeFile(recordFile(s.stateDir, "us"), JSON.stringify({ ...record, version: 2 }));
    expect(await knownConfig(s)).toMatchObject({ unchanged: false, recorded: true });
  });

  it("the same plain config in another key order is unchanged", async () => {
    const s = await site({ secret: false, plain: { "billing:a": "1", "billing:b": "2" } });
    await (await knownConfig(s)).remember();
    const reordered = { ...s, plain: { "billing:b": { value: "2" }, "billing:a": { value: "1" } } };
    expect(await knownConfig(reordered)).toMatchObject({ unchanged: true, recorded: true });
  });
});
