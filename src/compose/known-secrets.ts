/** Every API key this process read from the environment, to be taken out of any text it prints. */
const secrets = new Set<string>();

/** Notes a key read from the environment (only its value, never where it is shown). */
export function rememberSecret(value: string | undefined): void {
  if (value && value.length >= 4) secrets.add(value);
}

/** `text` with every key this process read replaced by "[redacted]". */
export function redactKnownSecrets(text: string): string {
  let redacted = text;
  for (const secret of [...secrets].sort((left, right) => right.length - left.length))
    redacted = redacted.split(secret).join('[redacted]');
  return redacted;
}

/** A failed line's reason as listed: keys taken out first (a key cut in half would no longer match), then shortened. */
export function shortReason(failure: string): string {
  const [status, ...rest] = failure.split(': ');
  const detail = rest.join(': ');
  return detail ? `${status}: ${redactKnownSecrets(detail).slice(0, 200)}` : redactKnownSecrets(failure);
}
