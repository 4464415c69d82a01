import type { RunRecord } from '../../../core/run-record.js';
import type { Sample } from '../../../core/sample.js';
import type { SampleLimit } from '../../../core/sample-limit.js';
import { describeModel, type ModelBinding, modelRunIdentity } from '../../../runner/model-binding.js';
import { runRecordOf } from '../../../runner/run-identity.js';
import { sha256 } from '../../../store/store.js';
import type { ClueModelKind } from '../clue-conversation.js';
import { type ClueResources, notComputed } from '../clue-tasks.js';
import type { ClueTaskName } from '../load-tasks.js';
import type { ClueProtocol } from '../protocols.js';
import type { BertScorePlan } from './clue-bertscore.js';
import type { ClueRunRequest } from './clue-run-options.js';

/** The run's record: its identity covers the samples, the model or baseline and every setting that moves a score. */
export function clueRunRecord(options: {
  request: ClueRunRequest;
  samples: readonly Sample[];
  model: ModelBinding | undefined;
  protocol: ClueProtocol;
  tasks: readonly ClueTaskName[];
  kind: ClueModelKind;
  prefill: string;
  resources: ClueResources;
  missingBertScore: BertScorePlan['missing'];
  /** What --limit left out; undefined for a full run. */
  limit: SampleLimit | undefined;
}): RunRecord {
  const { request, model, kind } = options;
  const parameters = {
    protocol: { name: options.protocol.name, commit: options.protocol.commit },
    tasks: options.tasks,
    model: { instruct: kind.instruct, systemRole: kind.systemRole },
    prefill: options.prefill,
    longhealthSeed: request.seed ?? 1,
    limit: options.limit ?? null,
    umls: request.umls
      ? { source: 'mrconso', file: request.umls, language: request.umlsLanguage ?? 'ENG' }
      : null,
    icd10: request.icd10 ?? null,
    bertscore: options.resources.bertscore,
    notComputed: notComputed(options.resources, options.tasks, options.missingBertScore),
    ...(model ? { generation: model.parameters } : {}),
    ...(request.redact ? { redacted: true } : {}),
  };
  const identity = model ? describeModel(model) : { provider: 'baseline', modelId: 'clue-baseline' };
  return runRecordOf({
    identity: {
      datasetId: sha256(options.samples.map((sample) => JSON.stringify(sample)).join('\n')),
      model: model ? modelRunIdentity(model) : identity,
      parameters,
      scoringMode: 'standard',
    },
    suite: 'clue',
    label: model?.label ?? request.label ?? 'baseline',
    datasetPath: request.data,
    description: identity,
  });
}
