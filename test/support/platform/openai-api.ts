import { text } from './platform-fetch.js';

/**
 * A minimal client of the OpenAI (or Azure OpenAI) Files and Batch APIs for the platform tests:
 * every request carries the key header, under the API's root (`/v1`, or Azure's `/openai` with
 * api-version).
 */
export class OpenAIApi {
  constructor(
    private readonly base: string,
    private readonly options: { azure?: boolean; endpoint?: string } = {},
  ) {}

  url(path: string): string {
    if (!this.options.azure) return `${this.base}/v1${path}`;
    const separator = path.includes('?') ? '&' : '?';
    return `${this.base}/openai${path}${separator}api-version=2024-10-21`;
  }

  fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const key: Record<string, string> = this.options.azure
      ? { 'api-key': 'test-key' }
      : { authorization: 'Bearer sk-test' };
    return fetch(this.url(path), {
      ...init,
      headers: { ...key, ...(init.headers as Record<string, string>) },
    });
  }

  async json(path: string, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
    const response = await this.fetch(path, init);
    return { status: response.status, body: (await response.json()) as unknown };
  }

  post(path: string, body: unknown) {
    return this.json(path, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });
  }

  upload(content: string, purpose: string | null = 'batch') {
    const form = new FormData();
    if (purpose !== null) form.append('purpose', purpose);
    form.append('file', new Blob([content]), 'input.jsonl');
    return this.json('/files', { method: 'POST', body: form });
  }

  /** Uploads `lines` as a batch file and creates a batch of them. */
  async submit(lines: string[]) {
    const file = await this.upload(`${lines.join('\n')}\n`);
    const endpoint = this.options.endpoint ?? '/v1/chat/completions';
    return this.post('/batches', {
      input_file_id: text(file.body, 'id'),
      endpoint,
      completion_window: '24h',
    });
  }

  poll(id: string) {
    return this.json(`/batches/${id}`);
  }

  async content(id: string): Promise<string> {
    return (await this.fetch(`/files/${id}/content`)).text();
  }
}
