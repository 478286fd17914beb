/**
 * Stack config keys that hold a credential: a site's key or token, and `billing:sites`, which holds
 * every site's. Set without `--secret`, they sit in plain text in the stack's config file.
 */
export const CREDENTIAL_KEYS = ["billing:apiKey", "billing:accessToken", "billing:sites"] as const;

/**
 * The warning for a credential key set without `--secret`: the key, the file and the command that
 * encrypts it; never the value. `stack` names the file when the caller knows it (the program does,
 * the provider plugin is not told).
 */
export function plainCredentialWarning(key: string, stack?: string): string {
  const value = key === "billing:sites" ? "'{…}'" : "<value>";
  return (
    `${key} is stored in plain text in Pulumi.${stack ?? "<stack>"}.yaml: ` +
    `run \`pulumi config set --secret ${key} ${value}\` to store it encrypted`
  );
}
