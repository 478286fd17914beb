/**
 * An amount as the policies' messages give it: the cents the inputs use, and
 * the same amount with two decimals, without a currency (a site has its own).
 * E.g. `1250 cents (12.50)`.
 */
export function cents(amount: number): string {
  const decimals = `${amount < 0 ? "-" : ""}${(Math.abs(amount) / 100).toFixed(2)}`;
  return `${amount} cents (${decimals})`;
}
