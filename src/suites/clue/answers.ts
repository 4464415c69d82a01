/** MedNLI: correct iff the gold label, upper-cased, occurs exactly once in the upper-cased output. */
export function mednliCorrect(output: string, goldLabel: string): boolean {
  const label = goldLabel.toUpperCase();
  const text = output.toUpperCase();
  let count = 0;
  for (let position = text.indexOf(label); position !== -1; position = text.indexOf(label, position + 1))
    count++;
  return count === 1;
}

/** LongHealth: the letter of the first "The correct answer is X" in the output, or undefined. */
export function longHealthChoice(output: string): string | undefined {
  return /The correct answer is ([A-F])\b/.exec(output)?.[1];
}
