import type { z } from "zod";
import type {
  EventBasedComponentInput,
  MeteredComponentInput,
  OnOffComponentInput,
  PrepaidUsageComponentInput,
  QuantityBasedComponentInput,
} from "../generated/inputs";
import type { Assert, Same } from "../type-checks";
import type * as components from "./component-inputs";
import type * as currency from "./currency-inputs";

/** The component and coupon input types, each field documented: generated from their schemas by `npm run docs`. */
export type {
  ComponentPricePointInput,
  ComponentPricePointUpdateInput,
  ComponentUpdateInput,
  CouponInput,
  EventBasedComponentInput,
  MeteredComponentInput,
  OnOffComponentInput,
  PrepaidUsageComponentInput,
  QuantityBasedComponentInput,
} from "../generated/inputs";

/** A component to create, by `kind`: checked by {@link componentInput}. */
export type ComponentInput =
  | MeteredComponentInput
  | QuantityBasedComponentInput
  | OnOffComponentInput
  | PrepaidUsageComponentInput
  | EventBasedComponentInput;

/** Fails to compile when the union and its schema's type differ. */
export type Proof = Assert<Same<ComponentInput, z.input<typeof components.componentInput>>>;

/** Fails to compile when the currency prices' documented types (currency-inputs.ts) and their schemas' types differ. */
export type CurrencyInputsProof = [
  Assert<Same<currency.PricePointCurrencyPricesInput, z.input<typeof currency.pricePointCurrencyPricesInput>>>,
  Assert<Same<currency.ComponentCurrencyPricesInput, z.input<typeof currency.componentCurrencyPricesInput>>>,
  Assert<Same<currency.CouponCurrencyPricesInput, z.input<typeof currency.couponCurrencyPricesInput>>>,
];
