import { Command, InvalidArgumentError } from 'commander';
import { redactKnownSecrets } from '../../compose/known-secrets.js';
import { type NumberRule, parseNumber } from '../../compose/parse-options.js';
import type { SuitePlugin } from '../../compose/suite-plugin.js';
import type { CommandOutput } from '../../core/command-output.js';
import { fileError, isFileSystemError, MedbenchError } from '../../core/errors.js';
import { EXIT } from '../run-session.js';
import { usageHint } from './usage-hint.js';

/** What every command definition needs: where output goes, and the global --home. */
export interface ProgramContext {
  output: CommandOutput;
  /** The suites the program knows, with their commands and runs (`SUITE_PLUGINS`, or a test's own list). */
  plugins: readonly SuitePlugin[];
  /** The command's options with the global --home, when it was given. */
  withHome<Options extends object>(options: Options): Options & { home?: string };
}

/** Prints one clear error: code, message, and how to fix it; returns the exit code. */
export function printError(error: unknown): number {
  if (MedbenchError.is(error)) {
    process.stderr.write(redactKnownSecrets(`medbench: error [${error.code}] ${error.message}\n`));
    if (error.hint) process.stderr.write(redactKnownSecrets(`  hint: ${error.hint}\n`));
    return error.code === 'USAGE' ? EXIT.usage : EXIT.failed;
  }
  if (isFileSystemError(error)) {
    // A file medbench did not expect to fail on: still a clear message, not a stack trace.
    const action = /write|open|mkdir|rename|unlink|copy/.test(error.syscall ?? '') ? 'write' : 'read';
    return printError(fileError(error, { path: error.path ?? '(a file)', action }));
  }
  process.stderr.write(
    redactKnownSecrets(`medbench: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`),
  );
  return EXIT.failed;
}

/** A command's action: errors printed as `printError` does, with the usage line for usage errors. */
export function action<Arguments extends unknown[]>(handler: (...args: Arguments) => unknown) {
  return async (...args: Arguments) => {
    try {
      await handler(...args);
    } catch (error) {
      process.exitCode = printError(error);
      // A usage error also says where the command's options are (commander passes it last).
      const command = args.at(-1);
      if (MedbenchError.is(error) && error.code === 'USAGE' && command instanceof Command)
        process.stderr.write(`  ${usageHint(command)}\n`);
    }
  };
}

/** An option's value parsed and checked, or commander's usage error (exit 2) naming the option. */
export function checked<T>(parse: (value: string) => T) {
  return (value: string): T => {
    try {
      return parse(value);
    } catch (error) {
      if (MedbenchError.is(error)) throw new InvalidArgumentError(error.message.replace(/^--[\w-]+: /, ''));
      throw error;
    }
  };
}

export const integer = (flag: string, rule: NumberRule = {}) =>
  checked((value) => parseNumber(flag, value, { ...rule, integer: true }));
export const decimal = (flag: string, rule: NumberRule = {}) =>
  checked((value) => parseNumber(flag, value, { ...rule, integer: false }));
