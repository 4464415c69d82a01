import { type Command, Option } from 'commander';

/**
 * Flags spelled two ways across commands, each accepted wherever the other is: `--task` and
 * `--tasks` (a comma list everywhere), `--tokenizer` and `--tokenizers`. The spelling a command
 * documents stays in its help; the other is a hidden alias.
 */
const SPELLINGS: ReadonlyArray<readonly [string, string]> = [
  ['--task', '--tasks'],
  ['--tokenizer', '--tokenizers'],
];

/** The option of `command` whose long flag is `flag`. */
const optionOf = (command: Command, flag: string) => command.options.find((option) => option.long === flag);

function hiddenAlias(command: Command, flags: string): Option {
  const option = new Option(flags).hideHelp();
  command.addOption(option);
  return option;
}

/** Adds the hidden aliases to `command` and its subcommands; a value given either way reaches both names. */
export function addFlagAliases(command: Command): void {
  for (const pair of SPELLINGS) {
    const declared = pair.map((flag) => optionOf(command, flag));
    const shown = declared.find((option) => option !== undefined);
    if (!shown) continue;
    const argument = shown.flags.slice(shown.flags.indexOf(shown.long!) + shown.long!.length);
    const options = pair.map((flag, index) => declared[index] ?? hiddenAlias(command, `${flag}${argument}`));
    const names = options.map((option) => option.attributeName());
    command.hook('preAction', (self) => {
      const given = names.find((name) => self.getOptionValueSource(name) === 'cli');
      if (given === undefined) return;
      for (const name of names)
        if (self.getOptionValueSource(name) !== 'cli')
          self.setOptionValueWithSource(name, self.getOptionValue(given), 'cli');
    });
  }
  for (const subcommand of command.commands) addFlagAliases(subcommand);
}
