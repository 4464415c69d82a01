import type {
  ChatMessage,
  ChatModel,
  ExplicitCacheApi,
  ExplicitCacheEntry,
  ExplicitCacheUse,
} from '../core/chat-model.js';
import type { Sample } from '../core/sample.js';
import type { Tokenizer } from '../core/tokenizer.js';
import type { ExplicitCacheRecords } from '../store/explicit-cache-records.js';
import type { CostBudget } from './cost-budget.js';
import { explicitCachePays, holdSeconds, leadingGroups } from './explicit-cache-plan.js';
import type { ModelBinding } from './model-binding.js';
import { conversationOf } from './prefix-order.js';

/** A group of the run's samples whose leading whole messages an explicit cache pays for. */
interface CachedGroup {
  digest: string;
  prefix: readonly ChatMessage[];
  ttlSeconds: number;
  /** Its tokens by the model's tokenizer: what the budget counts before it is made. */
  tokens: number;
  /** The task of its samples, whose cost in the store its caches' cost is added to. */
  task: string;
  /** Samples of the group not finished yet: at 0 its caches are deleted. */
  pending: number;
}

/** One group's cache at one endpoint. */
interface Held {
  entry?: ExplicitCacheEntry;
  /** When this run made or took it over: its storage is counted from there. */
  heldSince?: number;
  /** Whose cost its storage is stored as (`CachedGroup.task`). */
  task: string;
  making?: Promise<void>;
  extending?: Promise<void>;
  /** No cache (any more): too small, a failed call, the group done, or found gone. */
  closed: boolean;
}

/**
 * What a run's explicit caches cost, billed by the provider apart from any answer: each made at
 * the input price, and its storage for as long as the run held it.
 */
export interface ExplicitCacheCosts {
  made: number;
  /** Tokens of the caches made. */
  tokens: number;
  /** Currency units at the model's prices. */
  cost: number;
}

/** What the decision and the lifecycle need of the run. */
export interface ExplicitCachesOptions {
  samples: readonly Sample[];
  model: ModelBinding;
  records: ExplicitCacheRecords;
  runId: string;
  /** Cache calls stop with it (a hard stop). */
  signal: AbortSignal;
  /** --max-cost: a cache is made (or extended) only if its making and storage for its lifetime fit. */
  budget?: CostBudget;
}

/** Tokens of the messages by the model's tokenizer (or its fallback); about four characters a token without one. */
function tokensOf(messages: readonly ChatMessage[], tokenizer: Tokenizer | undefined): number {
  let tokens = 0;
  for (const message of messages)
    tokens += tokenizer ? tokenizer.count(message.content) : Math.ceil(message.content.length / 4);
  return tokens;
}

/**
 * A run's explicit prompt caches (Gemini's `cachedContents`): its samples grouped by the whole
 * leading messages they share (a system prompt and few-shot turns); for each group where the
 * documented prices say a cache pays (`explicitCachePays`), a cache made at the first request that
 * goes out, named by the group's requests, extended when the run outlasts it, deleted when the
 * group is done. Each cache is recorded in the store while it exists, so that a killed run's are
 * reused or deleted by the next (`start`). Calls that fail leave the requests whole, as without it.
 */
export class ExplicitCaches {
  private readonly groups = new Map<Sample, CachedGroup>();
  private readonly held = new Map<ChatModel, Map<string, Held>>();
  private readonly removals = new Set<Promise<void>>();
  private readonly costs: ExplicitCacheCosts = { made: 0, tokens: 0, cost: 0 };

  private constructor(
    private readonly options: ExplicitCachesOptions,
    private readonly prices: { inputPerMillion: number; storagePerMillionPerHour: number },
  ) {}

  /** What the caches this run made and held cost (billed apart from the answers). */
  get spent(): ExplicitCacheCosts {
    return { ...this.costs };
  }

  /** The run's paying groups; undefined when no endpoint has an explicit cache or none pays. */
  static plan(options: ExplicitCachesOptions): ExplicitCaches | undefined {
    const { model } = options;
    const api = model.endpoints.find((endpoint) => endpoint.model.explicitCache)?.model.explicitCache;
    const storage = model.prices?.cacheStoragePerMillionPerHour;
    if (!api || !model.prices || storage === undefined) return undefined;
    const prices = {
      inputPerMillion: model.prices.inputPerMillion,
      cachedInputPerMillion: model.prices.cachedInputPerMillion ?? model.prices.inputPerMillion,
      storagePerMillionPerHour: storage,
    };
    const concurrency = model.endpoints.reduce((sum, endpoint) => sum + endpoint.concurrency, 0);
    const caches = new ExplicitCaches(options, prices);
    for (const group of leadingGroups(options.samples, conversationOf)) {
      const ttlSeconds = holdSeconds(group.items.length, concurrency);
      const prefixTokens = tokensOf(group.prefix, model.tokenizer ?? model.fallbackTokenizer);
      const verdict = explicitCachePays({
        prefixTokens,
        requests: group.items.length,
        hours: ttlSeconds / 3600,
        minimumTokens: api.minimumTokens,
        prices,
      });
      if (!verdict.pays) continue;
      const cached = {
        digest: group.digest,
        prefix: group.prefix,
        ttlSeconds,
        tokens: prefixTokens,
        task: group.items[0]!.task,
        pending: group.items.length,
      };
      for (const sample of group.items) caches.groups.set(sample, cached);
    }
    return caches.groups.size > 0 ? caches : undefined;
  }

  /** Whose caches an endpoint's are in the store. */
  private ownerOf(endpoint: ChatModel) {
    const { model } = this.options;
    return { provider: model.provider, modelId: model.modelId, endpoint: endpoint.endpoint };
  }

  /**
   * Before the run: the caches a killed run left at each endpoint are taken over where this run
   * has their group (extended at their first use), deleted where it has not.
   */
  async start(): Promise<void> {
    const wanted = new Map([...this.groups.values()].map((group) => [group.digest, group]));
    for (const { model: endpoint } of this.options.model.endpoints) {
      const api = endpoint.explicitCache;
      if (!api) continue;
      for (const record of this.options.records.of(this.ownerOf(endpoint))) {
        const group = wanted.get(record.prefixDigest);
        if (group && !this.heldAt(endpoint).has(record.prefixDigest)) {
          const entry = { name: record.name, tokens: record.tokens, expiresAt: 0 };
          const held = { entry, heldSince: Date.now(), task: group.task, closed: false };
          this.heldAt(endpoint).set(record.prefixDigest, held);
        } else await this.removeQuietly(api, record.name);
      }
    }
  }

  private heldAt(endpoint: ChatModel): Map<string, Held> {
    const found = this.held.get(endpoint);
    if (found) return found;
    const held = new Map<string, Held>();
    this.held.set(endpoint, held);
    return held;
  }

  /** The cache a sample's request names at this endpoint (made or extended first), or undefined: sent whole. */
  async use(endpoint: ChatModel, sample: Sample): Promise<ExplicitCacheUse | undefined> {
    const group = this.groups.get(sample);
    const api = endpoint.explicitCache;
    if (!group || !api || group.pending <= 0) return undefined;
    const held = this.heldAt(endpoint).get(group.digest) ?? { task: group.task, closed: false };
    this.heldAt(endpoint).set(group.digest, held);
    // Less than a quarter of its lifetime (at most a minute) left: a new lifetime first.
    const margin = Math.min(60_000, (group.ttlSeconds * 1000) / 4);
    if (held.entry && held.entry.expiresAt - Date.now() < margin) {
      held.extending ??= this.extend(api, group, held).finally(() => {
        held.extending = undefined;
      });
      await held.extending;
    }
    // None yet, or found gone when extended: made now, once for every request waiting on it.
    if (!held.entry && !held.closed) {
      held.making ??= this.make(api, endpoint, group, held).finally(() => {
        held.making = undefined;
      });
      await held.making;
    }
    return held.entry && !held.closed ? { name: held.entry.name, messages: group.prefix.length } : undefined;
  }

  /** What storing `tokens` for a lifetime of the group's costs. */
  private storageCost(tokens: number, group: CachedGroup): number {
    return (tokens * this.prices.storagePerMillionPerHour * group.ttlSeconds) / 3600 / 1_000_000;
  }

  private async make(api: ExplicitCacheApi, endpoint: ChatModel, group: CachedGroup, held: Held) {
    // --max-cost: its making and its storage for the lifetime asked, counted before it is made;
    // one that does not fit is not made, and its requests go whole.
    const { budget } = this.options;
    const charged =
      (group.tokens * this.prices.inputPerMillion) / 1_000_000 + this.storageCost(group.tokens, group);
    if (budget && !budget.charge(charged)) {
      held.closed = true;
      return;
    }
    // Its storage is counted from the call (the provider's count starts within it).
    const sentAt = Date.now();
    try {
      const entry = await api.create(group.prefix, {
        ttlSeconds: group.ttlSeconds,
        signal: this.options.signal,
      });
      if (!entry) {
        // Below the provider's minimum after all: its requests go whole.
        budget?.spend(-charged);
        held.closed = true;
        return;
      }
      // Counted again with the tokens the provider says it holds.
      budget?.spend(
        (entry.tokens * this.prices.inputPerMillion) / 1_000_000 +
          this.storageCost(entry.tokens, group) -
          charged,
      );
      held.entry = entry;
      held.heldSince = sentAt;
      this.costs.made++;
      this.costs.tokens += entry.tokens;
      this.spend(held.task, entry.name, (entry.tokens * this.prices.inputPerMillion) / 1_000_000);
      this.options.records.add({
        ...this.ownerOf(endpoint),
        name: entry.name,
        prefixDigest: group.digest,
        tokens: entry.tokens,
        expiresAt: new Date(entry.expiresAt).toISOString(),
        runId: this.options.runId,
        createdAt: new Date().toISOString(),
      });
      // Its group finished while it was made: deleted at once.
      if (group.pending <= 0) this.drop(api, held);
    } catch {
      budget?.spend(-charged);
      held.closed = true;
    }
  }

  private async extend(api: ExplicitCacheApi, group: CachedGroup, held: Held) {
    const name = held.entry!.name;
    // --max-cost: another lifetime's storage, counted before; one that does not fit is not
    // extended, and its requests go whole.
    const { budget } = this.options;
    if (budget && !budget.charge(this.storageCost(held.entry!.tokens, group))) {
      this.drop(api, held);
      return;
    }
    try {
      const expiresAt = await api.extend(name, group.ttlSeconds, this.options.signal);
      if (expiresAt === undefined) {
        // Gone (it expired before this run took it over): made anew.
        held.entry = undefined;
        this.options.records.remove(name);
        return;
      }
      held.entry!.expiresAt = expiresAt;
      this.options.records.extended(name, new Date(expiresAt).toISOString());
    } catch {
      // Not extended: its requests go whole; it is deleted with its group.
      this.drop(api, held);
    }
  }

  /** A sample is done (answered, failed, or left for the next run): its group's caches go with its last. */
  finished(sample: Sample): void {
    const group = this.groups.get(sample);
    if (!group || --group.pending > 0) return;
    for (const [endpoint, held] of this.held) {
      const found = held.get(group.digest);
      if (found && endpoint.explicitCache) this.drop(endpoint.explicitCache, found);
    }
  }

  private drop(api: ExplicitCacheApi, held: Held): void {
    const { entry, heldSince } = held;
    held.closed = true;
    held.entry = undefined;
    if (entry === undefined) return;
    const since = heldSince ?? Date.now();
    const removal = this.removeQuietly(api, entry.name).finally(() => {
      // Stored until the delete call returned (the provider's count ends within it).
      const hours = (Date.now() - since) / 3_600_000;
      this.spend(
        held.task,
        entry.name,
        (entry.tokens * this.prices.storagePerMillionPerHour * hours) / 1_000_000,
      );
      this.removals.delete(removal);
    });
    this.removals.add(removal);
  }

  /** What a cache cost: counted for the run's summary and stored with the task's cost, for the report. */
  private spend(task: string, cache: string, cost: number): void {
    this.costs.cost += cost;
    this.options.records.addCost({ runId: this.options.runId, task, cache, cost });
  }

  /** Deletes a cache; its record goes once it is gone (a failed call keeps it for the next run). */
  private async removeQuietly(api: ExplicitCacheApi, name: string): Promise<void> {
    try {
      await api.remove(name);
      this.options.records.remove(name);
    } catch {
      // Left recorded: the next run deletes it, and it expires meanwhile.
    }
  }

  /** The end of the run: every cache still held is deleted. */
  async close(): Promise<void> {
    for (const [endpoint, held] of this.held)
      for (const found of held.values()) if (endpoint.explicitCache) this.drop(endpoint.explicitCache, found);
    await Promise.all(this.removals);
  }
}
