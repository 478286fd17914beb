import { type CheckFailure, changedKeys, isUnknown, unknownInputs, userInputs } from "./common";
import { clientFor, siteCheck, siteLabel } from "./config";

type Props = Record<string, unknown>;

/** check: types of the three inputs, and usable credentials for the site. */
export async function check(provider: object, _olds: Props, news: Props) {
  const inputs = userInputs(news);
  const { webhooksEnabled, disableOnDelete, site } = inputs;
  const failures: CheckFailure[] = unknownInputs("WebhookSettings", ["webhooksEnabled", "site", "disableOnDelete"], inputs);
  if (!isUnknown(webhooksEnabled) && typeof webhooksEnabled !== "boolean") {
    failures.push({ property: "webhooksEnabled", reason: `must be true or false, got ${JSON.stringify(webhooksEnabled) ?? "nothing"}` });
  }
  if (disableOnDelete !== undefined && !isUnknown(disableOnDelete) && typeof disableOnDelete !== "boolean") {
    failures.push({ property: "disableOnDelete", reason: `must be true or false, got ${JSON.stringify(disableOnDelete)}` });
  }
  failures.push(...siteCheck(provider, site));
  return { inputs: news, failures };
}

/** Changing `site` replaces (it is the resource's id); the other inputs update in place. */
export async function diff(_provider: object, _id: string, olds: Props, news: Props) {
  // disableOnDelete is recorded as false when omitted: omitted and false are the same choice.
  const flag = (p: Props) => ({ ...p, disableOnDelete: isUnknown(p.disableOnDelete) ? p.disableOnDelete : p.disableOnDelete === true });
  const changed = changedKeys(["webhooksEnabled", "site", "disableOnDelete"], flag(olds), flag(news));
  return {
    changes: changed.length > 0,
    replaces: changed.filter((k) => k === "site"),
    deleteBeforeReplace: false,
  };
}

async function apply(provider: object, news: Props) {
  const site = news.site as string | undefined;
  const res = await clientFor(provider, site).setWebhooksEnabled(news.webhooksEnabled as boolean);
  return {
    webhooksEnabled: res.webhooksEnabled,
    disableOnDelete: news.disableOnDelete === true,
    ...(site !== undefined ? { site } : {}),
    appliedAt: new Date().toISOString(),
  };
}

export async function create(provider: object, news: Props) {
  const site = news.site as string | undefined;
  return { id: siteLabel(provider, site), outs: await apply(provider, news) };
}

export async function update(provider: object, _id: string, olds: Props, news: Props) {
  // Only disableOnDelete changed: nothing to send, keep when it was applied.
  if (olds.webhooksEnabled === news.webhooksEnabled && olds.appliedAt) {
    return { outs: { ...userInputs(olds), disableOnDelete: news.disableOnDelete === true } };
  }
  return { outs: await apply(provider, news) };
}

// No read: the service has no GET of this setting (and /site.json does not show it), so refresh
// keeps the last applied value (drift is not detectable); the host echoes the state by itself.

/** Leaves the site as it is, unless disableOnDelete asks to turn webhooks off. */
export async function del(provider: object, _id: string, props: Props) {
  if (props.disableOnDelete === true) {
    await clientFor(provider, props.site as string | undefined).setWebhooksEnabled(false);
  }
}
