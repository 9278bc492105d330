/**
 * The one HTTP client of the web app (spec §7): cookies on every call, the CSRF token on every
 * non-GET call (fetched once, cached, dropped after a 403 so the next call fetches a fresh one),
 * JSON bodies with a JSON content type, and errors whose message is 'status: body'.
 */
import { takeEmbeddedAnswer } from './embedded-answers';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** The answer's body as text. */
    readonly body: string,
    statusText: string,
  ) {
    super(`${status}: ${body || statusText || 'Request failed'}`);
    this.name = 'ApiError';
  }

  /** The server's own words (`{ message }` in its JSON errors), when it sent any. */
  get serverMessage(): string | undefined {
    try {
      const parsed = JSON.parse(this.body) as { message?: unknown; error?: unknown };
      if (typeof parsed.message === 'string') return parsed.message;
      if (typeof parsed.error === 'string') return parsed.error;
    } catch {
      // A plain-text body is its own message.
      if (this.body) return this.body;
    }
    return undefined;
  }
}

/** fetch itself failed: the server was unreachable or the connection dropped. */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('Network error occurred', { cause });
    this.name = 'NetworkError';
  }
}

let csrfToken: Promise<string> | undefined;

export function clearCsrfToken(): void {
  csrfToken = undefined;
}

/** Signing in starts a new session whose token comes with the answer. */
export function rememberCsrfToken(token: string): void {
  csrfToken = Promise.resolve(token);
}

function csrf(): Promise<string> {
  csrfToken ??= request<{ csrfToken: string }>('GET', '/api/csrf-token').then(
    (answer) => answer.csrfToken,
    (error: unknown) => {
      csrfToken = undefined;
      throw error;
    },
  );
  return csrfToken;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  /** Sent as JSON; a FormData body is sent as multipart. */
  body?: unknown;
  signal?: AbortSignal;
  /** The browser HTTP cache mode; 'no-cache' revalidates an answer the server let caches keep. */
  cache?: RequestCache;
}

async function send(method: Method, path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  if (method !== 'GET') headers['x-csrf-token'] = await csrf();
  try {
    return await fetch(path, {
      method,
      headers,
      body,
      credentials: 'include',
      signal: options.signal ?? null,
      ...(options.cache ? { cache: options.cache } : {}),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new NetworkError(error);
  }
}

async function checked(method: Method, response: Response): Promise<Response> {
  if (response.ok) return response;
  if (response.status === 403 && method !== 'GET') clearCsrfToken();
  throw new ApiError(response.status, await response.text().catch(() => ''), response.statusText);
}

/** A call answering JSON (or nothing: 204 gives undefined). */
export async function request<T>(
  method: Method,
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  if (method === 'GET') {
    const embedded = takeEmbeddedAnswer(path);
    if (embedded) return embedded.answer as T;
  }
  const response = await checked(method, await send(method, path, options));
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A call answering a file: its bytes and the name from Content-Disposition. */
export async function requestFile(
  method: Method,
  path: string,
  fallbackName: string,
  options: RequestOptions = {},
): Promise<{ blob: Blob; filename: string }> {
  const response = await checked(method, await send(method, path, options));
  const disposition = response.headers.get('content-disposition') ?? '';
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  const filename = match?.[1] ? decodeURIComponent(match[1]) : fallbackName;
  return { blob: await response.blob(), filename };
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PUT', path, { ...options, body }),
};

/** The message a person sees for a failed call: the server's words, else the fallback. */
export function messageOf(error: unknown, fallback: string): string {
  if (error instanceof NetworkError) return error.message;
  if (error instanceof ApiError) return error.serverMessage ?? fallback;
  return fallback;
}
