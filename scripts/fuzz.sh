#!/usr/bin/env bash
# Coverage-guided fuzzing of every format's parser with libFuzzer and the address
# sanitizer. Usage: scripts/fuzz.sh [SECONDS_PER_FORMAT] [FORMAT...]
#   scripts/fuzz.sh 600                 # ten minutes for each format
#   scripts/fuzz.sh 30 songkick-xml     # one format
# Seeds come from Fixtures/ (good and bad pages of each format); the corpus grows in
# .build/fuzz/corpus/FORMAT and crashes land in .build/fuzz/crashes/FORMAT (each one
# becomes a test). Exits non-zero when a target crashes, leaks or times out.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
formats=("$@")
if [ ${#formats[@]} -eq 0 ]; then
    formats=(songkick-json songkick-xml lastfm-json lastfm-xml bandsintown ticketmaster jsonld ical seatgeek)
fi

# libFuzzer's runtime ships with the toolchain's clang; every Swift module is built with
# the address sanitizer and libFuzzer's coverage, so the parsers are what it explores.
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")
runtime=$(dirname "$(find "$toolchain/lib/clang" -name 'libclang_rt.fuzzer_no_main-x86_64.a' | head -n 1)")
build=(--build-path .build/fuzz --product encore-fuzz -Xlinker -L"$runtime"
    -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp)
ENCORE_FUZZ=1 swift build "${build[@]}" >&2
binary=$(ENCORE_FUZZ=1 swift build "${build[@]}" --show-bin-path)/encore-fuzz

seeds_for() {
    case "$1" in
        songkick-json) echo "Fixtures/songkick-json Fixtures/bad/songkick-json Fixtures/changes/songkick-json" ;;
        songkick-xml) echo "Fixtures/songkick-xml Fixtures/bad/songkick-xml" ;;
        lastfm-json) echo "Fixtures/lastfm-json Fixtures/bad/lastfm-json" ;;
        lastfm-xml) echo "Fixtures/lastfm-xml Fixtures/bad/lastfm-xml" ;;
        bandsintown) echo "Fixtures/bandsintown Fixtures/bad/bandsintown" ;;
        ticketmaster) echo "Fixtures/ticketmaster Fixtures/bad/ticketmaster" ;;
        jsonld) echo "Fixtures/jsonld Fixtures/bad/jsonld" ;;
        ical) echo "Fixtures/ical Fixtures/bad/ical" ;;
        seatgeek) echo "Fixtures/seatgeek Fixtures/bad/seatgeek" ;;
    esac
}

status=0
for format in "${formats[@]}"; do
    corpus=.build/fuzz/corpus/$format
    crashes=.build/fuzz/crashes/$format
    mkdir -p "$corpus" "$crashes"
    # Seeds: the format's fixtures, and its pages in the bundled sample worlds.
    for directory in $(seeds_for "$format") Fixtures/sample/"$format" Fixtures/sample-multi/"$format"; do
        [ -d "$directory" ] && find "$directory" -type f -size -256k -exec cp -n {} "$corpus"/ \; 2>/dev/null
    done
    echo "== $format: ${seconds}s" >&2
    if ! ENCORE_FUZZ_FORMAT=$format LSAN_OPTIONS=suppressions=scripts/fuzz-lsan.supp "$binary" "$corpus" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
        -rss_limit_mb=2048 -artifact_prefix="$crashes/" -print_final_stats=1 2>&1 |
        grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)" >&2; then
        echo "FAILED: $format (see $crashes)" >&2
        status=1
    fi
done
exit $status
