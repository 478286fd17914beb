import { z } from "zod";

/** `PUT /webhooks/settings.json` body. */
export const webhookSettingsRequest = z.object({
  webhooks_enabled: z.boolean(),
});
export type WebhookSettingsRequest = z.infer<typeof webhookSettingsRequest>;

/** `200 {"webhooks_enabled": bool}`. There is no GET of this setting. */
export const webhookSettingsResponse = z.object({
  webhooks_enabled: z.boolean(),
});
export type WebhookSettingsResponse = z.infer<typeof webhookSettingsResponse>;
