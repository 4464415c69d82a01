import { MedbenchError } from '../core/errors.js';
import { rememberSecret } from './known-secrets.js';

/**
 * An endpoint's headers: fixed values as they are, `{ env }` values read from the environment
 * (kept apart as secrets: sent, never shown, stored or part of the endpoint's identity).
 */
export function endpointHeaders(
  headers: Record<string, string | { env: string }> | undefined,
  environment: NodeJS.ProcessEnv,
): { headers: Record<string, string>; secretHeaders: Record<string, string> } {
  const fixed: Record<string, string> = {};
  const secret: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (typeof value === 'string') {
      fixed[name] = value;
      continue;
    }
    const read = environment[value.env];
    rememberSecret(read);
    if (!read)
      throw new MedbenchError({
        code: 'MISSING_SECRET',
        message: `The environment variable ${value.env} (for the header ${name}) is not set.`,
        hint: `Export ${value.env}; medbench sends it as ${name} and never stores it.`,
      });
    secret[name] = read;
  }
  return { headers: fixed, secretHeaders: secret };
}
