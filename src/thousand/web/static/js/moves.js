// Move words (spec/record-format.md) in the page's language: the label of a legal action's
// button, and what a move that was made says ("Boris plays Queen of spades"). The page never
// decides what is legal: it names what the server sends.

import { cardName, suitName, t } from "./i18n.js";

/** The label of a legal move (a typed move object of the view's ``moves``), by its kind. */
export function actionLabel(move, seatName) {
  switch (move.kind) {
    case "play":
      if (!move.declare) return t("move.play", { card: cardName(move.card) });
      if (move.marriage === "a") return t("move.play_aces", { card: cardName(move.card) });
      return t("move.play_declare", { card: cardName(move.card), suit: suitName(move.marriage) });
    case "bid": return t("move.bid", { n: move.amount });
    case "blind": return t("move.blind", { n: move.amount });
    case "contract": return t("move.contract", { n: move.amount });
    case "named": return { misere: t("move.misere"), open: t("move.open"), slam: t("move.slam") }[move.named] ?? move.token;
    case "give": return t("move.give", { card: cardName(move.card), name: seatName(move.seat) });
    case "talon": return t("move.talon", { n: move.talon + 1 });
    case "discard": return t("move.discard", { card: cardName(move.card) });
    case "crawl": return t("move.crawl", { card: cardName(move.card) });
    case "declare": return t("move.declare", { suit: suitName(move.marriage) });
    default: return wordLabel(move);
  }
}

/** The label of a move that is only a word (pass, writeoff, contra...). */
function wordLabel(move) {
  return (
    {
      pass: t("move.pass"),
      writeoff: t("move.writeoff"),
      redeal: t("move.redeal"),
      contra: t("move.contra"),
      recontra: t("move.recontra"),
      concede: t("move.concede"),
      buyback: t("move.buyback"),
      rebuy: t("move.rebuy"),
    }[move.kind] ?? move.token
  );
}

/** The card a legal move is about (play, give, discard, crawl), or null. */
export function actionCard(move) {
  return move.card ?? null;
}

/** A move that was made (a move event, or a replay step: its ``action`` is the typed move as
 * the recipient may know it), as one sentence about the seat that made it. */
export function moveSentence(event, seatName) {
  const name = seatName(event.seat);
  const move = event.action;
  if (!move) return t("said.unknown", { name });
  if (move.token === undefined) {
    if (move.kind === "discard") return t("said.discard_hidden", { name });
    if (move.kind === "crawl") return t("said.crawl_hidden", { name });
    if (move.kind === "give") return t("said.give_hidden", { name, to: seatName(move.seat) });
    return t("said.unknown", { name });
  }
  switch (move.kind) {
    case "pass": return t("said.pass", { name });
    case "bid": return t("said.bid", { name, n: move.amount });
    case "blind": return t("said.blind", { name, n: move.amount });
    case "play":
      return move.declare
        ? t("said.marriage", { name, suit: suitName(move.marriage) })
        : t("said.play", { name, card: cardName(move.card) });
    case "declare": return t("said.marriage", { name, suit: suitName(move.marriage) });
    case "give": return t("said.give", { name, card: cardName(move.card), to: seatName(move.seat) });
    case "contract": return t("said.contract", { name, n: move.amount });
    case "writeoff": return t("said.writeoff", { name });
    default: return t("said.other", { name, move: actionLabel(move, seatName) });
  }
}

/** The deal's result in words (a report's result). */
export function resultName(result) {
  return (
    {
      made: t("result.made"),
      failed: t("result.failed"),
      "written-off": t("result.written-off"),
      redealt: t("result.redealt"),
      "passed-on": t("result.passed-on"),
      "bought-back": t("result.bought-back"),
      conceded: t("result.conceded"),
    }[result] ?? result
  );
}

/** A report's event (barrel-on, stick-penalty, dump-truck...) as a short mark. */
export function eventName(event) {
  return (
    {
      "barrel-on": t("mark.barrel-on"),
      "barrel-fall": t("mark.barrel-fall"),
      "barrel-knocked-off": t("mark.barrel-knocked-off"),
      "three-falls-reset": t("mark.three-falls-reset"),
      "reverse-barrel-on": t("mark.reverse-barrel-on"),
      "reverse-barrel-fall": t("mark.reverse-barrel-fall"),
      "dump-truck": t("mark.dump-truck"),
      "stick-penalty": t("mark.stick-penalty"),
      "no-win-penalty": t("mark.no-win-penalty"),
      "write-off-penalty": t("mark.write-off-penalty"),
      "zero-penalty": t("mark.zero-penalty"),
      "cross-penalty": t("mark.cross-penalty"),
      "four-nines": t("mark.four-nines"),
      pit: t("mark.pit"),
      "target-raised": t("mark.target-raised"),
      "golden-reset": t("mark.golden-reset"),
      win: t("mark.win"),
      lose: t("mark.lose"),
    }[event] ?? event
  );
}

export function phaseName(phase) {
  return (
    {
      auction: t("phase.auction"),
      passing: t("phase.passing"),
      contract: t("phase.contract"),
      play: t("phase.play"),
      done: t("phase.done"),
      talon: t("phase.talon"),
      discard: t("phase.discard"),
      redeal: t("phase.redeal"),
      contra: t("phase.contra"),
      concession: t("phase.concession"),
      rebuy: t("phase.rebuy"),
    }[phase] ?? phase
  );
}
