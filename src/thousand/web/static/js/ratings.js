// The ratings: #/ratings/FAMILY, a family's leaderboard; #/player/NAME, a player's profile (the
// ratings per family, the rating history as a chart, each finished game with its replay and its
// record). Every name is text (never markup).

import { api, apiPage } from "./api.js";
import { h } from "./dom.js";
import { language, t } from "./i18n.js";
import { botName, templateTitles } from "./lobby.js";
import { showError } from "./ui.js";

/** The families of templates, as the server names them (ratings.Family). */
export const FAMILIES = ["three-player", "two-player", "four-player", "partnerships"];

const SVG = "http://www.w3.org/2000/svg";

/** A rating beside a name: " (1042)", or "" where the seat has none. */
export function ratingText(seat) {
  return Number.isInteger(seat?.rating) ? ` (${seat.rating})` : "";
}

function percent(rate) {
  return rate === null || rate === undefined
    ? "—"
    : new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 0 }).format(rate);
}

function familyName(family) {
  return t(`ratings.family.${family}`);
}

function familyLinks(current) {
  return h(
    "nav",
    { class: "families", "aria-label": t("ratings.families") },
    FAMILIES.map((f) =>
      h("a", { href: `#/ratings/${f}`, "aria-current": f === current ? "page" : null }, familyName(f)),
    ),
  );
}

function playerLink(name) {
  return h("a", { href: `#/player/${encodeURIComponent(name)}` }, name);
}

/** #/ratings/FAMILY: the leaderboard, a page at a time. */
export function ratingsScreen(root, family) {
  const chosen = FAMILIES.includes(family) ? family : FAMILIES[0];
  let board = null;
  let more = false;
  let alive = true;

  async function load(offset = 0) {
    try {
      const { data, more: next } = await apiPage(`/api/ratings/${chosen}?limit=50&offset=${offset}`);
      if (!alive) return;
      board = offset ? [...board, ...data] : data;
      more = next;
      render();
    } catch (e) {
      showError(t("ratings.error", { detail: e.message }));
    }
  }

  function render() {
    const rows = (board || []).map((r) =>
      h(
        "tr",
        {},
        h("td", {}, String(r.place)),
        h("th", { scope: "row" }, r.kind === "bot" ? botName(r.level) : playerLink(r.name)),
        h("td", { class: "rating" }, String(r.rating)),
        h("td", {}, String(r.games)),
        h("td", {}, percent(r.win_rate)),
        h("td", {}, percent(r.make_rate)),
      ),
    );
    root.replaceChildren(
      h(
        "section",
        { class: "ratings", "aria-labelledby": "ratings-title" },
        h("h2", { id: "ratings-title" }, t("ratings.title", { family: familyName(chosen) })),
        familyLinks(chosen),
        board === null
          ? h("p", { class: "muted" }, t("ratings.loading"))
          : board.length === 0
            ? h("p", { class: "muted", id: "ratings-empty" }, t("ratings.empty"))
            : h(
                "table",
                { id: "leaderboard" },
                h(
                  "thead",
                  {},
                  h(
                    "tr",
                    {},
                    ["ratings.place", "ratings.player", "ratings.rating", "ratings.games", "ratings.win_rate", "ratings.make_rate"].map(
                      (key) => h("th", { scope: "col" }, t(key)),
                    ),
                  ),
                ),
                h("tbody", {}, rows),
              ),
        more ? h("button", { type: "button", onclick: () => load(board.length) }, t("ratings.more")) : null,
      ),
    );
  }

  render();
  load();
  return {
    render,
    destroy() {
      alive = false;
    },
  };
}

/** The rating history as a line: one point per rated match, the oldest on the left. */
export function historyChart(history) {
  const width = 480;
  const height = 160;
  const pad = 28;
  const svg = document.createElementNS(SVG, "svg");
  for (const [k, v] of Object.entries({ viewBox: `0 0 ${width} ${height}`, role: "img", class: "rating-chart", id: "rating-chart" })) {
    svg.setAttribute(k, v);
  }
  const title = document.createElementNS(SVG, "title");
  title.textContent = t("player.chart");
  svg.append(title);
  const values = [history[0]?.before ?? 1000, ...history.map((e) => e.rating)];
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = Math.max(high - low, 1);
  const x = (i) => pad + (i * (width - 2 * pad)) / Math.max(values.length - 1, 1);
  const y = (v) => height - pad - ((v - low) * (height - 2 * pad)) / span;
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("points", values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "));
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "currentColor");
  line.setAttribute("stroke-width", "2");
  svg.append(line);
  for (const [v, at] of [
    [high, pad],
    [low, height - pad],
  ]) {
    const label = document.createElementNS(SVG, "text");
    label.setAttribute("x", "2");
    label.setAttribute("y", String(at + 4));
    label.setAttribute("font-size", "11");
    label.setAttribute("fill", "currentColor");
    label.textContent = String(v);
    svg.append(label);
  }
  return svg;
}

/** #/player/NAME: the profile. */
export function playerScreen(root, name) {
  let profile = null;
  let titles = new Map();
  let alive = true;

  async function load() {
    try {
      const [found, names] = await Promise.all([api(`/api/players/${encodeURIComponent(name)}`), templateTitles()]);
      if (!alive) return;
      profile = found;
      titles = names;
      render();
    } catch (e) {
      showError(t("player.error", { detail: e.message }));
    }
  }

  function render() {
    if (profile === null) {
      root.replaceChildren(h("p", { class: "muted" }, t("ratings.loading")));
      return;
    }
    const ratings = profile.ratings.map((r) =>
      h(
        "tr",
        {},
        h("th", { scope: "row" }, h("a", { href: `#/ratings/${r.family}` }, familyName(r.family))),
        h("td", { class: "rating" }, String(r.rating)),
        h("td", {}, String(r.games)),
        h("td", {}, percent(r.win_rate)),
        h("td", {}, percent(r.make_rate)),
      ),
    );
    const games = profile.games.map((g) =>
      h(
        "li",
        { dataset: { game: g.id } },
        `${titles.get(g.template) ?? g.template} · ${new Date(g.created * 1000).toLocaleDateString(language())}`,
        g.rated ? ` · ${t("player.rated_place", { place: g.place ?? "—" })}` : ` · ${t("player.casual")}`,
        " · ",
        h("a", { href: g.replay }, t("player.replay")),
        " · ",
        h("a", { href: g.record, download: `${g.id}.thousand` }, t("player.record")),
      ),
    );
    root.replaceChildren(
      h(
        "section",
        { class: "profile", "aria-labelledby": "profile-title" },
        h("h2", { id: "profile-title" }, profile.name),
        profile.ratings.length
          ? h(
              "table",
              { id: "profile-ratings" },
              h(
                "thead",
                {},
                h(
                  "tr",
                  {},
                  ["ratings.family", "ratings.rating", "ratings.games", "ratings.win_rate", "ratings.make_rate"].map((key) =>
                    h("th", { scope: "col" }, t(key)),
                  ),
                ),
              ),
              h("tbody", {}, ratings),
            )
          : h("p", { class: "muted" }, t("player.unrated")),
        profile.history.length ? [h("h3", {}, t("player.history")), historyChart(profile.history)] : null,
        h("h3", {}, t("player.games")),
        games.length ? h("ul", { id: "profile-games" }, games) : h("p", { class: "muted" }, t("player.no_games")),
      ),
    );
  }

  render();
  load();
  return {
    render,
    destroy() {
      alive = false;
    },
  };
}
