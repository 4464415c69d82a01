import type { EmbeddingModel, EmbeddingRequest, EmbeddingResponse } from '../core/embedding-model.js';
import { failsWholeEndpoint, MedbenchError } from '../core/errors.js';
import { EndpointHealth } from './endpoint-health.js';

/**
 * One embedding model served by several endpoints (replicas): each call goes to the least busy
 * endpoint that serves; one that fails as a whole (unreachable, refused key, no such model) rests
 * while the others take its calls, and the call is sent again elsewhere — never answered twice.
 * Its identity (cache key, run) is every replica's, sorted: the vectors are the model's.
 */
export class ReplicatedEmbeddingModel implements EmbeddingModel {
  readonly provider: string;
  readonly modelId: string;
  readonly endpoint: string;
  readonly revision: string;
  readonly maxEmbeddingsPerCall: number;
  readonly maxParallelCalls: number;
  readonly inputRoles?: boolean;
  readonly dimensions?: number;
  private readonly health: EndpointHealth<EmbeddingModel>;
  private readonly busy = new Map<EmbeddingModel, number>();

  constructor(private readonly replicas: readonly EmbeddingModel[]) {
    const first = replicas[0];
    if (!first)
      throw new MedbenchError({ code: 'CONFIG_INVALID', message: 'An embedding model needs an endpoint.' });
    this.provider = first.provider;
    this.modelId = first.modelId;
    this.endpoint = [...new Set(replicas.map((replica) => replica.endpoint))].sort().join(' | ');
    this.revision = first.revision;
    this.maxEmbeddingsPerCall = Math.min(...replicas.map((replica) => replica.maxEmbeddingsPerCall));
    this.maxParallelCalls = replicas.reduce((sum, replica) => sum + replica.maxParallelCalls, 0);
    if (first.inputRoles !== undefined) this.inputRoles = first.inputRoles;
    if (first.dimensions !== undefined) this.dimensions = first.dimensions;
    this.health = new EndpointHealth(replicas);
    for (const replica of replicas) this.busy.set(replica, 0);
  }

  /** The serving replica with the most room (calls in flight against its own limit). */
  private pick(): EmbeddingModel | undefined {
    let best: EmbeddingModel | undefined;
    let load = Number.POSITIVE_INFINITY;
    for (const replica of this.replicas) {
      if (this.health.restLeft(replica) > 0) continue;
      const share = this.busy.get(replica)! / replica.maxParallelCalls;
      if (share < load) [best, load] = [replica, share];
    }
    return best;
  }

  async embed(request: EmbeddingRequest): Promise<EmbeddingResponse> {
    for (;;) {
      const replica = this.pick();
      if (!replica)
        throw new MedbenchError({
          code: 'ENDPOINT_UNREACHABLE',
          message: `No endpoint of ${this.modelId} serves.`,
        });
      this.busy.set(replica, this.busy.get(replica)! + 1);
      try {
        const answer = await replica.embed(request);
        this.health.markUp(replica);
        return answer;
      } catch (caught) {
        const wholeEndpoint = MedbenchError.is(caught) && failsWholeEndpoint(caught);
        // Another replica takes the call; when none is left, the error is the run's.
        if (!wholeEndpoint || request.signal?.aborted || !this.health.markDown(replica, caught)) throw caught;
      } finally {
        this.busy.set(replica, this.busy.get(replica)! - 1);
      }
    }
  }
}
