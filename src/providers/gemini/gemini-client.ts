import type { GoogleGenAI } from '@google/genai';
import { loadOptionalPart, OPTIONAL_PARTS } from '../../core/optional-part.js';
import { endpointIdentityWithHeaders, withQuery } from '../endpoint-identity.js';
import { parseRetryAfter } from '../http-json.js';

/** The Gemini API (a key) or Vertex AI (project and location, Application Default Credentials). */
export interface GeminiConnection {
  apiKey?: string;
  apiKeyEnv?: string;
  vertex?: { project: string; location: string };
  /** Another API URL (a private endpoint; a local server in tests). */
  baseURL?: string;
  /** Headers for every request: fixed ones (part of the endpoint's identity) and secret ones. */
  headers?: Record<string, string>;
  secretHeaders?: Record<string, string>;
  /** Query parameters for every request (a gateway's own). */
  query?: Record<string, string>;
}

const GEMINI_API = 'https://generativelanguage.googleapis.com';

/** The endpoint's identity: the API's URL, with project and location on Vertex AI. */
export function geminiIdentity(connection: GeminiConnection): string {
  const { vertex } = connection;
  const base =
    connection.baseURL ?? (vertex ? `https://${vertex.location}-aiplatform.googleapis.com` : GEMINI_API);
  const url = vertex
    ? `${base.replace(/\/+$/, '')}/projects/${vertex.project}/locations/${vertex.location}`
    : base;
  // Query and fixed headers may route to another server (a gateway): they are part of it.
  return endpointIdentityWithHeaders(withQuery(url, connection.query), connection.headers);
}

/** The SDK (@google/genai, an optional part): PART_MISSING with its install command when it is not installed. */
export function loadGeminiSdk(): Promise<typeof import('@google/genai')> {
  return loadOptionalPart(OPTIONAL_PARTS.gemini, () => import('@google/genai'));
}

/** The SDK client; its own retries stay off (the runner retries). */
export async function geminiClient(connection: GeminiConnection): Promise<GoogleGenAI> {
  const { GoogleGenAI } = await loadGeminiSdk();
  const { vertex } = connection;
  const httpOptions = {
    ...(connection.baseURL ? { baseUrl: connection.baseURL } : {}),
    headers: { ...connection.headers, ...connection.secretHeaders },
  };
  return vertex
    ? new GoogleGenAI({ vertexai: true, project: vertex.project, location: vertex.location, httpOptions })
    : new GoogleGenAI({ apiKey: connection.apiKey ?? '', httpOptions });
}

/** How to fix refused credentials. */
export function geminiAuthHint(connection: GeminiConnection): string {
  if (connection.vertex)
    return 'Vertex AI signs in with Application Default Credentials: GOOGLE_APPLICATION_CREDENTIALS (a service-account key file), `gcloud auth application-default login`, or the attached service account; it needs the role "Vertex AI User" on the project.';
  return `Set ${connection.apiKeyEnv ?? 'GEMINI_API_KEY'} to a valid Gemini API key.`;
}

/** What must never show in an error: the key and every header value. */
export function geminiSecrets(connection: GeminiConnection): string[] {
  return [
    connection.apiKey ?? '',
    ...Object.values(connection.headers ?? {}),
    ...Object.values(connection.secretHeaders ?? {}),
  ];
}

/** One SDK call's fetch, and what it saw: whether a request went out, the answer's Retry-After. */
export interface WatchedFetch {
  fetch: typeof fetch;
  /** False while the SDK has sent nothing (it may refuse a request before sending it). */
  sent: boolean;
  /** The SDK reports a failed call's body, not its headers: Retry-After is read on the way. */
  retryAfterMs: number | undefined;
}

/**
 * The fetch given to one SDK call (`httpOptions.fetch`): the endpoint's query parameters added to
 * the URL (the SDK has no setting for them), and the call watched.
 */
export function watchedFetch(connection: GeminiConnection): WatchedFetch {
  const watched: WatchedFetch = {
    sent: false,
    retryAfterMs: undefined,
    fetch: async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      for (const [name, value] of Object.entries(connection.query ?? {})) url.searchParams.set(name, value);
      watched.sent = true;
      const response = await fetch(input instanceof Request ? new Request(url, input) : url, init);
      watched.retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      return response;
    },
  };
  return watched;
}

/**
 * The signal one SDK call is given: a fresh one that follows the caller's. The SDK leaves its abort
 * listener on the signal it is given after a call that succeeds; given the caller's own (a run's,
 * shared by every call), they piled up, one per call, for the whole run (Node 20 printed a
 * MaxListenersExceededWarning; Node 22 and later no longer warn for AbortSignal). `done` takes
 * this call's one listener off the caller's signal once the call is over.
 */
export function callSignal(signal: AbortSignal | undefined): { signal?: AbortSignal; done: () => void } {
  if (!signal) return { done: () => {} };
  const call = new AbortController();
  const follow = () => call.abort(signal.reason);
  if (signal.aborted) follow();
  else signal.addEventListener('abort', follow, { once: true });
  return { signal: call.signal, done: () => signal.removeEventListener('abort', follow) };
}
