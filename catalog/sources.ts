import { readFile } from "node:fs/promises";
import { BillingApiError } from "../sdk/errors";
import type { BillingClientOptions } from "../sdk/options";
import { isPreviewJson, snapshotFromPreview } from "./preview";
import { type CatalogRead, type ReadProgress, readCatalog } from "./read";
import { type CatalogSnapshot, SNAPSHOT_FORMAT } from "./snapshot";

/**
 * Where `billing-catalog` reads a catalog from, and with which credential. Credentials come from
 * environment variables only, never from the command line (where `ps` and shell history would keep
 * them): `BILLING_API_KEY` (or `BILLING_ACCESS_TOKEN`), the variables the provider reads for its
 * top-level site, unless a side names its own variable.
 */

/** The environment variables the provider reads for the top-level site's credentials (provider/runtime/config.ts). */
export const DEFAULT_KEY_ENV = "BILLING_API_KEY";
/** The variable a bearer token is read from when {@link DEFAULT_KEY_ENV} is not set. */
export const DEFAULT_TOKEN_ENV = "BILLING_ACCESS_TOKEN";

/** A usage mistake: exit code 2, with the message as it is (it never holds a credential). */
export class CatalogUsageError extends Error {}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The client options for `--site`: an http(s) URL (the service's host, a proxy, the simulator) or a
 * site's subdomain. A URL with credentials in it is refused without repeating it.
 */
export function siteOptions(site: string, env: NodeJS.ProcessEnv, keyEnv?: string): BillingClientOptions {
  const credential = credentialOf(env, keyEnv);
  if (/^https?:\/\//i.test(site)) {
    let url: URL;
    try {
      url = new URL(site);
    } catch {
      throw new CatalogUsageError(`--site: not a URL: give https://<host> or a site's subdomain`);
    }
    if (url.username !== "" || url.password !== "")
      throw new CatalogUsageError(
        `--site: the URL carries credentials, which never go on the command line: give the URL without them, and the key in ${keyEnv ?? DEFAULT_KEY_ENV}`,
      );
    return { baseUrl: site, ...credential };
  }
  if (/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i.test(site)) {
    const environment = env.BILLING_ENVIRONMENT;
    if (environment !== undefined && environment !== "us" && environment !== "eu")
      throw new CatalogUsageError(
        `BILLING_ENVIRONMENT: must be "us" or "eu" for a site given by subdomain, got ${JSON.stringify(environment)}`,
      );
    return { subdomain: site, ...(environment ? { environment } : {}), ...credential };
  }
  throw new CatalogUsageError(
    `--site ${JSON.stringify(site)}: give the site's URL (https://acme.chargify.com, or the simulator's) or its subdomain (acme)`,
  );
}

/**
 * A message with any credential the environment holds blanked, should a lower layer ever have echoed one
 * (billing-catalog's and billing-site's last line of defence before stderr).
 */
export function redacted(message: string, env: NodeJS.ProcessEnv): string {
  let out = message;
  for (const [k, v] of Object.entries(env))
    if (v && v.length >= 8 && /(KEY|TOKEN|SECRET|PASSWORD)/i.test(k)) out = out.split(v).join("[redacted]");
  return out;
}

function credentialOf(env: NodeJS.ProcessEnv, keyEnv: string | undefined): { apiKey: string } | { accessToken: string } {
  if (keyEnv !== undefined) {
    if (!ENV_NAME.test(keyEnv))
      throw new CatalogUsageError(
        `key variable ${JSON.stringify(keyEnv)}: give the name of an environment variable (e.g. STAGING_BILLING_API_KEY), not the key`,
      );
    const v = env[keyEnv];
    if (!v) throw new CatalogUsageError(`${keyEnv} is not set: it must hold the site's API key`);
    return { apiKey: v };
  }
  const key = env[DEFAULT_KEY_ENV];
  if (key) return { apiKey: key };
  const token = env[DEFAULT_TOKEN_ENV];
  if (token) return { accessToken: token };
  throw new CatalogUsageError(`${DEFAULT_KEY_ENV} is not set: it must hold the site's API key (or ${DEFAULT_TOKEN_ENV} a bearer token)`);
}

/** Reads a site's catalog; at most 4 requests in flight. */
export async function readSite(
  options: BillingClientOptions,
  read: { includeArchived?: boolean; onProgress?: (p: ReadProgress) => void },
  /** The environment variable the credential came from ({@link credentialVariable}), named when the site refuses it. */
  from?: string,
): Promise<CatalogRead> {
  try {
    return await readCatalog(options, read);
  } catch (err) {
    throw (from !== undefined && refusedCredential(err, options, from)) || err;
  }
}

/** A 401 as the credential in `from` refused, and what to set; undefined for any other error. */
export function refusedCredential(err: unknown, options: BillingClientOptions, from: string): Error | undefined {
  if (!(err instanceof BillingApiError) || err.status !== 401) return undefined;
  const what = "accessToken" in options && options.accessToken ? "bearer token" : "API key";
  return new Error(
    `the site refused the ${what} in ${from} (401 Unauthorized to ${err.method} ${err.path}): set ${from} to the site's ${what}`,
  );
}

/** The environment variable {@link siteOptions} takes the credential from: `keyEnv`, else the key's, else the token's. */
export function credentialVariable(env: NodeJS.ProcessEnv, keyEnv: string | undefined): string {
  if (keyEnv !== undefined) return keyEnv;
  return env[DEFAULT_KEY_ENV] || !env[DEFAULT_TOKEN_ENV] ? DEFAULT_KEY_ENV : DEFAULT_TOKEN_ENV;
}

/**
 * A catalog file: a snapshot written by `export` (`snapshot.json`), or a program's
 * `pulumi preview --json --show-sames` output (what the program would make), checked to be one.
 */
export async function readSnapshotFile(file: string): Promise<CatalogSnapshot> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, "utf8"));
  } catch (err) {
    throw new CatalogUsageError(`${file}: not a snapshot (${(err as Error).message})`);
  }
  if (isPreviewJson(parsed)) {
    try {
      return snapshotFromPreview(parsed, { source: file });
    } catch (err) {
      throw new CatalogUsageError((err as Error).message);
    }
  }
  const s = parsed as Partial<CatalogSnapshot> | null;
  if (s === null || typeof s !== "object" || s.format !== SNAPSHOT_FORMAT)
    throw new CatalogUsageError(
      `${file}: not a snapshot written by \`billing-catalog export\` (its "format" must be "${SNAPSHOT_FORMAT}") nor the output of \`pulumi preview --json\``,
    );
  if (s.objects === null || typeof s.objects !== "object" || Array.isArray(s.objects))
    throw new CatalogUsageError(`${file}: its "objects" must be an object of kinds, each an object keyed by handle`);
  for (const [type, o] of Object.entries(s.objects))
    if (o === null || typeof o !== "object" || Array.isArray(o))
      throw new CatalogUsageError(`${file}: its "objects.${type}" must be an object keyed by handle`);
  return s as CatalogSnapshot;
}
