// The lobby: your name, the template picker (summary, description, the differences from
// russian), the custom-rules editor (checked live by the server), the seats (human or bot with
// a level), "Create table"; and the open tables (join), live tables (watch), finished games
// (replay). Also the join screen of an invite link (#/join/ID).

import { NAME_MARK, session, withName } from "./account.js";
import { api, apiPage, takeSeat } from "./api.js";
import { append, button, h } from "./dom.js";
import { language, suitName, t } from "./i18n.js";
import { quickPlaySection } from "./quickplay.js";
import { forgetSeat, keepName, keepSeat, playerName, seatAt } from "./store.js";
import { ratingText } from "./ratings.js";
import { showError } from "./ui.js";

/** A bot's name for people, one per level ("Medium bot"), on every screen. */
export function botName(level) {
  return (
    { easy: t("bot.easy"), medium: t("bot.medium"), hard: t("bot.hard"), expert: t("bot.expert") }[level] ??
    t("bot.other", { level })
  );
}

/** Each seat's name for people, the same on every screen: a person's own name, a bot's name
 * ("Medium bot"; "Medium bot, seat 3" where two bots of a table share a level), "" for a seat
 * nobody holds. ``seats`` as the server sends them (kind, level, name). */
export function seatNames(seats) {
  const count = {};
  for (const s of seats) if (s.kind === "bot") count[s.level] = (count[s.level] || 0) + 1;
  return seats.map((s, i) => {
    if (s.kind !== "bot") return s.name || "";
    const name = botName(s.level);
    return count[s.level] > 1 ? t("bot.at_seat", { name, n: (s.seat ?? i) + 1 }) : name;
  });
}

const titles = new Map();

/** The templates' titles in the page's language, by identifier (asked once per language). */
export async function templateTitles() {
  const lang = language();
  if (!titles.has(lang)) {
    titles.set(
      lang,
      api(`/api/templates?lang=${lang}`).then((x) => new Map(x.templates.map((tpl) => [tpl.name, tpl.title]))),
    );
  }
  try {
    return await titles.get(lang);
  } catch {
    titles.delete(lang);
    return new Map();
  }
}

/** The words of a difference: "the highest bid is 400 (russian: the highest bid is 120)". */
function differenceItem(d) {
  return h(
    "li",
    { dataset: { parameter: d.parameter } },
    h("strong", {}, `${d.heading}: `),
    d.words,
    h("span", { class: "muted" }, ` — ${t("lobby.instead_of", { other: d.other_title ?? d.other, words: d.other_words })}`),
  );
}

function differenceList(list, baseline) {
  if (!list || !list.length) return h("p", { class: "muted" }, t("lobby.no_differences", { template: baseline }));
  return h("ul", { class: "differences" }, list.map(differenceItem));
}

function valueFromText(text, kind) {
  const trimmed = text.trim();
  if (trimmed === "" || trimmed === "none") return kind === "int" ? "" : null;
  if (/^-?\d+$/.test(trimmed)) return Number(trimmed);
  return trimmed;
}

function valueText(value) {
  return value === null || value === undefined ? "" : String(value);
}

/** An editor for one parameter's value; onchange(value). */
function valueEditor(param, value, onchange) {
  const id = `param-${param.name.replace(/\W/g, "-")}`;
  const label = t("rules.value_of", { name: param.name });
  if (param.kind === "bool" || param.kind === "choice" || (param.kind === "int" && param.allowed)) {
    const options =
      param.kind === "bool"
        ? [true, false]
        : param.kind === "choice"
          ? param.choices
          : param.allowed;
    const words = new Map(param.values.map((v) => [JSON.stringify(v.value), v.words]));
    return h(
      "select",
      { id, "aria-label": label, onchange: (e) => onchange(JSON.parse(e.target.value)) },
      options.map((option) =>
        h(
          "option",
          { value: JSON.stringify(option), selected: JSON.stringify(option) === JSON.stringify(value) },
          words.get(JSON.stringify(option)) ?? String(option),
        ),
      ),
    );
  }
  if (param.kind === "suit-map") {
    const map = { ...(value || {}) };
    return h(
      "span",
      { class: "suit-map", id },
      ["c", "d", "h", "s"].map((suit) =>
        h(
          "label",
          {},
          `${suitName(suit)} `,
          h("input", {
            type: "number",
            value: valueText(map[suit]),
            oninput: (e) => {
              map[suit] = Number(e.target.value);
              onchange({ ...map });
            },
            min: param.low,
            max: param.high,
            "aria-label": t("rules.suit_value", { name: param.name, suit: suitName(suit) }),
          }),
        ),
      ),
    );
  }
  const hints = param.values.map((v) => `${v.value === null ? t("rules.none") : v.value}: ${v.words}`);
  return h(
    "span",
    { class: "free-value" },
    h("input", {
      id,
      type: param.kind === "int" ? "number" : "text",
      value: valueText(value),
      min: param.low ?? undefined,
      max: param.high ?? undefined,
      "aria-label": label,
      placeholder: param.kind === "int" ? "" : t("rules.none"),
      oninput: (e) => onchange(valueFromText(e.target.value, param.kind)),
    }),
    hints.length ? h("small", { class: "muted" }, hints.join("; ")) : null,
  );
}

export function lobbyScreen(root) {
  const state = {
    templates: [],
    parameters: [],
    levels: ["easy"],
    template: "russian",
    rules: {},
    seats: [],
    check: null,
    checking: 0,
    lists: { open: [], live: [], games: [] },
    more: { open: false, live: false, games: false },
    adding: "",
  };
  let alive = true;
  let timer = null;

  const current = () => state.templates.find((x) => x.name === state.template);
  const titleOf = (name) => state.templates.find((x) => x.name === name)?.title ?? name;
  const baseline = () => titleOf("russian");
  const players = () => state.check?.players ?? current()?.players ?? 3;

  // A newcomer's bots play sensibly and at once: medium where the server has it.
  const firstLevel = () => (state.levels.includes("medium") ? "medium" : state.levels[0]);

  function fitSeats() {
    const n = players();
    while (state.seats.length < n) state.seats.push(state.seats.length === 0 ? "human" : `bot:${firstLevel()}`);
    state.seats.length = n;
    state.seats[0] = "human";
  }

  async function loadTexts() {
    const lang = language();
    const [templates, parameters] = await Promise.all([
      api(`/api/templates?lang=${lang}`),
      api(`/api/parameters?lang=${lang}`),
    ]);
    state.templates = templates.templates;
    state.parameters = parameters.parameters;
  }

  async function loadLists() {
    // the first page of each list (the server pages them); "more" says others follow
    const none = () => ({ data: [], more: false });
    const [open, live, games] = await Promise.all([
      apiPage("/tables?limit=50").catch(none),
      apiPage("/api/tables/live?limit=50")
        .then((x) => ({ data: x.data.tables, more: x.more }))
        .catch(none),
      apiPage("/games?limit=20").catch(none),
    ]);
    state.lists = { open: open.data, live: live.data, games: games.data };
    state.more = { open: open.more, live: live.more, games: games.more };
  }

  function scheduleCheck() {
    clearTimeout(timer);
    state.checking += 1;
    if (!Object.keys(state.rules).length) {
      state.check = null;
      showCheck();
      return;
    }
    const button = document.getElementById("create-table");
    if (button) button.disabled = true;
    timer = setTimeout(runCheck, 250);
  }

  /** The check's answer in its own box (the rest of the lobby, and what is being typed, stays). */
  function showCheck() {
    const before = state.seats.length;
    fitSeats();
    if (state.seats.length !== before) {
      render();
      return;
    }
    const box = document.getElementById("rules-check");
    if (box) {
      box.replaceChildren();
      append(box, checkBox());
    }
    const button = document.getElementById("create-table");
    if (button) button.disabled = Boolean(state.check && !state.check.ok);
  }

  async function runCheck() {
    const ticket = ++state.checking;
    try {
      const answer = await api("/api/rules/check", {
        method: "POST",
        body: { template: state.template, rules: state.rules, lang: language() },
      });
      if (ticket !== state.checking || !alive) return;
      state.check = answer;
    } catch (e) {
      if (ticket !== state.checking || !alive) return;
      state.check = { ok: false, problems: [e.message] };
    }
    showCheck();
  }

  function valueOf(param) {
    if (param.name in state.rules) return state.rules[param.name];
    const differs = current()?.differences.find((d) => d.parameter === param.name);
    return differs ? differs.value : param.default;
  }

  async function create() {
    const name = typedName("your-name");
    const seats = state.seats.map((s) =>
      s === "human" ? { kind: "human" } : { kind: "bot", level: s.slice(4) },
    );
    try {
      const table = await api("/tables", {
        method: "POST",
        body: { template: state.template, rules: state.rules, seats, rated: Boolean(session.name && state.rated) },
      });
      const seat = await takeSeat(`/tables/${table.id}/seats`, {
        seat: 0,
        name: name || t("lobby.default_name"),
      });
      keepSeat(table.id, seat.seat, seat.token);
      location.hash = `#/table/${table.id}`;
    } catch (e) {
      showError(t("error.create", { detail: e.message }));
    }
  }

  function templatePicker() {
    const chosen = current();
    return h(
      "fieldset",
      { class: "templates" },
      h("legend", {}, t("lobby.template")),
      h(
        "div",
        { class: "template-list" },
        state.templates.map((tpl) =>
          h(
            "label",
            { class: `template${tpl.name === state.template ? " chosen" : ""}${tpl.playable ? "" : " unplayable"}` },
            h("input", {
              type: "radio",
              name: "template",
              value: tpl.name,
              "aria-label": tpl.title,
              "aria-describedby": `summary-${tpl.name}`,
              checked: tpl.name === state.template,
              disabled: !tpl.playable,
              onchange: () => {
                state.template = tpl.name;
                state.rules = {};
                state.check = null;
                fitSeats();
                render();
                document.querySelector(`input[name=template][value="${tpl.name}"]`)?.focus();
              },
            }),
            h("span", { class: "template-name" }, tpl.title),
            h("span", { class: "template-players" }, t("lobby.players", { n: tpl.players })),
            h("span", { class: "template-summary", id: `summary-${tpl.name}` }, tpl.summary),
          ),
        ),
      ),
      chosen
        ? h(
            "div",
            { class: "template-about", "aria-live": "polite" },
            h("h3", {}, chosen.title, " ", h("code", { class: "muted" }, chosen.name)),
            h("p", {}, chosen.description),
            h("h4", {}, t("lobby.differences", { template: baseline() })),
            differenceList(chosen.differences, baseline()),
          )
        : null,
    );
  }

  function rulesEditor() {
    const rows = Object.keys(state.rules).map((name) => {
      const param = state.parameters.find((p) => p.name === name);
      if (!param) return null;
      return h(
        "li",
        { class: "rule-row" },
        h("div", {}, h("strong", {}, param.name), " — ", param.heading, h("br"), h("small", { class: "muted" }, param.summary)),
        valueEditor(param, state.rules[name], (value) => {
          state.rules[name] = value;
          scheduleCheck();
        }),
        button(t("rules.remove"), () => {
          delete state.rules[name];
          render();
          scheduleCheck();
        }, { "aria-label": t("rules.remove_named", { name }) }),
      );
    });
    const free = state.parameters.filter((p) => !(p.name in state.rules));
    const picker = h(
      "select",
      { id: "add-parameter", "aria-label": t("rules.parameter"), onchange: (e) => (state.adding = e.target.value) },
      h("option", { value: "" }, t("rules.choose")),
      free.map((p) => h("option", { value: p.name, selected: p.name === state.adding }, `${p.name} — ${p.heading}`)),
    );
    return h(
      "details",
      { class: "rules-editor", open: Object.keys(state.rules).length > 0 },
      h("summary", {}, t("rules.title")),
      h("p", { class: "muted" }, t("rules.intro")),
      h("ul", { class: "rule-rows" }, rows),
      h(
        "div",
        { class: "row" },
        picker,
        button(t("rules.add"), () => {
          const param = state.parameters.find((p) => p.name === state.adding);
          if (!param) return;
          state.rules[param.name] = valueOf(param);
          state.adding = "";
          render();
          scheduleCheck();
          document.getElementById(`param-${param.name.replace(/\W/g, "-")}`)?.focus();
        }),
      ),
      h("div", { class: "check", id: "rules-check", "aria-live": "polite" }, checkBox()),
    );
  }

  function checkBox() {
    const check = state.check;
    if (!check) return [];
    return [
      check.problems?.length
        ? h("ul", { class: "problems" }, check.problems.map((p) => h("li", {}, p)))
        : h("p", { class: "ok" }, t("rules.ok")),
      check.differences
        ? [h("h4", {}, t("lobby.differences", { template: baseline() })), differenceList(check.differences, baseline())]
        : null,
    ];
  }

  /** "Rated match", for a signed-in player: only signed-in players take its seats. */
  function ratedBox() {
    if (!session.name) return null;
    return h(
      "p",
      { class: "row" },
      h("input", {
        type: "checkbox",
        id: "rated",
        checked: Boolean(state.rated),
        onchange: (e) => {
          state.rated = e.target.checked;
        },
      }),
      h("label", { for: "rated" }, t("lobby.rated")),
    );
  }

  function seatsEditor() {
    fitSeats();
    return h(
      "fieldset",
      { class: "seats" },
      h("legend", {}, t("lobby.seats")),
      state.seats.map((s, i) =>
        h(
          "div",
          { class: "row" },
          h("label", { for: `seat-${i}` }, t("lobby.seat", { n: i + 1 })),
          i === 0
            ? h("span", { id: `seat-${i}` }, t("lobby.you"))
            : h(
                "select",
                {
                  id: `seat-${i}`,
                  onchange: (e) => {
                    state.seats[i] = e.target.value;
                  },
                },
                h("option", { value: "human", selected: s === "human" }, t("lobby.human")),
                state.levels.map((level) =>
                  h("option", { value: `bot:${level}`, selected: s === `bot:${level}` }, botName(level)),
                ),
              ),
        ),
      ),
    );
  }


  function lists() {
    const { open, live, games } = state.lists;
    const more = (which) => (state.more[which] ? h("p", { class: "muted" }, t("lobby.more")) : null);
    return h(
      "section",
      { class: "lists", id: "lobby-lists" },
      h("h2", {}, t("lobby.tables")),
      button(t("lobby.refresh"), refreshLists, { id: "refresh-lists" }),
      h("h3", {}, t("lobby.open_tables")),
      open.length
        ? h("ul", { id: "open-tables" }, open.map((x) =>
            h("li", {}, `${titleOf(x.template)}: ${seatsText(x.seats)} `, h("a", { href: `#/join/${x.id}` }, t("lobby.join")))))
        : h("p", { class: "muted" }, t("lobby.none")),
      more("open"),
      h("h3", {}, t("lobby.live_tables")),
      live.length
        ? h("ul", { id: "live-tables" }, live.map((x) =>
            h("li", {}, `${titleOf(x.template)}: ${seatsText(x.seats)} (${(x.totals || []).join(" : ")}) `, h("a", { href: `#/watch/${x.id}` }, t("lobby.watch")))))
        : h("p", { class: "muted" }, t("lobby.none")),
      more("live"),
      h("h3", {}, t("lobby.finished_games")),
      games.length
        ? h("ul", { id: "finished-games" }, games.map((g) =>
            h("li", {}, `${titleOf(g.template)}: ${seatsText(g.seats)} `, h("a", { href: `#/replay/${g.id}` }, t("lobby.replay")))))
        : h("p", { class: "muted" }, t("lobby.none")),
      more("games"),
    );
  }

  /** Fetch the lists again and redraw only them (what is being edited above stays). */
  async function refreshLists() {
    await loadLists();
    const old = document.getElementById("lobby-lists");
    if (!alive || !old) return;
    const focused = document.activeElement?.id;
    old.replaceWith(lists());
    if (focused) document.getElementById(focused)?.focus();
  }

  function render() {
    if (!alive) return;
    const ok = !state.check || state.check.ok;
    const focused = document.activeElement?.id;
    root.replaceChildren(
      quickPlaySection(state.templates),
      h(
        "section",
        { class: "lobby", "aria-labelledby": "lobby-title" },
        h("h1", { id: "lobby-title" }, t("lobby.title")),
        nameRow("your-name", { autocomplete: "nickname", onchange: (e) => keepName(e.target.value.trim()) }),
        templatePicker(),
        rulesEditor(),
        seatsEditor(),
        ratedBox(),
        h("p", {}, button(t("lobby.create"), create, { class: "primary", id: "create-table", disabled: !ok })),
      ),
      lists(),
    );
    if (focused) document.getElementById(focused)?.focus();
  }

  (async () => {
    try {
      const [health] = await Promise.all([api("/health"), loadTexts(), loadLists()]);
      state.levels = health.levels?.length ? health.levels : ["easy"];
      fitSeats();
      render();
    } catch (e) {
      showError(t("error.load", { detail: e.message }));
    }
  })();

  const refresher = setInterval(() => refreshLists().catch(() => {}), 10000);

  return {
    async render() {
      try {
        await loadTexts();
      } catch (e) {
        showError(t("error.load", { detail: e.message }));
      }
      if (Object.keys(state.rules).length) runCheck();
      render();
    },
    destroy() {
      alive = false;
      clearTimeout(timer);
      clearInterval(refresher);
    },
  };
}

/** The Leave button of a seat at a table, with its confirmation: the server voids the seat's
 * token and says what becomes of the seat (a medium bot plays it on during the match; a table
 * no other person is at is closed); the page forgets the seat and goes back to the lobby. */
export function leaveButton(tableId, seat, token) {
  function open() {
    const dialog = h(
      "dialog",
      { class: "modal", "aria-labelledby": "leave-title" },
      h("h2", { id: "leave-title" }, t("leave.title")),
      h("p", {}, t("leave.text")),
      h(
        "div",
        { class: "row" },
        button(t("leave.confirm"), async () => {
          dialog.close();
          try {
            await api(`/tables/${tableId}/seats/${seat}`, { method: "DELETE", token });
          } catch (e) {
            if (e.status !== 403) {  // 403: the seat was left already
              showError(t("error.leave", { detail: e.message }));
              return;
            }
          }
          forgetSeat(tableId);
          location.hash = "#/";
        }, { class: "danger" }),
        button(t("common.cancel"), () => dialog.close(), { autofocus: true }),
      ),
    );
    dialog.addEventListener("close", () => dialog.remove());
    document.body.append(dialog);
    dialog.showModal();
  }
  return button(t("table.leave"), open, { id: "leave-table", class: "leave" });
}

/** The name to sit under: a guest's, typed in the field ``id`` (kept for next time); a
 * signed-in player sits under the account's name whatever is sent. */
function typedName(id) {
  const field = document.getElementById(id);
  if (!field) return session.name || "";
  const name = field.value.trim();
  keepName(name);
  return name;
}

/** A guest's name field, or the signed-in account's name (the server seats it under that). */
function nameRow(id, attrs = {}) {
  if (session.name) {
    return h("p", { class: "row playing-as", id: "playing-as" }, withName(t("lobby.playing_as", { name: NAME_MARK }), session.name));
  }
  return h(
    "div",
    { class: "row" },
    h("label", { for: id }, t("lobby.your_name")),
    h("input", { id, value: playerName(), maxlength: 40, ...attrs }),
  );
}

/** The seats of a table in a list: each one's name, "free seat" where nobody holds it. */
function seatsText(seats) {
  return seatNames(seats)
    .map((name, i) => (name ? `${name}${ratingText(seats[i])}` : t("lobby.free_seat")))
    .join(", ");
}

/** #/join/ID: take a free seat at a table (an invite link), then go to it. */
export function joinScreen(root, tableId) {
  let table = null;
  let title = "";
  let alive = true;
  if (seatAt(tableId)) {
    location.replace(`#/table/${tableId}`);
    return {};
  }

  async function join() {
    const name = typedName("join-name");
    const choice = document.querySelector("input[name=join-seat]:checked");
    try {
      const seat = await takeSeat(`/tables/${tableId}/seats`, {
        seat: choice ? Number(choice.value) : null,
        name: name || t("lobby.default_name"),
      });
      keepSeat(tableId, seat.seat, seat.token);
      location.hash = `#/table/${tableId}`;
    } catch (e) {
      showError(t("error.join", { detail: e.message }));
    }
  }

  function render() {
    if (!alive) return;
    if (!table) {
      root.replaceChildren(h("p", {}, t("common.loading")));
      return;
    }
    const free = table.seats.filter((s) => s.kind === "human" && !s.taken);
    root.replaceChildren(
      h(
        "section",
        { class: "join" },
        h("h1", {}, t("join.title", { template: title })),
        h("p", {}, seatsText(table.seats)),
        free.length
          ? [
              nameRow("join-name"),
              h(
                "fieldset",
                {},
                h("legend", {}, t("join.seat")),
                free.map((s, i) =>
                  h("label", { class: "row" }, h("input", { type: "radio", name: "join-seat", value: s.seat, checked: i === 0 }), t("lobby.seat", { n: s.seat + 1 })),
                ),
              ),
              button(t("join.take"), join, { class: "primary" }),
            ]
          : h("p", {}, t("join.full")),
        h("p", {}, h("a", { href: `#/watch/${tableId}` }, t("lobby.watch"))),
      ),
    );
  }

  (async () => {
    try {
      table = await api(`/tables/${tableId}`);
      title = (await templateTitles()).get(table.template) ?? table.template;
      render();
    } catch (e) {
      showError(t("error.load", { detail: e.message }));
    }
  })();
  render();
  return {
    async render() {
      if (table) title = (await templateTitles()).get(table.template) ?? table.template;
      render();
    },
    destroy() {
      alive = false;
    },
  };
}
