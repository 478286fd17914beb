import { prng } from "./prng";

/**
 * Injected failures. A fault stands "in front of" the site like a flaky proxy:
 * by default it answers before the site sees the request (nothing changes);
 * with `applyAfterHandling` the site processes the request and only the answer
 * is lost or replaced, which is the ambiguous failure clients must survive.
 * `processing` is the site itself being slow: the request is accepted at once
 * (its uniqueness_token taken) and takes effect only after `ms`, so a client
 * whose timeout is shorter gives up on a request that still lands.
 */

export interface FaultMatch {
  /** Case-insensitive HTTP method. */
  method?: string;
  /** Exact path (without query) or a pattern tested against it. */
  path?: string | RegExp;
}

interface FaultCommon {
  /** Apply to the next N matching requests only; unlimited when omitted. */
  times?: number;
  /** Probability 0..1 per matching request, drawn from the seeded PRNG (`faultSeed`). */
  rate?: number;
  match?: FaultMatch;
  /** Process the request first, then replace (status), drop (reset) or hold back (delay) the answer. Not for `processing`. */
  applyAfterHandling?: boolean;
}

export type FaultSpec =
  | (FaultCommon & {
      kind: "status";
      /** 429 answers the service's text/plain usage-violation body; 500 a JSON error list; 502/503/504 a gateway's HTML page. */
      status: 429 | 500 | 502 | 503 | 504;
      /** Seconds for a `Retry-After` header (429 and 503 only, as RFC 6585 and RFC 9110 define it); none when omitted. */
      retryAfter?: number;
    })
  | (FaultCommon & { kind: "reset" })
  | (FaultCommon & { kind: "delay"; ms: number })
  | (FaultCommon & {
      kind: "processing";
      /** How long the accepted request runs before its effect is applied and it is answered. */
      ms: number;
    });

interface ActiveFault {
  spec: FaultSpec;
  remaining: number;
}

export class FaultTable {
  readonly #seed: number;
  #random: () => number;
  #faults: ActiveFault[] = [];

  constructor(seed: number) {
    this.#seed = seed;
    this.#random = prng(seed);
  }

  add(spec: FaultSpec): void {
    validate(spec);
    this.#faults.push({ spec, remaining: spec.times ?? Infinity });
  }

  /** Also restarts the PRNG, so a test that clears and re-injects sees the same sequence. */
  clear(): void {
    this.#faults = [];
    this.#random = prng(this.#seed);
  }

  /**
   * The fault for this request, consumed. One fault per request: the first
   * injected one that matches and whose `rate` draw fires, so stacking faults
   * never combines them in surprising ways.
   */
  take(method: string, path: string): FaultSpec | undefined {
    for (let i = 0; i < this.#faults.length; i++) {
      const f = this.#faults[i];
      if (!matches(f.spec.match, method, path)) continue;
      if (f.spec.rate !== undefined && this.#random() >= f.spec.rate) continue;
      if (--f.remaining <= 0) this.#faults.splice(i, 1);
      return f.spec;
    }
    return undefined;
  }
}

function matches(m: FaultMatch | undefined, method: string, path: string): boolean {
  if (!m) return true;
  if (m.method !== undefined && m.method.toUpperCase() !== method.toUpperCase()) return false;
  if (m.path === undefined) return true;
  if (typeof m.path === "string") return m.path === path;
  m.path.lastIndex = 0; // a /g or /y pattern keeps state between tests otherwise
  return m.path.test(path);
}

function validate(spec: FaultSpec): void {
  const bad = (why: string): never => {
    throw new Error(`invalid fault: ${why}`);
  };
  if (spec.times !== undefined && !(Number.isInteger(spec.times) && spec.times > 0)) bad("times must be a positive integer");
  if (spec.rate !== undefined && !(spec.rate >= 0 && spec.rate <= 1)) bad("rate must be between 0 and 1");
  switch (spec.kind) {
    case "status":
      if (![429, 500, 502, 503, 504].includes(spec.status)) bad(`status ${spec.status} is not one of 429, 500, 502, 503, 504`);
      if (spec.retryAfter !== undefined) {
        if (!(Number.isInteger(spec.retryAfter) && spec.retryAfter >= 0)) bad("retryAfter must be a non-negative integer (seconds)");
        if (spec.status !== 429 && spec.status !== 503) bad(`retryAfter goes with 429 or 503, not ${spec.status}`);
      }
      break;
    case "delay":
      if (!(Number.isFinite(spec.ms) && spec.ms >= 0)) bad("ms must be a non-negative number");
      break;
    case "processing":
      if (!(Number.isFinite(spec.ms) && spec.ms >= 0)) bad("ms must be a non-negative number");
      // The effect is always applied, late: there is no "before" for it to choose.
      if (spec.applyAfterHandling !== undefined) bad("processing does not take applyAfterHandling");
      break;
    case "reset":
      break;
    default:
      bad(`unknown kind ${(spec as { kind: unknown }).kind}`);
  }
}
