import { catalogResources } from "./names";
import type { CatalogSnapshot } from "./snapshot";

/** One entry of a `pulumi import --file` file. */
export interface ImportEntry {
  /** `billing:index:<Type>`: the provider plugin's type. */
  readonly type: string;
  /** The resource's name in the stack (the generated program uses the same). */
  readonly name: string;
  /** What the plugin imports it by: handles and codes, never ids (they differ per site). */
  readonly id: string;
}

/** A bulk import file, as `pulumi import --file` reads it. */
export interface ImportFile {
  readonly resources: readonly ImportEntry[];
}

/** Options of {@link catalogImportFile}. */
export interface ImportFileOptions {
  /**
   * An entry of the stack's `billing:sites`: every id is then prefixed `<site>/`, so that the plugin
   * imports from that site. Default: the provider's top-level site.
   */
  readonly site?: string;
}

/**
 * A Pulumi bulk import file of a snapshot's live objects, for `pulumi import --file` with the provider
 * plugin, which imports each by its key (an owned object as `<owner>/<handle>`, a coupon by its code) and
 * prints the program. Archived objects are left out: the kinds cannot adopt them unchanged. Names are
 * those of {@link catalogProgram}; the same snapshot gives the same bytes.
 */
export function catalogImportFile(snapshot: CatalogSnapshot, options: ImportFileOptions = {}): ImportFile {
  if (options.site !== undefined && !/^[^/\s]+$/.test(options.site))
    throw new Error(`site: ${JSON.stringify(options.site)} must be the name of an entry of billing:sites (no "/" or spaces)`);
  const prefix = options.site !== undefined ? `${options.site}/` : "";
  return {
    resources: catalogResources(snapshot).map((r) => ({ type: `billing:index:${r.type}`, name: r.name, id: `${prefix}${r.key}` })),
  };
}

/** The import file as written: two-space indented JSON ending with a newline. */
export const importFileJson = (f: ImportFile): string => `${JSON.stringify(f, null, 2)}\n`;
