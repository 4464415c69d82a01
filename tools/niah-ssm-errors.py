"""NIAH errors by needle type under SSM, per language and published model, counted straight from the
release's files without medbench: an output is right when one of its needle's accepted answers (all
`ground_truth` entries of task_data/needles/<lang>_pure_needles.json) is a substring of its raw
output (`pred_origin`), lower-cased (en) or with U+0020 spaces removed (zh); a level above the
model's window (docs/medodyssey-release.md) is left out, as the report's error tables do.
Usage: python3 tools/niah-ssm-errors.py [<shared/data/medodyssey>] > test/fixtures/medodyssey/niah-ssm-errors.json
test/e2e/published-long-context.test.ts holds the report's NIAH error analysis to these numbers."""
import json
import os
import sys

WINDOWS = {
    'gpt-4-turbo-2024-04-09': 128000, 'gpt-4o': 128000, 'claude-3-haiku-20240307': 200000,
    'claude-3-sonnet-20240229': 200000, 'moonshot-v1-128k': 128000, 'chatglm3-6b-128k': 128000,
    'internlm2-chat-7b': 200000, 'internlm2-chat-20b': 200000, 'Yi-6B-200K': 200000,
    'Yarn-Mistral-7b-128k': 128000,
}
release = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.environ.get('MEDBENCH_SHARED_DATA', '../shared/data'), 'medodyssey')
counts = {}
for language in ['en', 'zh']:
    with open(f'{release}/task_data/needles/{language}_pure_needles.json', encoding='utf-8-sig') as file:
        needles = {needle['id']: needle for needle in json.load(file)}
    normal = (lambda text: text.lower()) if language == 'en' else (lambda text: text.replace(' ', ''))
    for model, window in WINDOWS.items():
        tally = {kind: {'errors': 0, 'counted': 0} for kind in ['general', 'med']}
        with open(f'{release}/evaluation_result/niah_result/{language}_{model}_v1.jsonl', encoding='utf-8-sig') as file:
            for line in file:
                if not line.strip():
                    continue
                output = json.loads(line)
                if output['length(origin)'] > window:
                    continue
                raw = normal(output['pred_origin'] or '')
                right = any(normal(answer) in raw for answer in needles[output['idx']]['ground_truth'])
                entry = tally['general' if output['type'] == 'general' else 'med']
                entry['counted'] += 1
                entry['errors'] += 0 if right else 1
        counts[f'{language} {model}'] = tally
json.dump(counts, sys.stdout, indent=1)
print()
