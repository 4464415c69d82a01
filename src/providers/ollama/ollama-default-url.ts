/** Where `ollama serve` listens unless told otherwise. */
export const OLLAMA_DEFAULT_URL = 'http://127.0.0.1:11434';
