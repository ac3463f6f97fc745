// Quick play: the lobby's "Play now" section (a button per template, the wait for people
// chosen once for all) puts the player in the queue (POST /quickplay); the queue screen
// (#/queue/TICKET) asks after the ticket every second, shows how long it has waited, and goes
// to the table once the ticket is seated (the seat's token kept as any other seat's).

import { api, ApiError } from "./api.js";
import { button, h } from "./dom.js";
import { language, t } from "./i18n.js";
import { keepName, keepSeat, playerName, seatAt } from "./store.js";
import { showError } from "./ui.js";

/** The waits offered, in seconds: how long to wait for people before bots fill the seats. */
const WAITS = [10, 30, 60, 120, 300];
const DEFAULT_WAIT = 30;
const KEY = "thousand.quickplay.";
const ASK_EVERY = 1000;

function stored(key) {
  try {
    return localStorage.getItem(KEY + key);
  } catch {
    return null;
  }
}

function store(key, value) {
  try {
    if (value === null) localStorage.removeItem(KEY + key);
    else localStorage.setItem(KEY + key, value);
  } catch {
    // storage refused (private mode): this tab still plays, it just forgets
  }
}

function chosenWait() {
  const wait = Number(stored("wait"));
  return WAITS.includes(wait) ? wait : DEFAULT_WAIT;
}

/** A ticket this browser holds: {token, template} or null. */
function ticketOf(id) {
  try {
    const ticket = JSON.parse(stored(`ticket.${id}`) || "null");
    return ticket && typeof ticket.token === "string" ? ticket : null;
  } catch {
    return null;
  }
}

const forgetTicket = (id) => store(`ticket.${id}`, null);

function waitText(seconds) {
  return seconds < 60 ? t("quick.seconds", { n: seconds }) : t("quick.minutes", { n: seconds / 60 });
}

async function playNow(template) {
  const typed = document.getElementById("your-name")?.value.trim();
  const name = typed || playerName() || t("lobby.default_name");
  if (typed) keepName(typed);
  try {
    const answer = await api("/quickplay", {
      method: "POST",
      body: { template, wait: chosenWait(), name },
    });
    store(`ticket.${answer.ticket}`, JSON.stringify({ token: answer.token, template }));
    location.hash = `#/queue/${answer.ticket}`;
  } catch (e) {
    showError(t("error.quick", { detail: e.message }));
  }
}

/** The lobby's "Play now" section: the wait, and a button per playable template. */
export function quickPlaySection(templates) {
  const wait = chosenWait();
  return h(
    "section",
    { class: "quickplay", "aria-labelledby": "quickplay-title" },
    h("h2", { id: "quickplay-title" }, t("quick.title")),
    h("p", { class: "muted" }, t("quick.intro")),
    h(
      "div",
      { class: "row" },
      h("label", { for: "quick-wait" }, t("quick.wait")),
      h(
        "select",
        { id: "quick-wait", onchange: (e) => store("wait", e.target.value) },
        WAITS.map((s) => h("option", { value: String(s), selected: s === wait }, waitText(s))),
      ),
    ),
    h(
      "ul",
      { class: "quick-templates" },
      templates
        .filter((tpl) => tpl.playable)
        .map((tpl) =>
          h(
            "li",
            {},
            button(tpl.title, () => playNow(tpl.name), {
              "aria-label": t("quick.play", { template: tpl.title }),
              dataset: { template: tpl.name },
            }),
          ),
        ),
    ),
  );
}

/** #/queue/TICKET: waiting for a table, then off to it. */
export function queueScreen(root, id) {
  const ticket = ticketOf(id);
  let alive = true;
  let timer = null;
  let last = null;
  let gone = !ticket;
  let title = ticket?.template ?? "";

  function render() {
    if (!alive) return;
    if (gone) {
      root.replaceChildren(
        h(
          "section",
          { class: "queue" },
          h("h1", {}, t("quick.title")),
          h("p", {}, t("quick.gone")),
          h("p", {}, h("a", { href: "#/" }, t("end.lobby"))),
        ),
      );
      return;
    }
    root.replaceChildren(
      h(
        "section",
        { class: "queue", id: "queue", "aria-labelledby": "queue-title", dataset: { state: last?.state ?? "waiting" } },
        h("h1", { id: "queue-title" }, t("quick.looking", { template: title })),
        last
          ? h(
              "p",
              { role: "status", id: "queue-wait" },
              t("quick.waited", { waited: Math.floor(last.waited), wait: waitText(last.wait) }),
            )
          : h("p", {}, t("common.loading")),
        last ? h("p", { class: "muted" }, t("quick.others", { n: last.waiting })) : null,
        button(t("quick.leave"), leave, { id: "leave-queue" }),
      ),
    );
  }

  async function leave() {
    try {
      await api(`/quickplay/${id}`, { method: "DELETE", token: ticket.token });
    } catch (e) {
      if (e.status === 409) return ask();  // seated meanwhile: to the table
      if (e.status !== 404) {
        showError(t("error.quick", { detail: e.message }));
        return;
      }
    }
    forgetTicket(id);
    location.hash = "#/";
  }

  async function ask() {
    if (!alive) return;
    clearTimeout(timer);
    try {
      const answer = await api(`/quickplay/${id}`, { token: ticket.token });
      if (!alive) return;
      if (answer.state === "seated") {
        if (answer.token) keepSeat(answer.table, answer.seat, answer.token);
        if (answer.token || seatAt(answer.table)) {
          forgetTicket(id);
          location.hash = `#/table/${answer.table}`;
          return;
        }
        // seated, its token given to another tab of this ticket: nothing to sit with here
        gone = true;
        forgetTicket(id);
        render();
        return;
      }
      last = answer;
      render();
    } catch (e) {
      if (e instanceof ApiError && (e.status === 404 || e.status === 403)) {
        forgetTicket(id);
        gone = true;
        render();
        return;
      }
      showError(t("error.quick", { detail: e.message }));
    }
    timer = setTimeout(ask, ASK_EVERY);
  }

  /** The template's title in the page's language. */
  async function named() {
    if (!ticket) return;
    try {
      const answer = await api(`/api/templates?lang=${language()}`);
      title = answer.templates.find((x) => x.name === ticket.template)?.title ?? ticket.template;
    } catch {
      // the template's name stays as it is
    }
    render();
  }

  render();
  named();
  if (ticket) ask();
  return {
    render: named,
    destroy() {
      alive = false;
      clearTimeout(timer);
    },
  };
}
