import { type CatalogFacet, type CatalogReader, type Context, declaredInputs, type Importer, type SiteView } from "../kinds/kind";

/** A catalog kind as the import reads it. */
interface Readable {
  readonly kind: { readonly key: string; readonly type: string; readonly catalog?: CatalogFacet; readonly example: object };
  readonly reader?: CatalogReader;
}

const SITE_AND_KEY = /^(?:([^/]+)\/)?([^/]+)$/;
const SITE_OWNER_AND_KEY = /^(?:([^/]+)\/)?([^/]+)\/([^/]+)$/;

/**
 * `pulumi import` of a catalog kind, by its key (a handle, a coupon's code; ids differ from site to site
 * and keys carry a catalog across them) or by id, after `<site>/` for an entry of billing:sites and
 * `<owner>/` for an owned object (`pro/pro-annual`). The inputs are the kind's `fromService`, the rule
 * export and diff use too, written the way a program declares them; the state is what the kind records
 * for that object adopted with those inputs. So the printed code previews with no changes.
 */
export function catalogImporter(all: readonly Readable[], key: string): Importer<object> | undefined {
  const me = all.find((m) => m.kind.key === key);
  const facet = me?.kind.catalog;
  const reader = me?.reader;
  if (!me || !facet || !reader) return undefined;
  const owner = facet.owner && all.find((m) => m.kind.key === facet.owner?.kind);
  const noun = facet.noun;
  // The declaration's example says what an id looks like: each example holds its key and its owner's (a test checks).
  const example = (m: Readable, field?: string) =>
    String((m.kind.example as Record<string, unknown>)[field as string]).replace(/^handle:/, "");
  const ownerNoun = owner?.kind.catalog?.noun ?? "owner";
  const forms = owner
    ? `give <${ownerNoun}>/<${noun}>, each a ${facet.key} or an id (e.g. ${example(me, facet.owner?.input)}/${example(me, facet.key)}), or <site>/<${ownerNoun}>/<${noun}> for an entry of billing:sites`
    : facet.within !== undefined
      ? `give the ${noun}'s <${facet.within}>:<${facet.key}> or id (e.g. ${example(me, facet.within)}:${example(me, facet.key)}), or <site>/<${facet.within}>:<${facet.key}> for an entry of billing:sites`
      : `give the ${noun}'s ${facet.key} or id (e.g. ${example(me, facet.key)}), or <site>/<${facet.key}> for an entry of billing:sites`;
  return {
    forms,
    async read(ctx: Context, importId: string) {
      const m = (owner ? SITE_OWNER_AND_KEY : SITE_AND_KEY).exec(importId);
      if (!m) throw new Error(forms);
      // The key groups are not optional: both are set whenever the pattern matched (an owner-less id has no second).
      const [, site, first, second] = m as unknown as [string, string | undefined, string, string];
      const client = ctx.client(site);
      let held: unknown;
      // Objects read already, by kind: the view's first answer for a key it is asked.
      const known: [string, unknown][] = [];
      if (owner?.reader) {
        const o = await owner.reader.find(client, first);
        if (o === undefined) throw new Error(`${ownerNoun} ${first} does not exist at the site: nothing to import`);
        known.push([owner.kind.key, o]);
        held = await reader.find(client, second, o);
        if (held === undefined) throw new Error(`${ownerNoun} ${first} has no ${noun} ${second}: nothing to import`);
      } else {
        held = await reader.find(client, first);
        if (held === undefined) throw new Error(`${noun} ${first} does not exist at the site: nothing to import`);
      }
      // The rest of the site, read as `fromService` asks: an object's key by its id, what an owner holds.
      const view: SiteView = {
        async keyOf(kind, id) {
          const r = all.find((x) => x.kind.key === kind)?.reader;
          const read = known.find(([k, o]) => k === kind && r?.id(o) === id)?.[1];
          const o = read ?? (r && (await r.find(client, String(id))));
          return o === undefined ? undefined : r?.key(o);
        },
        async children(kind, of) {
          return (await all.find((x) => x.kind.key === kind)?.reader?.list(client, of)) ?? [];
        },
      };
      const inputs = declaredInputs(facet, await reader.fromService(held, view));
      if (site !== undefined) inputs.site = site;
      const state = await reader.record(client, held, inputs, site);
      return { id: String(reader.id(held)), state, inputs };
    },
  };
}
