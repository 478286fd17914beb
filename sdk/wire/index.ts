/** One zod schema per wire shape, shared by the client, the simulator and the tests. */
export * from "./common";
export * from "./errors";
export * from "./replay";
export * from "./webhook-settings";
export * from "./webhook";
export * from "./subscription";
export * from "./migration";
