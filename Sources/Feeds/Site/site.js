// Encore's two enhancements, for browsers with JavaScript: instant search over the
// static search index, and "near me" (the nearest metro areas from index.json, their
// concerts soonest first). The pages work without it.
"use strict";
(function () {
  const fetchJSON = (path) => fetch(path).then((response) => {
    if (!response.ok) throw new Error(path + ": " + response.status);
    return response.json();
  });
  let index;
  const loadIndex = () => (index = index || fetchJSON("index.json"));

  // The catalog's name folding (NameFolding.fold): no case, no accents, "&" as "and",
  // and the letters that do not decompose spelled as NameFolding spells them.
  const letters = { "ø": "o", "đ": "d", "ð": "d", "ł": "l", "æ": "ae", "œ": "oe", "ß": "ss", "þ": "th", "ı": "i", "ħ": "h" };
  const fold = (text) => text.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
    .replace(/[øđðłæœßþıħ]/g, (letter) => letters[letter])
    .replace(/&/g, " and ").replace(/[^\p{L}\p{N}]+/gu, " ").trim();

  const element = (name, text, attributes) => {
    const node = document.createElement(name);
    if (text) node.textContent = text;
    for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
    return node;
  };

  // Search: metro areas (index.json), artists and venues (search/*.json).
  const search = document.getElementById("search");
  if (search) {
    search.hidden = false;
    const input = document.getElementById("search-input");
    const results = document.getElementById("search-results");
    let artists, venues;
    const form = search.querySelector("form");
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const first = results.querySelector("a");
      if (first) location.href = first.href;
    });
    const show = async () => {
      const query = fold(input.value);
      results.replaceChildren();
      if (!query) return;
      artists = artists || await fetchJSON("search/artists.json");
      venues = venues || await fetchJSON("search/venues.json");
      const { metros } = await loadIndex();
      const matches = (key) => key.startsWith(query) || key.includes(" " + query);
      const found = [];
      for (const metro of metros) {
        if (matches(fold(metro.name))) found.push([metro.name, "metros/" + metro.id + ".html", "city"]);
      }
      for (const artist of artists) {
        if (found.length >= 12) break;
        if (matches(artist.key)) found.push([artist.name, "artists/" + artist.slug + ".html", "artist"]);
      }
      for (const venue of venues) {
        if (found.length >= 12) break;
        if (matches(venue.key)) {
          found.push([venue.name, "venues/" + venue.id + ".html", "venue" + (venue.city ? ", " + venue.city : "")]);
        }
      }
      if (fold(input.value) !== query) return;
      for (const [name, href, kind] of found.slice(0, 12)) {
        const item = element("li");
        item.append(element("a", name, { href }), element("span", " " + kind, { class: "kind" }));
        results.append(item);
      }
      if (!found.length) results.append(element("li", "Nothing found for “" + input.value + "”."));
    };
    input.addEventListener("input", () => { show().catch(() => {}); });
  }

  // Near me: the browser's position, the nearest metro areas, their concerts.
  const near = document.getElementById("near");
  if (near && "geolocation" in navigator) {
    near.hidden = false;
    const status = document.getElementById("near-status");
    const list = document.getElementById("near-results");
    const radians = (degrees) => degrees * Math.PI / 180;
    const kilometres = (a, b) => {
      const h = Math.sin(radians(b.lat - a.lat) / 2) ** 2
        + Math.cos(radians(a.lat)) * Math.cos(radians(b.lat)) * Math.sin(radians(b.lng - a.lng) / 2) ** 2;
      return 2 * 6371 * Math.asin(Math.sqrt(h));
    };
    const show = async (position) => {
      const here = { lat: position.coords.latitude, lng: position.coords.longitude };
      const { metros } = await loadIndex();
      const nearest = metros.filter((m) => m.lat != null && m.lng != null)
        .map((m) => ({ metro: m, distance: kilometres(here, m) }))
        .sort((a, b) => a.distance - b.distance).slice(0, 3);
      list.replaceChildren();
      for (const { metro, distance } of nearest) {
        const feed = await fetchJSON(metro.path);
        const section = element("section", null, { class: "near-metro" });
        const heading = element("h3");
        heading.append(element("a", metro.name, { href: "metros/" + metro.id + ".html" }),
          document.createTextNode(" · " + Math.round(distance) + " km"));
        const events = element("ol", null, { class: "events" });
        const upcoming = feed.upcoming.slice().sort((a, b) =>
          (a.start.local_date + (a.start.local_time || "")).localeCompare(b.start.local_date + (b.start.local_time || "")));
        for (const event of upcoming.slice(0, 10)) {
          // The same markup as the pages' lists.
          const item = element("li", null, event.status !== "scheduled" ? { class: event.status } : {});
          item.append(element("a", event.title, { href: "events/" + event.id + ".html", class: "title" }));
          if (event.status !== "scheduled") item.append(element("strong", event.status));
          // The venue's local date and time, as the pages write them ("Thu 3 Dec 2026, 20:30 Europe/Madrid").
          const day = new Date(event.start.local_date + "T00:00:00Z").toLocaleDateString("en-GB",
            { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).replace(",", "");
          const when = day + (event.start.local_time ? ", " + event.start.local_time.slice(0, 5)
            + (event.start.timezone ? " " + event.start.timezone : "") : "");
          item.append(element("small", when + (event.venue ? " · " + event.venue.name + (event.venue.city ? ", " + event.venue.city : "") : "")));
          events.append(item);
        }
        section.append(heading, events);
        list.append(section);
      }
      status.textContent = nearest.length ? "Nearest cities first." : "No cities with concerts found.";
    };
    document.getElementById("near-button").addEventListener("click", () => {
      status.textContent = "Finding where you are…";
      navigator.geolocation.getCurrentPosition(
        (position) => show(position).catch(() => { status.textContent = "Could not load the listings."; }),
        () => { status.textContent = "Your position is not available; pick a city below."; });
    });
  }
})();
