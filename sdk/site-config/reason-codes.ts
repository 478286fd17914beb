import { randomUUID } from "node:crypto";
import { idOf, parsed, tokenProblems } from "../catalog/checks";
import { type CreateOptions, createOnce, differsFrom, type Sighting } from "../catalog/create";
import { settledWrite } from "../catalog/settle";
import { BillingApiError } from "../errors";
import { allPages } from "../pages";
import type { Transport } from "../transport";
import { MAX_REASON_CODES_PER_PAGE, reasonCodeDeleteResponse, reasonCodeListResponse, reasonCodeResponse } from "../wire";
import type { ReasonCodeInput, ReasonCodeUpdateInput } from "./input-types";
import { reasonCodeInput, reasonCodeUpdateInput } from "./inputs";
import { type ReasonCode, toReasonCode } from "./results";

/**
 * Churn reason codes: list, read, create (once, read back by code), update, delete. Codes are unique on a site
 * (the service refuses a second: "Code: This code is already in use."), which is what makes a code the key a
 * create reads back by.
 */

const codePath = (id: number) => `/reason_codes/${id}.json`;

/** Every reason code of the site, across pages, in the service's order (by position). */
export async function listReasonCodes(t: Transport): Promise<ReasonCode[]> {
  const rows = await allPages(MAX_REASON_CODES_PER_PAGE, async (page) =>
    (
      await t.call(
        { method: "GET", path: "/reason_codes.json", repeatable: true, query: { page, per_page: MAX_REASON_CODES_PER_PAGE } },
        reasonCodeListResponse,
      )
    ).map((r) => r.reason_code),
  );
  return rows.map(toReasonCode);
}

/** A reason code by id. A 404 is a {@link BillingApiError} with status 404. */
export async function readReasonCode(t: Transport, reasonCodeId: unknown): Promise<ReasonCode> {
  const id = idOf(reasonCodeId, "reasonCodeId", "invalid reason code");
  const { reason_code } = await t.call({ method: "GET", path: codePath(id), repeatable: true }, reasonCodeResponse);
  return toReasonCode(reason_code);
}

/**
 * Creates a reason code once (see {@link createOnce}): after an ambiguous failure it is read back by code from
 * the list, and only when none has it is the POST sent again, with the same token. One with the code that holds
 * another description was there before, and is not taken as this create's.
 */
export async function createReasonCode(
  t: Transport,
  input: ReasonCodeInput,
  opts: Omit<CreateOptions, "uniquenessToken"> & { uniquenessToken?: unknown },
): Promise<ReasonCode> {
  const r = parsed(reasonCodeInput, input, "invalid reason code", undefined, tokenProblems(opts.uniquenessToken));
  const token = (opts.uniquenessToken as string | undefined) ?? randomUUID();
  const find = async (): Promise<Sighting<ReasonCode>> => {
    const found = (await listReasonCodes(t)).find((c) => c.code === r.code);
    return found ? { found } : { seen: "not listed" };
  };
  return createOnce(
    t,
    {
      kind: "reason code",
      handle: r.code,
      uniquenessToken: token,
      request: {
        method: "POST",
        path: "/reason_codes.json",
        repeatable: false,
        body: {
          reason_code: { code: r.code, description: r.description, ...(r.position === undefined ? {} : { position: r.position }) },
          uniqueness_token: token,
        },
      },
      answer: reasonCodeResponse,
      result: (a) => toReasonCode(a.reason_code),
      find,
      differs: (o) => differsFrom(o.id, [["description", r.description, o.description]]),
    },
    { ...opts, uniquenessToken: token },
  );
}

/** Changes the fields given, and only those. A PUT of values, repeated like a read; after a failure that may have applied, read back. */
export async function updateReasonCode(t: Transport, reasonCodeId: unknown, input: ReasonCodeUpdateInput): Promise<ReasonCode> {
  const id = idOf(reasonCodeId, "reasonCodeId", "invalid reason code update");
  const u = parsed(reasonCodeUpdateInput, input, "invalid reason code update");
  return settledWrite(
    t,
    { method: "PUT", path: codePath(id), repeatable: true, body: { reason_code: { ...u } } },
    reasonCodeResponse,
    (a) => toReasonCode(a.reason_code),
    async () => {
      const back = await readReasonCode(t, id);
      const held =
        (u.code === undefined || back.code === u.code) &&
        (u.description === undefined || back.description === u.description) &&
        (u.position === undefined || back.position === u.position);
      return held ? back : undefined;
    },
  );
}

/**
 * Deletes a reason code (the service: "This action is not reversable"). Repeated like a read; after a failure
 * that may have applied, a read that finds nothing (404) is the deletion done.
 */
export async function deleteReasonCode(t: Transport, reasonCodeId: unknown): Promise<void> {
  const id = idOf(reasonCodeId, "reasonCodeId", "invalid reason code delete");
  await settledWrite(
    t,
    { method: "DELETE", path: codePath(id), repeatable: true },
    reasonCodeDeleteResponse,
    () => true,
    async () => {
      try {
        await readReasonCode(t, id);
        return undefined;
      } catch (err) {
        if (err instanceof BillingApiError && err.status === 404) return true;
        throw err;
      }
    },
  );
}
