#!/usr/bin/env bash
# After scripts/fuzz_campaign.sh: minimizes each target's scratch corpus
# (libFuzzer -merge=1 keeps inputs that add coverage), then commits at most
# KEEP (default 40) of the smallest into fuzz/corpus/T, keeping the seeds;
# crash inputs from fuzz/artifacts/T are copied as crash-*; prints one
# summary line per target from its log.
#   scripts/fuzz_harvest.sh [TARGET...]
set -eu
cd "$(dirname "$0")/../fuzz"
KEEP=${KEEP:-40}
bin=target/x86_64-unknown-linux-gnu/release  # built by scripts/fuzz_campaign.sh
TARGETS=${*:-$(ls fuzz_targets | sed 's/\.rs$//')}
for t in $TARGETS; do
    [ -d "corpus-run/$t" ] || continue
    rm -rf "corpus-min/$t"; mkdir -p "corpus-min/$t"
    nice -n 15 "$bin/$t" "corpus-min/$t" "corpus-run/$t" \
        -merge=1 -rss_limit_mb=256 -timeout=5 > "logs/$t.merge.log" 2>&1 || true
    have=$(ls "corpus/$t" | wc -l)
    room=$((KEEP - have)); [ "$room" -gt 0 ] || room=0
    # The smallest new inputs that are not committed yet.
    ls -S -r "corpus-min/$t" | while read -r f; do
        [ -e "corpus/$t/$f" ] || [ -e "corpus/$t/seed-$f" ] || echo "$f"
    done | head -n "$room" | while read -r f; do cp "corpus-min/$t/$f" "corpus/$t/$f"; done
    for c in artifacts/"$t"/crash-* artifacts/"$t"/timeout-* artifacts/"$t"/oom-*; do
        [ -e "$c" ] && cp "$c" "corpus/$t/$(basename "$c")"
    done
    echo "$t: $(grep -E '^#[0-9]+' "logs/$t.log" | tail -1) | committed $(ls "corpus/$t" | wc -l) files"
done
