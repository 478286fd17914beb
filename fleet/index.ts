/**
 * The fleet runner: one stack per billing site, run through the Pulumi Automation API,
 * a few at a time, on one machine or sharded across the pods of a Kubernetes Indexed Job.
 */
export { main } from "./cli";
export { type Fleet, FleetFileError, type FleetSite, fleetSchema, loadFleet, parseFleet, type ResolvedSite } from "./fleet-file";
export { PolicyConfigError } from "./policy-config";
export { loadProgram, ProgramLoadError } from "./program";
export { RenderOptionsError, toYaml } from "./render";
export { type JobOptions, renderJob } from "./render-k8s";
export { type PkoOptions, renderPkoServiceAccount, renderPkoStacks } from "./render-pko";
export type { FleetReport, Operation, PolicyViolation, PreviewJson, PreviewStep, SiteReport } from "./report";
export { runSite, type SiteRunOptions } from "./run-site";
export { DEFAULT_CONCURRENCY, type FleetRunOptions, runFleet } from "./runner";
export { inShard, type Shard, shardOf } from "./shard";
export { summaryTable } from "./summary";
