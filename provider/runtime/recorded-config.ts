import { BillingApiError } from "../../sdk/errors";

/**
 * The dynamic providers' configuration in `refresh` and `destroy`. The engine configures the default provider of
 * `pulumi-nodejs` with the whole stack configuration, but only `up`, `preview` and the commands given `--run-program`
 * register it from the stack's current configuration; plain `refresh`, `up --refresh` and `destroy` configure it with
 * the inputs its state recorded at the last `up` (pkg/v3 resource/deploy/target.go GetPackageConfig, providers
 * registry Same). The host is started with no other copy of the `billing:` keys (its PULUMI_CONFIG holds only
 * `pulumi-nodejs:` keys), so a key set since then cannot be read there: a refusal says what to run instead.
 * The provider plugin reads the current configuration itself (plugin/config.ts) and gets no such advice.
 */

/**
 * Whether a configure request comes from the dynamic providers' host: it hands the `Config` of
 * `@pulumi/pulumi/cmd/dynamic-provider/config`, which keeps the raw configuration it was given; the plugin and the
 * program hand a bare getter.
 */
export function fromDynamicHost(config: object): boolean {
  return "rawConfig" in config;
}

const ADVICE =
  "If the billing key was changed since the last `pulumi up` (`pulumi config set --secret billing:apiKey`, " +
  "billing:accessToken or billing:sites), note that `pulumi refresh`, `pulumi up --refresh` and `pulumi destroy` " +
  "send the one recorded then: run them with --run-program (or set PULUMI_RUN_PROGRAM=true), or run `pulumi up` first, " +
  "to use the stack's current configuration";

/** The advice {@link withRecordedKeyAdvice} gave `err`, for a rewording of the refusal to keep (reported.ts); else "". */
export function recordedKeyAdvice(err: Error): string {
  return err.message.endsWith(ADVICE) ? ADVICE : "";
}

/** A refusal of the credentials (401) with {@link ADVICE}; any other error as it is. */
export function withRecordedKeyAdvice(err: unknown): unknown {
  if (!(err instanceof BillingApiError) || err.status !== 401) return err;
  return reworded(err, `${err.message}. ${ADVICE}`);
}

/** The same refusal (status, method, path: what code reads) in other words. */
export function reworded(err: BillingApiError, message: string): BillingApiError {
  return new BillingApiError({
    status: err.status,
    errors: err.errors,
    method: err.method,
    path: err.path,
    mayHaveApplied: err.mayHaveApplied,
    message,
  });
}
