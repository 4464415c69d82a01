import { MedbenchError } from './errors.js';

/** A feature whose packages are installed only when wanted (optional peer dependencies of medbench). */
export interface OptionalPart {
  /** What needs the packages, as the user asked for it. */
  feature: string;
  /** The packages with the version medbench is tested with (its devDependencies). */
  packages: Readonly<Record<string, string>>;
  /** Environment for the install command (a package's install script that would reach past the registry). */
  installEnv?: string;
}

/**
 * The heavy parts: each is an optional peer dependency (`peerDependenciesMeta`) and a
 * devDependency of medbench, loaded on first use, never at import. `npm install medbench` brings
 * none of them; a feature that needs one says what to install (`loadOptionalPart`).
 */
export const OPTIONAL_PARTS = {
  gguf: {
    feature: 'GGUF models run on this machine (provider "gguf")',
    packages: { 'node-llama-cpp': '3.21.1' },
  },
  onnx: {
    feature:
      'local ONNX encoders (embedding provider "local-onnx", BERTScore) and exact search of large embedding corpora',
    packages: { 'onnxruntime-node': '1.30.0' },
    // Its install script fetches CUDA binaries from NuGet on Linux x64; medbench runs on the CPU.
    installEnv: 'ONNXRUNTIME_NODE_INSTALL=skip',
  },
  bedrock: {
    feature: 'Amazon Bedrock (provider "bedrock")',
    packages: { '@aws-sdk/client-bedrock-runtime': '3.1162.0', '@smithy/node-http-handler': '4.14.2' },
  },
  bedrockBatch: {
    feature: 'Amazon Bedrock batch inference (run --batch on a "bedrock" model)',
    packages: { '@aws-sdk/client-bedrock': '3.1161.0', '@aws-sdk/client-s3': '3.1169.0' },
  },
  entraId: {
    feature: 'Azure OpenAI signed in with Microsoft Entra ID ("auth": "entra-id")',
    packages: { '@azure/identity': '4.14.1' },
  },
  gemini: {
    feature: 'Gemini and Vertex AI (providers "gemini" and "vertex-ai")',
    packages: { '@google/genai': '3.1.0' },
  },
} as const satisfies Record<string, OptionalPart>;

/** The command that installs a part: `npm install node-llama-cpp@3.21.1`. */
export function installCommand(part: OptionalPart): string {
  const packages = Object.entries(part.packages).map(([name, version]) => `${name}@${version}`);
  return [part.installEnv, 'npm install', ...packages].filter(Boolean).join(' ');
}

/** The package a module-not-found error names, when it is one of the part's. */
function missingPackage(error: unknown, part: OptionalPart): string | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return undefined;
  return Object.keys(part.packages).find((name) => String(message).includes(`'${name}'`));
}

/**
 * Loads a part's module (`load`: the `import()` of one of its packages). A package not installed
 * is a PART_MISSING error naming the feature and the exact install command; any other failure
 * (a broken install, a missing dependency of the package) passes through as it was.
 */
export async function loadOptionalPart<Module>(
  part: OptionalPart,
  load: () => Promise<Module>,
): Promise<Module> {
  try {
    return await load();
  } catch (error) {
    const name = missingPackage(error, part);
    if (!name) throw error;
    throw new MedbenchError({
      code: 'PART_MISSING',
      message: `${part.feature} needs ${name}, which is not installed (medbench installs it only when wanted).`,
      hint: `Install it where medbench is installed: ${installCommand(part)} (with -g when medbench is installed globally).`,
      cause: error,
    });
  }
}
