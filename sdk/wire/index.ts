/** One zod schema per wire shape: the SDK's reading of the contract (the simulator has its own). */
export * from "./common";
export * from "./errors";
export * from "./replay";
export * from "./webhook-settings";
export * from "./webhook";
export * from "./subscription";
export * from "./migration";
export * from "./product";
export * from "./endpoint";
