/** The scope of Azure OpenAI (Cognitive Services) data-plane tokens. */
const COGNITIVE_SERVICES_SCOPE = 'https://cognitiveservices.azure.com/.default';

/**
 * A bearer token source from Microsoft Entra ID: @azure/identity's default credential chain
 * (environment, workload or managed identity, Azure CLI, …), refreshed before it expires.
 * Loaded only when a config asks for it.
 */
export async function entraIdBearerToken(): Promise<() => Promise<string>> {
  const { DefaultAzureCredential, getBearerTokenProvider } = await import('@azure/identity');
  return getBearerTokenProvider(new DefaultAzureCredential(), COGNITIVE_SERVICES_SCOPE);
}
