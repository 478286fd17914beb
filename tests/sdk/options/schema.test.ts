import { beforeEach, describe, expect, it, vi } from "vitest";
import type { BillingClientOptions } from "../../../sdk/options";
import { KEY, TOKEN } from "../helpers";
import { fresh, LEAD, refusedWithLead, thrown } from "./reloaded-options";

/**
 * BillingClient's options schema (sdk/options.ts, clientOptionsOf): what it accepts at each edge, what it refuses and
 * in what words. The schema is built when the module loads, so each test loads a fresh copy (vi.resetModules, then
 * import) and reads a refusal by its fields, not by instanceof.
 */

beforeEach(() => {
  vi.resetModules();
});

const SUBDOMAIN = 'must be a DNS label such as "acme"';

const CONNECTOR = "must be a DNS label";

const ENVIRONMENT = 'must be "us", "eu" or "gateway"';

const BASE_URL = "must be an http(s) URL";

const EMPTY = "must not be empty";

const SPACED = "must not begin or end with whitespace (a space, or a newline copied with it)";

// zod's own words where the schema gives none (a lower bound, a fraction): what the user reads, and zod is pinned.
const NOT_INT = "Invalid input: expected int, received number";

const ACCEPTED_KEYS =
  "subdomain, environment, connector, baseUrl, apiKey, accessToken, timeoutMs, maxRetries, maxConcurrency, " +
  "retryBaseDelayMs, retryBudgetSeconds, migrationSettleSeconds, readBatchWindowMs, onRetry";

const onRetry = () => undefined;

describe("clientOptionsOf: what the schema accepts, at each edge", () => {
  it.each<[string, BillingClientOptions]>([
    ["one-character subdomain", { subdomain: "a" }],
    ["two-character subdomain", { subdomain: "ab" }],
    ["subdomain with an inner hyphen", { subdomain: "a-b" }],
    ["subdomain ending in a digit", { subdomain: "ab1" }],
    ["four-character subdomain", { subdomain: "acme" }],
    ["subdomain with two inner hyphens, upper case", { subdomain: "A--B9" }],
    ["one-character connector", { connector: "a" }],
    ["two-character connector", { connector: "ab" }],
    ["connector with an inner hyphen", { connector: "a-b" }],
    ["connector ending in a digit", { connector: "ab1" }],
    ["four-character connector", { connector: "acme" }],
    ["connector with two inner hyphens, upper case", { connector: "A--B9" }],
    ["environment us", { environment: "us" }],
    ["environment eu", { environment: "eu" }],
    ["environment gateway", { environment: "gateway" }],
    ["http baseUrl", { baseUrl: "http://127.0.0.1:8080" }],
    ["https baseUrl with a path", { baseUrl: "https://proxy.example/billing/v1/" }],
    ["apiKey", { apiKey: KEY }],
    ["one-character apiKey", { apiKey: "k" }],
    ["apiKey with a space inside (only the ends are checked)", { apiKey: "k k" }],
    ["accessToken", { accessToken: TOKEN }],
    ["timeoutMs at its minimum", { timeoutMs: 1 }],
    ["timeoutMs above its minimum", { timeoutMs: 2 }],
    ["timeoutMs at its maximum", { timeoutMs: 600_000 }],
    ["maxRetries at its minimum", { maxRetries: 0 }],
    ["maxRetries above its minimum", { maxRetries: 1 }],
    ["maxRetries at its maximum", { maxRetries: 20 }],
    ["maxConcurrency at its minimum", { maxConcurrency: 1 }],
    ["maxConcurrency above its minimum", { maxConcurrency: 2 }],
    ["maxConcurrency at its maximum", { maxConcurrency: 64 }],
    ["retryBaseDelayMs at its minimum", { retryBaseDelayMs: 0 }],
    ["retryBaseDelayMs, a fraction", { retryBaseDelayMs: 0.5 }],
    ["retryBaseDelayMs at its maximum", { retryBaseDelayMs: 60_000 }],
    ["retryBudgetSeconds at its minimum", { retryBudgetSeconds: 0 }],
    ["retryBudgetSeconds, a fraction", { retryBudgetSeconds: 0.5 }],
    ["retryBudgetSeconds at its maximum", { retryBudgetSeconds: 3600 }],
    ["migrationSettleSeconds at its minimum", { migrationSettleSeconds: 0 }],
    ["migrationSettleSeconds, a fraction", { migrationSettleSeconds: 0.5 }],
    ["migrationSettleSeconds at its maximum", { migrationSettleSeconds: 3600 }],
    ["onRetry, a function", { onRetry }],
    [
      "every option at once",
      {
        subdomain: "acme",
        environment: "eu",
        connector: "acme",
        baseUrl: "https://proxy.example",
        apiKey: KEY,
        timeoutMs: 30_000,
        maxRetries: 3,
        maxConcurrency: 2,
        retryBaseDelayMs: 100,
        retryBudgetSeconds: 60,
        migrationSettleSeconds: 30,
        onRetry,
      },
    ],
  ])("%s is accepted as given", async (_, options) => {
    const { clientOptionsOf } = await fresh();
    expect(clientOptionsOf(options)).toEqual(options);
  });
});

describe("clientOptionsOf: what the schema refuses, and the exact words", () => {
  it.each<[string, Record<string, unknown>, string, string]>([
    ["subdomain with a leading hyphen", { subdomain: "-a" }, "subdomain", SUBDOMAIN],
    ["subdomain with a trailing hyphen", { subdomain: "a-" }, "subdomain", SUBDOMAIN],
    ["subdomain that is a hyphen", { subdomain: "-" }, "subdomain", SUBDOMAIN],
    ["subdomain with a dot", { subdomain: "a.b" }, "subdomain", SUBDOMAIN],
    ["subdomain that is a host and a path", { subdomain: "acme.evil.com/x" }, "subdomain", SUBDOMAIN],
    ["subdomain with an underscore", { subdomain: "a_b" }, "subdomain", SUBDOMAIN],
    ["empty subdomain", { subdomain: "" }, "subdomain", SUBDOMAIN],
    ["connector with a leading hyphen", { connector: "-a" }, "connector", CONNECTOR],
    ["connector with a trailing hyphen", { connector: "a-" }, "connector", CONNECTOR],
    ["connector that is a hyphen", { connector: "-" }, "connector", CONNECTOR],
    ["connector with a dot", { connector: "a.b" }, "connector", CONNECTOR],
    ["connector with an underscore", { connector: "a_b" }, "connector", CONNECTOR],
    ["empty connector", { connector: "" }, "connector", CONNECTOR],
    ["unknown environment", { environment: "mars" }, "environment", ENVIRONMENT],
    ["environment in upper case", { environment: "US" }, "environment", ENVIRONMENT],
    ["ftp baseUrl", { baseUrl: "ftp://127.0.0.1" }, "baseUrl", BASE_URL],
    ["httpx baseUrl", { baseUrl: "httpx://127.0.0.1" }, "baseUrl", BASE_URL],
    ["xhttps baseUrl", { baseUrl: "xhttps://127.0.0.1" }, "baseUrl", BASE_URL],
    ["baseUrl that is no URL", { baseUrl: "127.0.0.1:8080" }, "baseUrl", BASE_URL],
    ["empty apiKey", { apiKey: "" }, "apiKey", EMPTY],
    ["empty accessToken", { accessToken: "" }, "accessToken", EMPTY],
    ["apiKey of only spaces", { apiKey: "   " }, "apiKey", SPACED],
    ["apiKey with a trailing newline", { apiKey: "sk_live_1\n" }, "apiKey", SPACED],
    ["apiKey with a leading space", { apiKey: " sk_live_1" }, "apiKey", SPACED],
    ["accessToken with a trailing tab", { accessToken: "tok_1\t" }, "accessToken", SPACED],
    ["timeoutMs below its minimum", { timeoutMs: 0 }, "timeoutMs", "Too small: expected number to be >=1"],
    ["timeoutMs above its maximum", { timeoutMs: 600_001 }, "timeoutMs", "must be at most 600000"],
    ["timeoutMs, a fraction", { timeoutMs: 1.5 }, "timeoutMs", NOT_INT],
    ["maxRetries below its minimum", { maxRetries: -1 }, "maxRetries", "Too small: expected number to be >=0"],
    ["maxRetries above its maximum", { maxRetries: 21 }, "maxRetries", "must be between 0 and 20"],
    ["maxRetries, a fraction", { maxRetries: 0.5 }, "maxRetries", NOT_INT],
    ["maxConcurrency below its minimum", { maxConcurrency: 0 }, "maxConcurrency", "Too small: expected number to be >=1"],
    ["maxConcurrency above its maximum", { maxConcurrency: 65 }, "maxConcurrency", "must be between 1 and 64"],
    ["maxConcurrency, a fraction", { maxConcurrency: 2.5 }, "maxConcurrency", NOT_INT],
    ["retryBaseDelayMs below its minimum", { retryBaseDelayMs: -1 }, "retryBaseDelayMs", "Too small: expected number to be >=0"],
    ["retryBaseDelayMs above its maximum", { retryBaseDelayMs: 60_001 }, "retryBaseDelayMs", "Too big: expected number to be <=60000"],
    ["retryBudgetSeconds below its minimum", { retryBudgetSeconds: -1 }, "retryBudgetSeconds", "Too small: expected number to be >=0"],
    ["retryBudgetSeconds above its maximum", { retryBudgetSeconds: 3601 }, "retryBudgetSeconds", "must be between 0 and 3600"],
    ["retryBudgetSeconds just above its maximum", { retryBudgetSeconds: 3600.5 }, "retryBudgetSeconds", "must be between 0 and 3600"],
    [
      "migrationSettleSeconds below its minimum",
      { migrationSettleSeconds: -0.5 },
      "migrationSettleSeconds",
      "Too small: expected number to be >=0",
    ],
    ["migrationSettleSeconds above its maximum", { migrationSettleSeconds: 3601 }, "migrationSettleSeconds", "must be between 0 and 3600"],
    ["onRetry, a string", { onRetry: "log" }, "onRetry", "must be a function"],
    ["onRetry, an object", { onRetry: {} }, "onRetry", "must be a function"],
    ["onRetry, null", { onRetry: null }, "onRetry", "must be a function"],
    ["an unknown option", { colour: "red" }, "colour", `is not a known property (accepted: ${ACCEPTED_KEYS})`],
  ])("%s is refused", async (_, options, property, message) => {
    const { clientOptionsOf } = await fresh();
    expect(thrown(() => clientOptionsOf(options))).toEqual(refusedWithLead(property, message));
  });

  it("an unknown option is refused next to valid ones, not dropped", async () => {
    const { clientOptionsOf } = await fresh();
    expect(thrown(() => clientOptionsOf({ subdomain: "acme", apiKey: KEY, colour: "red" }))).toEqual(
      refusedWithLead("colour", `is not a known property (accepted: ${ACCEPTED_KEYS})`),
    );
  });

  it("every bad option is named, in the schema's order, in one error", async () => {
    const { clientOptionsOf } = await fresh();
    expect(thrown(() => clientOptionsOf({ maxRetries: 21, subdomain: "-a", onRetry: "log" }))).toEqual({
      name: "BillingValidationError",
      message: `${LEAD}: subdomain: ${SUBDOMAIN}; maxRetries: must be between 0 and 20; onRetry: must be a function`,
      problems: [
        { property: "subdomain", message: SUBDOMAIN },
        { property: "maxRetries", message: "must be between 0 and 20" },
        { property: "onRetry", message: "must be a function" },
      ],
    });
  });
});
