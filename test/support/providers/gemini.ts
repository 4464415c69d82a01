import { errorFixture, fixture, json, type ProviderWire, type Route, textOf, tokensOf } from './wire.js';

type GoogleError = { error: { code: number; message: string; status: string } };

/** A google.rpc.Status error, as the Gemini API and Vertex AI send it. */
function googleError(status: number, message?: string) {
  const body = errorFixture<GoogleError>('gemini', status, status >= 500 ? 500 : 400);
  body.error.code = status;
  if (message) body.error.message = message;
  return json(status, body);
}

/** systemInstruction and contents, each with parts of { text }. */
function contentsText(body: Record<string, unknown>): string {
  const system = (body.systemInstruction as { parts?: unknown } | undefined)?.parts;
  const turns = ((body.contents ?? []) as Array<{ parts: unknown }>).map((turn) => textOf(turn.parts));
  return [...(system ? [textOf(system)] : []), ...turns].join('\n');
}

/** The parts of the wire both APIs share: the same request and response bodies, the same errors. */
const generateContent: Pick<ProviderWire, 'error' | 'prompt' | 'answer'> = {
  error: googleError,
  prompt(route, body) {
    // countTokens takes contents, or a whole generateContentRequest (the Gemini API).
    const request =
      route.kind === 'count' && body.generateContentRequest ? body.generateContentRequest : body;
    return contentsText(request as Record<string, unknown>);
  },
  answer(_route, answer) {
    const tokens = tokensOf(answer);
    const base = fixture('gemini', 'generate-content');
    const thought = answer.reasoning ? [{ text: answer.reasoning, thought: true }] : [];
    return {
      ...base,
      // The path names the model; an answer that names another says so in modelVersion.
      ...(typeof answer.model === 'string' ? { modelVersion: answer.model } : {}),
      candidates: [
        {
          content: { parts: [...thought, { text: answer.text }], role: 'model' },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: answer.inputTokens,
        // Thoughts are counted apart from the candidates.
        candidatesTokenCount: tokens.answer,
        ...(answer.reasoning ? { thoughtsTokenCount: tokens.reasoning } : {}),
        // Part of promptTokenCount: those the context cache served.
        ...(answer.cachedTokens !== undefined ? { cachedContentTokenCount: answer.cachedTokens } : {}),
        totalTokenCount: answer.inputTokens + tokens.output,
      },
    };
  },
};

const method = (name: string): Route['kind'] => (name === 'generateContent' ? 'generate' : 'count');

/**
 * The Gemini API: POST /{v1,v1beta}/models/{model}:generateContent and :countTokens, GET
 * /{v1,v1beta}/models/{model}. Its countTokens has no systemInstruction of its own: an unknown field
 * is refused 400 INVALID_ARGUMENT, as the API does.
 */
export const geminiWire: ProviderWire = {
  ...generateContent,
  route(verb, pathname) {
    const call = /^\/v1(?:beta)?\/models\/([^/:]+):(generateContent|countTokens)$/.exec(pathname);
    if (verb === 'POST' && call) return { kind: method(call[2]!), model: decodeURIComponent(call[1]!) };
    const get = /^\/v1(?:beta)?\/models\/([^/:]+)$/.exec(pathname);
    if (verb === 'GET' && get) return { kind: 'model', model: decodeURIComponent(get[1]!) };
    return undefined;
  },
  count: (_route, tokens) => ({ ...fixture('gemini', 'count-tokens'), totalTokens: tokens }),
  models(route, served) {
    const model = served.find((entry) => entry.id === route.model);
    if (!model)
      return googleError(
        404,
        `models/${route.model} is not found for API version v1beta, or is not supported for generateContent.`,
      );
    const described = { ...fixture('gemini', 'model'), name: `models/${model.id}` };
    return json(
      200,
      model.inputTokenLimit ? { ...described, inputTokenLimit: model.inputTokenLimit } : described,
    );
  },
  refuse(route, request) {
    if (route.kind !== 'count' || request.body.systemInstruction === undefined) return undefined;
    return googleError(
      400,
      'Invalid JSON payload received. Unknown name "systemInstruction": Cannot find field.',
    );
  },
};

/**
 * Vertex AI: POST /{v1,v1beta1}/projects/{project}/locations/{location}/publishers/google/models/
 * {model}:generateContent and :countTokens, GET /{v1,v1beta1}/publishers/google/models/{model} (a
 * publisher model: no token limits).
 */
export const vertexAIWire: ProviderWire = {
  ...generateContent,
  route(verb, pathname) {
    const call =
      /^\/v1(?:beta1)?\/projects\/[^/]+\/locations\/[^/]+\/publishers\/google\/models\/([^/:]+):(generateContent|countTokens)$/.exec(
        pathname,
      );
    if (verb === 'POST' && call) return { kind: method(call[2]!), model: decodeURIComponent(call[1]!) };
    const get = /^\/v1(?:beta1)?\/publishers\/google\/models\/([^/:]+)$/.exec(pathname);
    if (verb === 'GET' && get) return { kind: 'model', model: decodeURIComponent(get[1]!) };
    return undefined;
  },
  count: (_route, tokens) => ({ ...fixture('gemini', 'vertex-count-tokens'), totalTokens: tokens }),
  models(route, served) {
    if (!served.some((entry) => entry.id === route.model))
      return googleError(404, `Publisher Model \`publishers/google/models/${route.model}\` not found.`);
    return json(200, {
      ...fixture('gemini', 'publisher-model'),
      name: `publishers/google/models/${route.model}`,
    });
  },
};
