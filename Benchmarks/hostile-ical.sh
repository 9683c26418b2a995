#!/usr/bin/env bash
# Issue 53's hostile calendar: ~490 KB of events that each recur daily for ever (and one
# weekly 999,999,999 times), ingested into a fresh catalog; prints the time and the caps'
# warnings. Before the caps it expanded to 147,864 events and took 95-104 s.
#
#     Benchmarks/hostile-ical.sh        (needs a release build)
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work/hostile.ics" <<'PY'
import sys
lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//hostile//EN"]
number = 0
while sum(len(l) + 2 for l in lines) < 490_000:
    number += 1
    rule = "RRULE:FREQ=WEEKLY;COUNT=999999999" if number == 1 else "RRULE:FREQ=DAILY"
    lines += ["BEGIN:VEVENT", f"UID:hostile-{number}@example.org", f"SUMMARY:Band {number} at The Venue",
              f"DTSTART:2026{(number % 12) + 1:02d}{(number % 28) + 1:02d}T200000Z", rule,
              "LOCATION:The Venue, 1 Main Street, Leeds, United Kingdom", "DESCRIPTION:" + "x" * 120, "END:VEVENT"]
lines.append("END:VCALENDAR")
open(sys.argv[1], "w").write("\r\n".join(lines) + "\r\n")
print(f"{number} recurring events, {sum(len(l) + 2 for l in lines) // 1000} KB", file=sys.stderr)
PY
start=$(date +%s.%N)
.build/release/encore --db "$work/encore.sqlite" ingest "$work/hostile.ics" >"$work/out.txt" 2>&1 || true
end=$(date +%s.%N)
grep -iE "warning|occurrence|expanded|recurr" "$work/out.txt" | head -5
tail -1 "$work/out.txt"
printf 'ingested in %.2f s\n' "$(echo "$end - $start" | bc)"
