/**
 * What the check() fuzz files of the site configuration kinds (ReasonCode, CustomField, Offer) share, and the
 * currency prices' generators and oracle that the catalog kinds' fuzz files share: each kind's file states what
 * its kind accepts on its own (the oracle), this holds the judging, the mutations and the run, so that every
 * file asks the same questions of check's answer.
 */

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kinds } from "../../provider/runtime";
import { configure } from "../../provider/runtime/config";
import { type Simulator, startSimulator } from "../../simulator";
import { unnested } from "./support";

export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export type Props = Record<string, unknown>;
type Failure = { property: string; reason: string };
export type Verdict = "ok" | "bad" | "either";

export const compact = (o: Props): Props => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
export const own = (o: Props, k: string) => (Object.hasOwn(o, k) ? o[k] : undefined);

export class Judge {
  readonly mustFail = new Set<string>();
  unsure = false;
  field(name: string, v: Verdict) {
    if (v === "bad") this.mustFail.add(name);
    if (v === "either") this.unsure = true;
  }
  get valid() {
    return this.mustFail.size === 0 && !this.unsure;
  }
}

/** A scalar input: UNKNOWN passes; absent passes when optional; null is either when optional (the engine may drop it). */
export function scalar(v: unknown, optional: boolean, accept: (v: unknown) => boolean): Verdict {
  if (v === undefined) return optional ? "ok" : "bad";
  if (v === UNKNOWN) return "ok";
  if (v === null) return optional ? "either" : "bad";
  return accept(v) ? "ok" : "bad";
}
export const isInt = (min: number) => (v: unknown) => typeof v === "number" && Number.isSafeInteger(v) && v >= min;
export const isBool = (v: unknown) => typeof v === "boolean";
/** Text of 1 to `max` characters, not only spaces (the service refuses a blank one). */
export const isName = (max: number) => (v: unknown) => typeof v === "string" && v.length >= 1 && v.length <= max && /\S/.test(v);
export const HANDLE = /^[a-z0-9][a-z0-9.:_-]*$/;
export const isHandle = (v: unknown) => typeof v === "string" && v.length >= 1 && v.length <= 255 && HANDLE.test(v);
export const isReference = (v: unknown) =>
  (typeof v === "number" && Number.isSafeInteger(v) && v > 0) ||
  (typeof v === "string" && (/^[1-9][0-9]{0,15}$/.test(v) || (v.startsWith("handle:") && isHandle(v.slice(7)))));
export const isSite = (v: unknown) => v === undefined || v === UNKNOWN || v === "eu-shop";

export const orUnknown = <T>(a: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 8, arbitrary: a as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: fc.constant<unknown>(UNKNOWN) });
export const opt = <T>(a: fc.Arbitrary<T>) => fc.option(orUnknown(a), { nil: undefined, freq: 2 });
export const validSite = fc.option(fc.constantFrom("eu-shop", UNKNOWN), { nil: undefined, freq: 3 });

/** Values of every wrong type and edge: non-finite, negative, fractional and huge numbers, empty and blank text, lists, objects. */
export const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, NaN, Infinity, -Infinity, -0, 0, 1, -1, 0.5, 1.5, 2 ** 53, 1e308, true, false, "", " ", "1", "-1", "true"),
  fc.constantFrom<unknown>("handle:", "handle:Pro", "handle:fz1", "EUR", "text", [], {}, [1], [""], ["a", "a"], { a: 1 }),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 12 }),
  fc.constant(UNKNOWN),
);

/** A valid input, or one with one to three keys set to a bad value, removed, or added (`extraKeys`: names no kind declares). */
export function mutated(valid: fc.Arbitrary<Props>, names: readonly string[], bad: fc.Arbitrary<unknown>, extraKeys: readonly string[]) {
  const mutation = fc.oneof(
    { weight: 4, arbitrary: fc.record({ key: fc.constantFrom(...names), value: bad }) },
    { weight: 1, arbitrary: fc.record({ key: fc.constantFrom(...names), value: fc.constant<unknown>(undefined) }) },
    { weight: 1, arbitrary: fc.record({ key: fc.constantFrom(...extraKeys, "__proto__", "constructor"), value: junk }) },
  );
  return fc.oneof(
    { weight: 2, arbitrary: valid },
    {
      weight: 3,
      arbitrary: fc.tuple(valid, fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([base, ms]) => {
        const entries = new Map(Object.entries(base));
        for (const m of ms) {
          if (m.value === undefined) entries.delete(m.key);
          else entries.set(m.key, m.value);
        }
        return Object.fromEntries(entries);
      }),
    },
  );
}

/** The unknown keys given, each a failure on itself. */
export function judgeKeys(j: Judge, news: Props, names: readonly string[]) {
  for (const k of Object.keys(news)) if (!names.includes(k)) j.mustFail.add(k);
}

/** A reason that says what would be accepted, not only that something is wrong. */
const SAYS_WHAT_IS_ACCEPTED =
  /entries|entry|must|expected|one of|accepted|is required|required with|needs?|choose|declare|set adopt|at least|pass its id|unarchive|name a live|are for its other currencies|starts at/i;

export const text = (v: unknown) =>
  JSON.stringify(v, (_k, x) => (typeof x === "number" && (!Number.isFinite(x) || Object.is(x, -0)) ? String(x) : x));

/** What is wrong with check's answer for `news`, as the judge sees it; [] when nothing. */
export async function violations(kind: keyof typeof kinds, provider: object, names: readonly string[], olds: Props, news: Props, j: Judge) {
  const found: string[] = [];
  let answer: { inputs?: unknown; failures?: Failure[] };
  try {
    answer = await kinds[kind].check(provider, olds, news);
  } catch (err) {
    return [`check threw: ${err instanceof Error ? err.message : String(err)}`];
  }
  if (!answer || typeof answer.inputs !== "object" || !Array.isArray(answer.failures))
    return [`check did not answer { inputs, failures }: ${text(answer)}`];
  for (const f of answer.failures) {
    // The engine looks a failure's property up as a top-level input: a nested one is reported on its top-level input.
    if (!names.includes(f.property) && !Object.hasOwn(news, f.property)) found.push(`failure names no top-level input: ${text(f)}`);
    if (typeof f.reason !== "string" || !SAYS_WHAT_IS_ACCEPTED.test(f.reason))
      found.push(`reason does not say what is accepted: ${text(f)}`);
  }
  if (j.valid && answer.failures.length > 0) found.push(`a valid input got failures: ${text(answer.failures)}`);
  for (const name of j.mustFail)
    if (!unnested(answer.failures).some((f) => f.property === name || f.property.startsWith(`${name}.`)))
      found.push(`no failure on ${name}; got ${text(answer.failures)}`);
  return found;
}

/**
 * Whether a reference is a known `handle:` that none of `handles` (the site's objects of its kind) has: check fails on
 * it at preview once the site is known (issue 42).
 */
export const namesNothing = (ref: unknown, handles: readonly string[]): boolean =>
  typeof ref === "string" && ref !== UNKNOWN && ref.startsWith("handle:") && !handles.includes(ref.slice("handle:".length));

/** An update's earlier inputs: the same but for `changes`, the UNKNOWN ones left out (recorded inputs are always known). */
export const earlier = (news: Props, changes: Props) => ({
  ...Object.fromEntries(Object.entries(news).filter(([, v]) => v !== UNKNOWN)),
  ...changes,
});

export interface FuzzRun {
  kind: keyof typeof kinds;
  names: readonly string[];
  inputs: fc.Arbitrary<Props>;
  /** The judge of `news` on a first deploy (`update` false) or an update from `olds`. */
  judge: (news: Props, update: boolean) => Judge;
  /** An update's earlier inputs. */
  olds: (news: Props) => Props;
  examples: readonly Props[];
  runs: number;
  seed: number;
  seedName: string;
}

/**
 * Runs the property: every input on a first deploy and as an update, judged; then asserts neither side was vacuous
 * (inputs known valid and inputs known invalid both drawn) and that the simulator saw reads only.
 */
export async function fuzzCheck(sim: Simulator, provider: object, run: FuzzRun) {
  const before = sim.requests.length;
  const seen = { valid: 0, invalid: 0 };
  try {
    await fc.assert(
      fc.asyncProperty(run.inputs, fc.boolean(), async (news, update) => {
        const j = run.judge(news, update);
        if (j.valid) seen.valid++;
        if (j.mustFail.size > 0) seen.invalid++;
        expect(await violations(run.kind, provider, run.names, update ? run.olds(news) : {}, news, j)).toEqual([]);
      }),
      {
        numRuns: run.runs,
        seed: run.seed,
        examples: run.examples.flatMap((e) => [[e, false] as [Props, boolean], [e, true] as [Props, boolean]]),
      },
    );
  } catch (err) {
    console.error(`${run.kind} check fuzz: failed with ${run.seedName}=${run.seed}`);
    throw err;
  }
  expect(seen.valid).toBeGreaterThan(run.runs / 10);
  expect(seen.invalid).toBeGreaterThan(run.runs / 10);
  const sent = sim.requests.slice(before).filter((r) => r.method !== "GET");
  expect(sent, "check sent something other than reads").toEqual([]);
}

/**
 * A simulator for the file's tests, seeded by `seed`, and a provider configured for it, as the default site and as
 * "eu-shop" (the one named site the oracles accept): started before the tests, closed after them.
 */
export function fuzzSite(key: string, seed: (sim: Simulator) => void): { readonly sim: Simulator; readonly provider: object } {
  let sim: Simulator | undefined;
  const provider = {};
  beforeAll(async () => {
    sim = await startSimulator({ apiKey: key });
    seed(sim);
    const config: Record<string, string> = {
      "billing:baseUrl": sim.url,
      "billing:apiKey": key,
      "billing:sites": JSON.stringify({ "eu-shop": { baseUrl: sim.url, apiKey: key } }),
    };
    configure(provider, { config: { get: (k: string) => config[k] } });
  });
  afterAll(async () => sim?.close());
  return {
    get sim() {
      if (!sim) throw new Error("the fuzz site is started in beforeAll");
      return sim;
    },
    provider,
  };
}

/** One kind's fuzz: its site, and the property run over it. */
export function describeFuzz(type: string, key: string, seed: (sim: Simulator) => void, run: FuzzRun) {
  describe(`${type} check() under fuzz (${run.seedName}=${run.seed})`, () => {
    const site = fuzzSite(key, seed);
    // A hang guard, not a speed claim.
    it(`${run.runs} inputs, first deploys and updates; reads only`, () => fuzzCheck(site.sim, site.provider, run), 60_000);
  });
}

// ---------------------------------------------------------------------------
// Currency prices (issue 41): the generators and the oracle of the mirror rule
// ---------------------------------------------------------------------------

/** The fuzz sites' currencies: USD primary, these two besides (`sim.configureSite`). */
export const SITE_CURRENCIES = ["EUR", "GBP"] as const;
export const PRIMARY_CURRENCY = "USD";

/** Codes that are wrong in form, or well-formed but not the site's (the primary one among them). */
const badCodes = fc.constantFrom("eur", "Eur", "EURO", "E", "", "€", "12A", "USD", "JPY", "CHF");

const currencySubset = fc.subarray([...SITE_CURRENCIES], { minLength: 0 });
const byCodes = <T>(codes: readonly string[], value: fc.Arbitrary<T>) =>
  fc.tuple(...codes.map(() => value)).map((vs) => Object.fromEntries(codes.map((c, i) => [c, vs[i]])));

/** An amount of a product price point: 0 or more, at most 2 decimals. */
const amount = fc.oneof(
  fc.constantFrom(0, 9, 9.5, 19.99),
  fc.integer({ min: 0, max: 10 ** 6 }).map((n) => n / 100),
);
/** A component's unit price: a number or decimal text, at most 8 decimals. */
const unitPrice = fc.oneof(
  fc.constantFrom<unknown>(0, 1, 2.5, "0.5", "0.00000065"),
  fc.integer({ min: 0, max: 10 ** 8 }).map((n) => n / 10 ** 4),
);

export type Roles = { trial: boolean; initial: boolean };
/** The roles a product price point's pricing has, as the service names them; undefined while one of their fields is unknown. */
export function rolesOf(p: Props): Roles | undefined {
  const v = (k: string) => own(p, k);
  if ([v("trialPriceInCents"), v("trialInterval"), v("initialChargeInCents")].includes(UNKNOWN)) return undefined;
  return {
    trial: v("trialPriceInCents") !== undefined || v("trialInterval") !== undefined,
    initial: v("initialChargeInCents") !== undefined,
  };
}

/** Currency prices that mirror `roles` in some of the site's currencies. */
export const pricePointCurrencies = (roles: Roles) =>
  currencySubset.chain((codes) =>
    byCodes(
      codes,
      fc
        .record({
          baseline: amount,
          trial: roles.trial ? amount : fc.constant(undefined),
          initial: roles.initial ? amount : fc.constant(undefined),
        })
        .map(compact),
    ),
  );
export const componentCurrencies = (tiers: number) =>
  currencySubset.chain((codes) => byCodes(codes, fc.array(unitPrice, { minLength: tiers, maxLength: tiers })));
export const couponCurrencies = currencySubset.chain((codes) => byCodes(codes, fc.nat({ max: 10 ** 6 })));

/**
 * A valid declaration's currency prices broken one way: a bad code or one the site lacks, a role left out or not the
 * pricing's, an amount of the wrong kind, a tier too many or too few, the exchange rate kept on, the engine's
 * UNKNOWN inside (valid: judged later).
 */
export function breakCurrencies(owner: "product price point" | "component price point" | "coupon", v: Props): fc.Arbitrary<Props> {
  const cp = (own(v, "currencyPrices") ?? {}) as Props;
  const one = (Object.values(cp)[0] ?? (owner === "coupon" ? 9 : owner === "component price point" ? [1] : { baseline: 9 })) as unknown;
  const set = (currencyPrices: unknown) => ({ ...v, currencyPrices });
  const withValue = (x: unknown) => set({ ...cp, EUR: x });
  const badAmounts =
    owner === "coupon"
      ? fc.constantFrom<unknown>(-1, 9.5, 0.01, NaN, Infinity, "9", null, 2 ** 53, {})
      : owner === "component price point"
        ? fc.constantFrom<unknown>([], [-1], ["0.000000001"], [NaN], ["1,5"], [null], 1, { a: 1 }, [1, 1, 1, 1, 1, 1, 1, 1, 1])
        : fc.constantFrom<unknown>(
            { baseline: -1 },
            { baseline: 9.999 },
            { baseline: "9" },
            { baseline: Infinity },
            {},
            { trial: 1 },
            { baseline: 9, setup: 1 },
            { baseline: 9, trial: 1, initial: 1 },
            9,
            [9],
          );
  return fc
    .oneof(
      badCodes.map((code) => set({ ...cp, [code]: one })),
      badAmounts.map(withValue),
      fc.constantFrom<unknown>(null, [], "EUR", 9, [{ EUR: 9 }]).map(set),
      fc
        .constant(v)
        .map((x) => ({ ...x, currencyPrices: { ...cp, GBP: one }, useSiteExchangeRate: owner === "coupon" ? undefined : true })),
      fc.constant(withValue(owner === "coupon" ? UNKNOWN : owner === "component price point" ? [UNKNOWN] : { baseline: UNKNOWN })),
    )
    .map(compact);
}

/** Whether a value is, or holds, UNKNOWN. */
const holdsUnknown = (v: unknown): boolean =>
  v === UNKNOWN || (typeof v === "object" && v !== null && Object.values(v as Record<string, unknown>).some(holdsUnknown));

const isAmount = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v >= 0 && Number(v.toFixed(2)) === v;
const isWhole = (v: unknown) => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const isUnitPrice = (v: unknown) =>
  typeof v === "number" ? Number.isFinite(v) && v >= 0 && Number(v.toFixed(8)) === v : typeof v === "string" && /^\d+(\.\d{1,8})?$/.test(v);

export type CurrencyOwner =
  | { kind: "product price point"; roles: Roles | undefined; useSiteExchangeRate: unknown }
  | { kind: "component price point"; tiers: number | undefined; useSiteExchangeRate: unknown }
  | { kind: "coupon"; percentage: unknown };

/**
 * The currency prices' oracle. Their shape (codes, amounts, the role keys, a list per component currency) fails
 * always; the rules read at preview (the mirror of the primary pricing, useSiteExchangeRate false, the site's
 * currencies, no prices for a percentage coupon) are checked once the rest is valid (preview reads the site then),
 * so they are added only when `j` has nothing else: a declaration fixed field by field meets them next.
 */
export function judgeCurrencies(j: Judge, owner: CurrencyOwner, declared: unknown, site: unknown) {
  const P = "currencyPrices";
  // The owner's rules wait while its exchange-rate choice is unknown; the site's currencies while the site is.
  // A price point's whole owner waits for its levels too (roles, tiers): useSiteExchangeRate is then judged by up's check.
  const ownerKnown =
    owner.kind === "coupon"
      ? owner.percentage !== UNKNOWN
      : owner.useSiteExchangeRate !== UNKNOWN && (owner.kind === "product price point" ? owner.roles : owner.tiers) !== undefined;
  if (declared === undefined || declared === UNKNOWN) return;
  if (declared === null) return j.field(P, "either");
  if (typeof declared !== "object" || Array.isArray(declared)) return j.mustFail.add(P);
  const entries = Object.entries(declared as Props);
  const later: string[] = [];
  for (const [code, x] of entries) {
    const at = `${P}.${code}`;
    if (!/^[A-Z]{3}$/.test(code)) j.mustFail.add(P);
    else if (site !== UNKNOWN && !(SITE_CURRENCIES as readonly string[]).includes(code)) later.push(at);
    if (x === UNKNOWN) continue;
    if (owner.kind === "coupon") {
      if (!isWhole(x)) j.mustFail.add(at);
    } else if (owner.kind === "component price point") {
      if (!Array.isArray(x)) j.mustFail.add(at);
      else {
        if (x.some((p) => p !== UNKNOWN && !isUnitPrice(p))) j.mustFail.add(at);
        if (ownerKnown && owner.tiers !== undefined && x.length !== owner.tiers) later.push(at);
      }
    } else if (typeof x !== "object" || x === null || Array.isArray(x)) j.mustFail.add(at);
    else {
      const a = x as Props;
      for (const k of Object.keys(a)) if (!["baseline", "trial", "initial"].includes(k)) j.mustFail.add(at);
      if (own(a, "baseline") === undefined) j.mustFail.add(`${at}.baseline`);
      for (const role of ["baseline", "trial", "initial"]) {
        const r = own(a, role);
        if (r !== undefined && r !== UNKNOWN && !isAmount(r)) j.mustFail.add(`${at}.${role}`);
      }
      const roles = owner.roles;
      if (ownerKnown && roles)
        for (const role of ["trial", "initial"] as const) if (roles[role] !== (own(a, role) !== undefined)) later.push(`${at}.${role}`);
    }
  }
  if (entries.length > 0 && ownerKnown) {
    if (owner.kind === "coupon") {
      if (owner.percentage !== undefined) later.push(P);
    } else if (owner.useSiteExchangeRate !== false) later.push("useSiteExchangeRate");
  }
  // A declaration holding UNKNOWN anywhere is judged at `up`; so is everything else while another field fails.
  if (holdsUnknown(declared) || !j.valid) return;
  for (const name of later) j.mustFail.add(name);
}

export const CURRENCY_EXAMPLE_CODES = [...SITE_CURRENCIES, PRIMARY_CURRENCY];
