/**
 * A resource's registration without the stack traces nobody reads.
 *
 * `@pulumi/pulumi` (3.259) gives each property a registration passes four promises (its value, whether it is known,
 * whether it is secret, its dependencies: `transferProperties`), and each promise a stack trace formatted at once
 * (`debuggablePromise`: `new Error().stack`). Only its leak report reads them, and only under
 * PULUMI_DEBUG_PROMISE_LEAKS. In a program the language host runs through ts-node (the default, JavaScript
 * included) the limit is 100 frames (the TypeScript it vendors raises it) and source-map-support maps every frame.
 * A catalog object passes 20 to 40 properties (its outputs, and the generated SDK's every input), so these traces
 * were 60% of a 1,000-object program's CPU and doubled a no-change preview (issue 43's attribution, figure 8).
 *
 * The limit is 0 for the synchronous part of the registration only. What the engine records of the resource is not
 * touched: `Resource.callsites` raises the limit itself for the resource's source position and stack trace.
 */

/** Whether the traces are read: the SDK's leak report prints them under this variable, so they are kept. */
const leakDebugging = () => Boolean(process.env.PULUMI_DEBUG_PROMISE_LEAKS);

/**
 * The limit before a registration, lowered to 0 until {@link endRegistration} (unchanged under
 * PULUMI_DEBUG_PROMISE_LEAKS). Use as `const limit = beginRegistration(); try { super(…) } catch (e) { throw
 * registrationError(limit, e) } finally { endRegistration(limit) }`.
 */
export function beginRegistration(): number {
  const limit = Error.stackTraceLimit;
  if (!leakDebugging()) Error.stackTraceLimit = 0;
  return limit;
}

/** Puts the limit back. */
export function endRegistration(limit: number): void {
  Error.stackTraceLimit = limit;
}

/**
 * An error the registration threw, with the trace it could not take while the limit was 0: from here, so it shows
 * the resource's constructor and the program's line that made it (a transformation's own frames are not in it).
 */
export function registrationError(limit: number, err: unknown): unknown {
  endRegistration(limit);
  if (err instanceof Error && Error.stackTraceLimit !== 0 && !/\n\s+at /.test(err.stack ?? ""))
    Error.captureStackTrace(err, registrationError);
  return err;
}
