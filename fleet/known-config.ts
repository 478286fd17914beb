import { createHash, createHmac, pbkdf2, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import type { ConfigMap } from "@pulumi/pulumi/automation";

/**
 * What the runner remembers of a stack's config since it last set it, so that a site whose config
 * (secrets included) is unchanged costs no `pulumi stack select` and no `pulumi config set-all`
 * (about 1.5 s of CPU per site, a third of a no-change `up`).
 *
 * A record holds nothing a reader could use to recover or test a value: plain values are hashed
 * (they are in the stack's settings file anyway), secrets only as an HMAC under a key derived from
 * the stack passphrase (`PULUMI_CONFIG_PASSPHRASE`) with a random salt. Whoever can compute that
 * key holds the passphrase, and so could decrypt the stack's settings file already; whoever cannot
 * learns nothing from the record, not even whether two sites share a key (the MAC covers the stack
 * name). Without a passphrase (a cloud secrets provider), secrets are never remembered, and a site
 * with secrets is configured every time.
 *
 * The record also holds the hash of the stack's settings file as the runner left it: a `pulumi
 * config set` by hand, or a settings file removed, makes the record stale, and the site is
 * configured again.
 */

/** The record of one stack, in `<state dir>/config/<stack>.json`. */
interface ConfigRecord {
  readonly version: 1;
  /** SHA-256 of the stack's settings file (`Pulumi.<stack>.yaml`) right after the runner set its config. */
  readonly settings: string;
  /** SHA-256 of the stack name and its plain config, canonical. */
  readonly plain: string;
  /** HMAC-SHA256 of the stack name and its secret config, canonical; absent when there were none. */
  readonly secrets?: string;
}

const PBKDF2_ITERATIONS = 600_000;

/** Where the record of a stack is kept. */
export const recordFile = (stateDir: string, stackFile: string): string => path.join(stateDir, "config", `${stackFile}.json`);

/** The stack's settings file: the CLI names it by the stack's last name part. */
export const settingsFile = (workDir: string, stack: string): string => path.join(workDir, `Pulumi.${stack.split("/").pop()}.yaml`);

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

/** Keys in order, so that the same config is the same text. */
const canonical = (stack: string, config: ConfigMap) =>
  JSON.stringify([
    stack,
    Object.keys(config)
      .sort()
      .map((k) => [k, config[k]?.value ?? null]),
  ]);

async function passphraseOf(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (env.PULUMI_CONFIG_PASSPHRASE) return env.PULUMI_CONFIG_PASSPHRASE;
  if (env.PULUMI_CONFIG_PASSPHRASE_FILE) return (await readFile(env.PULUMI_CONFIG_PASSPHRASE_FILE, "utf8").catch(() => "")) || undefined;
  return undefined;
}

/**
 * One key per state dir and passphrase, derived once per process (PBKDF2 is slow on purpose). Keyed by both:
 * a process that runs fleets with another passphrase (a library user, a test) gets that passphrase's key. The
 * map holds the passphrase's hash, not the passphrase.
 */
const keys = new Map<string, Promise<Buffer>>();

async function macKey(stateDir: string, env: NodeJS.ProcessEnv): Promise<Buffer | undefined> {
  const passphrase = await passphraseOf(env);
  if (passphrase === undefined) return undefined;
  const id = `${stateDir}\0${createHash("sha256").update(passphrase).digest("hex")}`;
  const cached = keys.get(id);
  if (cached) return cached;
  const derived = (async () => {
    const saltFile = path.join(stateDir, "config", "salt");
    let salt = await readFile(saltFile, "utf8").catch(() => "");
    if (!/^[0-9a-f]{64}$/.test(salt)) {
      salt = randomBytes(32).toString("hex");
      await mkdir(path.dirname(saltFile), { recursive: true });
      await writeFile(saltFile, salt, { mode: 0o600 });
    }
    return promisify(pbkdf2)(passphrase, Buffer.from(salt, "hex"), PBKDF2_ITERATIONS, 32, "sha256");
  })();
  keys.set(id, derived);
  return derived;
}

/** The record the config would have; undefined when its secrets cannot be remembered (no passphrase). */
async function recordOf(
  stateDir: string,
  stack: string,
  plain: ConfigMap,
  secrets: ConfigMap,
  settings: string,
  env: NodeJS.ProcessEnv,
): Promise<ConfigRecord | undefined> {
  const record = { version: 1 as const, settings, plain: sha256(canonical(stack, plain)) };
  if (Object.keys(secrets).length === 0) return record;
  const key = await macKey(stateDir, env);
  if (!key) return undefined;
  return { ...record, secrets: createHmac("sha256", key).update(canonical(stack, secrets)).digest("hex") };
}

const same = (a: string | undefined, b: string | undefined) =>
  a === b || (a !== undefined && b !== undefined && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b)));

/** What a site's run needs to know: whether its stack holds this config already, and how to remember it once set. */
export interface KnownConfig {
  /** True when the stack's settings file is as the runner left it, holding this very config. */
  readonly unchanged: boolean;
  /** True when there is a record at all: the runner made or configured this stack before, so it exists (unless removed by hand). */
  readonly recorded: boolean;
  /** Remembers the config as set (call right after `config set-all`). */
  remember(): Promise<void>;
  /** Forgets it (the stack was not where the record said). */
  forget(): Promise<void>;
}

export async function knownConfig(o: {
  stateDir: string;
  stackFile: string;
  stack: string;
  workDir: string;
  plain: ConfigMap;
  secrets: ConfigMap;
  env: NodeJS.ProcessEnv;
}): Promise<KnownConfig> {
  const file = recordFile(o.stateDir, o.stackFile);
  const settingsPath = settingsFile(o.workDir, o.stack);
  const settingsNow = async () => sha256(await readFile(settingsPath).catch(() => Buffer.alloc(0)));
  let unchanged = false;
  let recorded = false;
  try {
    const stored = JSON.parse(await readFile(file, "utf8")) as ConfigRecord;
    recorded = true;
    const wanted = await recordOf(o.stateDir, o.stack, o.plain, o.secrets, await settingsNow(), o.env);
    unchanged =
      wanted !== undefined &&
      stored.version === 1 &&
      same(stored.settings, wanted.settings) &&
      same(stored.plain, wanted.plain) &&
      same(stored.secrets, wanted.secrets);
  } catch {
    unchanged = false;
  }
  return {
    unchanged,
    recorded,
    async remember() {
      const record = await recordOf(o.stateDir, o.stack, o.plain, o.secrets, await settingsNow(), o.env);
      if (!record) return rm(file, { force: true });
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, `${JSON.stringify(record)}\n`, { mode: 0o600 });
      await rename(tmp, file);
    },
    forget: () => rm(file, { force: true }),
  };
}
