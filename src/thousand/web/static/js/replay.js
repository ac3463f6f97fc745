// The replay of a finished match (#/replay/GAMEID), from GET /api/games/{id}/replay: a deal
// picker, step buttons (first, back, forward, last; also the arrow keys, Home and End), every
// hand open, the move being shown and the scoresheet so far.

import { api } from "./api.js";
import { cardImage, sortHand, suitSymbol } from "./cards.js";
import { button, h } from "./dom.js";
import { suitName, t } from "./i18n.js";
import { moveSentence, phaseName } from "./moves.js";
import { scoresheet } from "./scoresheet.js";
import { seatNames, templateTitles } from "./lobby.js";
import { places } from "./table.js";
import { showError } from "./ui.js";

export function replayScreen(root, gameId) {
  let game = null;
  let deal = 0;
  let step = 0;
  let alive = true;

  let title = "";
  // each seat as the lobby names it: a person's name, a bot by its level ("Medium bot")
  const name = (seat) => {
    const seats = (game?.seats || []).map((entry, i) =>
      game.bots?.[i] ? { kind: "bot", level: game.bots[i], seat: i } : { kind: "human", name: entry, seat: i },
    );
    return seatNames(seats)[seat] || t("table.seat_n", { n: seat + 1 });
  };

  function go(newDeal, newStep) {
    const deals = game.deals;
    deal = Math.max(0, Math.min(newDeal, deals.length - 1));
    const steps = deals[deal].steps.length;
    step = Math.max(0, Math.min(newStep, steps - 1));
    render();
  }

  function onKey(e) {
    if (!game || e.target.closest?.("input, select, textarea")) return;
    const last = game.deals[deal].steps.length - 1;
    const moves = { ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: last };
    if (e.key in moves) {
      e.preventDefault();
      go(deal, moves[e.key]);
      document.getElementById(`replay-${{ ArrowRight: "next", ArrowLeft: "back", Home: "first", End: "last" }[e.key]}`)?.focus();
    } else if (e.key === "PageDown" && deal + 1 < game.deals.length) {
      e.preventDefault();
      go(deal + 1, 0);
    } else if (e.key === "PageUp" && deal > 0) {
      e.preventDefault();
      go(deal - 1, 0);
    }
  }
  document.addEventListener("keydown", onKey);

  function seatBox(view, seat, where) {
    const hands = view.hands || [];
    const cards = hands[seat] || (view.seat === seat ? view.hand : null);
    return h(
      "section",
      { class: `seat place-${where}${view.to_act === seat ? " to-act" : ""}`, "aria-label": name(seat), dataset: { seat: String(seat) } },
      h(
        "div",
        { class: "seat-head" },
        h("span", { class: "seat-name" }, name(seat)),
        view.dealer === seat ? h("span", { class: "badge" }, t("table.dealer")) : null,
        view.declarer === seat ? h("span", { class: "badge declarer" }, t("table.declarer")) : null,
        view.to_act === seat ? h("span", { class: "badge turn" }, t("table.to_act")) : null,
      ),
      h(
        "div",
        { class: "seat-info" },
        h("span", {}, t("table.cards", { n: view.card_counts[seat] })),
        h("span", {}, t("table.tricks", { n: view.tricks_won[seat] ?? 0 })),
        view.match ? h("span", {}, t("table.total", { n: view.match.totals[seat] })) : null,
      ),
      cards
        ? h("div", { class: "hand open", role: "group", "aria-label": t("replay.hand_of", { name: name(seat) }) }, sortHand(cards, view.trump).map((c) => cardImage(c)))
        : null,
    );
  }

  function trick(view) {
    const count = view.card_counts.length;
    const where = places(count, 0);
    let cards = view.trick.map((x) => [x.seat, x.card]);
    let caption = null;
    if (!cards.length && view.completed_tricks.length) {
      const last = view.completed_tricks[view.completed_tricks.length - 1];
      cards = last.cards.map((c, i) => [last.seats[i], c]);
      caption = t("table.taken_by", { name: name(last.winner) });
    }
    const grid = h(
      "div",
      { class: "trick", role: "group", "aria-label": t("table.trick") },
      cards.map(([seat, card]) => h("div", { class: `played place-${where(seat)}` }, cardImage(card), h("span", { class: "who" }, name(seat)))),
    );
    return h("div", { class: "trick-box" }, grid, caption ? h("p", { class: "caption" }, caption) : null);
  }

  function render() {
    if (!alive) return;
    if (!game) {
      root.replaceChildren(h("p", {}, t("common.loading")));
      return;
    }
    const current = game.deals[deal];
    const here = current.steps[step];
    const view = here.view;
    const last = current.steps.length - 1;
    const count = view.card_counts.length;
    const where = places(count, 0);
    const said =
      here.move === null || here.move === undefined
        ? t("said.deal", { n: current.number ?? deal + 1, name: name(current.dealer ?? view.dealer) })
        : moveSentence({ seat: here.seat, action: here.action }, name);
    const reports = game.deals.slice(0, deal).map((d) => d.report).filter(Boolean);
    if (step === last && current.report) reports.push(current.report);
    const names = (game.seats || []).map((_, i) => name(i));
    root.replaceChildren(
      h(
        "section",
        { class: "replay", id: "replay", "aria-labelledby": "replay-title", dataset: { deal: String(deal), step: String(step) } },
        h("h1", { id: "replay-title" }, t("replay.title", { template: title || game.template })),
        h("p", {}, names.join(", "), game.winner !== null && game.winner !== undefined ? ` — ${t("end.winner", { name: name(game.winner) })}` : ""),
        h(
          "div",
          { class: "replay-controls" },
          h("label", { for: "replay-deal" }, t("replay.deal")),
          h(
            "select",
            { id: "replay-deal", onchange: (e) => go(Number(e.target.value), 0) },
            game.deals.map((d, i) => h("option", { value: String(i), selected: i === deal }, t("table.deal_n", { n: d.number ?? i + 1 }))),
          ),
          button(t("replay.first"), () => go(deal, 0), { id: "replay-first", disabled: step === 0 }),
          button(t("replay.back"), () => go(deal, step - 1), { id: "replay-back", disabled: step === 0 }),
          button(t("replay.next"), () => go(deal, step + 1), { id: "replay-next", disabled: step === last }),
          button(t("replay.last"), () => go(deal, last), { id: "replay-last", disabled: step === last }),
          h("span", { class: "step-count", "aria-live": "polite" }, t("replay.step", { n: step, of: last })),
        ),
        h("p", { class: "said replay-move" }, said),
        h(
          "div",
          { class: "status-bar" },
          h("span", { class: "phase" }, phaseName(view.phase)),
          h("span", { class: "trump" }, view.trump ? [suitSymbol(view.trump), " ", t("table.trump_is", { suit: suitName(view.trump) })] : t("table.no_trump")),
          view.declarer !== null && view.declarer !== undefined ? h("span", {}, t("table.contract_of", { n: view.contract ?? view.bid, name: name(view.declarer) })) : null,
        ),
        h(
          "div",
          { class: `felt players-${count}` },
          h("div", { class: "opponents" }, [...Array(count).keys()].map((s) => seatBox(view, s, where(s)))),
          h(
            "div",
            { class: "centre" },
            view.talon && view.talon.length
              ? h("div", { class: "talon", role: "group", "aria-label": t("table.talon") }, h("span", { class: "label" }, t("table.talon")), view.talon.map((c) => cardImage(c)))
              : null,
            trick(view),
          ),
        ),
        scoresheet(reports, names),
        h("p", {}, h("a", { href: "#/" }, t("end.lobby"))),
      ),
    );
  }

  (async () => {
    try {
      game = await api(`/api/games/${gameId}/replay`);
      if (!game.deals?.length) throw new Error(t("replay.empty"));
      title = (await templateTitles()).get(game.template) ?? game.template;
      render();
    } catch (e) {
      showError(t("error.load", { detail: e.message }));
    }
  })();
  render();
  return {
    async render() {
      if (game) title = (await templateTitles()).get(game.template) ?? game.template;
      render();
    },
    destroy() {
      alive = false;
      document.removeEventListener("keydown", onKey);
    },
  };
}
