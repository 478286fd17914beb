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

/** A boolean query parameter: absent is false; "true"/"1" and "false"/"0" as Rails casts them; anything else a message. */
export function flag(query: Record<string, string>, name: string): boolean | string {
  const v = query[name];
  if (v === undefined || v === "false" || v === "0") return false;
  if (v === "true" || v === "1") return true;
  return `${name} must be true or false; got '${v}'.`;
}

/** `page`, `per_page` and `include_archived`, as the product and component lists take them; a message naming the bad one otherwise. */
export function archivedPaging(
  raw: Record<string, string>,
  defaultPerPage: number,
): { page: number; perPage: number; includeArchived: boolean } | string {
  const pages = paging(raw, defaultPerPage);
  if (typeof pages === "string") return pages;
  const includeArchived = flag(raw, "include_archived");
  if (typeof includeArchived === "string") return includeArchived;
  return { ...pages, includeArchived };
}

/** The rows on the page asked for. */
export const pageOf = <T>(rows: readonly T[], p: { page: number; perPage: number }): T[] =>
  rows.slice((p.page - 1) * p.perPage, p.page * p.perPage);

/** `filter[ids]`: a comma-separated list of ids; a message quoting it otherwise. */
export function idList(raw: string | undefined): number[] | undefined | string {
  if (raw === undefined) return undefined;
  const parts = raw.split(",").filter((s) => s !== "");
  if (!parts.every((s) => /^\d{1,15}$/.test(s))) return `filter[ids] must be a comma-separated list of ids; got '${raw}'.`;
  return parts.map(Number);
}
