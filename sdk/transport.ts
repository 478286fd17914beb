import { Pool, interceptors, type Dispatcher } from "undici";
import type { z } from "zod";
import { BillingApiError, BillingConnectionError } from "./errors";
import type { Connection } from "./options";
import { RETRYABLE_ERROR_CODES, RETRYABLE_STATUS, undiciRetry } from "./retry";
import { errorListResponse } from "./wire";

/** One request as the operations describe it. */
export interface ApiRequest {
  readonly method: "GET" | "POST" | "PUT";
  /** Path below the base URL, e.g. `/webhooks/replay.json`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  readonly body?: unknown;
  /**
   * Whether a failed attempt may be repeated transparently. False for the
   * migration POST: the SDK resolves its ambiguous failures by reading back.
   */
  readonly retry: boolean;
}

/** An HTTP answer: status and parsed JSON body (undefined when empty or not JSON). */
export interface ApiResponse {
  readonly status: number;
  readonly body: unknown;
}

/**
 * The SDK's only request path. One undici Pool per client caps requests in
 * flight at `maxConcurrency` (the service refuses a 5th per site); the retrying
 * dispatcher is the same pool composed with undici's retry interceptor, so
 * retried and non-retried calls share the cap.
 */
export class Transport {
  // Private fields: never visible to JSON.stringify, util.inspect or closure capture of errors.
  readonly #authorization: string;
  readonly #pool: Pool;
  readonly #retrying: Dispatcher;
  readonly #basePath: string;
  readonly #timeoutMs: number;

  constructor(connection: Connection) {
    this.#authorization = connection.authorization;
    this.#basePath = connection.basePath;
    this.#timeoutMs = connection.timeoutMs;
    this.#pool = new Pool(connection.origin, {
      connections: connection.maxConcurrency,
      pipelining: 1,
      keepAliveTimeout: 4_000,
    });
    this.#retrying = this.#pool.compose(interceptors.retry({
      throwOnError: false,
      maxRetries: connection.maxRetries,
      methods: ["GET", "PUT", "POST"],
      statusCodes: [...RETRYABLE_STATUS],
      errorCodes: [...RETRYABLE_ERROR_CODES],
      retry: undiciRetry(connection.maxRetries, connection.retryBaseDelayMs),
    }));
  }

  /** Sends one request; HTTP errors come back as responses, transport failures throw. */
  async send(req: ApiRequest): Promise<ApiResponse> {
    const path = this.#basePath + req.path + queryString(req.query);
    const dispatcher = req.retry ? this.#retrying : this.#pool;
    try {
      const res = await dispatcher.request({
        method: req.method,
        path,
        headers: {
          accept: "application/json",
          authorization: this.#authorization,
          ...(req.body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
      });
      const text = await res.body.text();
      return { status: res.statusCode, body: parseJson(text) };
    } catch (err) {
      const e = err as { code?: string; message?: string };
      // Rebuilt from the code and message only: undici errors can carry request details.
      throw new BillingConnectionError({ method: req.method, path: req.path, code: e.code, message: e.message ?? "request failed" });
    }
  }

  /** Sends, then parses a 2xx body with `schema`, or throws a typed error. */
  async call<S extends z.ZodType>(req: ApiRequest, schema: S): Promise<z.output<S>> {
    const res = await this.send(req);
    return expectOk(req, res, schema);
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }
}

/** Parses a 2xx body with `schema`; anything else becomes a {@link BillingApiError}. */
export function expectOk<S extends z.ZodType>(req: Pick<ApiRequest, "method" | "path">, res: ApiResponse, schema: S): z.output<S> {
  if (res.status < 200 || res.status >= 300) throw apiError(req, res);
  const parsed = schema.safeParse(res.body);
  if (!parsed.success) {
    throw new BillingApiError({
      status: res.status, errors: [], method: req.method, path: req.path,
      message: `${req.method} ${req.path} answered ${res.status} with a body this SDK does not understand: ${parsed.error.issues
        .slice(0, 3).map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`).join("; ")}`,
    });
  }
  return parsed.data;
}

export function apiError(req: Pick<ApiRequest, "method" | "path">, res: ApiResponse): BillingApiError {
  const list = errorListResponse.safeParse(res.body);
  return new BillingApiError({ status: res.status, errors: list.success ? list.data.errors : [], method: req.method, path: req.path });
}

function queryString(query: ApiRequest["query"]): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : "";
}

function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
