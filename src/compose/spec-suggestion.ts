import { closestName } from '../core/closest-name.js';
import type { ProviderRegistry } from '../providers/registry.js';
import type { MedbenchConfig } from './config.js';

/** Model names whose provider a bare name (no `provider:`) most likely means, by the vendors' own prefixes. */
const NAME_FAMILIES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(gpt-|o\d(?:$|-)|chatgpt-)/i, 'openai'],
  [/^claude/i, 'anthropic'],
  [/^gemini/i, 'gemini'],
];

/** The spec with `http://` before a base URL given without a scheme, when the provider then parses it. */
function withScheme(provider: string, rest: string, providers: ProviderRegistry): string | undefined {
  const descriptor = providers.find((entry) => entry.name === provider);
  const fixed = rest.replace(/@(?!https?:\/\/)/i, '@http://');
  return descriptor && fixed !== rest && descriptor.spec.parse(fixed) ? `${provider}:${fixed}` : undefined;
}

/**
 * What a `--model` spec medbench cannot understand most likely meant: a config name it mistypes,
 * a provider prefix it mistypes (`opanai:` → `openai:`), a base URL without `http://`, or the
 * provider a bare model name belongs to (`gpt-4o` → `openai:gpt-4o`); undefined when nothing fits.
 */
export function specSuggestion(
  spec: string,
  config: MedbenchConfig,
  providers: ProviderRegistry,
): string | undefined {
  const named = closestName(spec, Object.keys(config.models));
  if (named) return named;
  const colon = spec.indexOf(':');
  if (colon < 0) {
    const family = NAME_FAMILIES.find(([pattern]) => pattern.test(spec))?.[1];
    return family && providers.some((entry) => entry.name === family) ? `${family}:${spec}` : undefined;
  }
  const [prefix, rest] = [spec.slice(0, colon), spec.slice(colon + 1)];
  const names = providers.map((entry) => entry.name);
  const provider = names.includes(prefix) ? prefix : closestName(prefix, names);
  if (!provider) return undefined;
  return withScheme(provider, rest, providers) ?? (provider === prefix ? undefined : `${provider}:${rest}`);
}
