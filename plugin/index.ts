/**
 * The `billing` provider plugin (`pulumi-subscription-billing/plugin`): the provider, its schema and
 * the server wrapper, for embedding or testing; `pulumi-resource-billing` (bin.ts) runs it.
 */
export { providerConfig } from "./config";
export { importRead } from "./import";
export { BillingProvider, kindKeyOf, packageVersion, typeOfUrn } from "./provider";
export { PACKAGE, packageSchema, tokenOf } from "./schema";
export { guardRequests, serve } from "./serve";
