#!/bin/bash
# A SLURM job array without a dask scheduler: each array task computes every N-th task of
# the sweep into the shared run directory's cache. Submit, then merge when all are done:
#   sbatch --array=0-15 configs/cluster/slurm_array.sh configs/pac_mdl_text.yaml
#   mtc merge results/pac_mdl_text
# Resubmit a failed shard alone by naming the array's size: (shard 3 of 16)
#   sbatch --array=3 configs/cluster/slurm_array.sh configs/pac_mdl_text.yaml --shards 16
# Further arguments go to `mtc run` (e.g. --quick, --set KEY=VALUE, --plugin MODULE).
#SBATCH --job-name=mtc-shard
#SBATCH --cpus-per-task=1
#SBATCH --time=02:00:00
#SBATCH --output=mtc-shard-%A_%a.out
set -euo pipefail
config=${1:?usage: sbatch --array=0-N configs/cluster/slurm_array.sh CONFIG [--shards N] [MTC RUN OPTIONS]}
shift
shards=${SLURM_ARRAY_TASK_COUNT}
if [[ "${1:-}" == "--shards" ]]; then
    shards=${2:?--shards needs the number of shards}
    shift 2
fi
stem=$(basename "$config" .yaml)
mtc run "$config" --out "results/$stem" --shard "${SLURM_ARRAY_TASK_ID}/${shards}" "$@"
