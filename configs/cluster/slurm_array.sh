#!/bin/bash
# A SLURM job array without a dask scheduler: each array task computes every N-th task of
# the sweep into the shared run directory's cache. Submit, then merge when all are done:
#   sbatch --array=0-15 configs/cluster/slurm_array.sh configs/pac_mdl_text.yaml
#   mtc merge results/pac_mdl_text
#SBATCH --job-name=mtc-shard
#SBATCH --cpus-per-task=1
#SBATCH --time=02:00:00
#SBATCH --output=mtc-shard-%A_%a.out
set -euo pipefail
config=${1:?usage: sbatch --array=0-N configs/cluster/slurm_array.sh CONFIG}
stem=$(basename "$config" .yaml)
mtc run "$config" --out "results/$stem" --shard "${SLURM_ARRAY_TASK_ID}/${SLURM_ARRAY_TASK_COUNT}"
