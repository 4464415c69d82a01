import {
  GRADE_ROUTE,
  GRADE_TOKEN_HEADER,
  GRADE_TOKEN_META,
  type GradeRequest,
  type GradeResponse,
} from '../shared/review-types.js';

/** A review payload from the server, read fresh each time (grades change it). */
export async function reviewApi<T>(route: string, parameters: Record<string, string>): Promise<T> {
  const response = await fetch(`api/${route}?${new URLSearchParams(parameters)}`);
  if (!response.ok) throw new Error(response.status === 404 ? 'Not found.' : `HTTP ${response.status}`);
  return (await response.json()) as T;
}

/** Posts a grade with the page's token; the server's message when it refuses. */
export async function postGrade(request: GradeRequest): Promise<GradeResponse> {
  const token = document.querySelector(`meta[name="${GRADE_TOKEN_META}"]`)?.getAttribute('content') ?? '';
  const response = await fetch(GRADE_ROUTE, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [GRADE_TOKEN_HEADER]: token },
    body: JSON.stringify(request),
  });
  const body = (await response.json().catch(() => ({ error: `HTTP ${response.status}` }))) as
    | GradeResponse
    | { error: string };
  if (!response.ok || 'error' in body)
    throw new Error('error' in body ? body.error : `HTTP ${response.status}`);
  return body;
}
