#!/usr/bin/env python3
"""Writes records.json: one small page per record, in every format Encore reads, with the
start Encore must store, computed here with Python's zoneinfo (not with Encore's code).

Run from this folder: python3 generate.py (the output is committed; rerun after changes)."""
import json
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

UTC = timezone.utc

# zone: (city, country, latitude, longitude, southern hemisphere)
ZONES = {
    "Europe/Berlin": ("Berlin", "DE", 52.52, 13.405, False),
    "Europe/London": ("London", "GB", 51.5074, -0.1278, False),
    "Europe/Helsinki": ("Helsinki", "FI", 60.1699, 24.9384, False),
    "Europe/Moscow": ("Moscow", "RU", 55.7558, 37.6173, False),
    "America/New_York": ("New York", "US", 40.7128, -74.006, False),
    "America/Chicago": ("Chicago", "US", 41.8781, -87.6298, False),
    "America/Los_Angeles": ("Los Angeles", "US", 34.0522, -118.2437, False),
    "America/St_Johns": ("St. John's", "CA", 47.5615, -52.7126, False),
    "America/Sao_Paulo": ("São Paulo", "BR", -23.5505, -46.6333, True),
    "Asia/Kolkata": ("Mumbai", "IN", 19.076, 72.8777, False),
    "Asia/Kathmandu": ("Kathmandu", "NP", 27.7172, 85.324, False),
    "Asia/Tokyo": ("Tokyo", "JP", 35.6762, 139.6503, False),
    "Australia/Adelaide": ("Adelaide", "AU", -34.9285, 138.6007, True),
    "Australia/Lord_Howe": ("Lord Howe Island", "AU", -31.5553, 159.0821, True),
    "Pacific/Auckland": ("Auckland", "NZ", -36.8485, 174.7633, True),
}
# Formats that name no zone place a venue by its coordinates: Lord Howe Island's nearest
# gazetteer city keeps Sydney's clock, so only formats that state a zone can be right there.
STATES_ZONE = {"ical", "ticketmaster", "seatgeek", "lastfm-json"}


def transitions(zone, year):
    """(instant, offset before, offset after) of each clock change in the year."""
    tz = ZoneInfo(zone)
    result = []
    t = datetime(year, 1, 1, tzinfo=UTC)
    step = timedelta(minutes=15)
    previous = t.astimezone(tz).utcoffset()
    while t.year == year:
        t += step
        offset = t.astimezone(tz).utcoffset()
        if offset != previous:
            result.append((t, previous, offset))
            previous = offset
    return result


def cases(zone):
    """(name, local wall clock or None, date, utc instant or None) to list."""
    south = ZONES[zone][4]
    summer, winter = ("2027-01-09", "2027-07-10") if south else ("2027-07-10", "2027-01-09")
    out = [
        ("summer evening", summer, "20:00"),
        ("winter evening", winter, "20:00"),
        ("23:30 show", "2027-03-20", "23:30"),
        ("after midnight", "2027-10-02", "01:00"),
        ("date only", "2027-05-15", None),
    ]
    for instant, before, after in transitions(zone, 2027):
        local_before = (instant + before).replace(tzinfo=None)
        if after > before:  # a gap: the wall clock jumps from local_before to local_before + gap
            wall = local_before + (after - before) / 2
            out.append(("DST gap", wall.strftime("%Y-%m-%d"), wall.strftime("%H:%M")))
        else:  # a repeat: the hour before local_before happens twice
            wall = local_before - (before - after) / 2
            out.append(("DST repeat", wall.strftime("%Y-%m-%d"), wall.strftime("%H:%M")))
    if zone == "America/Sao_Paulo":
        out.append(("rule change (DST until 2019)", "2018-12-15", "20:00"))
    if zone == "Europe/Moscow":
        out.append(("rule change (UTC+4 until 2014)", "2013-12-15", "20:00"))
    return out


def expected(zone, date, clock):
    """RFC 5545: a wall clock in a gap is read with the offset before it (fold=0), a repeated
    one is its first occurrence (fold=0); the stored clock is the instant's."""
    if clock is None:
        return {"date": date, "time": None, "zone": zone, "utc": None}
    tz = ZoneInfo(zone)
    wall = datetime.fromisoformat(f"{date}T{clock}:00").replace(tzinfo=tz, fold=0)
    instant = wall.astimezone(UTC)
    local = instant.astimezone(tz)
    return {"date": local.strftime("%Y-%m-%d"), "time": local.strftime("%H:%M:%S"), "zone": zone,
            "utc": instant.strftime("%Y-%m-%dT%H:%M:%SZ")}


def expected_instant(zone, instant):
    local = instant.astimezone(ZoneInfo(zone))
    return {"date": local.strftime("%Y-%m-%d"), "time": local.strftime("%H:%M:%S"), "zone": zone,
            "utc": instant.strftime("%Y-%m-%dT%H:%M:%SZ")}


def offset_text(zone, date, clock, colon=True):
    tz = ZoneInfo(zone)
    wall = datetime.fromisoformat(f"{date}T{clock}:00").replace(tzinfo=tz, fold=0)
    seconds = int(wall.utcoffset().total_seconds())
    sign = "+" if seconds >= 0 else "-"
    seconds = abs(seconds)
    return f"{sign}{seconds // 3600:02d}{':' if colon else ''}{seconds // 60 % 60:02d}"


def ical(zone, date, clock, utc=None):
    city, country, lat, lng, _ = ZONES[zone]
    compact = (date or "").replace("-", "")
    if utc is not None:
        start = "DTSTART:" + utc.strftime("%Y%m%dT%H%M%SZ")
    elif clock is None:
        start = "DTSTART;VALUE=DATE:" + compact
    else:
        start = f"DTSTART;TZID={zone}:{compact}T{clock.replace(':', '')}00"
    date_only = clock is None and utc is None
    header = f"X-WR-TIMEZONE:{zone}\r\n" if zone == "Australia/Lord_Howe" or date_only else ""
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + header + "BEGIN:VEVENT\r\nUID:t@example\r\nSUMMARY:Night Ferry\r\n"
            + start + f"\r\nLOCATION:The Hall\\, {city}\r\nGEO:{lat};{lng}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")


def venue_jsonld(zone):
    city, country, lat, lng, _ = ZONES[zone]
    return {"@type": "MusicVenue", "name": "The Hall", "address": {"@type": "PostalAddress", "addressLocality": city,
            "addressCountry": country}, "geo": {"@type": "GeoCoordinates", "latitude": lat, "longitude": lng}}


def jsonld(zone, date, clock, utc=None):
    if utc is not None:
        start = utc.strftime("%Y-%m-%dT%H:%M:%SZ")
    elif clock is None:
        start = date
    else:
        start = f"{date}T{clock}:00{offset_text(zone, date, clock)}"
    return json.dumps({"@context": "https://schema.org", "@type": "MusicEvent", "name": "Night Ferry",
                       "url": "https://hall.example/night-ferry", "startDate": start, "location": venue_jsonld(zone),
                       "performer": {"@type": "MusicGroup", "name": "Night Ferry"}}, ensure_ascii=False)


def songkick(zone, date, clock, listed_date=None):
    city, country, lat, lng, _ = ZONES[zone]
    start = {"date": listed_date or date, "time": None, "datetime": None}
    if clock is not None:
        start["time"] = clock + ":00"
        start["datetime"] = f"{date}T{clock}:00{offset_text(zone, date, clock, colon=False)}"
    event = {"id": 1, "type": "Concert", "status": "ok", "displayName": "Night Ferry at The Hall", "start": start,
             "performance": [{"id": 1, "billing": "headline", "billingIndex": 1, "displayName": "Night Ferry",
                              "artist": {"id": 1, "displayName": "Night Ferry", "identifier": []}}],
             "venue": {"id": 7, "displayName": "The Hall", "lat": lat, "lng": lng,
                       "metroArea": {"id": 9, "displayName": city, "country": {"displayName": country}}},
             "location": {"city": city, "lat": lat, "lng": lng}}
    return json.dumps({"resultsPage": {"status": "ok", "results": {"event": [event]}, "perPage": 50, "page": 1,
                                       "totalEntries": 1}}, ensure_ascii=False)


def bandsintown(zone, date, clock):
    city, country, lat, lng, _ = ZONES[zone]
    return json.dumps([{"id": "1", "artist_id": "1", "url": "https://www.bandsintown.com/e/1",
                        "datetime": f"{date}T{clock or '00:00'}:00", "datetime_display_rule": "date" if clock is None else "datetime",
                        "title": "", "venue": {"name": "The Hall", "latitude": str(lat), "longitude": str(lng), "city": city,
                                                "region": "", "country": country},
                        "lineup": ["Night Ferry"], "offers": []}], ensure_ascii=False)


def ticketmaster(zone, date, clock, utc=None):
    city, country, lat, lng, _ = ZONES[zone]
    start = {"dateTBD": False, "dateTBA": False, "timeTBA": clock is None and utc is None, "noSpecificTime": False}
    if utc is not None:
        start["dateTime"] = utc.strftime("%Y-%m-%dT%H:%M:%SZ")
    else:
        start["localDate"] = date
        if clock is not None:
            start["localTime"] = clock + ":00"
            start["dateTime"] = expected(zone, date, clock)["utc"]
    event = {"name": "Night Ferry", "type": "event", "id": "tm1", "url": "https://www.ticketmaster.com/event/1",
             "dates": {"start": start, "timezone": zone, "status": {"code": "onsale"}},
             "classifications": [{"primary": True, "segment": {"name": "Music"}}],
             "_embedded": {"venues": [{"name": "The Hall", "id": "v1", "timezone": zone, "city": {"name": city},
                                       "country": {"countryCode": country},
                                       "location": {"latitude": str(lat), "longitude": str(lng)}}],
                           "attractions": [{"name": "Night Ferry", "id": "a1"}]}}
    return json.dumps({"_embedded": {"events": [event]}, "page": {"size": 20, "totalElements": 1, "totalPages": 1, "number": 0}},
                      ensure_ascii=False)


def seatgeek(zone, date, clock, utc=None):
    city, country, lat, lng, _ = ZONES[zone]
    event = {"id": 1, "type": "concert", "title": "Night Ferry", "status": "normal", "url": "https://seatgeek.com/e/1",
             "time_tbd": clock is None and utc is None, "date_tbd": False, "datetime_tbd": False,
             "taxonomies": [{"id": 2000000, "name": "concert", "parent_id": None}],
             "venue": {"id": 1, "name": "The Hall", "city": city, "country": country, "timezone": zone,
                       "location": {"lat": lat, "lon": lng}},
             "performers": [{"id": 1, "name": "Night Ferry", "type": "band", "primary": True}]}
    if utc is not None:
        event["datetime_utc"] = utc.strftime("%Y-%m-%dT%H:%M:%S")
    else:
        event["datetime_local"] = f"{date}T{clock or '03:30'}:00"
        if clock is not None:
            event["datetime_utc"] = expected(zone, date, clock)["utc"][:-1]
    return json.dumps({"events": [event], "meta": {"total": 1, "page": 1, "per_page": 10}}, ensure_ascii=False)


def lastfm(zone, date, clock):
    city, country, lat, lng, _ = ZONES[zone]
    day = datetime.fromisoformat(date)
    start = day.strftime("%a, %d %b %Y") + (f" {clock}:00" if clock else "")
    event = {"id": "1", "title": "Night Ferry", "artists": {"artist": ["Night Ferry"], "headliner": "Night Ferry"},
             "venue": {"id": "1", "name": "The Hall", "location": {"city": city, "country": country,
                                                                    "geo:point": {"geo:lat": str(lat), "geo:long": str(lng)},
                                                                    "timezone": zone}},
             "startDate": start, "url": "http://www.last.fm/event/1", "cancelled": "0"}
    return json.dumps({"events": {"event": [event], "@attr": {"page": "1", "perPage": "10", "totalPages": "1", "total": "1"}}},
                      ensure_ascii=False)


records = []
UTC_INSTANTS = [datetime(2027, 6, 12, 18, 0, tzinfo=UTC), datetime(2027, 11, 30, 23, 45, tzinfo=UTC)]
for zone in ZONES:
    for name, date, clock in cases(zone):
        want = expected(zone, date, clock)
        pages = {"ical": ical(zone, date, clock), "jsonld": jsonld(zone, date, clock),
                 "songkick-json": songkick(zone, date, clock), "bandsintown": bandsintown(zone, date, clock),
                 "ticketmaster": ticketmaster(zone, date, clock), "seatgeek": seatgeek(zone, date, clock)}
        if clock is not None:
            pages["lastfm-json"] = lastfm(zone, date, clock)
        for fmt, page in pages.items():
            if zone == "Australia/Lord_Howe" and fmt not in STATES_ZONE:
                continue
            records.append({"format": fmt, "zone": zone, "case": name, "page": page, "expect": want})
        if name == "after midnight":
            # Songkick lists a 01:00 show under the evening before; its datetime decides.
            if zone != "Australia/Lord_Howe":
                previous = (datetime.fromisoformat(date) - timedelta(days=1)).strftime("%Y-%m-%d")
                records.append({"format": "songkick-json", "zone": zone, "case": "listed under the evening before",
                                "page": songkick(zone, date, clock, listed_date=previous), "expect": want})
    for instant in UTC_INSTANTS:
        want = expected_instant(zone, instant)
        for fmt, page in {"ical": ical(zone, None, None, utc=instant), "jsonld": jsonld(zone, None, None, utc=instant),
                          "ticketmaster": ticketmaster(zone, None, None, utc=instant),
                          "seatgeek": seatgeek(zone, None, None, utc=instant)}.items():
            if zone == "Australia/Lord_Howe" and fmt not in STATES_ZONE:
                continue
            records.append({"format": fmt, "zone": zone, "case": "UTC only", "page": page, "expect": want})

with open("records.json", "w", encoding="utf-8") as out:
    json.dump(records, out, ensure_ascii=False, indent=0)
    out.write("\n")
print(len(records), "records")
