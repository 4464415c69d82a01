import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  factExtractionMessages,
  findInstructions,
  instructionsOf,
  llama3Prompt,
  pythonStrip,
  questionAnswersOf,
  questionMessages,
  statementsOf,
} from './medisumqa-generation.js';
import { MEDISUMQA_GENERATION_TEXT } from './medisumqa-generation-text.js';
import { formatMeDiSumQaLines, postProcessQas } from './post-process-qas.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe("MeDiSumQA generation's strings", () => {
  it("equal prompts.py's and example_statements.txt's (SHA-256 of the originals at b434ea4)", () => {
    // python3 -c "import prompts, hashlib; print(hashlib.sha256(prompts.<name>.encode()).hexdigest())"
    expect(
      Object.fromEntries(
        Object.entries(MEDISUMQA_GENERATION_TEXT).map(([key, text]) => [key, [text.length, sha256(text)]]),
      ),
    ).toEqual({
      factExtractionSystem: [721, 'c51c87465169c24d70e7b0e3efb79187e93e998965f0dccaf9efc223f5a2709f'],
      factExtractionUser: [127, '8146a9a060bb499c982991e74680ddeaf6e422a9ea517a14f1431dfb4a4f2f38'],
      factExtractionAnswer: [13, 'cdf0f3d10b68f760769e4894169cc5c26adcead090229477b33cacab530beda8'],
      questionSystem: [481, '914e8950471baaf4f8fa1046ab52abb073a169427778831a01039ec64d85dc19'],
      questionExampleInput: [658, 'e77d83b07a725403fb019261a3a5d1cf96190ea679b682d59e49939dd58a6c3b'],
      questionExampleOutput: [1196, '2b32f05ec1c5def82147a88150edc1008fbeca53eeac40edcef19c2976aeff9d'],
      questionUser: [26, '1219a506b90efb68f92e731435db29aaf2e9efc6a01474a83975befe753ba193'],
      exampleStatements: [1254, 'dd5ffe7838a06cb69b62f78eb5189743954bc495b720ce0a5e1984326fb071b5'],
    });
  });
});

describe('what of a note the model reads', () => {
  it("strips Python's whitespace, not JavaScript's", () => {
    expect(pythonStrip('\x1c\x85 a b\u3000\x1f')).toBe('a b');
    // U+FEFF is whitespace to String.prototype.trim, not to str.strip.
    expect(pythonStrip('\ufeffa')).toBe('\ufeffa');
  });

  it('splits paragraphs at two blank lines, keeps "Discharge Instructions" ones, drops their first line and what follows "It was a pleasure"', () => {
    const note =
      'Chief Complaint:\nfever\n \n\nDISCHARGE INSTRUCTIONS:\nDear Ms. ___,\n\nYou were admitted to the hospital for fever.\nIt was a pleasure to care for you.\n\n\n  discharge instructions (cont.)\nTake Tylenol.\n\n\nFollowup Instructions:\n___';
    expect(findInstructions(note)).toEqual({
      instructions: [
        'DISCHARGE INSTRUCTIONS:\nDear Ms. ___,\n\nYou were admitted to the hospital for fever.\nIt was a pleasure to care for you.',
        'discharge instructions (cont.)\nTake Tylenol.',
      ],
      withoutInstructions: 'Chief Complaint:\nfever\n\nFollowup Instructions:\n___',
    });
    // Joined by one newline; the first line of the whole (not of each paragraph) dropped.
    expect(instructionsOf(note).instructions).toBe(
      'Dear Ms. ___,\n\nYou were admitted to the hospital for fever.\n',
    );
    expect(instructionsOf('Discharge Instructions:\nRest.\nFollowup Instructions: none').instructions).toBe(
      'Rest.\n',
    );
    expect(instructionsOf('no such section').instructions).toBe('');
  });
});

describe('the conversations and what is kept of the answers', () => {
  it("renders Meta-Llama-3-Instruct's chat template with each message stripped, then the prefill", () => {
    expect(
      llama3Prompt(
        [
          { role: 'system', content: 'S' },
          { role: 'user', content: '\nU\n' },
        ],
        '\nStatements:\n- ',
      ),
    ).toBe(
      '<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nS<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nU<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n\nStatements:\n- ',
    );
  });

  it('fills the slots as str.format does: the example, its statements, the note; the statements as a dash list', () => {
    const messages = factExtractionMessages('EXAMPLE', 'NOTE');
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(messages[1]!.content).toBe(
      '\n--------------BEGIN DISCHARGE INSTRUCTIONS--------------\nEXAMPLE\n--------------END DISCHARGE INSTRUCTIONS--------------',
    );
    expect(
      messages[2]!.content.startsWith('\nStatements:\n- The patient was admitted to the hospital due to'),
    ).toBe(true);
    expect(messages[3]!.content).toContain('--------------\nNOTE\n--------------');
    expect(questionMessages(['A.', 'B.']).at(-1)!.content).toBe('\nStatements:\n- A.\n- B.\n');
    expect(questionMessages([]).at(-1)!.content).toBe('\nStatements:\n- \n');
  });

  it('keeps "- " and "* " lines without anonymised names, and questions whose answer is a statement', () => {
    const statements = statementsOf(
      'A was found. \n* B was given.\n- Dr. ___ saw C.\n-no space\n  - D improved.<|eot_id|>- E',
    );
    expect(statements).toEqual(['A was found.', 'B was given.', 'D improved.']);
    const generation =
      'What was found?\nAnswer: A was found.\nQuestion: What was given?\nAnswer:  B was given. \nQuestion: Other?\nAnswer: Not a statement.\nQuestion: And D?\nAnswer: D improved.';
    // The last pair has no closing newline: the script's pattern misses it.
    expect(questionAnswersOf(statements, generation)).toEqual([
      ['What was found?', 'A was found.'],
      ['What was given?', 'B was given.'],
    ]);
  });
});

describe("post_process_qas.py's choice", () => {
  it('alternates between the ROUGE-L order and the BERTScore order (stable sorts), a pair possibly twice', async () => {
    const note = (id: string, qas: Array<[string, string]>) => ({
      note_id: id,
      with_summary: `S${id}`,
      without_summary: `W${id}`,
      qas,
    });
    // ROUGE-L of question against answer, by hand: q1 shares 2 of 3 tokens (P = R = 2/3), q2 none,
    // q3 all (1), q4 1 of 2 and 1 of 2 (1/2).
    const notes = [
      note('n1', [
        ['fever was high', 'fever was low'],
        ['why', 'because'],
      ]),
      note('n2', [
        ['same words', 'same words'],
        ['half this', 'half that'],
      ]),
    ];
    const bertscores = new Map([
      ['fever was high', 0.9],
      ['why', 0.5],
      ['same words', 0.1],
      ['half this', 0.5],
    ]);
    const result = await postProcessQas({
      notes,
      topK: 4,
      bertScoreF1s: async (pairs) => pairs.map((pair) => bertscores.get(pair.prediction)!),
    });
    // ROUGE order: why (0), half (1/2), fever (2/3), same (1). BERTScore order of that: same (0.1),
    // why (0.5), half (0.5: after why, as in the ROUGE order), fever (0.9).
    // Picks: rouge[0] = why, bert[1] = why, rouge[2] = fever, bert[3] = fever.
    expect(result.entries.map((entry) => entry.Question)).toEqual([
      'why',
      'why',
      'fever was high',
      'fever was high',
    ]);
    expect(result).toMatchObject({ pairs: 4, repeated: 2 });
    expect(formatMeDiSumQaLines([{ ...result.entries[0]!, Answer: 'café\u007f' }])).toBe(
      '{"note_id": "n1", "discharge_summary": "Sn1", "without_discharge_summary": "Wn1", "Question": "why", "Answer": "caf\\u00e9\\u007f"}\n',
    );
    await expect(postProcessQas({ notes, topK: 5, bertScoreF1s: async () => [] })).rejects.toThrow(
      /--top-k-qas 5 is more than the 4 question-answer pairs/,
    );
  });
});
