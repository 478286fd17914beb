/** One zod schema per wire shape: the SDK's reading of the contract (the simulator has its own). */
export * from "./common";
export * from "./component";
export * from "./coupon";
export * from "./endpoint";
export * from "./errors";
export * from "./family";
export * from "./migration";
export * from "./price-point";
export * from "./product";
export * from "./replay";
export * from "./site";
export * from "./subscription";
export * from "./webhook";
export * from "./webhook-settings";
