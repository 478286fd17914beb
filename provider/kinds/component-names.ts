import type { BillingClient } from "../../sdk/client";
import type { Component as ServiceComponent } from "../../sdk/results";
import { isUnknown } from "../engine";
import { referencedHandle } from "./catalog";
import { labelOf, unless404 } from "./lifecycle";
import { familyWithHandle } from "./product-family";

/**
 * A component's name is unique among the live components of its product family. The contract's 422 example of a
 * component create refuses a taken name ("Name: must be unique - that value has been taken.") without publishing the
 * scope; ours (the simulator's too): the family, since components are defined per family and the name is what
 * subscribers' statements show; an archived component (kept for the subscriptions that have it) not counting is our
 * reading. Names are compared as written.
 *
 * So a replacement that keeps the name in the same family cannot be made: the new component is created beside the old
 * one, which holds the name until it is archived after. It is refused before anything is sent, saying what is
 * accepted (another name, or another family). The old component's name is not changed to free it (its subscribers'
 * statements show it), and the old one is not deleted first (delete archives, there is no unarchive, and an archived
 * component keeps its handle, which the replacement needs).
 */

/** What a create's component is besides the family's others: its own (adopted, or the one updated), and the ones it replaces (live until archived after). */
export interface NameHolders {
  /** The component this declaration is, whose own name is no clash. */
  readonly isOwn?: (c: ServiceComponent) => boolean;
  /** The components a replacement makes way for, and what changed (as the replacement's notice says it). */
  readonly replaced?: readonly { readonly id: number; readonly changed: readonly string[] }[];
}

const label = (c: ServiceComponent) => labelOf("component", c.handle ?? "?", c.id);

/** Another live component of the family holds the name (a create, an adoption's or an update's rename). */
export const takenName = (name: string, holder: ServiceComponent) =>
  `must be a name no other live component of the family has: ${label(holder)} holds ${JSON.stringify(name)}, and names are unique among a family's live components (archived ones do not count); choose another name`;

/** A replacement keeping the name of the component it replaces, in the same family. */
export const keptName = (name: string, old: ServiceComponent, changed: readonly string[]) =>
  `must differ from the name of the component it replaces: the replacement${changed.length > 0 ? ` (${changed.join(", ")})` : ""} is created beside ${label(old)}, which holds ${JSON.stringify(name)} until it is archived after the new one exists, and names are unique among a family's live components; give the replacement another name (once the old one is archived, a later update renames it back in place), or declare it in another family`;

/** Why the service would refuse `name` in the family (another live component holds it), in the words above; undefined when none does. */
export async function nameTakenReason(
  client: BillingClient,
  familyId: number,
  name: string,
  found: NameHolders,
): Promise<string | undefined> {
  // A family the site does not have holds nothing: the create's own lookup of it says so.
  const live = (await unless404(() => client.listComponents({ familyId }))) ?? [];
  const holder = live.find((c) => c.name === name && c.archivedAt === undefined && !(found.isOwn?.(c) ?? false));
  if (!holder) return undefined;
  const replaced = found.replaced?.find((r) => r.id === holder.id);
  return replaced ? keptName(name, holder, replaced.changed) : takenName(name, holder);
}

/** A `productFamily` input's id when it is known and the site has it (a missing one is the references check's to name). */
export async function knownFamilyId(client: BillingClient, ref: unknown): Promise<number | undefined> {
  if (isUnknown(ref) || (typeof ref !== "number" && typeof ref !== "string")) return undefined;
  const handle = referencedHandle(ref);
  if (handle === undefined) return ref as number;
  return (await familyWithHandle(client, handle))?.id;
}
