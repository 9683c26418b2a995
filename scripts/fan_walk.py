"""A fan's walk through the site, in Chromium at phone and desktop widths (issue 50).

Run by browser-test.py with --encore and --db. On a copy of the catalog: a show near
Bilbao on a weekend is chosen from the built site's near.js, a ticket seller's page
(schema.org JSON-LD, as venues and sellers publish it) is ingested for it, and the site is
built as of the Monday before. Then, as a fan: "near me", 25 km, this weekend; open the
show; see its price and "Tickets" link; follow its band; see the show on "My concerts".
Then the show's source says it is cancelled, the site is rebuilt, and the band's Atom
feed has the show's entry updated (same id, a later <updated>, "Cancelled:" first).
Phone screenshots of each step go to the screenshots directory (walk-N-….png).
"""
import datetime
import glob
import json
import math
import os
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ElementTree

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

ATOM = "{http://www.w3.org/2005/Atom}"
SAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "sample")


def near_index(feed_dir):
    """Every metro area's shows as near.js and metros/{id}.near.js give them."""
    venues, events = [], []
    for path in sorted(glob.glob(os.path.join(feed_dir, "metros", "*.near.js"))):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        data = json.loads(text[text.index(",") + 1:text.rindex(")")])
        for e in data["events"]:
            events.append([e[0], len(venues) + e[1], *e[2:]])
        venues.extend(data["venues"])
    events.sort(key=lambda e: (e[2], e[3] or "~"))
    return {"venues": venues, "events": events}


def kilometres(a, b):
    radians = math.radians
    h = (math.sin(radians(b[0] - a[0]) / 2) ** 2
         + math.cos(radians(a[0])) * math.cos(radians(b[0])) * math.sin(radians(b[1] - a[1]) / 2) ** 2)
    return 2 * 6371 * math.asin(math.sqrt(h))


def choose_show(feed_dir, here):
    """The first scheduled Songkick show within 25 km on a Friday, Saturday or Sunday, with acts."""
    index = near_index(feed_dir)
    for event_id, venue, date, _time, _title, status in index["events"]:
        spot = index["venues"][venue]
        day = datetime.date.fromisoformat(date)
        if status or day.weekday() < 4 or kilometres((here["latitude"], here["longitude"]), (spot[3], spot[4])) > 25:
            continue
        with open(os.path.join(feed_dir, f"events/{event_id}.json"), encoding="utf-8") as f:
            event = json.load(f)
        if event["lineup"] and any(s["source"] == "songkick" for s in event["sources"]):
            return event, day
    raise AssertionError("no weekend show within 25 km of Bilbao in the sample")


def encore(args, db, *arguments):
    run = subprocess.run([args.encore, arguments[0], "--db", db, *arguments[1:]], capture_output=True, text=True)
    if run.returncode != 0:
        raise AssertionError(f"encore {' '.join(arguments)}: {run.stdout}{run.stderr}")


def ticket_page(event, directory):
    """A seller's page for the show: the concert page's own JSON-LD, with an offer."""
    with open(os.path.join(directory, "feeds", f"events/{event['id']}.html"), encoding="utf-8") as f:
        page = f.read()
    data = json.loads(re.search(r"<script type=application/ld\+json>(.*?)</script>", page).group(1))
    data["url"] = f"https://tickets.example/e/{event['id']}"
    data["offers"] = [{"@type": "Offer", "url": data["url"], "lowPrice": 18, "highPrice": 24, "priceCurrency": "EUR",
                       "validFrom": "2026-10-01T10:00:00+02:00"}]
    path = os.path.join(directory, "seller.html")
    with open(path, "w", encoding="utf-8") as f:
        f.write("<!DOCTYPE html><title>Tickets</title><script type=\"application/ld+json\">"
                + json.dumps(data) + "</script>")
    return path


def cancellation(event, directory):
    """The Songkick calendar page that lists the show, saying now that it is cancelled."""
    source_id = next(s["id"] for s in event["sources"] if s["source"] == "songkick")
    for path in sorted(glob.glob(os.path.join(SAMPLE, "songkick-json", "**", "*.json"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            page = json.load(f)
        results = (page.get("resultsPage") or {}).get("results") if isinstance(page, dict) else None
        listed = results.get("event") if isinstance(results, dict) else None
        for listing in listed if isinstance(listed, list) else []:
            if str(listing.get("id")) == source_id:
                # As Songkick cancels: the status, "(CANCELLED)" in the name, no performances.
                listing["status"] = "cancelled"
                listing["displayName"] = listing["displayName"].rstrip() + " (CANCELLED) "
                listing["performance"] = []
                changed = os.path.join(directory, "cancelled-" + os.path.basename(path))
                with open(changed, "w", encoding="utf-8") as f:
                    json.dump(page, f)
                return changed
    raise AssertionError(f"no sample page lists Songkick event {source_id}")


def entry_of(feed_path, event_id):
    root = ElementTree.parse(feed_path).getroot()
    for entry in root.iter(ATOM + "entry"):
        if entry.find(ATOM + "link").get("href").endswith(f"events/{event_id}.html"):
            return root.find(ATOM + "updated").text, {
                key: entry.find(ATOM + key).text for key in ("id", "updated", "title", "summary")}
    return root.find(ATOM + "updated").text, None


def reader_view(feed_path):
    """A feed reader's list of a feed, newest first, as a page to photograph."""
    from html import escape
    root = ElementTree.parse(feed_path).getroot()
    rows = "".join(
        f"<li><b>{escape(e.find(ATOM + 'title').text)}</b><br><small>updated {escape(e.find(ATOM + 'updated').text)}"
        f"</small><br>{escape(e.find(ATOM + 'summary').text)}"
        for e in sorted(root.iter(ATOM + "entry"), key=lambda e: e.find(ATOM + "updated").text, reverse=True))
    return ("<!DOCTYPE html><meta charset=utf-8><meta name=viewport content='width=device-width'>"
            "<style>body{font:15px system-ui;margin:12px}li{margin:0 0 12px}small{color:#555}</style>"
            f"<h3>Feed reader: {escape(root.find(ATOM + 'title').text)}</h3>"
            f"<p><small>feed updated {escape(root.find(ATOM + 'updated').text)}</small></p><ol>{rows}</ol>")


def walk(checks, driver, args, screenshots, here, set_size, serve):
    work = tempfile.mkdtemp(prefix="encore-walk-")
    db = os.path.join(work, "encore.sqlite")
    shutil.copy(args.db, db)
    event, day = choose_show(args.feed_dir, here)
    monday = day - datetime.timedelta(days=day.weekday())
    out = os.path.join(work, "feeds")
    encore(args, db, "build", "--today", monday.isoformat(), "--out", out)
    encore(args, db, "ingest", ticket_page(event, work))
    encore(args, db, "build", "--today", monday.isoformat(), "--out", out)
    server = serve(out)
    root = f"http://127.0.0.1:{server.server_address[1]}/"
    wait = WebDriverWait(driver, 10)
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": root.rstrip("/"), "permissions": ["geolocation"]})
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride", here)
    try:
        for size in ("desktop", "phone"):
            shots = size == "phone"
            set_size(driver, size)
            driver.get(root + "index.html")
            driver.execute_script("localStorage.clear()")

            def shot(name):
                if shots:
                    path = os.path.join(screenshots, name)
                    checks.check(f"walk screenshot {name}", driver.save_screenshot(path))

            # 1. This weekend's shows within 25 km.
            driver.get(root + "index.html")
            Select(driver.find_element(By.ID, "near-radius")).select_by_value("25")
            Select(driver.find_element(By.ID, "near-when")).select_by_value("weekend")
            driver.find_element(By.ID, "near-button").click()
            link = f"#near-results a[href$='events/{event['id']}.html']"
            try:
                wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, link))
                dates = [i.find_element(By.TAG_NAME, "small").text for i in driver.find_elements(By.CSS_SELECTOR, "#near-results li")]
                kms = [float(d.rsplit("·", 1)[1].split()[0]) for d in dates]
                friday = monday + datetime.timedelta(days=4)
                weekend = {(friday + datetime.timedelta(days=n)).strftime("%a %-d %b %Y") for n in range(3)}
                ok = all(k <= 25 for k in kms) and all(d.split(",")[0].split(" · ")[0] in weekend for d in dates)
                checks.check(f"walk ({size}): near me, 25 km, this weekend lists the show, all within 25 km that weekend",
                             ok, f"{dates}")
            except Exception as error:
                checks.check(f"walk ({size}): near me, 25 km, this weekend lists the show", False, repr(error))
                continue
            driver.execute_script("document.getElementById('near').scrollIntoView()")
            shot("walk-1-near-me-this-weekend.png")

            # 2. Open it: price and a ticket link on the first screen.
            driver.find_element(By.CSS_SELECTOR, link).click()
            wait.until(lambda d: d.find_elements(By.TAG_NAME, "h1"))
            buy = driver.find_elements(By.CSS_SELECTOR, "a.buy")
            price = "€18–24" in driver.find_element(By.CSS_SELECTOR, "dl.facts").text
            first_screen = bool(buy) and buy[0].rect["y"] + buy[0].rect["height"] <= driver.execute_script("return innerHeight")
            checks.check(f"walk ({size}): the show's page gives its price and a Tickets link on the first screen",
                         price and first_screen and buy[0].get_attribute("href").startswith("https://tickets.example/")
                         and "Tickets at tickets.example" in buy[0].text, f"price {price}, buy {[b.text for b in buy]}")
            shot("walk-2-concert-tickets.png")

            # 3. Follow its band.
            band = driver.find_element(By.CSS_SELECTOR, "ol.lineup a")
            band_name, band_page = band.text, band.get_attribute("href")
            band.click()
            follow = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "button.follow"))
            follow.click()
            checks.check(f"walk ({size}): Follow on the band's page is kept in the browser",
                         follow.get_attribute("aria-pressed") == "true"
                         and band_page.rsplit("/", 1)[-1][:-5] in driver.execute_script("return localStorage.getItem('encore.follows')"))
            shot("walk-3-follow-band.png")

            # 4. My concerts lists the show.
            driver.get(root + "mine.html")
            try:
                wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f"#mine-results a[href$='events/{event['id']}.html']"))
                checks.check(f"walk ({size}): My concerts lists the show of the band followed",
                             band_name in driver.find_element(By.ID, "mine-follows").text)
            except Exception as error:
                checks.check(f"walk ({size}): My concerts lists the show of the band followed", False, repr(error))
            shot("walk-4-my-concerts.png")

        # 5. The show is cancelled; the site rebuilt; the band's feed entry updated.
        slug = band_page.rsplit("/", 1)[-1][:-5]
        feed = os.path.join(out, f"artists/{slug}.atom")
        before_feed, before = entry_of(feed, event["id"])
        encore(args, db, "ingest", cancellation(event, work))
        encore(args, db, "build", "--today", monday.isoformat(), "--out", out)
        after_feed, after = entry_of(feed, event["id"])
        checks.check("walk: after the cancellation and a rebuild, the band's Atom entry keeps its id, is updated and says so first",
                     before and after and after["id"] == before["id"] and after["updated"] > before["updated"]
                     and after["title"].startswith("Cancelled: ") and after["summary"].startswith("Cancelled.")
                     and after_feed == after["updated"] and after_feed > before_feed, f"{before} → {after}")
        set_size(driver, "phone")
        # The feed as a reader lists it: newest first, each entry's title, time and summary.
        reader = os.path.join(work, "reader.html")
        with open(reader, "w", encoding="utf-8") as f:
            f.write(reader_view(feed))
        driver.get("file://" + reader)
        shot_path = os.path.join(screenshots, "walk-5-atom-entry-cancelled.png")
        checks.check("walk screenshot walk-5-atom-entry-cancelled.png", driver.save_screenshot(shot_path))
        driver.get(root + f"artists/{slug}.html")
        marked = driver.find_elements(By.CSS_SELECTOR, f"li.cancelled a[href$='events/{event['id']}.html']")
        checks.check("walk: the cancelled show stays on its band's page, marked", bool(marked))
        driver.find_element(By.CSS_SELECTOR, "li.cancelled").location_once_scrolled_into_view
        shot_path = os.path.join(screenshots, "walk-6-band-page-cancelled.png")
        checks.check("walk screenshot walk-6-band-page-cancelled.png", driver.save_screenshot(shot_path))
    finally:
        server.shutdown()
        shutil.rmtree(work, ignore_errors=True)
