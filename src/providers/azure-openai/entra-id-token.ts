import { MedbenchError } from '../../core/errors.js';
import { loadOptionalPart, OPTIONAL_PARTS } from '../../core/optional-part.js';
import { redactCredentials } from '../http-json.js';

/** The scope of Azure OpenAI (Cognitive Services) data-plane tokens. */
const COGNITIVE_SERVICES_SCOPE = 'https://cognitiveservices.azure.com/.default';

const ENTRA_HINT =
  'medbench asks @azure/identity\'s default credential chain: AZURE_CLIENT_ID, AZURE_TENANT_ID and AZURE_CLIENT_SECRET (a service principal), a workload or managed identity, or `az login`; the identity needs the role "Cognitive Services OpenAI User" on the resource. Or give the endpoint "apiKeyEnv" and drop "auth": "entra-id".';

/**
 * A bearer token source from Microsoft Entra ID: @azure/identity's default credential chain
 * (environment, workload or managed identity, Azure CLI, …), refreshed before it expires.
 * Loaded only when a config asks for it. No token is an ENDPOINT_AUTH error (the probe stops
 * the run on it before any sample is scheduled), never a failure of the answer.
 */
export async function entraIdBearerToken(): Promise<() => Promise<string>> {
  const { DefaultAzureCredential, getBearerTokenProvider } = await loadOptionalPart(
    OPTIONAL_PARTS.entraId,
    () => import('@azure/identity'),
  );
  const token = getBearerTokenProvider(new DefaultAzureCredential(), COGNITIVE_SERVICES_SCOPE);
  return async () => {
    try {
      return await token();
    } catch (caught) {
      throw entraIdFailure(caught);
    }
  };
}

/** Why the credential chain gave no token, as an authentication error. */
export function entraIdFailure(caught: unknown): MedbenchError {
  const error = (caught ?? {}) as { name?: string; message?: string };
  const text = redactCredentials(`${error.name ?? 'Error'}: ${error.message ?? String(caught)}`)
    .replace(/\s+/g, ' ')
    .slice(0, 700);
  return new MedbenchError({
    code: 'ENDPOINT_AUTH',
    message: `Microsoft Entra ID gave no token for Azure OpenAI ("auth": "entra-id"): ${text}`,
    hint: ENTRA_HINT,
    cause: caught,
  });
}
