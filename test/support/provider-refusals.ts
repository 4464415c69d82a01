import type { ServerResponse } from 'node:http';

function send(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(body);
}

/**
 * Bedrock's answer to a model id it does not serve (when the test names the served ones), in its
 * documented error shape: the type in x-amzn-errortype, { "message" } as the body.
 */
export function answeredAsUnknownBedrockModel(
  state: { servedModels: Array<{ id: string }> | undefined; bedrockUnknownModel: 400 | 404 },
  pathname: string,
  response: ServerResponse,
): boolean {
  const modelId = decodeURIComponent(/^\/model\/([^/]+)\//.exec(pathname)?.[1] ?? '');
  if (!state.servedModels || state.servedModels.some((model) => model.id === modelId)) return false;
  if (state.bedrockUnknownModel === 400)
    send(response, 400, '{"message": "The provided model identifier is invalid."}', {
      'x-amzn-errortype': 'ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/',
    });
  else
    send(response, 404, '{"message": "Could not resolve the foundation model from the model identifier."}', {
      'x-amzn-errortype': 'ResourceNotFoundException:http://internal.amazon.com/coral/com.amazon.bedrock/',
    });
  return true;
}

/**
 * The Gemini API's countTokens takes contents or a generateContentRequest, no system instruction of
 * its own (Vertex AI's does): an unknown field is refused with 400 INVALID_ARGUMENT, as the API does.
 */
export function answeredAsGeminiCountRefusal(
  pathname: string,
  body: Record<string, unknown>,
  response: ServerResponse,
): boolean {
  if (pathname.includes('/projects/') || body.systemInstruction === undefined) return false;
  send(
    response,
    400,
    JSON.stringify({
      error: {
        code: 400,
        message: 'Invalid JSON payload received. Unknown name "systemInstruction": Cannot find field.',
        status: 'INVALID_ARGUMENT',
      },
    }),
  );
  return true;
}
