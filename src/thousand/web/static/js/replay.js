// The replay of a finished match (#/replay/GAMEID), from GET /api/games/{id}/replay: a deal
// picker, step buttons (first, back, forward, last; also the arrow keys, Home and End), every
// hand open, the move being shown and the scoresheet so far. On request the solver's analysis
// (GET /api/games/{id}/analysis, asked again while it is pending) goes beside it: the value of
// every legal card at the move shown, the cards that gave points away, and what the declarer
// could have taken with every card open. The hints the players asked for are marked, and so
// are the moves a bot made for a person whose time ran out (or who was away).

import { api, ApiError } from "./api.js";
import { cardImage, sortHand, suitSymbol } from "./cards.js";
import { button, h } from "./dom.js";
import { suitName, t } from "./i18n.js";
import { actionLabel, moveSentence, phaseName } from "./moves.js";
import { scoresheet } from "./scoresheet.js";
import { seatNames, templateTitles } from "./lobby.js";
import { places } from "./table.js";
import { showError } from "./ui.js";

export function replayScreen(root, gameId) {
  let game = null;
  let deal = 0;
  let step = 0;
  let alive = true;
  /** The analysis: null (not asked), "pending", an Error's text ({ failed }), or the answer. */
  let analysis = null;

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

  async function askAnalysis() {
    analysis = "pending";
    render();
    document.getElementById("analysis-status")?.focus();
    for (;;) {
      let answer;
      try {
        answer = await api(`/api/games/${gameId}/analysis`);
      } catch (e) {
        analysis = { failed: e instanceof ApiError ? e.message : String(e) };
        break;
      }
      if (!alive) return;
      if (answer?.status === "ready") {
        analysis = answer;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
      if (!alive) return;
    }
    render();
  }

  /** The mark of a person's move shown at this step that a bot made (time ran out, or the
   * player was away): a mark's step counts the moves before it, so its move shows one later. */
  function playedFor(number) {
    const found = (game.played_for || []).find((x) => x.deal === number && x.step + 1 === step);
    if (!found) return null;
    return h("span", { class: "played-for", dataset: { why: found.why } }, ` (${found.why === "away" ? t("replay.played_away") : t("replay.played_for")})`);
  }

  /** The hints asked at this step of this deal. */
  function hintsHere(number) {
    return (game.hints || []).filter((x) => x.deal === number && x.step === step);
  }

  function valuesTable(move) {
    const caption = t("analysis.values", { name: name(move.seat) });
    return h(
      "table",
      { class: "analysis-values", id: "analysis-values" },
      h("caption", {}, caption),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("analysis.move")), h("th", { scope: "col" }, t("analysis.value")), h("th", { scope: "col" }, t("analysis.note")))),
      h(
        "tbody",
        {},
        move.values.map((v) => {
          const notes = [];
          if (v.value === move.best) notes.push(t("analysis.best"));
          if (v.move === move.played) {
            notes.push(t("analysis.played"));
            if (move.cost > 0) notes.push(t("analysis.gave", { n: move.cost }));
          }
          const marks = `${v.value === move.best ? " is-best" : ""}${v.move === move.played ? " is-played" : ""}${v.move === move.played && move.cost > 0 ? " is-slip" : ""}`;
          return h(
            "tr",
            { class: `value-row${marks}`, dataset: { move: v.move } },
            h("th", { scope: "row" }, actionLabel(v.action, name)),
            h("td", { class: "value" }, String(v.value)),
            h("td", { class: "note" }, notes.join(", ")),
          );
        }),
      ),
    );
  }

  function analysisPanel(current) {
    const marks = hintsHere(current.number ?? deal + 1).map((x) =>
      h("p", { class: "hint-mark" }, t("analysis.hint", { name: name(x.seat), move: x.action ? actionLabel(x.action, name) : x.move })),
    );
    let body;
    if (analysis === null) {
      body = [button(t("analysis.open"), askAnalysis, { id: "analysis-open" })];
    } else if (analysis === "pending") {
      body = [h("p", { id: "analysis-status", tabindex: "-1", role: "status" }, t("analysis.pending"))];
    } else if (analysis.failed) {
      body = [h("p", { role: "status" }, t("analysis.failed", { detail: analysis.failed })), button(t("analysis.open"), askAnalysis, { id: "analysis-open" })];
    } else {
      const found = analysis.deals.find((d) => d.number === (current.number ?? deal + 1));
      body = found ? dealAnalysis(found) : [h("p", {}, t("analysis.no_play"))];
    }
    return h(
      "section",
      { class: "analysis", "aria-labelledby": "analysis-title" },
      h("h2", { id: "analysis-title" }, t("analysis.title")),
      marks,
      body,
    );
  }

  function dealAnalysis(found) {
    if (found.open_value === null || found.open_value === undefined) return [h("p", {}, t("analysis.no_play"))];
    const who = name(found.declarer);
    const open =
      found.open_contract === null || found.open_contract === undefined
        ? t("analysis.open_none", { open: found.open_value })
        : t("analysis.open_makes", { open: found.open_value, n: found.open_contract });
    const played =
      found.played_value === null || found.played_value === undefined
        ? t("analysis.declarer", { name: who, n: found.contract })
        : t("analysis.declarer_took", { name: who, n: found.contract, took: found.played_value });
    const here = found.moves.find((m) => m.step === step);
    const slips = found.moves.filter((m) => m.cost > 0);
    return [
      h("p", { class: "analysis-summary" }, `${played} ${open}`),
      here ? valuesTable(here) : h("p", { class: "analysis-here" }, t("analysis.no_values")),
      h("h3", { id: "analysis-slips-title" }, t("analysis.slips")),
      slips.length
        ? h(
            "ul",
            { class: "analysis-slips", "aria-labelledby": "analysis-slips-title" },
            slips.map((m) => {
              const best = m.values.find((v) => v.value === m.best);
              const played = m.values.find((v) => v.move === m.played);
              const text = t("analysis.slip", {
                trick: m.trick,
                name: name(m.seat),
                move: played ? actionLabel(played.action, name) : m.played,
                n: m.cost,
                best: best ? actionLabel(best.action, name) : "",
              });
              return h("li", {}, button(text, () => go(deal, m.step), { class: "link" }));
            }),
          )
        : h("p", {}, t("analysis.no_slips")),
    ];
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
        h("p", { class: "said replay-move" }, said, playedFor(current.number ?? deal + 1)),
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
        analysisPanel(current),
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
