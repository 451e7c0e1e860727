#!/usr/bin/env bash
# The fuzzing campaign of docs/fuzzing.md: every target of fuzz/ for
# SECONDS_EACH (default 600) under an RSS limit of 256 MB and a 5 s timeout per
# input, at most JOBS (default 3) at once, at nice NICE (default 15). Each target
# starts from its committed corpus (fuzz/corpus/T) in a scratch copy
# (fuzz/corpus-run/T); crashes go to fuzz/artifacts/T/, logs to
# fuzz/logs/T.log. Needs nightly and cargo-fuzz (cargo install cargo-fuzz).
#   scripts/fuzz_campaign.sh [TARGET...]
set -eu
cd "$(dirname "$0")/../fuzz"
SECONDS_EACH=${SECONDS_EACH:-600}
JOBS=${JOBS:-3}
NICE=${NICE:-15}
TARGETS=${*:-$(ls fuzz_targets | sed 's/\.rs$//')}
# Built once; the runs call the binaries directly, so that an edit made
# during the campaign does not rebuild the crate under each target.
[ "${BUILD:-1}" = 0 ] || cargo +nightly fuzz build -s none
bin=target/x86_64-unknown-linux-gnu/release
mkdir -p logs artifacts corpus-run
run() {
    t=$1
    rm -rf "corpus-run/$t"; mkdir -p "corpus-run/$t" "artifacts/$t"
    cp corpus/"$t"/* "corpus-run/$t/"
    nice -n "$NICE" "$bin/$t" "corpus-run/$t" \
        -max_total_time="$SECONDS_EACH" -rss_limit_mb=256 -timeout=5 \
        -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -artifact_prefix="artifacts/$t/" > "logs/$t.log" 2>&1 || true
    echo "$t: $(grep -E '^#[0-9]+' "logs/$t.log" | tail -1)"
}
running=0
for t in $TARGETS; do
    run "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait
