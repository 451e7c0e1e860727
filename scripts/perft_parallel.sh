#!/usr/bin/env bash
# Runs every work unit of a `chesstool perft split` with GNU parallel, on this
# machine or over ssh, then says how to merge. This is the README's one-liner
# with its parts named:
#
#   scripts/perft_parallel.sh DIR [SSHLOGINS] [perft unit options...]
#
# SSHLOGINS is parallel's --sshlogin list (`2/host1,8/host2`: jobs/host;
# default `:`, this machine). JOBS sets the jobs per host (default: its cores).
# CHESSTOOL is the chesstool to run (default: chesstool on PATH, here and on
# every host). RESULTS names the results (default `out`; another name, such as
# `seed2` with `--zobrist-seed 2`, makes a second computation of every unit).
# Each unit file travels to its host with the manifest, and its results come
# back as unit-NNNNNN.$RESULTS beside it. joblog-$RESULTS records every job;
# run the same command again and only the units that failed (or never ran) run.
set -euo pipefail
dir=${1:?usage: perft_parallel.sh DIR [SSHLOGINS] [perft unit options...]}
logins=${2:-:}
shift $(($# < 2 ? $# : 2))
results=${RESULTS:-out}
cd "$dir"
parallel --will-cite --joblog "joblog-$results" --resume-failed --sshlogin "$logins" ${JOBS:+--jobs "$JOBS"} \
    --basefile manifest.json --transferfile {} --return "{.}.$results" --cleanup \
    "${CHESSTOOL:-chesstool}" perft unit {} --quiet -o "{.}.$results" "$@" ::: unit-*.txt
