import { z } from "zod";
import { flag } from "../../sdk/inputs";
import { shellProvider } from "../shell";
import type { WebhookSettingsArgs, WebhookSettingsOutputs } from "./generated/webhook-settings";
import { siteInput } from "./inputs";
import { type ArgsOf, type Context, declareKind, type InputsOf, type KindModule, type OutputsOf, resourceClass } from "./kind";

const kind = declareKind({
  key: "webhookSettings",
  type: "WebhookSettings",
  summary: "Webhook delivery on or off for one site (declarative: create and update issue the PUT).",
  inputs: z.object({
    webhooksEnabled: flag.describe("true turns webhook delivery on for the site, false off."),
    site: siteInput,
    disableOnDelete: flag
      .default(false)
      .describe("Turn webhooks off when this resource is deleted; otherwise delete leaves the site as it is."),
  }),
  outputs: z.object({
    webhooksEnabled: z
      .boolean()
      .describe(
        "The value the service confirmed (after `pulumi import`, until the next up: the value the import id stated). There is no GET for it, so refresh cannot detect drift.",
      ),
    disableOnDelete: z.boolean().describe("Whether delete turns webhooks off."),
    site: z.string().optional().describe("The site, when one was named."),
    appliedAt: z
      .string()
      .nullable()
      .describe(
        "When this stack last applied the PUT (ISO-8601). null after `pulumi import`: the service cannot report the setting, so the next up sends the PUT once to confirm the declared value.",
      ),
  }),
  replaceOn: ["site"],
  refresh: false,
  onDelete: "nothing, unless disableOnDelete (then webhooks off)",
  example: { webhooksEnabled: true },
});

type State = OutputsOf<typeof kind>;

/** `enabled` / `disabled` (the configured site), or `<site>/enabled` for an entry of billing:sites. */
const SETTINGS_ID = /^(?:(.+)\/)?(enabled|disabled)$/;

/** Words a user may write for a state: read as that attempt, never as a site's name. */
const STATE_WORDS = /^(on|off|true|false|yes|no|1|0|enabled?|disabled?)$/i;

/**
 * Why an import id of WebhookSettings is not one: only a slash makes a site (`<site>/enabled`), so a
 * word without one is answered as the state it tries to say ("on" is not a state), not as a site.
 */
export function settingsIdProblem(importId: string): string {
  const why =
    "the service cannot report whether webhooks are on, so the id states the value you expect; the next up sends the PUT once to confirm it";
  const slash = importId.lastIndexOf("/");
  if (slash < 0) {
    const known = STATE_WORDS.test(importId) || importId === "";
    return (
      `WebhookSettings import id "${importId}": ${JSON.stringify(importId)} is not a state: use enabled or disabled ` +
      `(or <site>/enabled for an entry of billing:sites${known ? "" : `, e.g. "${importId}/enabled" if ${JSON.stringify(importId)} is one`}); ${why}`
    );
  }
  const site = importId.slice(0, slash);
  const value = importId.slice(slash + 1);
  if (site === "") {
    return `WebhookSettings import id "${importId}" names no site before the slash: use enabled or disabled for the configured site, or <site>/enabled for an entry of billing:sites; ${why}`;
  }
  return (
    `WebhookSettings import id "${importId}": ${JSON.stringify(value)} is not a state: use "${site}/enabled" or ` +
    `"${site}/disabled" for site "${site}" of billing:sites; ${why}`
  );
}

export const webhookSettings: KindModule<typeof kind, State> = {
  kind,
  /**
   * By site. The service has no GET of the setting (and /site.json does not show it), so the id states the value
   * the operator believes is set, and the state records it as stated, not confirmed (`appliedAt` null): the next
   * up sends the PUT once, which is idempotent, and from then on the value is one this stack applied. What the
   * import does check is the site: a read of /site.json that changes nothing proves it is configured and answers.
   */
  importer: {
    forms: "enabled or disabled, or <site>/enabled for an entry of billing:sites",
    async read(ctx, importId) {
      const m = SETTINGS_ID.exec(importId);
      if (!m) throw new Error(settingsIdProblem(importId));
      const [, site, value] = m;
      await ctx.client(site).readSite();
      const webhooksEnabled = value === "enabled";
      const recorded = { webhooksEnabled, disableOnDelete: false, ...(site !== undefined ? { site } : {}), appliedAt: null };
      return { id: ctx.siteLabel(site), state: recorded, inputs: { webhooksEnabled, ...(site !== undefined ? { site } : {}) } };
    },
  },
  operations: {
    // disableOnDelete was recorded only when given by versions before 0.2; omitted is false.
    state: kind.outputs.extend({ disableOnDelete: z.boolean().default(false) }),
    recordedInputs: ({ webhooksEnabled, site, disableOnDelete }) => ({ webhooksEnabled, site, disableOnDelete }),
    // Imported (plugin/import.ts): the value was stated, never confirmed; the next up confirms it.
    unfinished: (s) => s.appliedAt === null,

    async create(ctx, inputs) {
      return { id: ctx.siteLabel(inputs.site), state: await apply(ctx, inputs) };
    },

    async update(ctx, _id, state, inputs) {
      // Only disableOnDelete changed: nothing to send, keep when it was applied.
      if (state.appliedAt !== null && state.webhooksEnabled === inputs.webhooksEnabled && state.site === inputs.site) {
        return { ...state, disableOnDelete: inputs.disableOnDelete };
      }
      return apply(ctx, inputs);
    },

    // No read: the service has no GET of this setting (and /site.json does not show it), so refresh
    // keeps the last applied value (drift is not detectable); the host echoes the state by itself.

    async del(ctx, _id, state) {
      if (state.disableOnDelete) await ctx.client(state.site).setWebhooksEnabled(false);
    },
  },
};

async function apply(ctx: Context, inputs: InputsOf<typeof kind>): Promise<State> {
  const res = await ctx.client(inputs.site).setWebhooksEnabled(inputs.webhooksEnabled);
  return {
    webhooksEnabled: res.webhooksEnabled,
    disableOnDelete: inputs.disableOnDelete,
    ...(inputs.site !== undefined ? { site: inputs.site } : {}),
    appliedAt: new Date().toISOString(),
  };
}

/** The args' TypeScript types, from the declaration; WebhookSettingsArgs gives each its docs (generated: ./generated/webhook-settings.ts). */
export type ArgTypes = ArgsOf<typeof kind>;
export type { WebhookSettingsArgs, WebhookSettingsOutputs };

/** WebhookSettings's operations as a dynamic provider, to call directly (configure it first); its resources store the smaller storedProvider, which loads the same. */
export const webhookSettingsProvider = shellProvider(kind);

/**
 * Webhook delivery on or off for one site (declarative: create and update issue the PUT).
 *
 * @example
 * ```ts
 * import { WebhookSettings } from "pulumi-subscription-billing";
 *
 * const webhookSettings = new WebhookSettings("webhook-settings", {
 *   webhooksEnabled: true,
 * });
 * ```
 */
export class WebhookSettings extends resourceClass<typeof kind, WebhookSettingsArgs, WebhookSettingsOutputs>(kind) {}
