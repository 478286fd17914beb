import type { PreviewStep } from "../fleet/report";
import { ENGINE_UNKNOWN, UNKNOWN_TEXT, urnParts, valueText } from "./markdown";
import { compare, TYPES, typeOfStep } from "./steps";

/** One input of a WebhookSettings that changes: its value before (absent on create) and after (absent on delete). */
export interface SettingChange {
  readonly key: string;
  readonly from?: string;
  readonly to?: string;
}

/** One WebhookSettings step: the inputs it changes, or on delete what that does at the service. */
export interface SettingsReview {
  readonly urn: string;
  readonly name: string;
  readonly op: string;
  readonly changes: readonly SettingChange[];
  /** What deleting the resource does at the service: it reads disableOnDelete as recorded. */
  readonly onDelete?: string;
}

/** One WebhookEndpoint step: its url, and the event keys it gains and loses. */
export interface EndpointReview {
  readonly urn: string;
  readonly name: string;
  readonly op: string;
  /** The url after the step (before it, on delete); `previousUrl` when the step changes it. */
  readonly url: string;
  readonly previousUrl?: string;
  /** Event keys the endpoint gains and loses, sorted; unknown lists are "unknown until up". */
  readonly added: readonly string[];
  readonly removed: readonly string[];
}

/** A site's webhook changes; `site` undefined is the stack's top-level `billing:*` site. */
export interface SiteWebhooks {
  readonly site?: string;
  readonly settings: readonly SettingsReview[];
  readonly endpoints: readonly EndpointReview[];
}

const SETTINGS_KEYS = ["webhooksEnabled", "disableOnDelete", "site"] as const;

const inputsOf = (step: PreviewStep) => ({
  before: step.op === "create" ? undefined : step.oldState?.inputs,
  after: step.op === "delete" ? undefined : step.newState?.inputs,
});

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function settingsReview(step: PreviewStep): SettingsReview {
  const { before, after } = inputsOf(step);
  const changes: SettingChange[] = [];
  if (after) {
    for (const key of SETTINGS_KEYS) {
      if (before && same(before[key], after[key])) continue;
      // On create the site is the section's heading already.
      if (!before && (after[key] === undefined || key === "site")) continue;
      changes.push({ key, ...(before ? { from: valueText(before[key]) } : {}), to: valueText(after[key]) });
    }
  }
  const onDelete =
    step.op === "delete"
      ? before?.disableOnDelete === true
        ? "turns webhooks off (disableOnDelete)"
        : "leaves the site's webhooks as they are"
      : undefined;
  return { urn: step.urn, name: urnParts(step.urn).name, op: step.op, changes, ...(onDelete ? { onDelete } : {}) };
}

/** Event keys as a set; an unknown list (or element) is not a set of keys. */
function eventsOf(v: unknown): Set<string> | "unknown" | undefined {
  if (v === undefined) return undefined;
  if (v === ENGINE_UNKNOWN || !Array.isArray(v)) return "unknown";
  if (v.some((e) => e === ENGINE_UNKNOWN)) return "unknown";
  return new Set(v.map((e) => valueText(e)));
}

function endpointReview(step: PreviewStep): EndpointReview {
  const { before, after } = inputsOf(step);
  const was = eventsOf(before?.events);
  const will = eventsOf(after?.events);
  const minus = (a: Set<string> | undefined, b: Set<string> | undefined) => [...(a ?? [])].filter((e) => !b?.has(e)).sort(compare);
  // Recorded events are always known; new ones may wait on another resource's output.
  const known = (s: Set<string> | "unknown" | undefined) => (s instanceof Set ? s : undefined);
  const added = will === "unknown" ? [UNKNOWN_TEXT] : minus(will, known(was));
  const removed = will === "unknown" && was ? [UNKNOWN_TEXT] : minus(known(was), known(will));
  const url = valueText((after ?? before)?.url);
  const previousUrl = before && after && !same(before.url, after.url) ? valueText(before.url) : undefined;
  return {
    urn: step.urn,
    name: urnParts(step.urn).name,
    op: step.op,
    url,
    ...(previousUrl !== undefined ? { previousUrl } : {}),
    added,
    removed,
  };
}

/** The site a step acts on: its new inputs' `site`, else its old (a delete). */
function siteOf(step: PreviewStep): string | undefined {
  const site = (step.newState?.inputs ?? step.oldState?.inputs)?.site;
  return site === undefined ? undefined : valueText(site);
}

/**
 * The WebhookSettings and WebhookEndpoint steps of a preview, by site: the
 * top-level site first, then sites by name; settings by name, endpoints by url.
 */
export function webhookReviews(steps: readonly PreviewStep[]): SiteWebhooks[] {
  const sites = new Map<string, { site?: string; settings: SettingsReview[]; endpoints: EndpointReview[] }>();
  const siteFor = (step: PreviewStep) => {
    const site = siteOf(step);
    const key = site ?? "";
    let entry = sites.get(key);
    if (!entry) {
      entry = { ...(site !== undefined ? { site } : {}), settings: [], endpoints: [] };
      sites.set(key, entry);
    }
    return entry;
  };
  for (const step of steps) {
    const type = typeOfStep(step);
    if (type === TYPES.settings) siteFor(step).settings.push(settingsReview(step));
    else if (type === TYPES.endpoint) siteFor(step).endpoints.push(endpointReview(step));
  }
  return [...sites.entries()]
    .sort(([a], [b]) => compare(a, b))
    .map(([, s]) => ({
      ...s,
      settings: s.settings.sort((a, b) => compare(a.name, b.name) || compare(a.urn, b.urn)),
      endpoints: s.endpoints.sort((a, b) => compare(a.url, b.url) || compare(a.name, b.name) || compare(a.urn, b.urn)),
    }));
}
