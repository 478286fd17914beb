import { readFileSync } from "node:fs";
import { CONTRACT } from "./validator";

/** The published contract's operations by operationId, as published (not patched): their examples are the vendor's. */
export const operations = new Map<string, any>();
for (const item of Object.values<Record<string, { operationId?: string }>>(JSON.parse(readFileSync(CONTRACT, "utf8")).paths))
  for (const op of Object.values(item)) if (op?.operationId) operations.set(op.operationId, op);

/** Every example of an operation's JSON answer with this status: name → value. Throws when the contract has none. */
export function responseExamples(operationId: string, status: number): Record<string, unknown> {
  const ex = operations.get(operationId)?.responses?.[String(status)]?.content?.["application/json"]?.examples;
  if (!ex) throw new Error(`${operationId} ${status}: no examples in the contract`);
  return Object.fromEntries(Object.entries<{ value: unknown }>(ex).map(([k, v]) => [k, v.value]));
}
