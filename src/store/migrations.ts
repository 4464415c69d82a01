/**
 * Schema migrations, applied in order; `PRAGMA user_version` records how many ran.
 * results and responses are WITHOUT ROWID tables keyed by their primary key: one B-tree
 * each, so a result's commit writes fewer pages.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    suite TEXT NOT NULL,
    label TEXT NOT NULL,
    dataset_id TEXT NOT NULL,
    dataset_path TEXT,
    model_json TEXT NOT NULL,
    parameters_json TEXT NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('medbench', 'imported')),
    scoring_mode TEXT NOT NULL CHECK (scoring_mode IN ('standard', 'compat')),
    created_at TEXT NOT NULL
  );
  CREATE TABLE prompts (
    hash TEXT PRIMARY KEY,
    chars INTEGER NOT NULL,
    encoding TEXT NOT NULL CHECK (encoding IN ('utf8', 'gzip')),
    content BLOB NOT NULL
  );
  CREATE TABLE results (
    run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    sample_id TEXT NOT NULL,
    task TEXT NOT NULL,
    params_json TEXT NOT NULL,
    gold_json TEXT NOT NULL,
    prompt_hash TEXT REFERENCES prompts(hash),
    prompt_chars INTEGER,
    prompt_tokens INTEGER,
    status TEXT NOT NULL CHECK (status IN ('ok', 'bad_format', 'too_long', 'error')),
    raw_output TEXT,
    parsed_json TEXT,
    scores_json TEXT NOT NULL,
    input_tokens INTEGER,
    output_tokens INTEGER,
    cost REAL,
    latency_ms INTEGER,
    attempts INTEGER,
    cache_hit INTEGER NOT NULL DEFAULT 0,
    error TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (run_id, sample_id)
  ) WITHOUT ROWID;
  CREATE TABLE responses (
    cache_key TEXT PRIMARY KEY,
    provider TEXT NOT NULL,
    model_id TEXT NOT NULL,
    text TEXT NOT NULL,
    input_tokens INTEGER,
    output_tokens INTEGER,
    finish_reason TEXT,
    created_at TEXT NOT NULL
  ) WITHOUT ROWID;
  `,
  `
  -- Every write to a run's results moves its results_version: what a saved leaderboard was
  -- computed from is known exactly, so a stale one is never shown.
  ALTER TABLE runs ADD COLUMN results_version INTEGER NOT NULL DEFAULT 0;
  CREATE TRIGGER results_inserted AFTER INSERT ON results BEGIN
    UPDATE runs SET results_version = results_version + 1 WHERE id = NEW.run_id;
  END;
  CREATE TRIGGER results_updated AFTER UPDATE ON results BEGIN
    UPDATE runs SET results_version = results_version + 1 WHERE id = NEW.run_id;
  END;
  CREATE TRIGGER results_deleted AFTER DELETE ON results BEGIN
    UPDATE runs SET results_version = results_version + 1 WHERE id = OLD.run_id;
  END;
  -- Each suite's leaderboard as last computed, with the key of what it was computed from
  -- (the code, and every run of the suite with its results_version).
  CREATE TABLE leaderboards (
    suite TEXT PRIMARY KEY,
    source_key TEXT NOT NULL,
    board_json TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  `,
  `
  -- --redact: hashes and lengths in place of the prompt, output and gold (JSON; NULL otherwise).
  ALTER TABLE results ADD COLUMN redaction_json TEXT;
  `,
  `
  -- The cache keys of one model, read once when a run starts (Store.responseKeys): a request
  -- whose key is not among them is not looked up again while the run lasts.
  CREATE INDEX responses_by_model ON responses (provider, model_id, cache_key);
  `,
  `
  -- Of the output tokens, those a reasoning model spent thinking (where the provider counts them).
  ALTER TABLE results ADD COLUMN reasoning_tokens INTEGER;
  ALTER TABLE responses ADD COLUMN reasoning_tokens INTEGER;
  `,
  `
  -- Requests written out for an engine to answer (\`medbench export requests\`), by cache key:
  -- \`medbench import responses\` takes an answer only for one of these, stored under its model.
  CREATE TABLE exported_requests (
    cache_key TEXT PRIMARY KEY,
    provider TEXT NOT NULL,
    model_id TEXT NOT NULL,
    url TEXT NOT NULL,
    prompt_tokens INTEGER,
    run_id TEXT NOT NULL,
    created_at TEXT NOT NULL
  ) WITHOUT ROWID;
  `,
  `
  -- Of the input tokens, those the provider read from its prompt cache and those it wrote to it
  -- (NULL: not reported); and what the answer costs at list price (its input and output tokens at
  -- the input and output prices: no cache, no batch discount), beside \`cost\`, what was paid.
  ALTER TABLE results ADD COLUMN cached_input_tokens INTEGER;
  ALTER TABLE results ADD COLUMN cache_write_tokens INTEGER;
  ALTER TABLE results ADD COLUMN list_cost REAL;
  ALTER TABLE responses ADD COLUMN cached_input_tokens INTEGER;
  ALTER TABLE responses ADD COLUMN cache_write_tokens INTEGER;
  `,
  `
  -- Provider batches (\`medbench run --batch\`): each submission's step in its lifecycle, recorded
  -- before and after every remote call, so that a killed run resumes it and never creates it twice;
  -- and its requests by custom id (the response cache key), with each one's outcome once read.
  CREATE TABLE provider_batches (
    id TEXT PRIMARY KEY,
    run_id TEXT NOT NULL,
    provider TEXT NOT NULL,
    model_id TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('prepared', 'uploaded', 'submitting', 'submitted', 'ended', 'done', 'failed')),
    size INTEGER NOT NULL,
    file_id TEXT,
    batch_id TEXT,
    submitted_at TEXT,
    reason TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE provider_batch_requests (
    custom_id TEXT NOT NULL,
    batch TEXT NOT NULL REFERENCES provider_batches(id) ON DELETE CASCADE,
    outcome TEXT CHECK (outcome IN ('answered', 'failed')),
    error TEXT,
    PRIMARY KEY (batch, custom_id)
  ) WITHOUT ROWID;
  CREATE INDEX provider_batch_requests_by_key ON provider_batch_requests (custom_id);
  `,
  `
  -- Explicit prompt caches (Gemini's cachedContents) a run made and has not deleted yet: a run
  -- killed before deleting one leaves its row, and the next run reuses or deletes it, so that no
  -- cache is left billing storage.
  CREATE TABLE explicit_caches (
    name TEXT PRIMARY KEY,
    provider TEXT NOT NULL,
    model_id TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    prefix_digest TEXT NOT NULL,
    tokens INTEGER NOT NULL,
    expires_at TEXT NOT NULL,
    run_id TEXT NOT NULL,
    created_at TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX explicit_caches_by_owner ON explicit_caches (provider, model_id, endpoint);
  `,
  `
  -- Provider batches a search took for a submission killed while creating its batch, refused once
  -- their results answered other requests (space-separated provider ids): no search takes them again.
  ALTER TABLE provider_batches ADD COLUMN refused TEXT;
  `,
  `
  -- What each explicit prompt cache of a run cost (its making, and its storage while held), billed
  -- apart from any answer, by the task of the samples that named it: the report adds it to the
  -- run's cost. One row per cache (its provider name), so that merging a shard's store twice
  -- counts it once.
  CREATE TABLE explicit_cache_costs (
    run_id TEXT NOT NULL,
    task TEXT NOT NULL,
    cache TEXT NOT NULL,
    cost REAL NOT NULL,
    PRIMARY KEY (run_id, task, cache)
  ) WITHOUT ROWID;
  `,
  `
  -- What a run was made from, recorded when it starts (its manifest; \`medbench rerun\` rebuilds it):
  -- the command's options (no secrets), its input files' hashes, each prompt's hash, the templates',
  -- the tokenizer, generation settings and restricted-data level. And the model ids or versions the
  -- provider said answered the run's requests (OpenAI's and Anthropic's model, Gemini's modelVersion).
  CREATE TABLE run_recipes (
    run_id TEXT PRIMARY KEY,
    recipe_json TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE TABLE run_model_versions (
    run_id TEXT NOT NULL,
    model_version TEXT NOT NULL,
    PRIMARY KEY (run_id, model_version)
  ) WITHOUT ROWID;
  `,
  `
  -- A judge's runs (issue 39, docs/judge.md): each judge model's grading of a CLUE run is a run of
  -- its own (suite clue-judge: its results keep the judge's prompt, raw answer and verdicts per
  -- sample), linked here to the run it grades.
  CREATE TABLE judge_runs (
    judge_run_id TEXT PRIMARY KEY,
    judged_run_id TEXT NOT NULL,
    created_at TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX judge_runs_by_judged ON judge_runs (judged_run_id);
  `,
  `
  -- People's grades of stored answers against a task's rubric (docs/review.md): the viewer's review
  -- queue and \`import grades\` add them. Never updated or deleted: an edit is a new row of the same
  -- item and reviewer (the latest is current), so each grade's history stays. The id is a digest
  -- of the row, so that a grade imported twice or merged from two stores is one row.
  CREATE TABLE human_grades (
    id TEXT PRIMARY KEY,
    run_id TEXT NOT NULL,
    sample_id TEXT NOT NULL,
    task TEXT NOT NULL,
    reviewer TEXT NOT NULL,
    rubric_version TEXT NOT NULL,
    rubric_sha256 TEXT NOT NULL,
    verdicts_json TEXT NOT NULL,
    score REAL NOT NULL,
    note TEXT NOT NULL,
    graded_at TEXT NOT NULL,
    source TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX human_grades_by_item ON human_grades (run_id, sample_id);
  CREATE INDEX human_grades_by_task ON human_grades (task, graded_at);
  `,
];
