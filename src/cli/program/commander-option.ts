import { Option } from 'commander';
import type { CommandOption } from '../../compose/suite-plugin.js';
import { checked } from './program-context.js';

/** A commander option from a suite's declaration. */
export function commanderOption(declared: CommandOption): Option {
  const option = new Option(declared.flags, declared.description);
  if (declared.default !== undefined) option.default(declared.default);
  if (declared.choices) option.choices(declared.choices);
  if (declared.required) option.makeOptionMandatory();
  const parse = declared.parse;
  if (parse)
    option.argParser((value: string, previous: unknown) => checked((text) => parse(text, previous))(value));
  return option;
}
