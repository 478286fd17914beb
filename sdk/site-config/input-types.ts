import type { z } from "zod";
import type { Assert, Same } from "../type-checks";
import type * as site from "./inputs";

/** The site configuration's input types, each field documented: generated from their schemas by `npm run docs`. */
export type { MetafieldInput, MetafieldUpdateInput, OfferInput, ReasonCodeInput, ReasonCodeUpdateInput } from "../generated/inputs";

/** Fails to compile when {@link site.CleanupScope} and its schema's type differ. */
export type CleanupScopeProof = Assert<Same<site.CleanupScope, z.infer<typeof site.cleanupScope>>>;
