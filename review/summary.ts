import { violationText } from "../fleet/events";
import type { PolicyViolation, PreviewJson, PreviewStep } from "../fleet/report";
import { catalogKind } from "../provider/kinds/catalog-kinds";
import { CATALOG_NOUN, type CatalogReview, catalogKindOf, catalogReviews, type ProductRef } from "./catalog";
import { cell, cellCode, code, codeBlock, table, text, UNKNOWN_TEXT, urnParts } from "./markdown";
import { type MigrationReview, migrationReviews, OPTION_DEFAULTS, type Placement, type Ref } from "./migrations";
import { type PolicyPacksNotRun, policyPacksNotRun, stoppedEarlyBecause } from "./policy-packs";
import { type FleetInput, type FleetSite, parseInput, type ReviewInput, readInput, type StackInput } from "./read";
import {
  changeCounts,
  changedSteps,
  compare,
  countsText,
  declaredTypeOf,
  type Note,
  notesOf,
  TYPES,
  typeOfStep,
  violationsOf,
} from "./steps";
import { type EndpointReview, type SiteWebhooks, webhookReviews } from "./webhooks";

const heading = (level: number, title: string) => `${"#".repeat(Math.min(level, 6))} ${title}`;

/** A product or price point in a table cell: a handle as code, an id said as what it is, or unknown. */
function refText(ref: Ref, what: "product" | "price point"): string {
  if ("handle" in ref) return cellCode(ref.handle);
  if ("id" in ref) return `${what} ${text(ref.id)}`;
  return UNKNOWN_TEXT;
}

function placementText(p: Placement): string {
  const product = refText(p.product, "product");
  if (p.pricePoint === undefined) return product;
  if (p.pricePoint === "default") return `${product}, default price point`;
  const pp = p.pricePoint;
  return `${product}, price point ${"handle" in pp ? cellCode(pp.handle) : "id" in pp ? text(pp.id) : UNKNOWN_TEXT}`;
}

function violationLine(v: PolicyViolation, withResource: boolean): string {
  const where = withResource && v.urn ? ` on ${code(urnParts(v.urn).name)}` : "";
  return `- Policy **${text(v.enforcementLevel)}** ${code(`${v.policyPackName}/${v.policyName}`)}${where}: ${text(v.message.trim())}`;
}

function migrationsSection(migrations: readonly MigrationReview[], level: number): string[] {
  if (migrations.length === 0) return [];
  const withSite = migrations.some((m) => m.site !== undefined);
  const rows = migrations.map((m) => [
    `${cell(m.subscription)}${m.state ? ` (${cell(m.state)})` : ""}`,
    ...(withSite ? [m.site !== undefined ? cellCode(m.site) : "default"] : []),
    cell(m.op),
    m.from ? `${placementText(m.from)}${m.from.recorded ? " (as recorded)" : ""}` : "not previewed",
    m.to ? placementText(m.to) : " ",
    cell(m.charge),
    cell(m.proratedAdjustment),
    cell(m.creditApplied),
    cell(m.paymentDue),
    m.options.length ? m.options.map(cell).join(", ") : "defaults",
  ]);
  const header = [
    "Subscription",
    ...(withSite ? ["Site"] : []),
    "Step",
    "From",
    "To",
    "Charge",
    "Prorated adjustment",
    "Credit applied",
    "Payment due",
    "Options",
  ];
  const align = header.map(
    (h) => (["Charge", "Prorated adjustment", "Credit applied", "Payment due"].includes(h) ? "r" : "l") as "l" | "r",
  );
  const lines = [heading(level, `Subscription migrations (${migrations.length})`), "", ...table(header, rows, align), ""];
  const amounts = (m: MigrationReview) => [m.charge, m.proratedAdjustment, m.creditApplied, m.paymentDue];
  const unpreviewed = migrations.some((m) => amounts(m).includes("not previewed"));
  const later = migrations.some((m) => amounts(m).includes(UNKNOWN_TEXT));
  lines.push(
    `Options not listed take the service's defaults: ${OPTION_DEFAULTS.map(([k, v]) => `${k} ${v}`).join(", ")}.` +
      (unpreviewed ? ` "not previewed": the service's migration preview could not be read (see the warnings).` : "") +
      (later
        ? ` Amounts "${UNKNOWN_TEXT}": the target waits on another resource's output (e.g. a new price point's id), so the service's migration preview is read, and judged, when \`pulumi up\` knows it, before anything is sent.`
        : ""),
    "",
  );
  for (const m of migrations) {
    if (m.warnings.length === 0 && m.violations.length === 0) continue;
    lines.push(`**Subscription ${text(m.subscription)}** (${code(m.name)})`, "");
    for (const w of m.warnings) lines.push(`- Warning: ${text(w)}`);
    for (const v of m.violations) lines.push(violationLine(v, false));
    lines.push("");
  }
  return lines;
}

/** A value for a table cell as code, but "unknown until up", which is no value. */
const known = (v: string) => (v === UNKNOWN_TEXT ? v : cellCode(v));

function urlText(e: EndpointReview): string {
  return e.previousUrl !== undefined ? `${known(e.previousUrl)} → ${known(e.url)}` : known(e.url);
}

const events = (keys: readonly string[]) => (keys.length ? keys.map(known).join(", ") : " ");

function webhooksSection(sites: readonly SiteWebhooks[], level: number): string[] {
  if (sites.length === 0) return [];
  const lines = [heading(level, "Webhooks"), ""];
  for (const s of sites) {
    lines.push(heading(level + 1, s.site === undefined ? "Default site (top-level `billing:*` config)" : `Site ${code(s.site)}`), "");
    for (const w of s.settings) {
      const changes = w.changes.map((c) =>
        c.from !== undefined ? `${text(c.key)} ${text(c.from)} → ${text(c.to ?? "")}` : `${text(c.key)} ${text(c.to ?? "")}`,
      );
      const what = w.onDelete ? `: ${text(w.onDelete)}` : changes.length ? `: ${changes.join(", ")}` : "";
      lines.push(`- WebhookSettings ${code(w.name)} (${text(w.op)})${what}`);
    }
    if (s.settings.length) lines.push("");
    if (s.endpoints.length) {
      const rows = s.endpoints.map((e) => [
        cellCode(e.name),
        e.op === "delete" ? "delete (unsubscribes it from every event; the service keeps it listed)" : cell(e.op),
        urlText(e),
        events(e.added),
        events(e.removed),
      ]);
      lines.push(...table(["Endpoint", "Step", "URL", "Events added", "Events removed"], rows), "");
    }
  }
  return lines;
}

/** A handle or other declared value as inline code, but "unknown until up", which is no value. */
const codeOrUnknown = (v: string) => (v === UNKNOWN_TEXT ? v : code(v));

function productRefText(r: ProductRef, what = "product"): string {
  if ("handle" in r) return `${what} ${code(r.handle)}`;
  if ("id" in r) return `${what} ${text(r.id)}`;
  return `a ${what} ${UNKNOWN_TEXT}`;
}

/** One change as a line: `priceInCents: $49.00 → $59.00` (or the declared value, on create). */
const changeText = (c: { key: string; from?: string; to?: string }) =>
  c.from !== undefined ? `${text(c.key)}: ${text(c.from)} → ${text(c.to ?? "")}` : `${text(c.key)}: ${text(c.to ?? "")}`;

const sentence = (s: string) => {
  const t = text(s);
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? "" : "."}`;
};

/** One catalog object: a bullet naming it and what its step does, then its changes, steps, effects and findings. */
function catalogLines(o: CatalogReview): string[] {
  const of = o.product ? ` of ${productRefText(o.product)}` : o.component ? ` of ${productRefText(o.component, "component")}` : "";
  const resource = o.name === o.handle ? "" : ` (resource ${code(o.name)})`;
  const title = `- ${CATALOG_NOUN[o.kind]} ${codeOrUnknown(o.handle)}${of}${resource}`;
  const lines: string[] = [];
  const sub = (line: string) => lines.push(`  - ${line}`);
  switch (o.action) {
    case "create": {
      // The handle and a price point's product are in the title already.
      const facet = catalogKind(o.kind)?.facet;
      const declared = o.changes.filter((c) => c.key !== "handle" && c.key !== facet?.key && c.key !== facet?.owner?.input);
      lines.push(`${title}: **create**${declared.length ? `: ${declared.map(changeText).join(", ")}` : ""}`);
      break;
    }
    case "adopt":
      lines.push(`${title}: **adopt** (id ${text(o.adopted?.id ?? "")})`);
      for (const c of o.changes) sub(changeText(c));
      break;
    case "update":
      lines.push(`${title}: **update** in place`);
      for (const c of o.changes) sub(changeText(c));
      break;
    case "replace":
      lines.push(`${title}: **replace**, in this order:`);
      o.steps.forEach((step, i) => {
        lines.push(`  ${i + 1}. ${text(step)}`);
      });
      for (const c of o.changes) sub(changeText(c));
      break;
    default:
      lines.push(`${title}: **${text(o.action)}**`);
      for (const c of o.changes) sub(changeText(c));
  }
  for (const e of o.effects)
    sub(o.pricingChanged && /^a new default price point/.test(e) ? `As the service applies it: ${text(e)}.` : sentence(e));
  for (const w of o.warnings) sub(`Warning: ${text(w)}`);
  for (const v of o.violations) sub(violationLine(v, false).slice(2));
  return lines;
}

function catalogSection(objects: readonly CatalogReview[], level: number): string[] {
  if (objects.length === 0) return [];
  const lines = [heading(level, `Catalog (${objects.length})`), ""];
  const sites = [...new Set(objects.map((o) => o.site))];
  const bySite = sites.length > 1 || sites[0] !== undefined;
  for (const site of sites) {
    if (bySite)
      lines.push(heading(level + 1, site === undefined ? "Default site (top-level `billing:*` config)" : `Site ${code(site)}`), "");
    for (const o of objects.filter((x) => x.site === site)) lines.push(...catalogLines(o));
    lines.push("");
  }
  return lines;
}

function othersSection(steps: readonly PreviewStep[], level: number): string[] {
  const reviewed = new Set<string>([TYPES.migration, TYPES.settings, TYPES.endpoint]);
  const others = steps.filter((s) => !reviewed.has(typeOfStep(s)) && !catalogKindOf(typeOfStep(s)));
  if (others.length === 0) return [];
  // The type as declared: a plugin resource is not shown under its dynamic twin's name.
  const rows = others.map((s) => [cellCode(urnParts(s.urn).name), cellCode(declaredTypeOf(s)), cell(s.op)]);
  return [heading(level, "Other changes"), "", ...table(["Resource", "Type", "Step"], rows), ""];
}

function noteLine(n: Note): string {
  const where = n.urn ? `${code(urnParts(n.urn).name)} (${text(urnParts(n.urn).type)}): ` : "";
  return `- ${where}${text(n.message)}`;
}

/** Where a preview's policy results stand: in a digest they are not (the CLI leaves them out of it). */
function policyLine(input: StackInput, violations: number): string | undefined {
  if (input.source === "document") {
    return (
      "_Policy packs: `pulumi preview --json` leaves their results out of its document; to see them here, " +
      "give billing-review the event stream instead (`PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true pulumi preview --json`)._"
    );
  }
  if (!input.policyPacks?.length) return undefined;
  const packs = input.policyPacks.map((p) => `${code(p.name)} ${text(p.version)}`).join(", ");
  return violations ? `Policy packs run: ${packs}.` : `Policy packs run: ${packs}; no violations.`;
}

/** A preview whose policy packs did not all run: no review of it may pass for a policed one. */
function notRunLine({ requested, ran }: PolicyPacksNotRun): string {
  const counts = requested === undefined ? "" : ` (${requested} requested, ${ran === 0 ? "none" : ran} ran)`;
  return `**A policy pack it was given did not run**${counts}: no policy judged this preview.`;
}

/** The body of one stack's review: the catalog, migrations, webhooks by site, other changes, then what went wrong. */
function stackBody(input: StackInput, level: number): string[] {
  const { preview } = input;
  const steps = changedSteps(preview);
  const notes = notesOf(preview.diagnostics ?? []);
  const violations = violationsOf(preview.policyViolations ?? []);
  const used = new Set<Note | PolicyViolation>();
  const catalog = catalogReviews(steps, notes, violations, preview.diagnostics ?? [], used);
  const migrations = migrationReviews(steps, notes, violations, used);
  const errors = notes.filter((n) => n.severity === "error");
  const lines: string[] = [];

  const counts = changeCounts(preview);
  if ((preview.steps ?? []).length === 0 && !counts) {
    const said = stoppedEarlyBecause(preview);
    if (said.length === 0) {
      lines.push(
        "**Nothing was planned**: the preview stopped before the engine ran (its error is on the CLI's stderr, which this input does not hold).",
        "",
      );
    } else {
      lines.push("**Nothing was planned**: the preview stopped before the engine ran. What it said before it stopped:", "");
      for (const message of said) lines.push(...codeBlock(message), "");
    }
  } else {
    lines.push(counts ? `Changes: ${text(countsText(counts))}.` : "Changes: not summed up by the engine (the preview stopped early).", "");
  }
  for (const notRun of policyPacksNotRun(input)) lines.push(notRunLine(notRun), "");
  if (input.complete === false) {
    lines.push("**The preview did not finish**: the event stream ends before the engine's summary, so this review may miss steps.", "");
  } else if (errors.length) {
    lines.push(`**The preview failed**: ${errors.length} error${errors.length === 1 ? "" : "s"}, listed under Errors.`, "");
  }

  lines.push(...catalogSection(catalog, level));
  lines.push(...migrationsSection(migrations, level));
  lines.push(...webhooksSection(webhookReviews(steps), level));
  lines.push(...othersSection(steps, level));

  const otherViolations = violations.filter((v) => !used.has(v));
  if (otherViolations.length) {
    lines.push(heading(level, "Policy violations"), "", ...otherViolations.map((v) => violationLine(v, true)), "");
  }
  const warnings = notes.filter((n) => n.severity === "warning" && !used.has(n));
  if (warnings.length) lines.push(heading(level, "Warnings"), "", ...warnings.map(noteLine), "");
  if (errors.length) lines.push(heading(level, "Errors"), "", ...errors.map(noteLine), "");
  const policy = policyLine(input, violations.length);
  if (policy) lines.push(policy, "");
  return lines;
}

/** The stack and project of a preview, from its urns (every step's urn names both). */
function stackOf(preview: PreviewJson): { stack: string; project: string } | undefined {
  const urn = preview.steps?.[0]?.urn ?? preview.diagnostics?.find((d) => d.urn)?.urn;
  if (!urn) return undefined;
  const { stack, project } = urnParts(urn);
  return stack ? { stack, project } : undefined;
}

function stackSummary(input: StackInput): string[] {
  const at = stackOf(input.preview);
  const title = at ? `Billing review: stack ${code(at.stack)} (project ${code(at.project)})` : "Billing review: preview";
  return [heading(2, title), "", ...stackBody(input, 3)];
}

/** A site's policy violations: the report's own (on up and preview), else its preview's (a report of an older runner). */
const siteViolations = (s: FleetSite): PolicyViolation[] =>
  violationsOf(s.policyViolations?.length ? s.policyViolations : (s.preview?.policyViolations ?? []));

/** The mandatory violations that stopped a failed site (none for a site that did not fail). */
const stoppedBy = (s: FleetSite): PolicyViolation[] =>
  s.result === "failed" ? siteViolations(s).filter((v) => v.enforcementLevel === "mandatory") : [];

function siteRow(s: FleetSite): string[] {
  const counts = (s.preview && changeCounts(s.preview)) ?? (Object.keys(s.changes).length ? s.changes : undefined);
  const stopped = stoppedBy(s);
  const result = stopped.length ? `stopped by policy ${stopped.map((v) => cellCode(v.policyName)).join(", ")}` : cell(s.result);
  return [cellCode(s.name), cellCode(s.stack), result, counts ? cell(countsText(counts)) : "not known"];
}

/** Why a site failed: the policies that stopped it (pack, policy and message), else the report's error. */
function failureLines(s: FleetSite): string[] {
  const stopped = stoppedBy(s);
  if (stopped.length === 0) return s.error ? [`**${text(s.result)}**: ${text(s.error)}`, ""] : [];
  return [
    `**Stopped by policy**${stopped.length > 1 ? ` (${stopped.length} mandatory violations)` : ""}:`,
    "",
    ...stopped.map(
      (v) =>
        `- ${code(`${v.policyPackName}/${v.policyName}`)}${v.urn ? ` on ${code(urnParts(v.urn).name)}` : ""}: ${text(violationText(v.message))}`,
    ),
    "",
  ];
}

function fleetSummary(fleet: FleetInput): string[] {
  const sites = [...fleet.sites].sort((a, b) => compare(a.name, b.name));
  const failed = sites.filter((s) => s.result === "failed").length;
  const lines = [
    heading(
      2,
      `Billing review: fleet ${text(fleet.operation)} (${sites.length} site${sites.length === 1 ? "" : "s"}${failed ? `, ${failed} failed` : ""})`,
    ),
    "",
  ];
  const from = [
    fleet.fleetFile ? `Fleet file ${code(fleet.fleetFile)}` : "",
    fleet.shard ? `shard ${fleet.shard.index + 1} of ${fleet.shard.count}` : "",
  ]
    .filter(Boolean)
    .join(", ");
  if (from) lines.push(`${from}.`, "");
  lines.push(...table(["Site", "Stack", "Result", "Changes"], sites.map(siteRow)), "");
  for (const s of sites) {
    lines.push(heading(3, `Site ${code(s.name)} (stack ${code(s.stack)})`), "");
    lines.push(...failureLines(s));
    if (!s.preview) {
      lines.push(
        fleet.operation === "preview" ? "No preview was recorded for this site." : "A report of this operation holds no preview.",
        "",
      );
      const violations = siteViolations(s);
      if (violations.length) lines.push(heading(4, "Policy violations"), "", ...violations.map((v) => violationLine(v, true)), "");
      continue;
    }
    lines.push(...stackBody({ kind: "preview", source: "report", preview: s.preview }, 4));
  }
  return lines;
}

/** The review's input as given: text (the JSON or event stream), a value read already, or a parsed {@link ReviewInput}. */
function inputOf(input: string | ReviewInput | object): ReviewInput {
  if (typeof input === "string") return readInput(input);
  const kind = (input as { kind?: unknown }).kind;
  if ((kind === "preview" && "source" in input) || (kind === "fleet" && "fleet" in input)) return input as ReviewInput;
  return parseInput(input);
}

/**
 * The Markdown summary of a preview for a pull request: the change counts;
 * the catalog (each product family, product and price point: created, adopted,
 * changed field by field with amounts old → new, replaced with its steps in
 * order, archived, and a pricing change as the service applies it);
 * each subscription migration with its from → to products, the charge the
 * service previews, options, warnings and policy violations; webhook settings
 * and endpoint changes by site; other changes; warnings and errors last. A
 * fleet report gives a table of its sites and a section per site. The same
 * input always gives the same text (everything is sorted), ending with a newline.
 *
 * @param input The text `pulumi preview --json` printed (or its event stream, or a fleet report), a value
 * parsed from it, or what {@link readInput} returned. Throws ReviewInputError when it cannot be summarized.
 */
export function reviewSummary(input: string | ReviewInput | object): string {
  const read = inputOf(input);
  const lines = read.kind === "fleet" ? fleetSummary(read.fleet) : stackSummary(read);
  while (lines.length && lines[lines.length - 1] === "") lines.pop();
  return `${lines.join("\n")}\n`;
}
