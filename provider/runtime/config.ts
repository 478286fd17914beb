import { BillingClient, type BillingClientOptions, BillingValidationError, type RetryEvent } from "../../sdk";
import { clientOptionsOf, resolveConnection } from "../../sdk/options";
import { type CheckFailure, isUnknown, notice, siteFailure } from "../engine";
import { CREDENTIAL_KEYS } from "./plain-credentials";
import { fromDynamicHost } from "./recorded-config";

/**
 * Where credentials live: read at call time from stack config (`configure`)
 * or the environment, and held in this module's memory only. They are keyed
 * by the provider object in a WeakMap, never stored on it, so closure
 * serialization of a provider can never capture them.
 */

const KEYS = ["subdomain", "environment", "connector", "baseUrl", "apiKey", "accessToken"] as const;
/**
 * Numeric settings; stack config holds them as text, `billing:sites` entries as JSON numbers:
 * `billing:retryBudgetSeconds` (how long 429s are retried, default 300), `billing:migrationSettleSeconds`
 * (how long a migration still being processed is awaited, default 120), `billing:timeoutMs` (how long
 * one attempt waits for an answer).
 */
const NUMBER_KEYS = ["retryBudgetSeconds", "migrationSettleSeconds", "timeoutMs"] as const;

/**
 * One site's settings: `billing:*` top-level keys, or one entry of `billing:sites`, as config gives
 * them. They are validated when a client is made (so a bad value is named then, as a config key).
 */
export type SiteSettings = { [K in (typeof KEYS)[number]]?: string } & { [K in (typeof NUMBER_KEYS)[number]]?: number | string };

interface ProviderConfig {
  readonly top: SiteSettings;
  readonly sites: Readonly<Record<string, SiteSettings>> | undefined;
  /** A `billing:sites` value that did not parse: reported when a resource uses it. */
  readonly sitesError?: string;
  /** Clients already resolved from these settings, by site ("" for the top level): validated once per configure. */
  readonly resolved: Map<string, BillingClient>;
  /** Whether these settings may be the ones the engine recorded at the last `up` rather than the stack's current ones (see recorded-config.ts). */
  readonly mayBeRecorded: boolean;
}

const configs = new WeakMap<object, ProviderConfig>();
/** One client (one connection pool) per distinct settings, shared by the resource types, so the per-site cap holds across them. */
const clients = new Map<string, BillingClient>();

const ENV_NUMBERS: Record<(typeof NUMBER_KEYS)[number], string> = {
  retryBudgetSeconds: "BILLING_RETRY_BUDGET_SECONDS",
  migrationSettleSeconds: "BILLING_MIGRATION_SETTLE_SECONDS",
  timeoutMs: "BILLING_TIMEOUT_MS",
};

/** A number as config gives it; a value that is not one is kept as text so that validation names it. */
function numberOf(v: unknown): number | string | undefined {
  if (v === undefined || v === "") return undefined;
  if (typeof v === "number") return v;
  const n = Number(v);
  return typeof v === "string" && v.trim() !== "" && Number.isFinite(n) ? n : String(v);
}
const ENV: Record<(typeof KEYS)[number], string | undefined> = {
  subdomain: "BILLING_SUBDOMAIN",
  environment: "BILLING_ENVIRONMENT",
  connector: undefined,
  baseUrl: "BILLING_BASE_URL",
  apiKey: "BILLING_API_KEY",
  accessToken: "BILLING_ACCESS_TOKEN",
};

/** `configure(req)`: full keys only (`billing:apiKey`), as a bare key would be prefixed with the consumer's project name. */
export function configure(provider: object, req: { config: { get(key: string): string | undefined } }): void {
  const top: SiteSettings = {};
  for (const k of KEYS) {
    const v = req.config.get(`billing:${k}`);
    if (v !== undefined && v !== "") top[k] = v;
  }
  for (const k of NUMBER_KEYS) {
    const v = numberOf(req.config.get(`billing:${k}`));
    if (v !== undefined) top[k] = v;
  }
  const raw = req.config.get("billing:sites");
  let sites: Record<string, SiteSettings> | undefined;
  let sitesError: string | undefined;
  if (raw !== undefined && raw !== "") {
    try {
      const parsed = JSON.parse(raw) as unknown;
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
      sites = parsed as Record<string, SiteSettings>;
    } catch {
      // The value is secret: say what is wrong with it, never what it holds.
      sitesError =
        'billing:sites must be a JSON object keyed by site name, e.g. {"eu-shop":{"subdomain":"acme","environment":"eu","apiKey":"…"}}';
    }
  }
  configs.set(provider, { top, sites, sitesError, resolved: new Map(), mayBeRecorded: fromDynamicHost(req.config) });
}

/** Whether `provider` was configured by the dynamic providers' host, whose `refresh` and `destroy` get the configuration recorded at the last `up`. */
export function configuredFromRecord(provider: object): boolean {
  return configs.get(provider)?.mayBeRecorded ?? false;
}

/** A problem resolving a site's settings, phrased for a CheckFailure on `site`. */
export class SiteConfigError extends Error {
  override name = "SiteConfigError";
}

/** Settings for `site` (an entry of `billing:sites`) or, without one, the top-level keys with environment fallbacks. */
export function settingsFor(provider: object, site: string | undefined): SiteSettings {
  const conf = configs.get(provider);
  if (site !== undefined) {
    if (conf?.sitesError) throw new SiteConfigError(conf.sitesError);
    const entry = conf?.sites?.[site];
    if (!entry || typeof entry !== "object") {
      const known = Object.keys(conf?.sites ?? {});
      throw new SiteConfigError(
        `site "${site}" is not an entry of the stack config billing:sites ` +
          (known.length
            ? `(entries: ${known.join(", ")})`
            : "(billing:sites is not set; set it with `pulumi config set --secret billing:sites '{…}'`)"),
      );
    }
    const s: SiteSettings = {};
    for (const k of KEYS) {
      const v: unknown = entry[k];
      if (typeof v === "string" && v !== "") s[k] = v;
    }
    for (const k of NUMBER_KEYS) {
      const v = numberOf(entry[k]) ?? conf?.top[k];
      if (v !== undefined) s[k] = v;
    }
    return s;
  }
  const s: SiteSettings = { ...(conf?.top ?? {}) };
  for (const k of KEYS) {
    const env = ENV[k];
    const v = env ? process.env[env] : undefined;
    if (s[k] === undefined && v) s[k] = v;
  }
  for (const k of NUMBER_KEYS) {
    const v = s[k] ?? numberOf(process.env[ENV_NUMBERS[k]]);
    if (v !== undefined) s[k] = v;
  }
  return s;
}

/** Turns settings into client options, or a SiteConfigError that names config keys, not values. */
export function clientOptionsFor(provider: object, site: string | undefined): BillingClientOptions {
  try {
    // Validate now (a preview-time error) rather than at the first request.
    const options = clientOptionsOf(settingsFor(provider, site));
    resolveConnection(options);
    return options;
  } catch (err) {
    if (err instanceof BillingValidationError) {
      if (site !== undefined) {
        const what = err.problems.map((p) => `billing:sites["${site}"].${p.property}: ${p.message}`).join("; ");
        throw new SiteConfigError(`the billing credentials are not usable: ${what}`);
      }
      throw new SiteConfigError(topLevelProblem(provider, err.problems));
    }
    throw err;
  }
}

/** The keys a user sets for one site, as `pulumi config set` takes them: credentials with --secret. */
const setCommand = (key: string, placeholder: string): string =>
  `\`pulumi config set ${SECRET_KEYS.has(key) ? "--secret " : ""}billing:${key} ${placeholder}\``;
const SECRET_KEYS: ReadonlySet<string> = new Set(CREDENTIAL_KEYS.map((k) => k.slice("billing:".length)));
const PLACEHOLDERS: Readonly<Record<string, string>> = {
  subdomain: "<subdomain>",
  apiKey: "<api-key>",
  accessToken: "<token>",
  connector: "<connector>",
  environment: "us|eu|gateway",
  baseUrl: "<url>",
};

/**
 * Why the top-level settings (no `site`) give no client, in the user's terms: with nothing configured,
 * the commands that configure a site; otherwise each key at fault, with the command that sets it.
 */
function topLevelProblem(provider: object, problems: readonly { property: string; message: string }[]): string {
  const s = settingsFor(provider, undefined);
  const nothingSet = KEYS.every((k) => s[k] === undefined) && configs.get(provider)?.sites === undefined;
  const alternatives = "or give the resource a `site` named in billing:sites";
  if (nothingSet) {
    return (
      "no billing site is configured for this stack: set one with " +
      `${setCommand("subdomain", "<subdomain>")} and ${setCommand("apiKey", "<api-key>")} ` +
      `(or the ${ENV.subdomain} and ${ENV.apiKey} environment variables), ${alternatives}`
    );
  }
  const what = problems.map((p) => `billing:${p.property}: ${p.message}`).join("; ");
  const keys = [...new Set(problems.map((p) => p.property))].filter((k) => k in PLACEHOLDERS);
  const fixes = keys.map((k) => {
    const env = ENV[k as (typeof KEYS)[number]];
    return `${setCommand(k, PLACEHOLDERS[k])}${env ? ` (or ${env})` : ""}`;
  });
  return `the billing credentials are not usable: ${what}${fixes.length ? `. Set ${fixes.join(" and ")}` : ""}, ${alternatives}`;
}

/**
 * check() of a resource's `site` input: its type, and whether the settings it
 * names give usable credentials (a preview-time failure naming the config key).
 */
export function siteCheck(provider: object, site: unknown): CheckFailure[] {
  const bad = siteFailure(site);
  if (bad) return [bad];
  if (isUnknown(site)) return [];
  try {
    clientOptionsFor(provider, site as string | undefined);
    return [];
  } catch (err) {
    if (!(err instanceof SiteConfigError)) throw err;
    // Without a site the problem is the stack's configuration, not an input: a failure on no property, which the
    // CLI prints as the resource's problem (on "site" it printed `property site value {<nil>}`, a value never set).
    return [{ property: site === undefined ? "" : "site", reason: err.message }];
  }
}

/**
 * Where the credential a site's requests carry was set, as the user set it (a config key or an environment variable),
 * and how to set it again: for a refusal of it (a 401), which must say which key to fix, never its value.
 */
export function credentialSource(provider: object, site: string | undefined): { readonly name: string; readonly fix: string } {
  const conf = configs.get(provider);
  if (site !== undefined) {
    const entry: Partial<Record<string, unknown>> = conf?.sites?.[site] ?? {};
    const key = typeof entry.accessToken === "string" && entry.accessToken !== "" ? "accessToken" : "apiKey";
    return {
      name: `billing:sites["${site}"].${key}`,
      fix: `set the site's ${key} in \`pulumi config set --secret billing:sites '{…}'\``,
    };
  }
  // The settings' rule: config first, then the environment (settingsFor); exactly one of the two credentials is usable.
  const s = settingsFor(provider, undefined);
  const key = s.apiKey !== undefined ? "apiKey" : "accessToken";
  const env = ENV[key] as string;
  if (conf?.top[key] === undefined && process.env[env])
    return { name: `the environment variable ${env}`, fix: `export ${env}=${PLACEHOLDERS[key]}` };
  return { name: `billing:${key}`, fix: `run ${setCommand(key, PLACEHOLDERS[key])}` };
}

/**
 * How long a read waits for others of its collection (a product's price points, a family's products, components or
 * coupons, the site's families, reason codes, offers) before they go out as one list; reads asked for while a list of
 * their collection is in flight go out together once it ends, whatever the window (sdk/read-batches.ts). The engine
 * asks for a refresh's and a preview's reads together, so against a service that answers in ~100 ms the reads pile
 * up behind the first list (issue 43: a request per collection, not per object). The window is 1 ms: each wait is
 * paid by every lookup a create or an update makes too, in the chain family → product → price point, and 20 ms made a
 * 1,000-object first `up` twice as long (figure 8). `BILLING_READ_BATCH_WINDOW_MS` sets it (0: every read alone),
 * for a measurement or a service whose lists misbehave; the SDK names a value it refuses.
 */
const READ_BATCH_WINDOW_MS = 1;
function readBatchWindowMs(): number {
  const v = numberOf(process.env.BILLING_READ_BATCH_WINDOW_MS);
  if (v === undefined) return READ_BATCH_WINDOW_MS;
  if (typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 1000) return v;
  throw new SiteConfigError(
    `the environment variable BILLING_READ_BATCH_WINDOW_MS must be a whole number of milliseconds from 0 to 1000 (0: every read alone); got ${JSON.stringify(String(v))}`,
  );
}

/** The client for `site`, reused across calls in this process. */
export function clientFor(provider: object, site: string | undefined): BillingClient {
  const mine = configs.get(provider)?.resolved;
  const hit = mine?.get(site ?? "");
  if (hit) return hit;
  const options = { ...clientOptionsFor(provider, site), readBatchWindowMs: readBatchWindowMs() };
  const key = JSON.stringify(options);
  let client = clients.get(key);
  if (!client) {
    client = new BillingClient({ ...options, onRetry: reportRetry });
    clients.set(key, client);
  }
  mine?.set(site ?? "", client);
  return client;
}

/** Every wait between attempts, on the provider's log, so that `pulumi up` shows what it is waiting for. */
export function reportRetry(e: RetryEvent): void {
  notice(`billing: ${e.method} ${e.path}: ${e.reason}; waiting ${(e.delayMs / 1000).toFixed(1)} s before attempt ${e.attempt + 1}`);
}

/** The id a site-scoped resource uses: the site name, else the host it talks to. */
export function siteLabel(provider: object, site: string | undefined): string {
  if (site !== undefined) return site;
  const s = settingsFor(provider, undefined);
  return s.subdomain ?? s.connector ?? (s.baseUrl ? new URL(s.baseUrl).host : "default");
}
