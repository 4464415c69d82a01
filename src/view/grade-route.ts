import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { MedbenchError } from '../core/errors.js';
import type { HumanGrade } from '../store/human-grades.js';
import type { ReviewData } from './review-data.js';
import { GRADE_TOKEN_HEADER, type GradeResponse } from './shared/review-types.js';

/** The largest request body /api/grade reads (bytes): a verdict per criterion and a note fit many times over. */
export const GRADE_BODY_LIMIT = 64 * 1024;

/** A fresh random token per viewer start: the page shell carries it, every grade sends it back. */
export const newGradeToken = () => randomBytes(32).toString('hex');

/** Whether two strings are equal, compared in constant time (their digests, so lengths leak nothing either). */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export interface GradeAnswer {
  status: number;
  body: { error: string } | GradeResponse;
}

const refusal = (status: number, error: string): GradeAnswer => ({ status, body: { error } });

/**
 * Why a POST to /api/grade is refused before its body is read, or undefined when it may go on:
 * a viewer that grades, a same-origin request (Origin, when sent, is the viewer's own; a
 * browser's Sec-Fetch-Site, when sent, says same-origin), the page's token, a JSON body within
 * the limit. The Host check has passed already (view-server.ts).
 */
export function gradeRefusal(
  request: IncomingMessage,
  options: { token: string; grading: boolean },
): GradeAnswer | undefined {
  const headers = request.headers;
  if (!options.grading)
    return refusal(403, 'This viewer does not take grades: start it with `medbench view --reviewer NAME`.');
  if (headers.origin !== undefined && headers.origin !== `http://${headers.host}`)
    return refusal(403, `Forbidden: a grade must come from this viewer's own page, not ${headers.origin}.`);
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin')
    return refusal(403, "Forbidden: a grade must come from this viewer's own page.");
  const token = headers[GRADE_TOKEN_HEADER];
  if (typeof token !== 'string' || !sameSecret(token, options.token))
    return refusal(403, 'Forbidden: the page token is missing or stale; reload the review page.');
  if (!/^application\/json\s*(;|$)/i.test(headers['content-type'] ?? ''))
    return refusal(415, 'A grade is sent as content-type: application/json.');
  if (Number(headers['content-length'] ?? 0) > GRADE_BODY_LIMIT)
    return refusal(413, `A grade's body is at most ${GRADE_BODY_LIMIT} bytes.`);
  return undefined;
}

/** The request's body, or undefined once it passes the limit (the rest is left unread). */
export function readBody(request: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.pause();
        resolve(undefined);
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    // Closed before its end (the client went away): nothing to store.
    request.on('close', () => resolve(undefined));
    request.on('error', reject);
  });
}

/**
 * A posted grade, checked and stored: 400 with what is wrong for a body that is not a grade of
 * an item of the queue (nothing stored), 200 with the item's token, time and score otherwise.
 */
export function storeGrade(
  text: string,
  review: ReviewData,
  write: (grade: Omit<HumanGrade, 'id'>) => HumanGrade,
): GradeAnswer {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refusal(400, 'The body is not JSON: send {"suite", "task", "token", "verdicts", "note"}.');
  }
  let grade: Omit<HumanGrade, 'id'>;
  try {
    grade = review.gradeOf(body, new Date().toISOString());
  } catch (error) {
    if (MedbenchError.is(error) && error.code === 'USAGE') return refusal(400, error.message);
    throw error;
  }
  const stored = write(grade);
  const { token } = body as { token: string };
  return { status: 200, body: { token, gradedAt: stored.gradedAt, score: stored.score } };
}

/**
 * POST /api/grade, start to end: refused (403, 413, 415) before the body is read, the body read
 * within the limit, checked and stored. A request left partly unread closes its connection.
 */
export async function answerGrade(
  request: IncomingMessage,
  options: { token: string; review: ReviewData; write?: (grade: Omit<HumanGrade, 'id'>) => HumanGrade },
  send: (answer: GradeAnswer & { close?: boolean }) => void,
): Promise<void> {
  const refused = gradeRefusal(request, { token: options.token, grading: options.write !== undefined });
  if (refused) return send({ ...refused, close: true });
  const text = await readBody(request, GRADE_BODY_LIMIT).catch(() => undefined);
  if (text === undefined)
    return send({ ...refusal(413, `A grade's body is at most ${GRADE_BODY_LIMIT} bytes.`), close: true });
  try {
    send(storeGrade(text, options.review, options.write!));
  } catch (error) {
    // The store refused the write (busy, damaged): its message, as the CLI prints it.
    const known = MedbenchError.is(error) ? `[${error.code}] ` : '';
    send(refusal(500, `${known}${(error as Error).message}`));
  }
}
