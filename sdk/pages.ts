/**
 * Every row of a paged list, read page by page until a short page, or a page with nothing new (a
 * service that ignored `page` and answered page 1 again). A row without a real id (the vendor
 * publishes examples with id 0) is left out, as it could only make a caller record a wrong object;
 * a row seen on an earlier page (the list shifted between two reads) is kept once.
 */
export async function allPages<R extends { readonly id: number }>(
  perPage: number,
  page: (n: number) => Promise<readonly R[]>,
): Promise<R[]> {
  const out: R[] = [];
  const seen = new Set<number>();
  for (let n = 1; ; n++) {
    const rows = await page(n);
    let fresh = 0;
    for (const r of rows) {
      if (r.id > 0 && !seen.has(r.id)) {
        seen.add(r.id);
        out.push(r);
        fresh++;
      }
    }
    if (rows.length < perPage || fresh === 0) return out;
  }
}
