import { createHash, timingSafeEqual } from "node:crypto";

/** What a request must present, kept as digests: the simulator never holds a secret it could log. */
export interface Credentials {
  basic: Buffer;
  bearer: Buffer | undefined;
}

export function credentialsOf(apiKey: string, accessToken: string | undefined): Credentials {
  return { basic: digest(apiKey), bearer: accessToken === undefined ? undefined : digest(accessToken) };
}

function digest(s: string): Buffer {
  return createHash("sha256").update(s).digest();
}

/** Basic `<key>:x` or Bearer `<token>`; compared by digest so timing says nothing about the secret. */
export function authorized(header: string | undefined, creds: Credentials): boolean {
  if (!header) return false;
  const space = header.indexOf(" ");
  if (space < 0) return false;
  const scheme = header.slice(0, space).toLowerCase();
  const value = header.slice(space + 1).trim();
  if (scheme === "basic") {
    const decoded = Buffer.from(value, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) return false;
    return timingSafeEqual(digest(decoded.slice(0, colon)), creds.basic) && decoded.slice(colon + 1) === "x";
  }
  if (scheme === "bearer") return creds.bearer !== undefined && timingSafeEqual(digest(value), creds.bearer);
  return false;
}
