// The table (#/table/ID for a seat, #/watch/ID for a spectator): the seats with their card
// backs, counts and names; the own hand sorted by suit (trump first); the auction and the
// bidding box; the talon; passing (tap a card, then a seat; or drag it onto the seat); the
// write-off dialog; the trick area and the last trick; each deal's result (until closed or the
// next move); the scoresheet; the end of the match. The seats sit around the felt as at a real
// table (you at the bottom, the others left, top and right in play order); the trick shows the
// trump it is played under; cards move (dealt, played, gathered: see motion.js) and sound
// (sound.js).
// Everything the player may do comes from the view's typed moves (kind, card, seat, amount...):
// the page knows no rules and reads no move token; it sends a move's token back as it came.

import { api, takeSeat } from "./api.js";
import { cardBack, cardButton, cardImage, sortHand, suitSymbol } from "./cards.js";
import { chatPanel } from "./chat.js";
import { button, h } from "./dom.js";
import { cardName, language, suitName, t } from "./i18n.js";
import { leaveButton, seatNames } from "./lobby.js";
import { ratingText } from "./ratings.js";
import { flyFrom, gather } from "./motion.js";
import { actionCard, actionLabel, eventName, moveSentence, phaseName, resultName } from "./moves.js";
import { scoresheet, signed } from "./scoresheet.js";
import { forgetSeat, keepSeat, pace, seatAt } from "./store.js";
import { sound } from "./sound.js";
import { clearError, keepToastsIn, showConnection, showError, toast } from "./ui.js";
import { TableSocket } from "./ws.js";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Where each seat sits around the table, seen from ``me``: 0 bottom, then clockwise. */
export function places(count, me) {
  const names = { 2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"] }[count] ||
    Array.from({ length: count }, (_, i) => `p${i}`);
  return (seat) => names[(seat - (me ?? 0) + count) % count];
}

export function tableScreen(root, tableId, { watch }) {
  const held = watch ? null : seatAt(tableId);
  const state = {
    seats: [],
    status: "open",
    rules: {},
    reports: [],
    view: null,
    version: 0,
    me: held ? held.seat : null,
    selected: null,
    choosing: null,
    sending: false,
    // the last thing said (a deal or move event), put in words at each render so that a
    // language switch changes it too
    said: null,
    // the last deal's result ({number, report}) until the player closes it or makes a move
    result: null,
    connection: "connecting",
    offline: false,
    loaded: false,
    problem: null,
    focusKey: null,
    // a hint asked at this version: {version, pending} or {version, move, reason} or {version, failed}
    hint: null,
    // a deal was just dealt: its cards fly from the middle at the next render
    dealt: false,
    // a timed table's clocks as the last message gave them (null: untimed), and when it came
    clocks: null,
    clocksAt: 0,
  };
  const queue = [];
  let pumping = false;
  let nextAt = 0;
  let alive = true;
  let socket = null;
  // where the last render put the cards (to move them from there at the next); null: nothing to
  // move from (the first render, a snapshot)
  let drawn = null;
  // the table's announcements (a marriage...) show on the felt, over no scoresheet; the same
  // element is put back into each render's felt
  const toasts = h("div", { class: "table-toasts", role: "status", "aria-live": "polite" });
  // the table's chat (chat.js): one element for the screen's life, put back into each render
  const chat = chatPanel((message) => Boolean(socket?.send(message)), () => ({ me: state.me, seats: state.seats, name }));

  const name = (seat) => seatNames(state.seats)[seat] || t("table.seat_n", { n: seat + 1 });
  const names = () => state.seats.map((_, i) => name(i));
  const legal = () => (state.view && !state.sending && !queue.length ? state.view.moves || [] : []);

  function showSnapshot(message) {
    queue.length = 0;
    state.seats = message.seats;
    state.status = message.status;
    state.rules = message.rules || {};
    state.reports = [...message.reports];
    state.view = message.view;
    state.version = message.version;
    state.me = message.seat;
    takeClocks(message);
    // a move sent on this connection is still on its way (the snapshot of a reconnection's
    // hello can come before its answer): the seat's turn is not shown again meanwhile
    state.sending = Boolean(socket?.pending);
    state.selected = null;
    state.choosing = null;
    state.loaded = true;
    drawn = null;
    render();
  }

  function show(message) {
    const { event, view } = message;
    state.view = view;
    state.version = message.version;
    state.said = event;
    if (event.kind === "deal") {
      state.dealt = true;
      sound("deal");
    } else {
      if (event.action?.kind === "play" || event.action?.kind === "crawl") sound(view.trick.length || view.crawl_hidden?.length ? "card" : "trick");
      if (event.report) sound("result");
      else if (view.to_act === state.me && state.me !== null && event.seat !== state.me) sound("turn");
      const action = event.action || {};
      if ((action.kind === "play" && action.declare) || action.kind === "declare") toast(moveSentence(event, name));
      if (event.report) {
        state.reports.push(event.report);
        state.result = { number: state.reports.length, report: event.report };
      }
      if (event.seat === state.me) state.sending = false;
    }
    state.selected = null;
    state.choosing = null;
    render();
  }

  async function pump() {
    if (pumping) return;
    pumping = true;
    try {
      while (queue.length && alive) {
        const wait = nextAt - Date.now();
        if (wait > 0) await sleep(wait);
        if (!queue.length || !alive) break;
        const message = queue.shift();
        show(message);
        const mine = message.event.kind === "move" && message.event.seat === state.me;
        const ms = pace();
        nextAt = mine ? 0 : Date.now() + (message.event.report ? 2 * ms : ms);
      }
    } finally {
      pumping = false;
    }
    if (alive) render();
  }

  function send(move) {
    if (!socket || state.sending) return;
    clearError();
    state.sending = true;
    state.selected = null;
    state.choosing = null;
    if (!socket.isOpen()) {
      state.sending = false;
      state.offline = true;
      showError(t("error.offline"));
      render();
      return;
    }
    state.result = null; // the player has moved on to the next deal
    socket.move(move);
    render();
  }

  /** The last thing said, in the language in force. */
  /** Keep a message's clocks (they are the server's as it sent them: counted down from now). */
  function takeClocks(message) {
    state.clocks = message.clocks ?? null;
    state.clocksAt = performance.now();
  }

  /** A seat's time left, in seconds, now: the running turn's counts down; null: no clock. */
  function timeLeft(seat) {
    const clocks = state.clocks;
    if (!clocks || clocks.banks[seat] === null || clocks.banks[seat] === undefined) return null;
    if (clocks.to_act !== seat) return clocks.banks[seat];
    return Math.max(0, clocks.left - (performance.now() - state.clocksAt) / 1000);
  }

  function clockText(seconds) {
    const whole = Math.ceil(seconds);
    return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
  }

  /** Show each seat's time left (the running clock ticks between messages, without a render). */
  function tick() {
    for (const el of document.querySelectorAll(".seat-clock[data-seat]")) {
      const left = timeLeft(Number(el.dataset.seat));
      if (left !== null) el.textContent = t("table.clock", { time: clockText(left) });
    }
  }

  /** A seat's time left (null: the seat has no clock), ticking while its clock runs. */
  function seatClock(seat) {
    const left = timeLeft(seat);
    if (left === null) return null;
    const running = state.clocks.to_act === seat ? " running" : "";
    return h("span", { class: `seat-clock${running}`, dataset: { seat: String(seat) }, role: "timer" }, t("table.clock", { time: clockText(left) }));
  }

  function saidLine() {
    const event = state.said;
    if (!event) return "";
    if (event.kind === "deal") return t("said.deal", { n: event.number, name: name(event.dealer) });
    // the deal's last move also says its result (the panel is not announced by itself)
    return event.report ? `${moveSentence(event, name)} ${resultHeadline(event.report)}` : moveSentence(event, name);
  }

  // -- pieces of the table ------------------------------------------------------------------------

  function seatPanel(seat, place) {
    const view = state.view;
    const count = view ? view.card_counts[seat] : 0;
    const badges = [];
    if (view && view.dealer === seat) badges.push(h("span", { class: "badge" }, t("table.dealer")));
    if (view && view.declarer === seat) badges.push(h("span", { class: "badge declarer" }, t("table.declarer")));
    if (view && view.sitter === seat) badges.push(h("span", { class: "badge" }, t("table.sits_out")));
    const total = view?.match?.totals?.[seat];
    const open = view?.open_hand && view.declarer === seat && seat !== state.me ? view.open_hand : null;
    // the talon turned up, shown with the declarer who took it (not left on the felt)
    const talon = view?.talon && view.declarer === seat && !["play", "done"].includes(view.phase) ? view.talon : null;
    const gives = state.selected
      ? legal().filter((m) => m.kind === "give" && m.card === state.selected && m.seat === seat)
      : [];
    const panel = h(
      "section",
      {
        class: `seat place-${place}${view && view.to_act === seat ? " to-act" : ""}${view?.active && !view.active.includes(seat) ? " sitting" : ""}`,
        "aria-label": name(seat),
        dataset: { seat: String(seat) },
      },
      h(
        "div",
        { class: "seat-head" },
        h("span", { class: "seat-name" }, `${name(seat)}${ratingText(state.seats?.[seat])}`),
        badges,
        view && view.to_act === seat ? h("span", { class: "badge turn" }, t("table.to_act")) : null,
      ),
      h(
        "div",
        { class: "seat-info" },
        total !== undefined ? h("span", {}, t("table.total", { n: total })) : null,
        view ? h("span", {}, t("table.cards", { n: count })) : null,
        view ? h("span", {}, t("table.tricks", { n: view.tricks_won[seat] ?? 0 })) : null,
        view?.match?.on_barrel?.[seat] ? h("span", { class: "badge barrel" }, t("table.on_barrel")) : null,
        seatClock(seat),
      ),
      talon
        ? h("div", { class: "from-talon", role: "group", "aria-label": t("table.from_talon") }, h("span", { class: "label" }, t("table.from_talon")), talon.map((c) => cardImage(c)))
        : null,
      open
        ? h("div", { class: "hand open", "aria-label": t("table.open_hand") }, sortHand(open, view.trump).map((c) => cardImage(c)))
        : h("div", { class: "backs", "aria-hidden": "true" }, Array.from({ length: Math.min(count, 12) }, () => cardBack())),
      gives.map((m) => button(actionLabel(m, name), () => send(m.token), { class: "give primary" })),
    );
    const givesHere = (card) => legal().find((m) => m.kind === "give" && m.card === card && m.seat === seat);
    panel.addEventListener("dragover", (e) => {
      if (legal().some((m) => m.kind === "give" && m.seat === seat)) {
        e.preventDefault();
        panel.classList.add("drop");
      }
    });
    panel.addEventListener("dragleave", () => panel.classList.remove("drop"));
    panel.addEventListener("drop", (e) => {
      e.preventDefault();
      panel.classList.remove("drop");
      const move = givesHere(e.dataTransfer.getData("text/plain"));
      if (move) send(move.token);
    });
    return panel;
  }

  /** A card that some legal actions are about: one action is made at once; several (a card
   * to give to one of the seats, a queen with or without its marriage) select it first. */
  function choosableCard(card, moves) {
    const options = moves.filter((m) => actionCard(m) === card);
    const isGive = options.some((m) => m.kind === "give");
    const click = () => {
      if (options.length === 1 && !isGive) {
        send(options[0].token);
      } else if (options.length) {
        state.selected = state.selected === card ? null : card;
        state.choosing = isGive ? null : state.selected;
        render();
      }
    };
    const el = cardButton(card, click, {
      disabled: !options.length,
      "aria-pressed": options.length && (isGive || options.length > 1) ? String(state.selected === card) : null,
      draggable: isGive ? "true" : null,
      class: `card${state.selected === card ? " selected" : ""}${options.length ? " playable" : ""}`,
    });
    if (isGive) el.addEventListener("dragstart", (e) => e.dataTransfer.setData("text/plain", card));
    return el;
  }

  function myHand() {
    const view = state.view;
    if (!view || !view.hand) return null;
    const moves = legal();
    const fromTalon = new Set(view.declarer === state.me && view.phase !== "play" ? view.talon || [] : []);
    return h(
      "div",
      { class: "hand mine", role: "group", "aria-label": t("table.your_hand") },
      sortHand(view.hand, view.trump).map((card) => {
        const el = choosableCard(card, moves);
        // the cards that came from the talon, and the card given to this seat, are marked in
        // the hand until the play
        if (fromTalon.has(card)) el.classList.add("from-talon");
        if (card === view.received && view.phase !== "play") el.classList.add("received");
        return el;
      }),
    );
  }

  /** Cards the legal actions name that are not in the hand (the talon handed out from the pool
   * in some layouts): chosen the same way as the hand's. */
  function otherCards() {
    const view = state.view;
    const moves = legal();
    const hand = new Set(view?.hand || []);
    const cards = [...new Set(moves.map(actionCard).filter((c) => c && !hand.has(c)))];
    if (!cards.length) return null;
    return h(
      "div",
      { class: "hand pool", role: "group", "aria-label": t("table.to_hand_out") },
      h("span", { class: "label" }, t("table.to_hand_out")),
      sortHand(cards, view.trump).map((card) => choosableCard(card, moves)),
    );
  }

  function actionBar() {
    const moves = legal();
    if (!moves.length) return null;
    const cardMoves = moves.filter((m) => actionCard(m));
    const others = moves.filter((m) => !actionCard(m));
    const bids = others.filter((m) => ["bid", "blind", "named"].includes(m.kind));
    const contracts = others.filter((m) => m.kind === "contract");
    const rest = others.filter((m) => !bids.includes(m) && !contracts.includes(m));
    const parts = [];
    if (state.choosing) {
      const choices = cardMoves.filter((m) => actionCard(m) === state.choosing);
      parts.push(
        h("div", { class: "choices", role: "group", "aria-label": cardName(state.choosing) },
          choices.map((m) => button(actionLabel(m, name), () => send(m.token), { class: "primary" })),
          button(t("common.cancel"), () => { state.selected = null; state.choosing = null; render(); })),
      );
    }
    if (state.view.phase === "passing" && cardMoves.some((m) => m.kind === "give")) {
      parts.push(h("p", { class: "hint" }, state.selected ? t("table.hint_give_seat", { card: cardName(state.selected) }) : t("table.hint_give")));
    }
    if (bids.length) {
      parts.push(h("div", { class: "bids", role: "group", "aria-label": t("table.bidding_box") }, bids.map((m) => button(actionLabel(m, name), () => send(m.token), { class: "bid" }))));
    }
    if (contracts.length) {
      parts.push(h("div", { class: "contracts", role: "group", "aria-label": t("table.raise") }, contracts.map((m) => button(actionLabel(m, name), () => send(m.token)))));
    }
    if (rest.length) {
      parts.push(
        h("div", { class: "other-actions" },
          rest.map((m) => (m.kind === "writeoff" ? button(t("move.writeoff"), openWriteoff, { class: "danger", id: "writeoff" }) : button(actionLabel(m, name), () => send(m.token), { class: m.kind === "pass" ? "pass" : "" })))),
      );
    }
    return h("div", { class: "actions", "aria-label": t("table.your_move") }, parts);
  }

  /** The Hint button and its answer: at a table where every other seat is a bot, on the seat's
   * turn (POST /tables/ID/hint: the expert bot's move for this seat's view, and why). */
  function hintBox() {
    if (!legal().length || !state.seats.every((s, i) => i === state.me || s.kind === "bot")) return null;
    const here = state.hint?.version === state.version ? state.hint : null;
    let said = "";
    if (here?.pending) said = t("table.hint_thinking");
    else if (here?.failed) said = t("table.hint_failed", { detail: here.failed });
    else if (here) said = t("table.hint_is", { move: actionLabel(here.action, name), reason: here.reason });
    return h(
      "div",
      { class: "hint-box" },
      button(t("table.hint"), askHint, { id: "hint", disabled: Boolean(here?.pending) }),
      h("p", { class: "hint-answer", role: "status" }, said),
    );
  }

  async function askHint() {
    const version = state.version;
    state.hint = { version, pending: true };
    render();
    try {
      const answer = await api(`/tables/${tableId}/hint?lang=${language()}`, { method: "POST", token: held.token });
      state.hint = { version, action: answer.action, reason: answer.reason };
    } catch (e) {
      state.hint = { version, failed: e.message };
    }
    render();
  }

  // What a write-off would change each total by, as the server computed it (the page knows no
  // rules): one line per seat, the declarer's first.
  function writeoffText() {
    const changes = state.view.writeoff_changes;
    const parts = [h("p", {}, t("writeoff.intro"))];
    if (!changes) return parts;
    const order = [state.me, ...changes.map((_, seat) => seat).filter((seat) => seat !== state.me)];
    parts.push(
      h(
        "ul",
        { class: "writeoff-changes" },
        order.map((seat) =>
          h(
            "li",
            { "data-seat": String(seat) },
            seat === state.me
              ? t("writeoff.you", { change: signed(changes[seat]) })
              : t("writeoff.other", { name: name(seat), change: signed(changes[seat]) }),
          ),
        ),
      ),
    );
    const contract = state.view.contract ?? state.view.bid;
    if (changes[state.me] !== -contract) parts.push(h("p", {}, t("writeoff.penalty_included")));
    return parts;
  }

  function openWriteoff() {
    const dialog = h(
      "dialog",
      { class: "modal", "aria-labelledby": "writeoff-title" },
      h("h2", { id: "writeoff-title" }, t("writeoff.title")),
      writeoffText(),
      h(
        "div",
        { class: "row" },
        button(t("writeoff.confirm"), () => {
          dialog.close();
          send("writeoff");
        }, { class: "danger" }),
        button(t("common.cancel"), () => dialog.close(), { autofocus: true }),
      ),
    );
    dialog.addEventListener("close", () => {
      dialog.remove();
      document.getElementById("writeoff")?.focus();
    });
    root.append(dialog);
    dialog.showModal();
  }

  function trickArea() {
    const view = state.view;
    if (!view) return null;
    const count = view.card_counts.length;
    const where = places(count, state.me);
    let cards = view.trick.map((x) => [x.seat, x.card]);
    let caption = null;
    let finished = null;
    // the trump this trick is played under, as the view says (the trick under way's, or the
    // finished trick's own); undefined: no trick on the table, no mark
    let trump = cards.length || view.crawl_hidden?.length ? view.trick_trump : undefined;
    if (!cards.length && view.completed_tricks.length && (view.phase === "play" || view.phase === "done")) {
      const last = view.completed_tricks[view.completed_tricks.length - 1];
      cards = last.cards.map((c, i) => [last.seats[i], c]);
      caption = t("table.taken_by", { name: name(last.winner) });
      finished = last;
      trump = last.trump;
    }
    const mark =
      trump === undefined
        ? null
        : h(
            "span",
            {
              class: `trick-trump${trump ? ` suit-${trump}` : " none"}`,
              role: "img",
              "aria-label": trump ? t("table.trick_trump", { suit: suitName(trump) }) : t("table.trick_no_trump"),
              title: trump ? t("table.trick_trump", { suit: suitName(trump) }) : t("table.trick_no_trump"),
            },
            trump ? suitSymbol(trump, 26) : "–",
          );
    const grid = h(
      "div",
      {
        class: `trick${finished ? " finished" : ""}`,
        role: "group",
        "aria-label": t("table.trick"),
        dataset: finished ? { winner: String(finished.winner) } : {},
      },
      cards.map(([seat, card]) => h("div", { class: `played place-${where(seat)}`, dataset: { seat: String(seat), card } }, cardImage(card), h("span", { class: "who" }, name(seat)))),
      (view.crawl_hidden || []).map((seat) => h("div", { class: `played place-${where(seat)}`, dataset: { seat: String(seat), card: "back" } }, cardBack(), h("span", { class: "who" }, name(seat)))),
      mark,
    );
    return h("div", { class: "trick-box" }, grid, caption ? h("p", { class: "caption" }, caption) : null);
  }

  function lastTrick() {
    const view = state.view;
    const last = view.completed_tricks[view.completed_tricks.length - 1];
    const dialog = h(
      "dialog",
      { class: "modal", "aria-labelledby": "last-trick-title" },
      h("h2", { id: "last-trick-title" }, t("table.last_trick")),
      h("div", { class: "row" }, last.cards.map((c, i) => h("figure", {}, cardImage(c), h("figcaption", {}, name(last.seats[i]))))),
      h("p", {}, t("table.taken_by", { name: name(last.winner) })),
      button(t("common.close"), () => dialog.close(), { autofocus: true }),
    );
    dialog.addEventListener("close", () => dialog.remove());
    root.append(dialog);
    dialog.showModal();
  }

  /** A deal's result in one sentence: the contract made or failed and what the declarer took
   * (the server's deal points), or the result word. */
  function resultHeadline(report) {
    const declarer = report.declarer;
    const contract =
      report.contract === null
        ? null
        : report.bid !== null && report.bid !== report.contract
          ? t("sheet.bid_contract", { bid: report.bid, contract: report.contract })
          : String(report.contract);
    const took = declarer !== null && report.deal_points ? report.deal_points[declarer] : null;
    if (declarer !== null && contract !== null && took !== null && report.result === "made") {
      return t("result.made_by", { name: name(declarer), n: contract, took });
    }
    if (declarer !== null && contract !== null && took !== null && report.result === "failed") {
      return t("result.failed_by", { name: name(declarer), n: contract, took });
    }
    if (declarer !== null) return t("result.of", { name: name(declarer), result: resultName(report.result) });
    return t("result.plain", { result: resultName(report.result) });
  }

  /** The last deal's result, every figure of its report (the server's): what each seat took in
   * card points and marriages, its deal points, its change and total with the deal's marks,
   * and the contract made or failed. It stays until the player closes it or makes a move. */
  function resultPanel() {
    if (!state.result) return null;
    const { number, report } = state.result;
    const seats = report.totals.length;
    const dash = "–";
    const marks = Array.from({ length: seats }, () => []);
    for (const e of report.events || []) if (e.seat < seats) marks[e.seat].push(e.event);
    const declarer = report.declarer;
    const figure = (list, seat) => (list ? String(list[seat]) : dash);
    const rows = report.totals.map((total, seat) =>
      h(
        "tr",
        { dataset: { seat: String(seat) }, class: seat === declarer ? "declarer" : null },
        h("th", { scope: "row" }, name(seat)),
        h("td", { class: "card-points" }, figure(report.card_points, seat)),
        h("td", { class: "marriages" }, report.marriages[seat]?.length ? report.marriages[seat].map(suitName).join(", ") : dash),
        h("td", { class: "deal-points" }, figure(report.deal_points, seat)),
        h("td", { class: "change" }, signed(report.changes[seat]), marks[seat].map((m) => h("span", { class: `mark mark-${m}` }, eventName(m)))),
        h("td", { class: "total" }, String(total)),
      ),
    );
    return h(
      "section",
      { class: "deal-result", "aria-labelledby": "deal-result-title", dataset: { result: report.result } },
      h("h2", { id: "deal-result-title" }, t("result.title", { n: number })),
      h("p", { class: "headline" }, resultHeadline(report)),
      h(
        "div",
        { class: "sheet-scroll" },
        h(
          "table",
          {},
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", { scope: "col" }, t("result.player")),
              h("th", { scope: "col" }, t("result.card_points")),
              h("th", { scope: "col" }, t("result.marriages")),
              h("th", { scope: "col" }, t("result.deal_points")),
              h("th", { scope: "col" }, t("result.change")),
              h("th", { scope: "col" }, t("result.total")),
            ),
          ),
          h("tbody", {}, rows),
        ),
      ),
      button(t("common.close"), () => {
        state.result = null;
        render();
      }),
    );
  }

  function centre() {
    const view = state.view;
    const pieces = [resultPanel()];
    if (view.talon_sizes.length && view.phase === "auction" && !view.talon) {
      pieces.push(h("div", { class: "talon", "aria-label": t("table.talon") }, h("span", { class: "label" }, t("table.talon")), Array.from({ length: view.talon_sizes.reduce((a, b) => a + b, 0) }, () => cardBack())));
    }
    if (view.shown) pieces.push(h("div", { class: "shown" }, h("span", { class: "label" }, t("table.shown")), cardImage(view.shown)));
    if (view.stock_count) {
      pieces.push(h("div", { class: "stock" }, h("span", { class: "label" }, t("table.stock", { n: view.stock_count })), view.stock_face_up ? cardImage(view.stock_face_up) : cardBack()));
    }
    if (view.discarded?.length) pieces.push(h("div", { class: "discarded" }, h("span", { class: "label" }, t("table.discarded")), view.discarded.map((c) => cardImage(c))));
    pieces.push(trickArea());
    return h("div", { class: "centre" }, pieces);
  }

  function auctionLine() {
    const view = state.view;
    if (!view.auction.length) return t("table.no_bids");
    return view.auction.map((a) => `${name(a.seat)}: ${a.action.kind === "bid" ? a.action.amount : actionLabel(a.action, name)}`).join(" · ");
  }

  function statusBar() {
    const view = state.view;
    const deals = (view.match?.deals ?? state.reports.length) + (view.phase === "done" ? 0 : 1);
    const bits = [
      h("span", {}, t("table.deal_n", { n: deals })),
      h("span", { class: "phase" }, phaseName(view.phase)),
      view.to_act !== null ? h("span", { class: "turn" }, view.to_act === state.me ? t("table.your_turn") : t("table.turn_of", { name: name(view.to_act) })) : null,
      h(
        "span",
        { class: "trump", role: "img", "aria-label": view.trump ? t("table.trump_is", { suit: suitName(view.trump) }) : t("table.no_trump") },
        view.trump ? [suitSymbol(view.trump), " ", t("table.trump_is", { suit: suitName(view.trump) })] : t("table.no_trump"),
      ),
      view.declarer !== null
        ? h("span", {}, t("table.contract_of", { n: view.contract ?? view.bid, name: name(view.declarer) }))
        : view.high_bid !== null ? h("span", {}, t("table.high_bid", { n: view.high_bid })) : null,
      view.marriages.length
        ? h("span", {}, t("table.marriages", { list: view.marriages.map((m) => `${name(m.seat)} ${suitName(m.suit)}`).join(", ") }))
        : null,
      view.named ? h("span", {}, t("table.named", { name: actionLabel({ kind: "named", named: view.named }, name) })) : null,
    ];
    return h("div", { class: "status-bar" }, bits);
  }

  function inviteBox() {
    const link = `${location.origin}${location.pathname}#/join/${tableId}`;
    const waiting = state.seats.filter((s) => s.kind === "human" && !s.taken).length;
    return h(
      "section",
      { class: "invite" },
      h("h2", {}, t("table.waiting", { n: waiting })),
      h("p", {}, t("table.invite")),
      h("div", { class: "row" },
        h("input", { readonly: true, value: link, id: "invite-link", "aria-label": t("table.invite_link") }),
        button(t("table.copy"), async () => {
          try {
            await navigator.clipboard.writeText(link);
            toast(t("table.copied"));
          } catch {
            const input = document.getElementById("invite-link");
            input.select();
            toast(t("table.copy_by_hand"));
          }
        })),
      h("ul", {}, state.seats.map((s, i) => h("li", {}, `${t("lobby.seat", { n: i + 1 })}: ${s.taken ? name(i) : t("lobby.free_seat")}`))),
    );
  }

  function endScreen() {
    const view = state.view;
    const winner = view?.match?.winner;
    if (winner === null || winner === undefined) return null;
    const totals = view.match.totals;
    return h(
      "section",
      { class: "match-over", "aria-labelledby": "match-over-title" },
      h("h2", { id: "match-over-title" }, winner === state.me ? t("end.you_win") : t("end.winner", { name: name(winner) })),
      h("ol", {}, totals.map((n, i) => [i, n]).sort((a, b) => b[1] - a[1]).map(([i, n]) => h("li", {}, `${name(i)}: ${n}`))),
      h("div", { class: "row" },
        held ? button(t("end.rematch"), rematch, { class: "primary" }) : null,
        h("a", { href: "#/", class: "button" }, t("end.lobby"))),
    );
  }

  async function rematch() {
    try {
      const answer = await takeSeat(`/tables/${tableId}/rematch`, {}, held.token);
      keepSeat(answer.table, answer.seat, answer.token);
      location.hash = `#/table/${answer.table}`;
    } catch (e) {
      showError(t("error.rematch", { detail: e.message }));
    }
  }

  function render() {
    if (!alive) return;
    const view = state.view;
    const mine = legal().length > 0;
    const over = view?.match?.winner !== null && view?.match?.winner !== undefined;
    const status = over || state.status === "finished" ? "finished" : state.sending ? "sending" : mine ? "my-turn" : state.status === "open" ? "open" : "waiting";
    // keep the keyboard's place across re-renders: the control focused before (or, when it was
    // removed by the last render, the one focused then)
    const active = document.activeElement;
    if (active && root.contains(active) && active !== root) {
      state.focusKey = active.getAttribute("aria-label") || active.textContent;
    } else if (active && active !== document.body) {
      state.focusKey = null;
    }
    const focus = state.focusKey;
    const screen = h("section", {
      class: "table-screen",
      id: "table",
      "aria-label": t("table.title"),
      dataset: { state: status, phase: view?.phase ?? "none", version: String(state.version), seat: String(state.me ?? "") },
    });
    if (state.problem) {
      screen.append(h("p", { class: "problem" }, state.problem), h("p", {}, h("a", { href: `#/join/${tableId}` }, t("lobby.join")), " · ", h("a", { href: `#/watch/${tableId}` }, t("lobby.watch"))));
      root.replaceChildren(screen);
      return;
    }
    if (!state.loaded) {
      screen.append(h("p", {}, t("common.loading")));
      root.replaceChildren(screen);
      return;
    }
    if (state.status === "open" && !view) screen.append(inviteBox());
    if (state.status === "closed") screen.append(h("p", { class: "closed" }, t("table.closed")));
    else if (held && state.me !== null && !over) screen.append(h("p", { class: "leave-row" }, leaveButton(tableId, state.me, held.token)));
    if (state.me === null) screen.append(h("p", { class: "watching" }, t("table.watching")));
    if (view) {
      const count = view.card_counts.length;
      const where = places(count, state.me);
      const others = [...Array(count).keys()].filter((s) => s !== state.me);
      screen.append(
        statusBar(),
        h(
          "div",
          { class: `felt players-${count}` },
          h("div", { class: "opponents" }, others.map((s) => seatPanel(s, where(s)))),
          h(
            "div",
            { class: "middle" },
            centre(),
            h("p", { class: "said", "aria-live": "polite" }, saidLine()),
            h("div", { class: "auction-line" }, h("span", { class: "label" }, t("table.auction")), " ", auctionLine()),
            view.completed_tricks.length ? button(t("table.last_trick"), lastTrick, { class: "last-trick" }) : null,
            toasts,
          ),
          state.me !== null
            ? h("section", { class: `seat me place-bottom${view.to_act === state.me ? " to-act" : ""}`, "aria-label": t("table.you"), dataset: { seat: String(state.me) } },
                h("div", { class: "seat-head" }, h("span", { class: "seat-name" }, `${name(state.me)} (${t("table.you")})`),
                  view.dealer === state.me ? h("span", { class: "badge" }, t("table.dealer")) : null,
                  view.declarer === state.me ? h("span", { class: "badge declarer" }, t("table.declarer")) : null,
                  h("span", {}, t("table.total", { n: view.match?.totals?.[state.me] ?? 0 })),
                  h("span", {}, t("table.tricks", { n: view.tricks_won[state.me] ?? 0 })),
                  seatClock(state.me),
                  view.received && view.phase !== "play" ? h("span", { class: "badge received" }, t("table.received", { card: cardName(view.received) })) : null),
                myHand(),
                otherCards(),
                actionBar(),
                hintBox())
            : null,
        ),
      );
    }
    const typing = chat.typing();
    chat.refresh();
    screen.append(endScreen() || "", chat.element, scoresheet(state.reports, names()));
    const before = drawn;
    root.replaceChildren(screen);
    drawn = view ? whereCardsAre(screen) : null;
    if (before && drawn) moveCards(screen, before);
    state.dealt = false;
    if (focus) {
      const again = [...screen.querySelectorAll("button:not([disabled])")].find((b) => (b.getAttribute("aria-label") || b.textContent) === focus);
      const first = mine ? screen.querySelector(".actions button, .hand.mine button:not([disabled])") : null;
      if (again) again.focus();
      else if (first) first.focus();
    }
    if (typing) chat.focus(); // (a render never takes the keyboard from a chat being typed)
  }

  /** Where the cards of this render are: the trick's (with a copy of each, to gather them once
   * they are gone), the hand's, and the winner of a finished trick. */
  function whereCardsAre(screen) {
    const trick = new Map();
    for (const el of screen.querySelectorAll(".trick .played")) {
      const card = el.querySelector(".card");
      trick.set(`${el.dataset.seat}:${el.dataset.card}`, { rect: card.getBoundingClientRect(), node: card.cloneNode(true) });
    }
    const hand = new Map();
    for (const el of screen.querySelectorAll(".hand.mine .card")) hand.set(el.dataset.card, el.getBoundingClientRect());
    const winner = screen.querySelector(".trick.finished")?.dataset.winner;
    return { trick, hand, winner };
  }

  /** Move the cards that changed since the last render: a deal flies from the middle; a card
   * new in the trick comes from its player's hand (yours) or seat; a finished trick that left
   * the table is gathered to the seat that took it. */
  function moveCards(screen, before) {
    const seatBox = (seat) => screen.querySelector(`.felt .seat[data-seat="${seat}"]`)?.getBoundingClientRect();
    if (state.dealt) {
      const from = screen.querySelector(".middle")?.getBoundingClientRect();
      const cards = [...screen.querySelectorAll(".hand.mine .card, .felt .seat .backs .card")];
      cards.forEach((card, i) => flyFrom(card, from, { delay: i * 25, duration: 360 }));
      return;
    }
    for (const el of screen.querySelectorAll(".trick .played")) {
      if (before.trick.has(`${el.dataset.seat}:${el.dataset.card}`)) continue;
      const seat = Number(el.dataset.seat);
      const from = seat === state.me ? before.hand.get(el.dataset.card) || seatBox(seat) : seatBox(seat);
      flyFrom(el.querySelector(".card"), from);
    }
    if (before.winner !== undefined) {
      const gone = [...before.trick].filter(([key]) => !drawn.trick.has(key)).map(([, card]) => card);
      gather(gone, seatBox(before.winner));
    }
  }

  if (!watch && !held) {
    state.problem = t("table.no_seat");
    render();
    return { render, destroy() { alive = false; } };
  }

  socket = new TableSocket(tableId, held?.token, {
    snapshot: showSnapshot,
    event: (message) => {
      takeClocks(message);
      queue.push(message);
      pump();
    },
    seats: (message) => {
      state.seats = message.seats;
      state.status = message.status;
      render();
    },
    ack: () => {
      // the move is applied: the seat's turn is over (its event is queued or shown)
      if (state.sending && !socket.pending) {
        state.sending = false;
        render();
      }
    },
    chat: (message) => chat.receive(message),
    error: (message) => {
      if (chat.error(message)) return;
      state.sending = false;
      if (["bad_token", "left"].includes(message.code)) {
        forgetSeat(tableId);
        state.problem = t("table.seat_lost");
      } else if (message.code === "not_found") {
        state.problem = t("table.not_found");
      } else if (message.code !== "stale") {
        showError(t("error.server", { message: message.message }));
      }
      render();
    },
    status: (text) => {
      state.connection = text;
      showConnection(text === "reconnecting");
      if (text === "connected" && state.offline) {
        // the "not connected" error of a move tried while it was lost is over
        state.offline = false;
        clearError();
      }
    },
  });
  keepToastsIn(toasts);
  render();
  const ticking = setInterval(() => alive && tick(), 250);
  return {
    render,
    paceChanged() {
      nextAt = 0;
    },
    destroy() {
      alive = false;
      clearInterval(ticking);
      keepToastsIn(null);
      showConnection(false);
      socket?.close();
    },
  };
}
