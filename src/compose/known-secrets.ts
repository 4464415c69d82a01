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
