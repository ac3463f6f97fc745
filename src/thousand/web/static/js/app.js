// The page: the header (title, lobby and rules links, language and pace pickers, the Sound
// switch, the account: who is signed in), and the hash routes: #/ lobby, #/table/ID, #/join/ID,
// #/watch/ID, #/replay/GAMEID, #/account, #/ratings/FAMILY, #/player/NAME, #/queue/TICKET (quick
// play), #/rules.

import { accountArea, accountScreen, loadSession, onSession } from "./account.js";
import { clear, h } from "./dom.js";
import { LANGUAGES, language, onLanguage, setLanguage, startLanguage, t } from "./i18n.js";
import { joinScreen, lobbyScreen } from "./lobby.js";
import { playerScreen, ratingsScreen } from "./ratings.js";
import { queueScreen } from "./quickplay.js";
import { replayScreen } from "./replay.js";
import { keepPace, keepSound, pace, soundOn } from "./store.js";
import { tableScreen } from "./table.js";
import { clearError, showConnection } from "./ui.js";

const main = document.getElementById("app");
let screen = null;

const PACES = [
  [0, () => t("pace.instant")],
  [350, () => t("pace.fast")],
  [700, () => t("pace.normal")],
  [1200, () => t("pace.slow")],
];

const SVG = "http://www.w3.org/2000/svg";

/** A speaker, with its sound waves (on) or a cross (off). */
function speaker(on) {
  const icon = document.createElementNS(SVG, "svg");
  for (const [k, v] of Object.entries({ viewBox: "0 0 16 16", "aria-hidden": "true", focusable: "false" })) icon.setAttribute(k, v);
  const paths = [["M2 6h3l4-3.5v11L5 10H2z", "currentColor", "none"]];
  if (on) paths.push(["M11 5.2a4 4 0 0 1 0 5.6M12.8 3.4a6.5 6.5 0 0 1 0 9.2", "none", "currentColor"]);
  else paths.push(["M11 5.5l4 5M15 5.5l-4 5", "none", "currentColor"]);
  for (const [d, fill, stroke] of paths) {
    const path = document.createElementNS(SVG, "path");
    for (const [k, v] of Object.entries({ d, fill, stroke, "stroke-width": "1.4" })) path.setAttribute(k, v);
    icon.append(path);
  }
  return icon;
}

/** The Sound button: a toggle (aria-pressed) that switches the table's sounds off and on. */
function soundToggle() {
  const on = soundOn();
  const icon = speaker(on);
  return h(
    "button",
    {
      type: "button",
      id: "sound",
      class: "sound-toggle",
      "aria-pressed": String(on),
      onclick: () => {
        keepSound(!soundOn());
        header();
        document.getElementById("sound")?.focus();
      },
    },
    icon,
    t("sound.label"),
  );
}

function header() {
  const picker = h(
    "select",
    {
      id: "language",
      onchange: (e) => setLanguage(e.target.value),
    },
    LANGUAGES.map((l) => h("option", { value: l.code, lang: l.code, selected: l.code === language() }, l.name)),
  );
  const current = pace();
  const speeds = h(
    "select",
    {
      id: "pace",
      onchange: (e) => {
        keepPace(Number(e.target.value));
        screen?.paceChanged?.();
      },
    },
    PACES.map(([ms, name]) => h("option", { value: String(ms), selected: ms === current }, name())),
  );
  if (!PACES.some(([ms]) => ms === current)) speeds.append(h("option", { value: String(current), selected: true }, `${current} ms`));
  document.getElementById("top").replaceChildren(
    h("a", { href: "#/", class: "brand" }, h("span", { class: "brand-mark", "aria-hidden": "true" }, "1000"), t("app.title")),
    h(
      "nav",
      { "aria-label": t("nav.label") },
      h("a", { href: "#/" }, t("nav.lobby")),
      h("a", { href: "#/ratings" }, t("nav.ratings")),
      h("a", { href: `/reference/${language()}/`, id: "rules-link" }, t("nav.rules")),
    ),
    h(
      "div",
      { class: "pickers" },
      h("label", { for: "language" }, t("lang.label")),
      picker,
      h("label", { for: "pace" }, t("pace.label")),
      speeds,
      soundToggle(),
    ),
    accountArea(),
  );
  document.title = t("app.title");
}

function route() {
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  screen?.destroy?.();
  screen = null;
  clearError();
  showConnection(false);
  clear(main);
  const [name, id] = parts;
  if (name === "rules") {
    location.assign(`/reference/${language()}/`);
    return;
  }
  if (name === "table" && id) screen = tableScreen(main, id, { watch: false });
  else if (name === "watch" && id) screen = tableScreen(main, id, { watch: true });
  else if (name === "join" && id) screen = joinScreen(main, id);
  else if (name === "replay" && id) screen = replayScreen(main, id);
  else if (name === "account") screen = accountScreen(main);
  else if (name === "ratings") screen = ratingsScreen(main, id);
  else if (name === "player" && id) screen = playerScreen(main, id);
  else if (name === "queue" && id) screen = queueScreen(main, id);
  else screen = lobbyScreen(main);
}

onLanguage(() => {
  header();
  showConnection();
  screen?.render?.();
});

onSession(() => {
  header();
  screen?.render?.();
});

window.addEventListener("hashchange", route);

(async () => {
  await Promise.all([setLanguage(await startLanguage(), { keep: false }), loadSession()]);
  route();
})();
