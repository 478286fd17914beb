#!/usr/bin/env node
/**
 * billing-simulator --port N [--host H] [--seed demo] [--data FILE] [--api-key K | --api-key-file F]
 *                   [--access-token T | --access-token-file F] [--latency MS|MEDIAN:P99]
 *                   [--max-concurrent N] [--over-capacity queue|429] [--report-price-point]
 *                   [--currency C] [--non-primary-currencies C[:RATE],…] [--live] [--clear-data-delay MS]
 * Runs until SIGINT/SIGTERM.
 *
 * A key on the command line is seen by `ps` and kept in npm's debug logs (`npx` records its arguments): a file
 * (`--api-key-file`, `--access-token-file`) or the environment (BILLING_SIMULATOR_API_KEY,
 * BILLING_SIMULATOR_ACCESS_TOKEN, used when no option gives one) keeps it out of both.
 *
 * With --data the site lives in FILE across restarts. An existing FILE wins
 * over --seed: the seed is what a first start holds, the file what the site
 * has become since, and a restart must not undo that. A second simulator on the
 * same FILE is refused (FILE.lock names the first's pid).
 */
import { readFileSync } from "node:fs";
import { DEMO_SITE, type SimulatorOptions, startSimulator } from "./index";
import { parseLatency } from "./latency";

const USAGE =
  "usage: billing-simulator [--port N] [--host H] [--seed demo] [--data FILE] [--api-key K | --api-key-file F]" +
  " [--access-token T | --access-token-file F] [--latency MS|MEDIAN:P99]" +
  " [--max-concurrent N] [--over-capacity queue|429] [--report-price-point]" +
  " [--currency C] [--non-primary-currencies C[:RATE],…] [--live] [--clear-data-delay MS]";

function parseArgs(argv: string[]): SimulatorOptions {
  const o: SimulatorOptions = {};
  const number = (flag: string, v: string): number => {
    const n = Number(v);
    if (!/^\d+$/.test(v) || !Number.isSafeInteger(n)) fail(`${flag} needs a non-negative integer, got ${v}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2) as [string, string | undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === "") fail(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case "--port":
        o.port = number(flag, value());
        break;
      case "--host":
        o.host = value();
        break;
      case "--seed": {
        const v = value();
        if (v !== "demo") fail(`--seed accepts only "demo", got ${v}`);
        o.seed = "demo";
        break;
      }
      case "--data":
        o.dataFile = value();
        break;
      case "--api-key":
        o.apiKey = once(flag, o.apiKey, value);
        break;
      case "--api-key-file":
        o.apiKey = once(flag, o.apiKey, () => secretFile(flag, value()));
        break;
      case "--access-token":
        o.accessToken = once(flag, o.accessToken, value);
        break;
      case "--access-token-file":
        o.accessToken = once(flag, o.accessToken, () => secretFile(flag, value()));
        break;
      case "--latency": {
        let l: ReturnType<typeof parseLatency>;
        try {
          l = parseLatency(value());
        } catch (err) {
          fail((err as Error).message);
        }
        if (typeof l === "number") o.latencyMs = l;
        else o.latency = l;
        break;
      }
      case "--max-concurrent": {
        const n = number(flag, value());
        if (n === 0) fail("--max-concurrent needs at least 1");
        o.maxConcurrent = n;
        break;
      }
      case "--over-capacity": {
        const v = value();
        if (v !== "queue" && v !== "429") fail(`--over-capacity accepts "queue" or "429", got ${v}`);
        o.overCapacity = v;
        break;
      }
      case "--report-price-point":
        if (inline !== undefined) fail("--report-price-point takes no value");
        o.reportPricePoint = true;
        break;
      // The site's currencies and mode (issue 41), a first start's like --seed: an existing --data file keeps its own.
      case "--currency":
        o.currency = value();
        break;
      case "--non-primary-currencies": {
        // "EUR:0.92,GBP": each currency, with its exchange rate from the primary when given.
        const rates: Record<string, number> = {};
        o.nonPrimaryCurrencies = value()
          .split(",")
          .map((entry) => {
            const [code, rate] = entry.split(":");
            if (rate !== undefined) {
              const n = Number(rate);
              if (!(n > 0) || !Number.isFinite(n))
                fail(`--non-primary-currencies: the rate of ${code} must be a positive number, got ${rate}`);
              rates[code] = n;
            }
            return code;
          });
        o.exchangeRates = rates;
        break;
      }
      case "--live":
        if (inline !== undefined) fail("--live takes no value");
        o.live = true;
        break;
      case "--clear-data-delay":
        o.clearDataDelayMs = number(flag, value());
        break;
      case "-h":
      case "--help":
        console.log(USAGE);
        return process.exit(0);
      default:
        fail(`unknown argument ${argv[i]}`);
    }
  }
  // The environment's, when no option gave one: out of `ps` and of npm's logs.
  o.apiKey ??= fromEnv("BILLING_SIMULATOR_API_KEY");
  o.accessToken ??= fromEnv("BILLING_SIMULATOR_ACCESS_TOKEN");
  return o;
}

/** A credential given twice (the option and its file, or either repeated) is refused: which one wins would be a guess. */
function once(flag: string, given: string | undefined, read: () => string): string {
  const base = flag.replace(/-file$/, "");
  if (given !== undefined) fail(`${flag}: the credential is already given: use one of ${base} and ${base}-file, once`);
  return read();
}

/** A credential's file: its text without the line end an editor or `echo` adds; never printed. */
function secretFile(flag: string, file: string): string {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    fail(`${flag}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const v = text.replace(/\r?\n$/, "");
  if (v.trim() === "") fail(`${flag}: ${file} is empty: it must hold the credential on its first line`);
  if (/[\r\n]/.test(v)) fail(`${flag}: ${file} holds more than one line: it must hold only the credential`);
  return v;
}

function fromEnv(name: string): string | undefined {
  const v = process.env[name];
  return v === undefined || v === "" ? undefined : v;
}

function fail(message: string): never {
  console.error(`billing-simulator: ${message}\n${USAGE}`);
  process.exit(2);
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const sim = await startSimulator(options);
  console.log(`billing-simulator listening on ${sim.url}`);
  if (options.dataFile !== undefined)
    console.log(
      sim.restored
        ? `site restored from ${options.dataFile}${options.seed ? " (the file wins over --seed)" : ""}; changes are kept there`
        : `site kept in ${options.dataFile} (created now${options.seed ? " from the seed" : ""}); changes are kept there`,
    );
  // Only the demo's well-known key is printed: a key given on the command line is the caller's to keep.
  if (options.seed === "demo" && options.apiKey === undefined)
    console.log(`${sim.restored ? "demo" : "demo site seeded;"} API key: ${DEMO_SITE.apiKey} (Basic auth, password "x")`);
  const stop = () =>
    void sim.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(`billing-simulator: ${err instanceof Error ? err.message : String(err)}`);
        process.exit(1);
      },
    );
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((err) => {
  console.error(`billing-simulator: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
