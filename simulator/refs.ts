/**
 * `{id}` as the contract's paths take it for families, products, components and
 * their price points: "the id or handle … When using the handle, it must be
 * prefixed with `handle:`". Anything else names nothing.
 */
export function byRef<T>(ref: string, byId: (id: number) => T | undefined, byHandle: (h: string) => T | undefined): T | undefined {
  if (/^\d{1,15}$/.test(ref)) return byId(Number(ref));
  if (ref.startsWith("handle:")) return byHandle(ref.slice("handle:".length));
  return undefined;
}
