import * as pulumi from "@pulumi/pulumi";

/** A value the program knows now (not an Output or a promise, whose value comes later). */
export const known = (v: unknown) => !pulumi.Output.isInstance(v) && !(v instanceof Promise);

/**
 * One price point declared `default: true` per owner in a program (issue 42): a second one is refused in its
 * constructor, so at preview, naming both, since each would promote itself again on every `pulumi up --refresh`.
 * The owner is its resource (`owned`, named `ownerLabel`) or, written as a literal id or `handle:`, that reference on
 * its site; a reference not known yet cannot be compared.
 */
export function oneDefaultPerOwner(type: string, noun: string) {
  const declared = new Map<unknown, string>();
  return (name: string, o: { readonly owned?: object; readonly ownerLabel?: string; readonly ref: unknown; readonly site: unknown }) => {
    if (o.owned === undefined && (!known(o.ref) || !known(o.site))) return;
    const key = o.owned ?? JSON.stringify([o.site ?? "", o.ref]);
    const other = declared.get(key);
    if (other !== undefined && other !== name)
      throw new pulumi.RunError(
        `${type} "${name}" and ${type} "${other}" both declare default: true for ${o.owned ? o.ownerLabel : `${noun} ${JSON.stringify(o.ref)}`}: ` +
          `a ${noun} has one default price point, and each would promote itself again on every \`pulumi up --refresh\`. Keep default: true on one of them.`,
      );
    declared.set(key, name);
  };
}
