/**
 * MedNLI: correct iff the gold label, upper-cased, occurs exactly once in the upper-cased output
 * (the scripts' `re.findall`, which counts non-overlapping matches).
 */
export function mednliCorrect(output: string, goldLabel: string): boolean {
  const label = goldLabel.toUpperCase();
  const text = output.toUpperCase();
  let count = 0;
  for (
    let position = text.indexOf(label);
    position !== -1;
    position = text.indexOf(label, position + label.length)
  )
    count++;
  return count === 1;
}
