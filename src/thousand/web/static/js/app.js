// The page: the header (title, lobby and rules links, language and pace pickers), and the hash
// routes: #/ lobby, #/table/ID, #/join/ID, #/watch/ID, #/replay/GAMEID, #/rules.

import { clear, h } from "./dom.js";
import { LANGUAGES, language, onLanguage, setLanguage, startLanguage, t } from "./i18n.js";
import { joinScreen, lobbyScreen } from "./lobby.js";
import { replayScreen } from "./replay.js";
import { keepPace, pace } from "./store.js";
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
      h("a", { href: `/reference/${language()}/`, id: "rules-link" }, t("nav.rules")),
    ),
    h(
      "div",
      { class: "pickers" },
      h("label", { for: "language" }, t("lang.label")),
      picker,
      h("label", { for: "pace" }, t("pace.label")),
      speeds,
    ),
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
  else screen = lobbyScreen(main);
}

onLanguage(() => {
  header();
  showConnection();
  screen?.render?.();
});

window.addEventListener("hashchange", route);

(async () => {
  await setLanguage(await startLanguage(), { keep: false });
  route();
})();
