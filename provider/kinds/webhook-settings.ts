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

export const webhookSettings: KindModule<typeof kind, State> = {
  kind,
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

/** The provider of every WebhookSettings: one instance per type (each instance costs a serialization). */
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
export class WebhookSettings extends resourceClass<typeof kind, WebhookSettingsArgs, WebhookSettingsOutputs>(
  kind,
  webhookSettingsProvider,
) {}
