import { BillingApiError } from "../../sdk/errors";
import { credentialSource, siteLabel } from "./config";
import type { ProvidedKind } from "./provide";
import { recordedKeyAdvice, reworded } from "./recorded-config";

/**
 * How a kind's errors reach the user: once, in one line, in the user's terms.
 *
 * The Node dynamic-provider host prints every error thrown from check, diff, read and delete to its stderr as
 * `${err}: ${err.stack}` before handing it to the engine, which prints the message on the resource: a refusal the
 * user is to act on (a family rename) showed twice, once as a JavaScript stack trace under the stack. The host's
 * echo of such an error is dropped; a defect (a TypeError and its kin) keeps it, as its stack is what a report needs.
 *
 * A 401 is the service refusing the credential: said as which config key or environment variable it came from,
 * and how to set it, rather than as the request that failed.
 */
export function reported(kind: ProvidedKind): ProvidedKind {
  /** `op` with its errors told: `echoed` when the host prints them itself; `site` the resource's, from its props. */
  const told =
    <A extends unknown[], R>(op: (provider: object, ...args: A) => Promise<R>, echoed: boolean, site: (...args: A) => unknown) =>
    async (provider: object, ...args: A): Promise<R> => {
      try {
        return await op(provider, ...args);
      } catch (err) {
        const named = site(...args);
        const error = refusedCredential(err, provider, typeof named === "string" ? named : undefined) ?? err;
        if (echoed) quietEcho(error);
        throw error;
      }
    };
  const siteOf = (props: { readonly [key: string]: unknown } | undefined) => props?.site;
  return {
    check: told(kind.check, true, (_olds, news) => siteOf(news)),
    diff: told(kind.diff, true, (_id, olds, news) => siteOf(news) ?? siteOf(olds)),
    create: told(kind.create, false, (news) => siteOf(news)),
    update: told(kind.update, false, (_id, _olds, news) => siteOf(news)),
    read: told(kind.read, true, (_id, props) => siteOf(props)),
    del: told(kind.del, true, (_id, props) => siteOf(props)),
    import: told(kind.import, false, () => undefined),
  };
}

/** A 401 as the credential refused, named by where it was set; undefined for any other error. */
export function refusedCredential(err: unknown, provider: object, site: string | undefined): BillingApiError | undefined {
  if (!(err instanceof BillingApiError) || err.status !== 401) return undefined;
  const source = credentialSource(provider, site);
  const what = source.name.endsWith("accessToken") || source.name.endsWith("ACCESS_TOKEN") ? "access token" : "API key";
  // In a refresh or destroy of the dynamic providers the key may be the one recorded at the last up: that advice stays.
  const advice = recordedKeyAdvice(err);
  // Still the client's error (status, method, path) for code that reads it, in the user's words.
  return reworded(
    err,
    `the billing site ${siteLabel(provider, site)} refused the ${what} from ${source.name} ` +
      `(401 Unauthorized to ${err.method} ${err.path}): ${source.fix} with the site's ${what}${advice ? `. ${advice}` : ""}`,
  );
}

/** Native errors that mean a defect in this code rather than something for the user to fix. */
const DEFECTS = [TypeError, ReferenceError, RangeError, SyntaxError, EvalError, URIError];

const ECHOES = Symbol.for("pulumi-subscription-billing/host-echo");

/** The host's lines to drop, and the filter that drops them (shared by every copy of the package in the process). */
interface Echoes {
  readonly lines: Set<string>;
  filter?: (...args: unknown[]) => void;
}

/**
 * Drops the host's `${err}: ${err.stack}` line for `err`: matched exactly, once, so whatever else is printed
 * (notices, other errors) passes. The filter wraps console.error as it is now, again if something replaced it.
 */
function quietEcho(err: unknown): void {
  if (!(err instanceof Error) || DEFECTS.some((d) => err instanceof d)) return;
  const g = globalThis as { [ECHOES]?: Echoes };
  g[ECHOES] ??= { lines: new Set() };
  const echoes = g[ECHOES];
  if (console.error !== echoes.filter) {
    const print = console.error;
    const filter = (...args: unknown[]) => {
      if (args.length === 1 && typeof args[0] === "string" && echoes.lines.delete(args[0])) return;
      print.apply(console, args);
    };
    echoes.filter = filter;
    console.error = filter;
  }
  echoes.lines.add(`${err}: ${err.stack}`);
}
