import { z } from "zod";

/** `PUT /webhooks/settings.json` body. */
export const webhookSettingsRequest = z.object({
  webhooks_enabled: z.boolean(),
});
/** The body {@link webhookSettingsRequest} checks: `{ webhooks_enabled }`. */
export type WebhookSettingsRequest = z.infer<typeof webhookSettingsRequest>;

/** `200 {"webhooks_enabled": bool}`. There is no GET of this setting. */
export const webhookSettingsResponse = z.object({
  webhooks_enabled: z.boolean(),
});
/** The answer {@link webhookSettingsResponse} reads: the setting now in force. */
export type WebhookSettingsResponse = z.infer<typeof webhookSettingsResponse>;
