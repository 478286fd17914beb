/**
 * A site's catalog out of its web UI into code, and two catalogs compared: what `billing-catalog`
 * does (`export`, `diff`), as functions. Every kind is read from the registry's declarations: what
 * the catalog holds of each is its kind's `fromService`.
 */

export { type CatalogDeclaration, catalogDeclarations, type DeclarationOptions, Reference } from "./declarations";
export {
  type CatalogDiff,
  type DiffChange,
  type DiffFormat,
  type DiffKind,
  type DiffOptions,
  type DiffPresence,
  diffCatalogs,
  type FieldChange,
  isEmptyDiff,
  renderDiff,
} from "./diff";
export { catalogImportFile, type ImportEntry, type ImportFile, type ImportFileOptions, importFileJson } from "./import-file";
export { type CatalogResource, type CatalogType, catalogResources } from "./names";
export { isPreviewJson, type PreviewSnapshotOptions, snapshotFromPreview } from "./preview";
export { catalogProgram, PROGRAM_TARGETS, type ProgramOptions, type ProgramTarget } from "./program";
export { type CatalogRead, MAX_IN_FLIGHT, type ReadCatalogOptions, type ReadProgress, readCatalog } from "./read";
export * from "./snapshot";
export { CatalogUsageError, readSnapshotFile, siteOptions } from "./sources";
