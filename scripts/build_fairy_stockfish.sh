#!/usr/bin/env bash
# Builds Fairy-Stockfish from the source distribution of the PyPI package
# pyffish (its src/ holds the whole engine, main.cpp and uci.cpp included), as
# the oracle for variant perft. Debian's `fairy-stockfish` (11.1) is too old:
# it ignores customPiece.
#
#   scripts/build_fairy_stockfish.sh          # installs target/fairy-stockfish/fairy-stockfish
#   FAIRY_STOCKFISH=/opt/fsf scripts/build_fairy_stockfish.sh
#
# Does nothing when the binary is already there. Needs pip and g++; compiles
# on 2 cores (about a minute or two).
set -euo pipefail
cd "$(dirname "$0")/.."

version=0.0.90
out=${FAIRY_STOCKFISH:-target/fairy-stockfish/fairy-stockfish}
if [ -x "$out" ]; then
    echo "fairy-stockfish: $out is already built"
    exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

pip download --quiet --no-deps --no-binary :all: "pyffish==$version" -d "$work" >/dev/null
tar -xzf "$work/pyffish-$version.tar.gz" -C "$work"
src="$work/pyffish-$version/src"

# Every .cpp under src/ except the Python and JavaScript bindings.
mapfile -t sources < <(find "$src" -name '*.cpp' ! -name pyffish.cpp ! -name ffishjs.cpp | sort)
# NDEBUG as in the engine's own release Makefile: with assertions on, it aborts at start-up
# (an assert in pop_lsb(PieceSet&) fires while the variants are being set up).
flags=(-std=c++17 -O3 -DLARGEBOARDS -DALLVARS -DPRECOMPUTED_MAGICS -DNNUE_EMBEDDING_OFF -DIS_64BIT -DNDEBUG -w)
mkdir -p "$work/obj"
printf '%s\n' "${sources[@]}" |
    xargs -P 2 -I{} sh -c 'g++ "$@" -c "{}" -o "'"$work"'/obj/$(echo "{}" | md5sum | cut -c1-16).o"' _ "${flags[@]}"

mkdir -p "$(dirname "$out")"
g++ -O3 -o "$out.tmp" "$work"/obj/*.o -lpthread
mv "$out.tmp" "$out"
echo "fairy-stockfish: built $out from pyffish $version (${#sources[@]} sources)"
