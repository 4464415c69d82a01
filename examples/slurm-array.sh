#!/usr/bin/env bash
# medbench on a Slurm job array: one shard of the run per array task (docs/cluster-shards.md).
# `medbench run … --shard auto` reads SLURM_ARRAY_TASK_ID and the array's MIN, MAX, STEP and COUNT,
# so --array may start anywhere and step (1-8, 0-15:4); a list such as 1,3,7 is refused.
#
#   array=$(sbatch --parsable examples/slurm-array.sh)
#   sbatch --dependency=afterok:"$array" examples/slurm-merge.sh
#
# Set before submitting (sbatch passes your environment on): MEDBENCH_RESULTS, a folder every node
# sees (default ~/medbench-results); MEDBENCH_DATASET (default $MEDBENCH_RESULTS/niah.jsonl);
# MEDBENCH_MODEL (default openai:gpt-4o, or a name from the medbench.config.json of the folder you
# submit from); the model's API key variable.
#SBATCH --job-name=medbench-shards
#SBATCH --array=0-3
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
#SBATCH --time=24:00:00
#SBATCH --output=medbench-%A_%a.out
set -euo pipefail
: "${SLURM_ARRAY_TASK_ID:?is not set: submit this script with sbatch (it holds #SBATCH --array), see docs/cluster-shards.md}"

results=${MEDBENCH_RESULTS:-$HOME/medbench-results}
dataset=${MEDBENCH_DATASET:-$results/niah.jsonl}
model=${MEDBENCH_MODEL:-openai:gpt-4o}
shard="$results/shards/$SLURM_ARRAY_TASK_ID"
# The store is SQLite in WAL mode, which wants a local disk: the run writes to the node's own
# temporary folder and its store is copied to the shared one when it ends.
home="${TMPDIR:-/tmp}/medbench-${SLURM_ARRAY_JOB_ID:-job}-$SLURM_ARRAY_TASK_ID"
mkdir -p "$results/shards" "$home"
# Resume from what an earlier submission of this array stored for this task.
if [[ -d $shard ]]; then cp -R "$shard/." "$home/"; fi

status=0
medbench --home "$home" run --dataset "$dataset" --model "$model" --shard auto || status=$?
rm -rf "$shard.part" && cp -R "$home" "$shard.part" && rm -rf "$shard" && mv "$shard.part" "$shard"
rm -rf "$home"
# 0: every sample answered; 3: some were not (submit the same array again to retry them).
exit "$status"
