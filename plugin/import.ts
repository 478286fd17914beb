import type * as plugin from "@pulumi/pulumi/provider";
import type { ProviderKind } from "../provider/kinds";
import { kinds } from "../provider/runtime";
import { plain } from "./values";

/**
 * `pulumi import <token> <name> <id>`: the engine's Read carries the id and nothing else. Each kind says how
 * its objects are imported (its importer, or for a catalog kind its reader: the `fromService` that export
 * and diff use too); the runtime answers with the state read from the service and the inputs that declare
 * it, which the engine needs to adopt the resource and prints as code.
 */
export async function importRead(provider: object, key: ProviderKind, id: string): Promise<plugin.ReadResult> {
  return plain(await kinds[key].import(provider, id));
}

export { settingsIdProblem } from "../provider/kinds/webhook-settings";
