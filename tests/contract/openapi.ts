import { readFileSync } from "node:fs";
import path from "node:path";
import OpenAPIBackend from "openapi-backend";

/** The service's published contract, vendored in contract/ so the check never depends on a neighbouring folder. */
export const CONTRACT = path.resolve(__dirname, "../../contract/advanced-billing.openapi.json");
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

/** An initialised validator of the contract (ajv through openapi-backend), RFC 3339 date-times checked rather than ignored. */
export async function contractApi(): Promise<OpenAPIBackend> {
  const api = new OpenAPIBackend({
    definition: JSON.parse(readFileSync(CONTRACT, "utf8")), quick: true, validate: true,
    customizeAjv: (ajv) => ajv.addFormat("date-time", (s: string) => RFC3339.test(s) && !Number.isNaN(Date.parse(s))),
  });
  await api.init();
  return api;
}
