/** The ProductPricePoint tests' declaration: on `launch` (product 3, whose only price point is its default `launch-default`). */
export const annual = {
  product: "handle:launch",
  handle: "launch-annual",
  name: "Annual",
  priceInCents: 49000,
  interval: 12,
  intervalUnit: "month" as const,
};
export const LAUNCH = 3;
/** How the kind's messages name a price point. */
export const label = (handle: string, id: number | string) => `price point \`${handle}\` (id ${id})`;
export const ppPath = (id: number | string) => `/products/${LAUNCH}/price_points/${id}.json`;
