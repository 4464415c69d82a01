import type { TokenEncoder } from '../../core/token-encoder.js';
import { bertScoreFromTokens } from '../../metrics/bertscore.js';

/** BERTScore F1 of each (prediction, reference) pair, encoding texts in the encoder's batches. */
export async function bertScoreF1s(
  pairs: ReadonlyArray<{ prediction: string; reference: string }>,
  encoder: TokenEncoder,
): Promise<number[]> {
  const texts = [...new Set(pairs.flatMap((pair) => [pair.prediction, pair.reference]))];
  const encoded = new Map<string, Awaited<ReturnType<TokenEncoder['encodeTokens']>>[number]>();
  for (let start = 0; start < texts.length; start += encoder.batchSize) {
    const batch = texts.slice(start, start + encoder.batchSize);
    const vectors = await encoder.encodeTokens(batch);
    batch.forEach((text, index) => {
      encoded.set(text, vectors[index]!);
    });
  }
  return pairs.map(
    (pair) => bertScoreFromTokens(encoded.get(pair.prediction)!, encoded.get(pair.reference)!).f1,
  );
}
