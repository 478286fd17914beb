import { MAX_PER_PAGE } from "./wire";

/** A page number, id or count from a query string; undefined unless a positive integer. */
export function positiveInt(s: string): number | undefined {
  if (!/^\d{1,15}$/.test(s)) return undefined;
  const n = Number(s);
  return n > 0 ? n : undefined;
}

/** `page` and `per_page` as every list in the contract takes them; a message naming the bad one otherwise. */
export function paging(raw: Record<string, string>, defaultPerPage: number): { page: number; perPage: number } | string {
  let page = 1;
  let perPage = defaultPerPage;
  if (raw.page !== undefined) {
    const n = positiveInt(raw.page);
    if (n === undefined) return `page must be an integer from 1; got '${raw.page}'.`;
    page = n;
  }
  if (raw.per_page !== undefined) {
    const n = positiveInt(raw.per_page);
    if (n === undefined) return `per_page must be an integer from 1; got '${raw.per_page}'.`;
    // The contract: "any per_page value over 200 will be changed to 200".
    perPage = Math.min(n, MAX_PER_PAGE);
  }
  return { page, perPage };
}
