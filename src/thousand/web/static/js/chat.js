// A table's chat panel: the players' channel (seats write, everyone reads) and, for a
// spectator, the spectators' channel (spectators only). Messages are plain text: every name and
// every text goes into the page as a text node (dom.js h()), never as markup. The canned phrases
// travel as ids and show in the reader's language. A seat mutes another seat (a spectator, another
// spectator by name); mutes are the server's to keep.
// The panel's element lives as long as the table screen: each render puts the same element back,
// so what is being typed stays.

import { session } from "./account.js";
import { append, button, clear, h } from "./dom.js";
import { t } from "./i18n.js";

/** The canned phrases, in the order of their buttons. */
const PHRASES = {
  "good-luck": () => t("chat.phrase_good_luck"),
  "good-game": () => t("chat.phrase_good_game"),
  "well-played": () => t("chat.phrase_well_played"),
  thanks: () => t("chat.phrase_thanks"),
  sorry: () => t("chat.phrase_sorry"),
  oops: () => t("chat.phrase_oops"),
};

/** The error codes the chat answers, shown in the panel rather than as the page's error. */
const CODES = new Set(["bad_chat", "chat_too_long", "chat_too_fast", "no_chat_name", "bad_mute"]);

export const MAX_CHAT = 300;

/**
 * send(message): sends a client message (false when not connected);
 * who(): {me (a seat, or null for a spectator), seats (the snapshot's seats), name(seat)}.
 */
export function chatPanel(send, who) {
  const lines = new Map(); // id -> line
  let muted = [];
  let problem = null;
  const input = h("input", {
    type: "text",
    class: "chat-input",
    maxlength: String(MAX_CHAT),
    autocomplete: "off",
  });
  const form = h("form", { class: "chat-form" }, input);
  const sendButton = h("button", { type: "submit", class: "chat-send" });
  form.append(sendButton);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (send({ type: "chat", text })) {
      input.value = "";
      problem = null;
    } else {
      problem = t("error.offline");
    }
    refresh();
  });
  const element = h("section", { class: "chat", id: "chat" });

  function isMuted(seat, name) {
    return muted.some((m) => (seat === null ? m.seat === null && m.name === name : m.seat === seat));
  }

  function line(m) {
    const me = who().me;
    const said = m.phrase ? h("span", { class: "chat-phrase" }, PHRASES[m.phrase]?.() ?? m.phrase) : h("span", { class: "chat-text" }, m.text);
    const own = m.seat !== null ? m.seat === me : me === null && m.name === session.name;
    const mute = m.seat === null && me === null && !own && !isMuted(null, m.name)
      ? button(t("chat.mute", { name: m.name }), () => send({ type: "mute", name: m.name, muted: true }), { class: "chat-mute-one link" })
      : null;
    return h("li", { class: "chat-line", dataset: { id: String(m.id), channel: m.channel } }, h("strong", { class: "chat-name" }, m.name), ": ", said, mute ? " " : null, mute);
  }

  function log(channel, title) {
    const shown = [...lines.values()].filter((m) => m.channel === channel).sort((a, b) => a.id - b.id);
    return h(
      "div",
      { class: `chat-channel chat-${channel}` },
      h("h3", {}, title),
      h("ol", { class: "chat-log", "aria-live": "polite", dataset: { channel } }, shown.length ? shown.map(line) : h("li", { class: "chat-empty" }, t("chat.empty"))),
    );
  }

  function mutes() {
    const { me, seats, name } = who();
    const buttons = [];
    for (const s of seats || []) {
      if (s.seat === me || s.kind !== "human" || !s.taken) continue;
      const off = isMuted(s.seat);
      buttons.push(
        button(off ? t("chat.unmute", { name: name(s.seat) }) : t("chat.mute", { name: name(s.seat) }), () => send({ type: "mute", seat: s.seat, muted: !off }), {
          class: "chat-mute",
          "aria-pressed": off ? "true" : "false",
          dataset: { seat: String(s.seat) },
        }),
      );
    }
    for (const m of muted) {
      if (m.seat === null) buttons.push(button(t("chat.unmute", { name: m.name }), () => send({ type: "mute", name: m.name, muted: false }), { class: "chat-mute", "aria-pressed": "true" }));
    }
    return buttons.length ? h("div", { class: "chat-mutes" }, buttons) : null;
  }

  function refresh() {
    const me = who().me;
    const spectator = me === null;
    const writes = !spectator || Boolean(session.name);
    const typing = document.activeElement === input;
    input.setAttribute("aria-label", t("chat.write"));
    input.placeholder = spectator ? t("chat.write_spectators") : t("chat.write");
    sendButton.textContent = t("chat.send");
    element.setAttribute("aria-label", t("chat.title"));
    clear(element);
    append(element, [
      h("h2", {}, t("chat.title")),
      log("seats", t("chat.players")),
      spectator ? log("spectators", t("chat.spectators")) : null,
      writes
        ? h("div", { class: "chat-phrases", role: "group", "aria-label": t("chat.phrases") }, Object.entries(PHRASES).map(([id, said]) => button(said(), () => send({ type: "chat", phrase: id }), { class: "chat-phrase-button", dataset: { phrase: id } })))
        : null,
      writes ? form : h("p", { class: "chat-guest" }, h("a", { href: "#/account" }, t("chat.sign_in"))),
      writes ? mutes() : null,
      problem ? h("p", { class: "chat-error", role: "alert" }, problem) : null,
    ]);
    for (const log of element.querySelectorAll(".chat-log")) log.scrollTop = log.scrollHeight;
    if (typing) input.focus();
  }

  return {
    element,
    refresh,
    /** Whether the chat's text box has the keyboard (a render puts it back there). */
    typing: () => document.activeElement === input,
    focus: () => input.focus(),
    /** A chat-line, chat-history or muted message. */
    receive(message) {
      if (message.type === "chat-history") {
        lines.clear();
        for (const m of message.messages) lines.set(m.id, m);
        muted = message.muted;
      } else if (message.type === "chat-line") {
        lines.set(message.id, message);
        problem = null;
      } else if (message.type === "muted") {
        muted = message.muted;
        problem = null;
      }
      refresh();
    },
    /** An error of the chat's, shown in the panel; whether it was one. */
    error(message) {
      if (!CODES.has(message.code)) return false;
      problem = message.message;
      refresh();
      return true;
    },
  };
}
