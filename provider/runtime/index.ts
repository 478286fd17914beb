/**
 * The providers' implementation. The serialized provider objects are thin
 * shells that `require` this module by package name at call time, so the
 * text stored in every resource's state stays small and stable, and an
 * upgrade of the package changes behaviour without changing that text.
 */
import { KINDS } from "../kinds";
import { provideAll } from "./provide";
import { serving } from "./serve";

export { configure } from "./config";

/** Every kind's runtime, by the key its shell stores. */
export const kinds = provideAll(KINDS);

/** What the serialized provider of every resource calls first (`configure`): it configures it and gives it its kind's operations. */
export const serve = serving(kinds);

// Providers serialized by 0.1 call `runtime()[kind]`: the kinds of that release, at the top level.
export const { webhookSettings, subscriptionMigration, webhookReplay } = kinds;
