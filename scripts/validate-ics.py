#!/usr/bin/env python3
"""Checks an iCalendar file with a real parser (the `icalendar` package).

    python3 scripts/validate-ics.py plans.ics

Exits 0 when the file parses and every VEVENT has UID, DTSTAMP, DTSTART and SUMMARY,
printing a one-line summary; exits 1 with the reason otherwise.
"""
import sys

from icalendar import Calendar


def main():
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    try:
        calendar = Calendar.from_ical(data)
    except Exception as error:  # the parser's own message is the useful part
        print(f"FAIL: does not parse: {error}")
        sys.exit(1)
    events = calendar.walk("VEVENT")
    for event in events:
        for prop in ("UID", "DTSTAMP", "DTSTART", "SUMMARY"):
            if prop not in event:
                print(f"FAIL: a VEVENT lacks {prop}: {event.get('UID')}")
                sys.exit(1)
        event.decoded("DTSTART")
    if not data.endswith(b"\r\n") or b"\n" in data.replace(b"\r\n", b""):
        print("FAIL: lines must end with CRLF")
        sys.exit(1)
    print(f"ok: {len(events)} events, {len(calendar.walk('VALARM'))} alarms")


if __name__ == "__main__":
    main()
