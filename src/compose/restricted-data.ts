import { isIP } from 'node:net';
import { MedbenchError } from '../core/errors.js';
import type { ModelBinding } from '../runner/model-binding.js';

/** Why a run's text may only go to approved endpoints: what is restricted and under which terms. */
export interface DataRestriction {
  /** What is restricted, as the user knows it: "CLUE MedNLI, MeDiSumQA", "data/notes.jsonl". */
  what: string;
  /** Why: "derived from MIMIC (PhysioNet credentialed data)", "marked restricted (--restricted)". */
  why: string;
}

/** Hosts on this machine: a server reached there runs under the user's control. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || /^::ffff:127\./.test(host);
  return false;
}

/**
 * Whether an endpoint may receive restricted text, and why. In-process models (the baselines,
 * endpoint "") and servers on this machine's loopback addresses may, unless the config refuses
 * them; any other address only when the config approves it (`restrictedDataApproved: true`):
 * medbench cannot know whether a remote service's terms allow credentialed data.
 */
export function mayReceiveRestricted(
  endpoint: string,
  approved: boolean | undefined,
): { allowed: boolean; reason: string } {
  if (approved === true) return { allowed: true, reason: 'approved in the config' };
  if (approved === false) return { allowed: false, reason: 'refused in the config' };
  if (endpoint === '') return { allowed: true, reason: 'runs in this process' };
  let hostname: string;
  try {
    hostname = new URL(endpoint).hostname;
  } catch {
    return { allowed: false, reason: 'not a URL medbench can place' };
  }
  return isLoopbackHost(hostname)
    ? { allowed: true, reason: 'a server on this machine' }
    : { allowed: false, reason: 'a remote endpoint not approved in the config' };
}

/**
 * Refuses, before anything is sent or stored, to send restricted text to any of `endpoints`
 * that may not receive it. The error names each such endpoint (never its key) and how to
 * approve one.
 */
export function refuseUnapproved(
  restriction: DataRestriction | undefined,
  label: string,
  endpoints: ReadonlyArray<{ endpoint: string; approved: boolean | undefined }>,
): void {
  if (!restriction) return;
  const refused = endpoints
    .map((entry) => ({
      endpoint: entry.endpoint,
      verdict: mayReceiveRestricted(entry.endpoint, entry.approved),
    }))
    .filter((entry) => !entry.verdict.allowed);
  if (refused.length === 0) return;
  const list = refused.map((entry) => `${entry.endpoint} (${entry.verdict.reason})`).join(', ');
  throw new MedbenchError({
    code: 'DATA_RESTRICTED',
    message: `${restriction.what} is restricted (${restriction.why}); nothing was sent: ${label} would send it to ${list}.`,
    hint:
      "PhysioNet's credentialed-data agreement forbids sending MIMIC-derived text to third parties such as OpenAI's public API. " +
      'Use a model served on this machine, or a service whose terms allow it (PhysioNet names Azure OpenAI with human review opted out, ' +
      'Amazon Bedrock, Gemini on Vertex AI and Anthropic), and approve its endpoint in medbench.config.json: ' +
      '"endpoints": [{ "baseURL": "…", "restrictedDataApproved": true }] (an embedding model: "restrictedDataApproved": true beside its baseURL). See docs/credentialed-data.md.',
  });
}

/** `refuseUnapproved` for every endpoint of a chat model binding. */
export function checkRestrictedData(model: ModelBinding, restriction: DataRestriction | undefined): void {
  refuseUnapproved(
    restriction,
    model.label,
    model.endpoints.map((entry) => ({
      endpoint: entry.model.endpoint,
      approved: entry.restrictedDataApproved,
    })),
  );
}
