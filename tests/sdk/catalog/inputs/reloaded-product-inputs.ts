/**
 * The product, family and price point schemas (sdk/catalog/inputs.ts), the tier schemas (tiers.ts), the service's field
 * labels (refusals.ts) and problemsOf (validation.ts), loaded afresh by each call of `fresh` after a test's
 * vi.resetModules(). They are built when their modules load, before the mutation run switches a mutant on; a test that
 * pins their words must load them itself, or the run gives each module-level mutant to the tests that reload the SDK
 * alone (mutation/README.md). Only these modules (and what they import) are reloaded.
 */

// Only the modules pinned here (and what they import) load afresh: the mutation run gives a test that reloads the whole
// SDK every module-level mutant of it, and runs each such mutant against every such test (mutation/README.md).
export const fresh = async () => ({
  ...(await import("../../../../sdk/catalog/inputs")),
  ...(await import("../../../../sdk/catalog/tiers")),
  ...(await import("../../../../sdk/catalog/refusals")),
  ...(await import("../../../../sdk/validation")),
});

export type Sdk = Awaited<ReturnType<typeof fresh>>;

export type SchemaName =
  | "catalogHandle"
  | "productInput"
  | "productUpdateInput"
  | "productFamilyInput"
  | "pricingInput"
  | "pricePointInput"
  | "pricePointUpdateInput"
  | "pricingScheme"
  | "unitPrice"
  | "priceTier";

/** What a freshly loaded schema makes of `v`: the parsed value, or its problems as the SDK reports them. */
export async function parse(schema: SchemaName, v: unknown) {
  const sdk = await fresh();
  const r = (sdk[schema] as { safeParse(v: unknown): { success: boolean; data?: unknown; error?: unknown } }).safeParse(v);
  return r.success ? { data: r.data } : { problems: sdk.problemsOf(r.error as Parameters<Sdk["problemsOf"]>[0]) };
}

export const refused = (property: string, message: string) => ({ problems: [{ property, message }] });

export const HANDLE_RULE = "a lowercase letter or number first, then only lowercase letters, numbers, '.', ':', '-' and '_'";

export const PRICE = 'a price of at least 0 with at most 8 decimal places, as a number (2.5) or decimal text ("0.00000065")';

export const PRODUCT = { handle: "pro", name: "Pro", priceInCents: 1000, interval: 1, intervalUnit: "month" } as const;

export const PRICING = { priceInCents: 1000, interval: 1, intervalUnit: "month" } as const;
