#!/usr/bin/env bash
# The merge step of examples/slurm-array.sh (docs/cluster-shards.md): once every task has ended
# well, join the shards' stores into one home, $MEDBENCH_RESULTS/merged, and print its report.
#
#   sbatch --dependency=afterok:"$array" examples/slurm-merge.sh
#SBATCH --job-name=medbench-merge
#SBATCH --cpus-per-task=1
#SBATCH --mem=4G
#SBATCH --time=01:00:00
#SBATCH --output=medbench-merge-%j.out
set -euo pipefail

results=${MEDBENCH_RESULTS:-$HOME/medbench-results}
merged="$results/merged"
# Copies on the node's own disk: SQLite in WAL mode wants a local one.
work="${TMPDIR:-/tmp}/medbench-merge-${SLURM_JOB_ID:-job}"
rm -rf "$work" && mkdir -p "$work/merged"
cp -R "$results/shards" "$work/shards"
medbench --home "$work/merged" merge "$work"/shards/*
medbench --home "$work/merged" report --suite "${MEDBENCH_SUITE:-medodyssey}"
rm -rf "$merged.part" && cp -R "$work/merged" "$merged.part" && rm -rf "$merged" && mv "$merged.part" "$merged"
rm -rf "$work"
