import { type Answer, errorList, json } from "./answers";
import { pageOf, paging, positiveInt } from "./query";
import type { ReasonCodeRecord } from "./records-site";
import { asList, parse } from "./refusals";
import { SITE_ID } from "./render-site";
import type { RouteRequest } from "./routes";
import type { Site } from "./site";
import { SiteError } from "./site-error";
import { reasonCodeBody, reasonCodeUpdateBody } from "./wire-site-config";

/**
 * Churn reason codes. Refusals are error lists (createReasonCode's published
 * 422). A create answers 201: the contract publishes 200, but the vendor's
 * end-to-end suite, run against a real site, expects 201 of it
 * (maxio-com/ab-typescript-sdk, e2e/src/reasonCodesController/reasonCodes.spec.ts:
 * `expect(createResponse.statusCode).toBe(201)`); tests/contract/validator.ts
 * patches the contract for it. A delete answers `{"ok": "ok"}` (published).
 */

export function renderReasonCode(r: ReasonCodeRecord) {
  return {
    id: r.id,
    site_id: SITE_ID,
    code: r.code,
    description: r.description,
    position: r.position,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}

const answer = (r: ReasonCodeRecord, status = 200) => json(status, { reason_code: renderReasonCode(r) });

function reasonCodeOf(site: Site, ref: string): ReasonCodeRecord {
  const id = positiveInt(ref);
  if (id === undefined) throw new SiteError(404, "Reason code not found");
  return site.reasonCodes.get(id);
}

/** POST /reason_codes.json → 201. */
export function createReasonCode(site: Site, _p: string[], req: RouteRequest): Answer {
  return asList(() => answer(site.reasonCodes.create(parse(reasonCodeBody, req.body, "reason_code")), 201));
}

/** GET /reason_codes.json: by position, 20 a page (the contract's default). */
export function listReasonCodes(site: Site, _p: string[], req: RouteRequest): Answer {
  const pages = paging(req.query, 20);
  if (typeof pages === "string") return errorList(422, pages);
  return json(
    200,
    pageOf(site.reasonCodes.list(), pages).map((r) => ({ reason_code: renderReasonCode(r) })),
  );
}

export function readReasonCode(site: Site, [ref]: string[]): Answer {
  return answer(reasonCodeOf(site, ref));
}

export function updateReasonCode(site: Site, [ref]: string[], req: RouteRequest): Answer {
  const r = reasonCodeOf(site, ref);
  return asList(() => answer(site.reasonCodes.update(r, parse(reasonCodeUpdateBody, req.body, "reason_code"))));
}

export function deleteReasonCode(site: Site, [ref]: string[]): Answer {
  site.reasonCodes.delete(reasonCodeOf(site, ref));
  return json(200, { ok: "ok" });
}
