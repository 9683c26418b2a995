// Encore's enhancements, for browsers with JavaScript; every page works without them.
// Search (over search/*.json), "near me" and "My concerts" (over near.js and each metro
// area's metros/{id}.near.js: its upcoming shows with located venues), the date picker,
// and Follow buttons, whose list is kept in this browser's localStorage and sent nowhere.
"use strict";
(function () {
  const fromDisk = location.protocol === "file:";
  const fetchJSON = (path) => fetch(path).then((response) => {
    if (!response.ok) throw new Error(path + ": " + response.status);
    return response.json();
  });
  // near.js and metros/{id}.near.js are scripts, not JSON: a page opened from disk may
  // load scripts but not fetch files.
  const loadScript = (src) => new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.onload = resolve;
    script.onerror = () => reject(new Error(src));
    document.head.append(script);
  });
  window.Encore = window.Encore || {};
  const metroShows = {};
  window.Encore.metro = (id, data) => { metroShows[id] = data; };
  let nearIndex;
  const loadNear = () => (nearIndex = nearIndex || loadScript("near.js").then(() => window.Encore.near));
  // Each show of the metro areas given: [event, venue], venue = [id, name, city, lat, lng].
  const showsOf = async (ids) => {
    await Promise.all(ids.filter((id) => !metroShows[id]).map((id) => loadScript("metros/" + id + ".near.js")));
    return ids.flatMap((id) => metroShows[id].events.map((e) => [e, metroShows[id].venues[e[1]], id]));
  };
  const soonestFirst = (a, b) => (a[0][2] + (a[0][3] || "~")).localeCompare(b[0][2] + (b[0][3] || "~"));

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

  // Days as the pages write them: "Sat 5 Dec 2026", the venue's own date.
  const dayText = (iso) => new Date(iso + "T00:00:00Z").toLocaleDateString("en-GB",
    { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).replace(",", "");
  const isoDay = (date) => date.toISOString().slice(0, 10);
  const addDays = (iso, days) => isoDay(new Date(Date.parse(iso + "T00:00:00Z") + days * 86400000));
  // "Today" is the build's (the site is rebuilt daily): the same site shows the same days.
  const todayOf = (index) => index.today;
  // [from, to] of a choice of dates: tonight, this weekend (Friday to Sunday), 7 or 30 days.
  const range = (choice, today) => {
    const weekday = new Date(today + "T00:00:00Z").getUTCDay();
    switch (choice) {
      case "tonight": return [today, today];
      case "weekend": {
        const friday = addDays(today, weekday === 0 ? -2 : 5 - weekday);
        return [friday > today ? friday : today, addDays(friday, 2)];
      }
      case "week": return [today, addDays(today, 6)];
      case "month": return [today, addDays(today, 29)];
      default: return [today, "9999-12-31"];
    }
  };

  // A show as the pages' lists show it (SiteHTML.entry), with its distance when known.
  const eventItem = (event, venue, distance) => {
    const [id, , date, time, title, status] = event;
    const item = element("li", null, status ? { class: status } : {});
    item.append(element("a", title, { href: "events/" + id + ".html", class: "title" }));
    if (status) item.append(element("strong", status === "rescheduled" ? "Moved" : status[0].toUpperCase() + status.slice(1)));
    const where = venue ? venue[1] + (venue[2] ? ", " + venue[2] : "") : "";
    const away = distance == null ? "" : " · " + distance.toFixed(1) + " km";
    item.append(element("small", dayText(date) + (time ? ", " + time : "") + (where ? " · " + where : "") + away));
    return item;
  };

  // Search: metro areas, artists and venues (search/*.json).
  const search = document.getElementById("search");
  if (search) {
    search.hidden = false;
    const input = document.getElementById("search-input");
    const results = document.getElementById("search-results");
    let artists, venues, metros;
    search.querySelector("form").addEventListener("submit", (event) => {
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
      metros = metros || (await fetchJSON("index.json")).metros;
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
        if (matches(venue.key)) found.push([venue.name, "venues/" + venue.id + ".html", "venue" + (venue.city ? ", " + venue.city : "")]);
      }
      if (fold(input.value) !== query) return;
      for (const [name, href, kind] of found.slice(0, 12)) {
        const item = element("li");
        item.append(element("a", name, { href }), element("span", " " + kind, { class: "kind" }));
        results.append(item);
      }
      if (!found.length) results.append(element("li", "Nothing found for “" + input.value + "”."));
    };
    input.addEventListener("input", () => {
      show().catch(() => {
        results.replaceChildren(element("li", fromDisk
          ? "Search needs the site served by a web server: browsers do not let a page opened from disk read its index. Every city is listed below."
          : "Could not load the search index."));
      });
    });
  }

  // Near me: shows within the chosen distance and dates, soonest first, with distances.
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
    const show = async (here) => {
      const index = await loadNear();
      const radius = Number(document.getElementById("near-radius").value);
      const [from, to] = range(document.getElementById("near-when").value, todayOf(index));
      // A metro area's venues lie within some 60 km of its centre.
      const metros = index.metros.filter((m) => kilometres(here, { lat: m[2], lng: m[3] }) <= radius + 60).map((m) => m[0]);
      const shown = (await showsOf(metros))
        .map(([e, v]) => [e, v, kilometres(here, { lat: v[3], lng: v[4] })])
        .filter(([e, , km]) => e[2] >= from && e[2] <= to && km <= radius)
        .sort(soonestFirst).slice(0, 100);
      list.replaceChildren(...shown.map(([e, v, km]) => eventItem(e, v, km)));
      status.textContent = shown.length
        ? shown.length + (shown.length === 100 ? "+" : "") + " shows within " + radius + " km, soonest first."
        : "No shows within " + radius + " km on those dates. Try a wider distance or other dates.";
    };
    document.getElementById("near-form").addEventListener("submit", (event) => {
      event.preventDefault();
      status.textContent = "Finding where you are…";
      navigator.geolocation.getCurrentPosition(
        (position) => show({ lat: position.coords.latitude, lng: position.coords.longitude })
          .catch(() => { status.textContent = "Could not load the listings."; }),
        () => { status.textContent = "Your position is not available; pick a city below."; });
    });
  }

  // A city's date picker: to the page that lists the day, then to the day's heading.
  const picker = document.querySelector(".picker");
  if (picker) {
    picker.hidden = false;
    const lasts = picker.dataset.pages.split(" ").map(Number);
    picker.querySelector("input").addEventListener("change", (event) => {
      const day = Number(event.target.value.replace(/-/g, ""));
      if (!day) return;
      const page = Math.max(lasts.findIndex((last) => last >= day), 0) + 1;
      const metro = picker.dataset.metro;
      location.href = (page === 1 ? "metros/" + metro + ".html" : "metros/" + metro + "/page-" + page + ".html") + "#go" + day;
    });
  }
  if (location.hash.startsWith("#go")) {
    const wanted = "d" + location.hash.slice(3);
    const heading = [...document.querySelectorAll("h3[id^=d]")].find((h) => h.id >= wanted);
    if (heading) { heading.scrollIntoView(); heading.setAttribute("tabindex", "-1"); heading.focus(); }
  }

  // Following, in this browser only: [{kind: "artist" | "venue" | "metro", key, name}].
  const storeKey = "encore.follows";
  const follows = () => { try { return JSON.parse(localStorage.getItem(storeKey)) || []; } catch { return []; } };
  const saveFollows = (list) => localStorage.setItem(storeKey, JSON.stringify(list));
  const id = (f) => f.kind + ":" + f.key;
  for (const button of document.querySelectorAll("button.follow")) {
    const [kind, key] = [button.dataset.follow.slice(0, button.dataset.follow.indexOf(":")),
      button.dataset.follow.slice(button.dataset.follow.indexOf(":") + 1)];
    const paint = () => {
      const on = follows().some((f) => id(f) === button.dataset.follow);
      button.textContent = on ? "Following" : "Follow";
      button.setAttribute("aria-pressed", on ? "true" : "false");
    };
    button.hidden = false;
    paint();
    button.addEventListener("click", () => {
      const list = follows();
      const kept = list.filter((f) => id(f) !== button.dataset.follow);
      const follow = { kind, key, name: button.dataset.name };
      if (button.dataset.metro) follow.metro = button.dataset.metro;
      saveFollows(kept.length < list.length ? kept : [...list, follow]);
      paint();
    });
  }

  // My concerts: followed venues' and cities' shows from near.js, bands' from their pages' JSON.
  const mine = document.getElementById("mine");
  if (mine) {
    mine.hidden = false;
    const results = document.getElementById("mine-results");
    const status = document.getElementById("mine-status");
    const listFollows = () => {
      const list = document.getElementById("mine-follows");
      const kinds = { artist: "band", venue: "venue", metro: "city" };
      list.replaceChildren(...follows().map((f) => {
        const item = element("li");
        const href = f.kind === "artist" ? "artists/" + f.key + ".html" : (f.kind === "venue" ? "venues/" : "metros/") + f.key + ".html";
        item.append(element("a", f.name, { href }), element("span", " " + kinds[f.kind], { class: "kind" }));
        return item;
      }));
    };
    const render = async () => {
      listFollows();
      const followed = follows();
      if (!followed.length) {
        results.replaceChildren(element("p", "Nothing followed yet: use the Follow button on a band’s, venue’s or city’s page.", { class: "empty" }));
        return;
      }
      const index = await loadNear();
      const today = todayOf(index);
      const venues = new Set(followed.filter((f) => f.kind === "venue").map((f) => Number(f.key)));
      const metros = new Set(followed.filter((f) => f.kind === "metro").map((f) => Number(f.key)));
      const known = new Set(index.metros.map((m) => m[0]));
      const areas = [...new Set([...metros, ...followed.filter((f) => f.kind === "venue" && f.metro).map((f) => Number(f.metro))])];
      const shows = new Map();
      for (const [e, venue, metro] of await showsOf(areas.filter((id) => known.has(id)))) {
        if (e[2] >= today && (venues.has(venue[0]) || metros.has(metro))) shows.set(e[0], [e, venue]);
      }
      const missed = [];
      for (const f of followed.filter((f) => f.kind === "artist")) {
        try {
          const page = await fetchJSON("artists/" + f.key + ".json");
          for (const s of page.upcoming) {
            if (shows.has(s.id) || s.start.local_date < today) continue;
            const venue = s.venue ? [s.venue.id, s.venue.name, s.venue.city || ""] : null;
            const status = s.status === "scheduled" ? "" : s.status;
            // Titles as the pages write them: without the date they end with (SiteHTML.displayTitle).
            const title = s.title.replace(/ \((January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}\)$/, "");
            shows.set(s.id, [[s.id, 0, s.start.local_date, (s.start.local_time || "").slice(0, 5), title, status], venue]);
          }
        } catch { missed.push(f.name); }
      }
      const sorted = [...shows.values()].sort(soonestFirst);
      const list = element("ol", null, { class: "events" });
      list.append(...sorted.map(([e, venue]) => eventItem(e, venue, null)));
      results.replaceChildren(sorted.length ? list : element("p", "No upcoming shows of what you follow.", { class: "empty" }));
      if (missed.length) {
        results.append(element("p", (fromDisk ? "Bands’ shows need the site served by a web server: " : "Could not load: ") + missed.join(", ") + "."));
      }
    };
    document.getElementById("mine-export").addEventListener("click", () => {
      const blob = new Blob([JSON.stringify({ encore_follows: 1, follows: follows() }, null, 1)], { type: "application/json" });
      const link = element("a", null, { href: URL.createObjectURL(blob), download: "encore-follows.json" });
      document.body.append(link);
      link.click();
      link.remove();
      status.textContent = "Saved encore-follows.json.";
    });
    document.getElementById("mine-import").addEventListener("change", async (event) => {
      try {
        const loaded = JSON.parse(await event.target.files[0].text()).follows;
        const known = new Set(follows().map(id));
        const valid = loaded.filter((f) => ["artist", "venue", "metro"].includes(f.kind) && typeof f.key === "string" && !known.has(id(f)));
        saveFollows([...follows(), ...valid.map((f) => ({ kind: f.kind, key: f.key, name: String(f.name || f.key),
          ...(f.metro ? { metro: String(f.metro) } : {}) }))]);
        status.textContent = "Loaded " + valid.length + " new.";
        render().catch(() => {});
      } catch { status.textContent = "That file is not a list saved by Encore."; }
    });
    render().catch(() => { status.textContent = "Could not load the listings."; });
  }
})();
