import type { ProviderDescriptor } from '../providers/provider-descriptor.js';
import { PROVIDERS, type ProviderRegistry } from '../providers/registry.js';

/** The columns `medbench providers` and docs/providers/README.md show, from each descriptor. */
export const PROVIDER_COLUMNS = [
  'Provider',
  'Embeddings',
  'Token counting',
  'Max context',
  'Prefill',
  'Sign-in',
  'How to name it',
] as const;

/** A provider's title (linked to its page in docs/providers/) and what it reaches. */
function title(provider: ProviderDescriptor, linked = false): string {
  const name = linked ? `[${provider.docs.title}](${provider.docs.page})` : provider.docs.title;
  return `${name}${provider.docs.note ? ` (${provider.docs.note})` : ''}`;
}

/** How a provider is named: its spec form and what goes with it. */
function naming(provider: ProviderDescriptor): string {
  return provider.spec.note ? `${provider.spec.form} (${provider.spec.note})` : provider.spec.form;
}

/** One row per provider, in the registry's order, as `medbench providers` prints them. */
export function providerRows(providers: ProviderRegistry = PROVIDERS): string[][] {
  return providers.map((provider) => {
    const declared = provider.capabilities;
    return [
      provider.name,
      provider.embedding ? 'yes' : 'no',
      declared.tokenCounting,
      declared.maxContext ? 'yes' : 'no',
      declared.prefill,
      provider.signIn,
      naming(provider),
    ];
  });
}

/**
 * docs/providers/README.md's table: each provider linked to its page, its capabilities and who may
 * receive restricted data through it (a test checks the page holds exactly this).
 */
export function providersMarkdownTable(providers: ProviderRegistry = PROVIDERS): string {
  const header = [
    'Provider',
    '`--model` / config `provider`',
    ...PROVIDER_COLUMNS.slice(1, 6),
    'Restricted data (MIMIC)',
  ];
  const lines = providers.map((provider) => {
    const [, ...cells] = providerRows([provider])[0]!;
    const title = `[${provider.docs.title}](${provider.docs.page})${provider.docs.note ? ` (${provider.docs.note})` : ''}`;
    return [
      title,
      `\`${provider.spec.form}\`${provider.spec.note ? ` (${provider.spec.note})` : ''}`,
      ...cells.slice(0, 5),
      provider.capabilities.restrictedData,
    ];
  });
  return [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

/** The README's table: each provider, how to name it, and its page. */
export function providersReadmeTable(providers: ProviderRegistry = PROVIDERS): string {
  const lines = providers.map((provider) => [
    title(provider),
    `\`${provider.spec.form}\``,
    `\`docs/providers/${provider.docs.page}\``,
  ]);
  return [['Provider', 'How to name it', 'Page'], ['---', '---', '---'], ...lines]
    .map((cells) => `| ${cells.join(' | ')} |`)
    .join('\n');
}
