// The types of `pulumi-subscription-billing/billing` (the provider plugin's generated Node.js SDK, the import
// `pulumi import` prints) for TypeScript's `moduleResolution: "node"`, which does not read package.json "exports"
// and which older `pulumi new typescript` projects set: it looks for this file instead. Node itself, and TypeScript's
// node16, nodenext and bundler resolutions, go through "exports" to the same dist/sdk-gen/nodejs.
export * from "./dist/sdk-gen/nodejs";
