import * as pulumi from "@pulumi/pulumi";
import { CREDENTIAL_KEYS, plainCredentialWarning } from "./runtime/plain-credentials";

/** The runs already warned about: one warning per key per preview or up, not one per resource. */
const warned = new WeakSet<object>();
/** The run without a stack resource (a program under mocks): the process stands for it. */
const processRun = {};

/**
 * Warns, once per run of the program, for each credential key of the stack config set without
 * `--secret`. The dynamic providers cannot tell (their host unwraps secrets before `configure`), so
 * the program does, when it first declares a billing resource or asks for a migration preview.
 *
 * `isConfigSecret` is internal to @pulumi/pulumi (3.259.0 to 3.270.0 have it, untyped): where it is
 * missing, nothing is said rather than a guess.
 */
export function warnPlainCredentials(): void {
  const run: object = pulumi.runtime.getStackResource() ?? processRun;
  if (warned.has(run)) return;
  warned.add(run);
  const isSecret = (pulumi.runtime as { isConfigSecret?: (key: string) => boolean }).isConfigSecret;
  if (typeof isSecret !== "function") return;
  for (const key of CREDENTIAL_KEYS) {
    if (pulumi.runtime.getConfig(key) === undefined) continue;
    // The language host lists secret keys as `billing:apiKey`; an older one as `billing:config:apiKey`.
    if (isSecret(key) || isSecret(key.replace(":", ":config:"))) continue;
    pulumi.log.warn(plainCredentialWarning(key, pulumi.getStack()));
  }
}
