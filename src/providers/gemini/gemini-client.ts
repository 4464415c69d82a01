import type { GoogleGenAI } from '@google/genai';
import { endpointIdentity } from '../endpoint-identity.js';

/** The Gemini API (a key) or Vertex AI (project and location, Application Default Credentials). */
export interface GeminiConnection {
  apiKey?: string;
  apiKeyEnv?: string;
  vertex?: { project: string; location: string };
  /** Another API URL (a private endpoint; a local server in tests). */
  baseURL?: string;
  /** Headers for every request (fixed and secret values alike). */
  headers?: Record<string, string>;
}

const GEMINI_API = 'https://generativelanguage.googleapis.com';

/** The endpoint's identity: the API's URL, with project and location on Vertex AI. */
export function geminiIdentity(connection: GeminiConnection): string {
  const { vertex } = connection;
  const base =
    connection.baseURL ?? (vertex ? `https://${vertex.location}-aiplatform.googleapis.com` : GEMINI_API);
  return endpointIdentity(
    vertex ? `${base.replace(/\/+$/, '')}/projects/${vertex.project}/locations/${vertex.location}` : base,
  );
}

/** The SDK client; its own retries stay off (the runner retries). */
export async function geminiClient(connection: GeminiConnection): Promise<GoogleGenAI> {
  const { GoogleGenAI } = await import('@google/genai');
  const { vertex } = connection;
  const httpOptions = {
    ...(connection.baseURL ? { baseUrl: connection.baseURL } : {}),
    ...(connection.headers ? { headers: connection.headers } : {}),
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
  return [connection.apiKey ?? '', ...Object.values(connection.headers ?? {})];
}
