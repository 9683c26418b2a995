#!/bin/sh
# Ingests one sample world with two encore binaries and compares the catalogs table by
# table (scripts/compare-catalogs.py): each format directory into a catalog of its own,
# then every format into one catalog, in the order given.
#
#   scripts/compare-ingests.sh BEFORE_ENCORE AFTER_ENCORE WORLD OUT [FORMAT...]
#
# WORLD is what `encore-sample --formats all --out WORLD` wrote; OUT receives the
# catalogs, ingest logs and one report per catalog. Formats default to those of
# `encore-sample --formats all` that both binaries read. Exit status 1 when any
# catalog differs.
set -u
if [ $# -lt 4 ]; then
    sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
before=$1 after=$2 world=$3 out=$4
shift 4
formats=${*:-songkick-json songkick-xml bandsintown ticketmaster lastfm-xml lastfm-json jsonld}
compare="$(dirname "$0")/compare-catalogs.py"
mkdir -p "$out"
status=0

ingest() { # binary name catalog format
    "$1" ingest --quiet --db "$3" --format "$4" "$world/$4" >>"$out/$2.log" 2>&1 \
        || echo "$2: ingest of $4 exited with $?" >&2
}

for side in before after; do
    binary=$before
    [ "$side" = after ] && binary=$after
    rm -f "$out/$side-"*.sqlite* "$out/$side-"*.log
    for format in $formats; do
        ingest "$binary" "$side-$format" "$out/$side-$format.sqlite" "$format"
        ingest "$binary" "$side-merged" "$out/$side-merged.sqlite" "$format"
    done
done

for name in $formats merged; do
    if python3 "$compare" "$out/before-$name.sqlite" "$out/after-$name.sqlite" >"$out/$name.report"; then
        echo "$name: identical ($out/$name.report)"
    else
        echo "$name: DIFFERENT ($out/$name.report)"
        status=1
    fi
done
exit $status
