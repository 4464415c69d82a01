import { MedbenchError } from '../../core/errors.js';

/**
 * The generate commands share `run`'s model and retry options, but not these: the generated text
 * is the product (it cannot be redacted), and a generation runs whole (re-running resumes it).
 */
export function refuseRunOnlyOptions(command: string, options: object): void {
  const given = ['redact', 'dryRun', 'shard', 'task'].filter(
    (name) => (options as Record<string, unknown>)[name] !== undefined,
  );
  if (given.length > 0)
    throw new MedbenchError({
      code: 'USAGE',
      message: `${command} does not take ${given.map((name) => `--${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`).join(', ')}`,
      hint: 'The generated text is the product (it cannot be redacted), and a generation runs whole; running it again resumes it.',
    });
}
