// Move words (spec/record-format.md) in the page's language: the label of a legal action's
// button, and what a move that was made says ("Boris plays Queen of spades"). The page never
// decides what is legal: it names what the server sends.

import { cardName, suitName, t } from "./i18n.js";

const CARD = /^[9TJQKA][cdhs]$/;

export const isCard = (word) => CARD.test(word);

/** The label of a legal action, given how to name a seat. */
export function actionLabel(move, seatName) {
  const words = move.split(" ");
  switch (move) {
    case "pass": return t("move.pass");
    case "writeoff": return t("move.writeoff");
    case "redeal": return t("move.redeal");
    case "contra": return t("move.contra");
    case "recontra": return t("move.recontra");
    case "concede": return t("move.concede");
    case "buyback": return t("move.buyback");
    case "rebuy": return t("move.rebuy");
    case "misere": return t("move.misere");
    case "open": return t("move.open");
    case "slam": return t("move.slam");
    default: break;
  }
  if (/^\d+$/.test(move)) return t("move.bid", { n: move });
  if (isCard(move)) return t("move.play", { card: cardName(move) });
  if (move.length === 3 && move.endsWith("+") && isCard(move.slice(0, 2))) {
    return t("move.play_declare", { card: cardName(move.slice(0, 2)), suit: suitName(move[1]) });
  }
  const [word, arg, extra] = words;
  if (word === "contract" && arg) return t("move.contract", { n: arg });
  if (word === "blind" && arg) return t("move.blind", { n: arg });
  if (word === "give" && arg && extra !== undefined) {
    return t("move.give", { card: cardName(arg), name: seatName(Number(extra)) });
  }
  if (word === "talon" && arg) return t("move.talon", { n: Number(arg) + 1 });
  if (word === "discard" && arg) return t("move.discard", { card: cardName(arg) });
  if (word === "crawl" && arg) return t("move.crawl", { card: cardName(arg) });
  if (word === "declare" && arg) return t("move.declare", { suit: suitName(arg) });
  return move;
}

/** The card a legal action is about (play, play and declare, give, discard, crawl), or null. */
export function actionCard(move) {
  if (isCard(move)) return move;
  if (move.length === 3 && move.endsWith("+") && isCard(move.slice(0, 2))) return move.slice(0, 2);
  const [word, arg] = move.split(" ");
  if (["give", "discard", "crawl"].includes(word) && isCard(arg || "")) return arg;
  return null;
}

/** A move that was made, as one sentence about the seat that made it. */
export function moveSentence(event, seatName) {
  const name = seatName(event.seat);
  const move = event.move;
  if (move === null || move === undefined) {
    if (event.face_down === "discard") return t("said.discard_hidden", { name });
    if (event.face_down === "crawl") return t("said.crawl_hidden", { name });
    if (event.to !== undefined) return t("said.give_hidden", { name, to: seatName(event.to) });
    return t("said.unknown", { name });
  }
  const [word, arg, extra] = move.split(" ");
  if (move === "pass") return t("said.pass", { name });
  if (/^\d+$/.test(move)) return t("said.bid", { name, n: move });
  if (word === "blind") return t("said.blind", { name, n: arg });
  if (isCard(move)) return t("said.play", { name, card: cardName(move) });
  if (move.endsWith("+") && isCard(move.slice(0, 2))) {
    return t("said.marriage", { name, suit: suitName(move[1]) });
  }
  if (word === "declare") return t("said.marriage", { name, suit: suitName(arg) });
  if (word === "give") return t("said.give", { name, card: cardName(arg), to: seatName(Number(extra)) });
  if (word === "contract") return t("said.contract", { name, n: arg });
  if (move === "writeoff") return t("said.writeoff", { name });
  return t("said.other", { name, move: actionLabel(move, seatName) });
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
