import type { RankIntervals } from '../../core/scored-task.js';
import {
  comparisonFrom,
  groupRows,
  type OpenedRunFile,
  openRunFile,
  sampleFrom,
  sampleListFrom,
} from '../shared/run-file-payloads.js';
import { searchPrompts } from '../shared/sample-list.js';
import { inflatePayload, promptKey, runKey, SITE_KEY } from '../shared/static-files.js';
import type {
  Comparison,
  Leaderboard,
  Overview,
  RunFile,
  RunSummary,
  SampleFilters,
  SampleList,
  SamplePayload,
  SiteFile,
} from '../shared/view-types.js';

/** Where pages get their payloads: the server's API, or the static site's files. */
export interface DataSource {
  readonly isStatic: boolean;
  overview(): Promise<Overview>;
  leaderboard(suite: string): Promise<Leaderboard>;
  /** A leaderboard variant's rank intervals; undefined where the suite declares none. */
  ranks(suite: string, variant: string): Promise<RankIntervals | undefined>;
  run(id: string): Promise<RunSummary>;
  samples(run: string, group: string, filters: SampleFilters, offset: number): Promise<SampleList>;
  sample(run: string, id: string, filters: SampleFilters): Promise<SamplePayload>;
  /** A sample's prompt, when the sample payload did not carry it (the static site loads it apart). */
  prompt(sample: SamplePayload): Promise<string | null>;
  compare(a: string, b: string, group: string): Promise<Comparison>;
}

export const PAGE_SIZE = 100;

/** The server: one request per payload, memoised while the page lives. */
export function serverSource(): DataSource {
  const memo = new Map<string, Promise<unknown>>();
  const api = <T>(route: string, parameters: Record<string, string | number | undefined>): Promise<T> => {
    const query = new URLSearchParams(
      Object.entries(parameters).flatMap(([name, value]) =>
        value === undefined || value === '' ? [] : [[name, String(value)]],
      ),
    );
    const id = `api/${route}?${query}`;
    let promise = memo.get(id);
    if (!promise) {
      promise = fetch(id).then((response) =>
        response.ok
          ? response.json()
          : Promise.reject(new Error(response.status === 404 ? 'Not found.' : `HTTP ${response.status}`)),
      );
      memo.set(id, promise);
      promise.catch(() => memo.delete(id));
    }
    return promise as Promise<T>;
  };
  return {
    isStatic: false,
    overview: () => api('overview', {}),
    leaderboard: (suite) => api('leaderboard', { suite }),
    // The server answers 404 for a variant without rank intervals.
    ranks: (suite, variant) =>
      api<RankIntervals>('ranks', { suite, variant }).catch((): RankIntervals | undefined => undefined),
    run: (id) => api('run', { id }),
    samples: (run, group, filters, offset) =>
      api('samples', { run, group, ...filters, offset, limit: PAGE_SIZE }),
    sample: (run, id, filters) => api('sample', { run, id, ...filters }),
    prompt: async (sample) => sample.prompt ?? null,
    compare: (a, b, group) => api('compare', { a, b, group }),
  };
}

declare global {
  interface Window {
    medbenchStatic?: (key: string, data: string) => void;
  }
}

/**
 * The static site: script files loaded on demand (browsers refuse fetch() on file://), and the
 * lists, samples and comparisons computed from a run's file by the server's own rules.
 */
export function staticSource(): DataSource {
  const waiters = new Map<string, (data: string) => void>();
  const loaded = new Map<string, Promise<unknown>>();
  window.medbenchStatic = (key, data) => waiters.get(key)?.(data);
  const load = <T>(key: string): Promise<T> => {
    let promise = loaded.get(key);
    if (!promise) {
      promise = new Promise((resolve, reject) => {
        waiters.set(key, (data) => resolve(inflatePayload(data)));
        const script = document.createElement('script');
        script.src = `data/${key}.js`;
        script.onerror = () => reject(new Error('Not found in this report.'));
        document.head.append(script);
      });
      loaded.set(key, promise);
      promise.catch(() => loaded.delete(key));
    }
    return promise as Promise<T>;
  };
  const site = () => load<SiteFile>(SITE_KEY);
  const opened = new Map<string, Promise<OpenedRunFile>>();
  const runFile = (id: string): Promise<OpenedRunFile> => {
    let file = opened.get(id);
    if (!file) {
      file = load<RunFile>(runKey(id)).then(openRunFile);
      opened.set(id, file);
      file.catch(() => opened.delete(id));
    }
    return file;
  };
  /** With "prompts": the group's exported prompts loaded, then searched by the server's rule. */
  const promptSearch = async (file: OpenedRunFile, group: string, filters: SampleFilters) => {
    if (!filters.q || filters.prompts !== '1') return undefined;
    const rows = groupRows(file, group);
    const exported = rows.flatMap((row) =>
      row.promptHash && file.prompts.includes(row.promptHash) ? [row.promptHash] : [],
    );
    const texts = new Map(
      await Promise.all(
        [...new Set(exported)].map(async (hash) => [hash, await load<string>(promptKey(hash))] as const),
      ),
    );
    return searchPrompts(rows, filters.q, (hash) => texts.get(hash));
  };
  const found = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('Not found in this report.');
    return value;
  };
  return {
    isStatic: true,
    overview: async () => (await site()).overview,
    leaderboard: async (suite) => found((await site()).leaderboards[suite]),
    ranks: async (suite, variant) => (await site()).ranks?.[suite]?.[variant],
    run: async (id) => (await runFile(id)).summary,
    samples: async (run, group, filters, offset) => {
      const file = await runFile(run);
      const prompts = await promptSearch(file, group, filters);
      return found(sampleListFrom(file, group, filters, { offset, limit: PAGE_SIZE }, prompts));
    },
    sample: async (run, id, filters) => {
      const file = await runFile(run);
      const group = file.rows.find((row) => row.id === id)?.group ?? '';
      return found(sampleFrom(file, id, filters, await promptSearch(file, group, filters)));
    },
    prompt: async (sample) =>
      sample.promptStatus === 'apart' && sample.promptHash
        ? load<string>(promptKey(sample.promptHash))
        : null,
    compare: async (a, b, group) =>
      found(comparisonFrom(...(await Promise.all([runFile(a), runFile(b)])), group)),
  };
}
