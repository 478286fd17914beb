import { z } from "zod";
import type { JsonSchema } from "../provider/kinds/inputs";
import type { Kind } from "../provider/kinds/kind";

/**
 * The Pulumi package schema of the `billing` provider plugin, generated from the kind
 * declarations: the same zod schemas that check inputs, type the TypeScript args and write
 * the README reference give the plugin's resource types, their docs, and (through codegen)
 * the Node.js, Python and Go SDKs. Nothing here is written by hand per kind.
 */

/** A property as the package schema spells it (https://www.pulumi.com/docs/iac/extending-pulumi/schema/). */
export interface SchemaProperty {
  readonly type?: "string" | "number" | "integer" | "boolean" | "array" | "object";
  readonly $ref?: string;
  readonly items?: SchemaProperty;
  readonly additionalProperties?: SchemaProperty;
  readonly oneOf?: readonly SchemaProperty[];
  readonly description?: string;
  readonly default?: unknown;
  readonly secret?: boolean;
  readonly willReplaceOnChanges?: boolean;
}

export interface ObjectTypeSpec {
  readonly type: "object";
  readonly description?: string;
  readonly properties: Readonly<Record<string, SchemaProperty>>;
  readonly required?: readonly string[];
}

export interface ResourceSpec {
  readonly description: string;
  readonly inputProperties: Readonly<Record<string, SchemaProperty>>;
  readonly requiredInputs: readonly string[];
  readonly properties: Readonly<Record<string, SchemaProperty>>;
  readonly required: readonly string[];
}

export const PACKAGE = "billing";
export const tokenOf = (type: string): string => `${PACKAGE}:index:${type}`;
const ANY: SchemaProperty = { $ref: "pulumi.json#/Any" };

/** Provider configuration: the same keys as the dynamic providers' stack config (`billing:*`). */
const CONFIG: Readonly<Record<string, SchemaProperty>> = {
  subdomain: { type: "string", description: "The site's subdomain (https://{subdomain}.chargify.com); or BILLING_SUBDOMAIN." },
  environment: { type: "string", description: '"us" (default) or "eu" (https://{subdomain}.ebilling.maxio.com); or BILLING_ENVIRONMENT.' },
  connector: { type: "string", description: "The gateway connector (https://{connector}.api.maxio.com/api/v1/billing), with accessToken." },
  baseUrl: { type: "string", description: "A base URL instead (a simulator, a proxy); or BILLING_BASE_URL." },
  apiKey: { type: "string", secret: true, description: "The site's API key (Basic auth); or BILLING_API_KEY. Never stored in state." },
  accessToken: { type: "string", secret: true, description: "A gateway Bearer token; or BILLING_ACCESS_TOKEN. Never stored in state." },
  sites: {
    type: "string",
    secret: true,
    description:
      'Several sites: a JSON object keyed by site name, e.g. {"eu-shop":{"subdomain":"acme","environment":"eu","apiKey":"…"}}; resources name one with `site`.',
  },
  retryBudgetSeconds: { type: "number", description: "How long 429 answers are retried (default 300)." },
  migrationSettleSeconds: { type: "number", description: "How long a migration still being processed is awaited (default 120)." },
  timeoutMs: { type: "number", description: "How long one attempt waits for an answer." },
};

/** Builds the package schema's types from JSON Schema fragments, naming nested objects as types. */
class TypeBuilder {
  readonly types: Record<string, ObjectTypeSpec> = {};

  property(s: JsonSchema, nameHint: string): SchemaProperty {
    const description = typeof s.description === "string" ? s.description : undefined;
    const base = this.#shape(s, nameHint);
    return {
      ...base,
      ...(description ? { description } : {}),
      ...(s.default !== undefined && typeof s.default !== "object" ? { default: s.default } : {}),
    };
  }

  #shape(s: JsonSchema, nameHint: string): SchemaProperty {
    const types = Array.isArray(s.type) ? (s.type as string[]).filter((t) => t !== "null") : s.type ? [s.type as string] : [];
    if (Array.isArray(s.anyOf)) {
      const branches = (s.anyOf as JsonSchema[]).filter((b) => b.type !== "null");
      if (branches.length === 1) return this.#shape(branches[0], nameHint);
      // Each object branch is a type of its own: under one name, each would overwrite the one before.
      return { oneOf: branches.map((b, i) => this.#shape(b, `${nameHint}Option${i + 1}`)) };
    }
    if (types.length > 1) return { oneOf: types.map((t) => this.#shape({ ...s, type: t }, nameHint)) };
    const t = types[0];
    if (t === "string" || t === "boolean" || t === "integer" || t === "number") return { type: t };
    if (t === "array") return { type: "array", items: s.items ? this.#shape(s.items as JsonSchema, `${nameHint}Item`) : ANY };
    if (t === "object" && s.properties) {
      const required = (s.required as string[] | undefined) ?? [];
      const properties = Object.fromEntries(
        Object.entries(s.properties as Record<string, JsonSchema>).map(([k, v]) => [k, this.property(v, `${nameHint}${upper(k)}`)]),
      );
      this.types[tokenOf(nameHint)] = { type: "object", properties, ...(required.length ? { required } : {}) };
      return { $ref: `#/types/${tokenOf(nameHint)}` };
    }
    if (t === "object") return { type: "object", additionalProperties: ANY };
    return ANY;
  }
}

const nullable = (s: JsonSchema | undefined): boolean =>
  !!s &&
  ((Array.isArray(s.type) && (s.type as string[]).includes("null")) ||
    (Array.isArray(s.anyOf) && (s.anyOf as JsonSchema[]).some((b) => b.type === "null")));

const upper = (k: string) => k.charAt(0).toUpperCase() + k.slice(1);

/** The project's repository: its GitHub releases carry the plugin. */
export const REPOSITORY = "https://github.com/pulumi-subscription-billing/pulumi-subscription-billing";
/** The schema's pluginDownloadURL: the release of the plugin's version (the engine replaces `${VERSION}`). */
export const PLUGIN_DOWNLOAD_URL = `${REPOSITORY}/releases/download/v\${VERSION}`;

/** The package schema for these kinds, at this version. Deterministic: the same kinds give the same text. */
export function packageSchema(kinds: readonly Kind[], version: string): Record<string, unknown> {
  const b = new TypeBuilder();
  const resources: Record<string, ResourceSpec> = {};
  for (const k of kinds) {
    const inputs = z.toJSONSchema(k.inputs, { io: "input", unrepresentable: "any" }) as JsonSchema;
    const outputs = z.toJSONSchema(k.outputs, { io: "output", unrepresentable: "any" }) as JsonSchema;
    const inputProps = (inputs.properties ?? {}) as Record<string, JsonSchema>;
    const outputProps = (outputs.properties ?? {}) as Record<string, JsonSchema>;
    const replaces = (name: string) => k.replaceOn === "all" || (k.replaceOn as readonly string[]).includes(name);
    const inputProperties = Object.fromEntries(
      Object.entries(inputProps).map(([name, s]) => [
        name,
        { ...b.property(s, `${k.type}${upper(name)}`), ...(replaces(name) ? { willReplaceOnChanges: true } : {}) },
      ]),
    );
    // Outputs are the declared outputs; an input of the same name is the output's type (what the service confirmed).
    const properties = Object.fromEntries(
      Object.entries(outputProps).map(([name, s]) => [name, b.property(s, `${k.type}${upper(name)}Output`)]),
    );
    resources[tokenOf(k.type)] = {
      description: `${k.summary}\n\n\`pulumi refresh\`: ${k.refresh ? "reads the service, so drift shows" : "keeps the recorded state"}. Delete: ${k.onDelete}.`,
      inputProperties,
      requiredInputs: ((inputs.required as string[] | undefined) ?? []).slice(),
      properties,
      // A value that can be null is not "required": the SDKs would type it as never null.
      required: ((outputs.required as string[] | undefined) ?? []).filter((name) => !nullable(outputProps[name])),
    };
  }
  return {
    name: PACKAGE,
    displayName: "Subscription billing",
    version,
    description: "Webhook settings, webhook endpoints, subscription migrations and webhook replay of a subscription-billing service.",
    keywords: ["pulumi", "billing", "webhooks", "subscriptions", "category/utility", "kind/native"],
    license: "Apache-2.0",
    repository: REPOSITORY,
    // Where the engine and `pulumi plugin install` fetch the plugin: the GitHub release's assets, named
    // pulumi-resource-billing-v<version>-<os>-<arch>.tar.gz (release.yml attaches them). A direct https URL rather
    // than github://: the download needs no GitHub API call (anonymous calls are limited to 60 an hour), and a
    // mirror is one PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES entry away. The engine fills in ${VERSION}.
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    publisher: "pulumi-subscription-billing",
    config: { variables: CONFIG },
    provider: {
      description: "The billing provider: which site(s) and the credentials, from provider configuration (secret) or the environment.",
      inputProperties: CONFIG,
    },
    types: b.types,
    resources,
    // respectSchemaVersion: SDKs generated from this schema (by sdk-gen, or by anyone from `pulumi package
    // get-schema`) carry its version and ask the engine for that plugin version, not a publishing pipeline's placeholder.
    // nodejs packageName is what the code `pulumi import` prints imports: the generated Node.js SDK ships inside this
    // package as the subpath export `pulumi-subscription-billing/billing`, so that import works after
    // `npm install pulumi-subscription-billing` (a scoped `@…/billing` package is published nowhere).
    language: {
      nodejs: {
        packageName: "pulumi-subscription-billing/billing",
        dependencies: { "@pulumi/pulumi": "^3.139.0" },
        respectSchemaVersion: true,
      },
      python: { packageName: "pulumi_billing", requires: { pulumi: ">=3.139.0,<4.0.0" }, respectSchemaVersion: true },
      go: {
        importBasePath: "github.com/pulumi-subscription-billing/pulumi-subscription-billing/sdk-gen/go/billing",
        generateResourceContainerTypes: false,
        respectSchemaVersion: true,
      },
    },
  };
}
