import { parseArgs } from "node:util";
import {
  CatalogUsageError,
  credentialVariable,
  DEFAULT_KEY_ENV,
  DEFAULT_TOKEN_ENV,
  redacted,
  refusedCredential,
  siteOptions,
} from "../catalog/sources";
import { BillingClient } from "../sdk/client";
import type { CleanupScope } from "../sdk/site-config/inputs";
import { PRODUCTION_ENV, productionRefusal } from "./production";
import { type ResetOutcome, resetSite } from "./reset";

export const SCOPES: readonly CleanupScope[] = ["customers", "all"];
/** How long the site may still hold data after the clear, by default. */
export const DEFAULT_TIMEOUT_SECONDS = 120;

export const USAGE = `Usage:
  billing-site reset --scope customers|all [--site SITE] [--key-env NAME] [--timeout SECONDS]
      clears a test site's data (POST /sites/clear_data.json): --scope customers its customers and their
      subscriptions (revenue reset to 0; the catalog stays), --scope all the catalog too (product families,
      products with their price points, components, coupons, offers). --scope has no default. The service clears
      asynchronously: the command then reads the site until what the scope clears is gone, for at most
      --timeout seconds (default ${DEFAULT_TIMEOUT_SECONDS}), and prints what the site held.
      Refused with nothing sent when ${PRODUCTION_ENV} marks the site production (true, 1 or yes); refused with
      nothing cleared when GET /site.json says the site is not a test site, or when the service answers 403 (live).

SITE is the site's URL (https://acme.chargify.com, or the simulator's) or its subdomain (acme); the default is
BILLING_BASE_URL, else BILLING_SUBDOMAIN (with BILLING_ENVIRONMENT), as the provider reads its top-level site.
Credentials never go on the command line: the key is read from ${DEFAULT_KEY_ENV} (or a bearer token from
${DEFAULT_TOKEN_ENV}); --key-env names another variable holding the key.
Exit code: 0 cleared and read empty; 1 refused (production, not a test site, live): nothing cleared;
2 a usage error or a failed request; 3 cleared but still not empty when --timeout ran out.`;

/** Where the command writes, and what it reads the site, its credential and the production marker from. */
export interface SiteIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly env?: NodeJS.ProcessEnv;
  /** The first pause between reads while waiting (tests shorten it); default 250 ms. */
  readonly pollMs?: number;
}

/** A refusal that sent nothing: exit 1. */
class Refused extends Error {}

function summary(o: Extract<ResetOutcome, { kind: "cleared" }>, scope: CleanupScope): string {
  const width = Math.max(...o.before.map((b) => b.label.length));
  const rows = o.before.map((b) => `  ${b.label.padEnd(width)}  ${b.count}`);
  // Nothing listed before the clear: the read that found the site empty proves nothing about the clear's progress.
  const head = o.before.some((b) => b.count > 0)
    ? `empty after ${(o.ms / 1000).toFixed(1)} s. Before the clear it held:`
    : "the service accepted the clear; nothing it clears that the API lists was there, so there was nothing to wait for:";
  return (
    `Cleared site ${o.site} (scope ${scope}): ${head}\n` +
    `${rows.join("\n")}\n` +
    "Customers and subscriptions themselves are not counted: the service's API has no list of them (their custom field values are).\n"
  );
}

async function resetCommand(argv: string[], io: SiteIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      scope: { type: "string" },
      site: { type: "string" },
      "key-env": { type: "string" },
      timeout: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length > 0) throw new CatalogUsageError(`reset: unexpected ${JSON.stringify(positionals[0])}\n${USAGE}`);
  // No default: the service's own default is `all`, the safer one `customers`; a CI job says which it means.
  if (values.scope === undefined) throw new CatalogUsageError(`reset: --scope is required: give customers or all\n${USAGE}`);
  const scope = values.scope as CleanupScope;
  if (!SCOPES.includes(scope)) throw new CatalogUsageError(`--scope ${JSON.stringify(values.scope)}: give customers or all`);
  const timeout = values.timeout === undefined ? DEFAULT_TIMEOUT_SECONDS : Number(values.timeout);
  if (values.timeout?.trim() === "" || !Number.isFinite(timeout) || timeout <= 0)
    throw new CatalogUsageError(`--timeout ${JSON.stringify(values.timeout)}: give a number of seconds above 0`);
  const env = io.env ?? process.env;
  const refusal = productionRefusal(env);
  if (refusal !== undefined) throw new Refused(refusal);
  const site = values.site ?? (env.BILLING_BASE_URL || env.BILLING_SUBDOMAIN || undefined);
  if (!site) throw new CatalogUsageError(`reset: --site is required (or BILLING_BASE_URL or BILLING_SUBDOMAIN set)\n${USAGE}`);
  const options = siteOptions(site, env, values["key-env"]);
  const client = new BillingClient(options);
  try {
    const outcome = await resetSite(client, scope, { timeoutMs: timeout * 1000, pollMs: io.pollMs }).catch((err: unknown) => {
      throw refusedCredential(err, options, credentialVariable(env, values["key-env"])) ?? err;
    });
    if (outcome.kind === "refused") throw new Refused(outcome.message);
    if (outcome.kind === "timeout") {
      io.stderr.write(
        `billing-site: site ${outcome.site} still holds ${outcome.left} ${(outcome.ms / 1000).toFixed(1)} s after the clear ` +
          `(--timeout ${timeout}): the service clears asynchronously and may still finish; read the site again before relying on it\n`,
      );
      return 3;
    }
    io.stdout.write(summary(outcome, scope));
    return 0;
  } finally {
    await client.close();
  }
}

/**
 * Runs `billing-site` with these arguments; resolves to the exit code (0 cleared and empty; 1 refused,
 * nothing cleared; 2 a usage error or a failed request; 3 not empty by the deadline), reported on stderr.
 */
export async function main(
  argv: readonly string[],
  io: SiteIo = { stdout: process.stdout, stderr: process.stderr, env: process.env },
): Promise<number> {
  const [command, ...rest] = argv;
  const env = io.env ?? process.env;
  try {
    if (command === "reset") return await resetCommand(rest, io);
    if (command === "--help" || command === "-h" || command === "help") {
      io.stdout.write(`${USAGE}\n`);
      return 0;
    }
    throw new CatalogUsageError(command === undefined ? USAGE : `unknown command ${JSON.stringify(command)}\n${USAGE}`);
  } catch (err) {
    io.stderr.write(`billing-site: ${redacted((err as Error).message, env)}\n`);
    return err instanceof Refused ? 1 : 2;
  }
}
