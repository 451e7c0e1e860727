#!/usr/bin/env bash
# A Slurm array job that computes the work units of a `chesstool perft split`,
# one array task per unit: SLURM_ARRAY_TASK_ID = N picks the manifest's N-th
# unit (counting from 0), whose results go beside it as unit-NNNNNN.out.
#
#   n=$(grep -c '"file"' DIR/manifest.json)
#   sbatch --array=0-$((n - 1)) --cpus-per-task=2 examples/slurm_perft_units.sh DIR --hash 1024
#   # when the array is done:
#   chesstool perft merge DIR/manifest.json DIR/unit-*.out
#
# Arguments after DIR go to `chesstool perft unit` (--hash, --zobrist-seed ...).
# A task that is requeued or run again resumes after its last complete line.
# DIR must be on a file system that the compute nodes share; chesstool is taken
# from $CHESSTOOL, else from PATH.
#SBATCH --job-name=perft-units
#SBATCH --cpus-per-task=1
#SBATCH --requeue
set -euo pipefail
dir=${1:?usage: sbatch --array=0-N slurm_perft_units.sh DIR [perft unit options]}
shift
task=${SLURM_ARRAY_TASK_ID:?not an array task: submit with sbatch --array=0-N}
# The manifest lists one `"file": "NAME"` per unit, in order.
unit=$(grep -o '"file": *"[^"]*"' "$dir/manifest.json" | sed -n "$((task + 1))s/.*\"\([^\"]*\)\"$/\1/p")
if [ -z "$unit" ]; then
    echo "slurm_perft_units.sh: the manifest has no unit $task" >&2
    exit 2
fi
exec "${CHESSTOOL:-chesstool}" perft unit "$dir/$unit" --threads "${SLURM_CPUS_PER_TASK:-1}" --quiet \
    -o "$dir/${unit%.txt}.out" "$@"
