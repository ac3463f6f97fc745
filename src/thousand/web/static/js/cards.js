// The cards, drawn here as SVG: a face for each of the 24 cards (corner indices, pips for the
// nine and the ten, a drawn figure for the court cards, one big pip for the ace) and a back.

import { h } from "./dom.js";
import { cardName, rankShort, t } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
const RED = "#c0262d";
const BLACK = "#1d1d22";

/** Each suit's symbol as a path in a 10 x 10 box. */
const SUIT_PATHS = {
  h: "M5 9.6C3.6 8.4 0 5.8 0 3.1 0 1.3 1.3 0 2.9 0 3.9 0 4.6.5 5 1.4 5.4.5 6.1 0 7.1 0 8.7 0 10 1.3 10 3.1 10 5.8 6.4 8.4 5 9.6Z",
  d: "M5 0 9 5 5 10 1 5Z",
  s: "M5 0C6.4 1.6 10 3.9 10 6.3 10 7.8 8.9 8.7 7.6 8.7 6.8 8.7 6 8.3 5.6 7.7L6.4 10H3.6L4.4 7.7C4 8.3 3.2 8.7 2.4 8.7 1.1 8.7 0 7.8 0 6.3 0 3.9 3.6 1.6 5 0Z",
  c: "M5 0A2.45 2.45 0 0 1 6.9 4 2.45 2.45 0 1 1 5.6 7.6L6.4 10H3.6L4.4 7.6A2.45 2.45 0 1 1 3.1 4 2.45 2.45 0 0 1 5 0Z",
};

const WIDTH = 60;
const HEIGHT = 86;

function svg(tag, attrs = {}) {
  const el = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  return el;
}

function pip(suit, x, y, size, flip = false) {
  const turn = flip ? " rotate(180 5 5)" : "";
  return svg("path", {
    d: SUIT_PATHS[suit],
    transform: `translate(${x - size / 2} ${y - size / 2}) scale(${size / 10})${turn}`,
    fill: suit === "h" || suit === "d" ? RED : BLACK,
  });
}

/** Where the pips of a nine and a ten go (x, y, upside down). */
const PIPS = {
  9: [
    [20, 20], [40, 20], [20, 36], [40, 36], [30, 43],
    [20, 50, 1], [40, 50, 1], [20, 66, 1], [40, 66, 1],
  ],
  T: [
    [20, 18], [40, 18], [30, 27], [20, 35], [40, 35],
    [20, 51, 1], [40, 51, 1], [30, 59, 1], [20, 68, 1], [40, 68, 1],
  ],
};

function corner(code, colour, flip) {
  const group = svg("g", flip ? { transform: `rotate(180 ${WIDTH / 2} ${HEIGHT / 2})` } : {});
  const text = svg("text", {
    x: 7.5,
    y: 14,
    "text-anchor": "middle",
    "font-size": code[0] === "T" ? 10 : 11.5,
    "font-weight": 700,
    "font-family": "system-ui, sans-serif",
    fill: colour,
  });
  text.textContent = rankShort(code[0]);
  group.append(text, pip(code[1], 7.5, 21.5, 7));
  return group;
}

function face(code) {
  const [rank, suit] = code;
  const colour = suit === "h" || suit === "d" ? RED : BLACK;
  const root = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, "aria-hidden": "true", focusable: "false" });
  root.append(
    svg("rect", {
      x: 0.75, y: 0.75, width: WIDTH - 1.5, height: HEIGHT - 1.5, rx: 5,
      fill: "#fffdf7", stroke: "#9a968c", "stroke-width": 1.5,
    }),
    corner(code, colour, false),
    corner(code, colour, true),
  );
  if (PIPS[rank]) {
    for (const [x, y, flip] of PIPS[rank]) root.append(pip(suit, x, y, 10, Boolean(flip)));
  } else if (rank === "A") {
    root.append(pip(suit, 30, 43, 26));
  } else {
    root.append(
      svg("rect", {
        x: 15, y: 14, width: 30, height: 58, rx: 3,
        fill: suit === "h" || suit === "d" ? "#fbe9e7" : "#eceff1", stroke: colour, "stroke-width": 1,
      }),
      courtFace(rank, suit),
    );
  }
  return root;
}

const SKIN = "#f6d7b8";
const GOLD = "#e0b43a";
const HAIR = { K: "#8a8f98", Q: "#6b3b1f", J: "#c98b2c" };

/** Half a court card's figure (above the middle line at y = 43): the head with its crown
 * (king), tiara and hair (queen) or feathered cap (jack), the shoulders in the suit's colours
 * and a pip held at the side. The face shows it twice, the second half turned round. */
function courtHalf(rank, suit) {
  const red = suit === "h" || suit === "d";
  const robe = red ? RED : "#284a7e";
  const lining = red ? "#284a7e" : RED;
  const ink = "#3b2a1a";
  const g = svg("g", {});
  g.append(
    svg("path", { d: "M16 43C16.5 36.5 19.5 33.5 24.5 33H35.5C40.5 33.5 43.5 36.5 44 43Z", fill: robe }),
    svg("path", { d: "M24.5 33L30 39.5 35.5 33", fill: lining, stroke: GOLD, "stroke-width": 0.9 }),
    svg("path", { d: "M19.5 43V38.5M40.5 43V38.5", stroke: GOLD, "stroke-width": 1.1 }),
  );
  if (rank === "Q") {
    g.append(svg("path", { d: "M23.6 31C22.8 22.5 25.5 19.6 30 19.6S37.2 22.5 36.4 31C34.8 26.5 33.6 23.4 30 23.4S25.2 26.5 23.6 31Z", fill: HAIR.Q }));
  }
  g.append(
    svg("circle", { cx: 30, cy: 27, r: 5.2, fill: SKIN, stroke: ink, "stroke-width": 0.6 }),
    svg("circle", { cx: 28.1, cy: 26.4, r: 0.6, fill: ink }),
    svg("circle", { cx: 31.9, cy: 26.4, r: 0.6, fill: ink }),
    svg("path", { d: "M28.6 29.6Q30 30.5 31.4 29.6", stroke: ink, "stroke-width": 0.6, fill: "none" }),
  );
  if (rank === "K") {
    g.append(
      svg("path", { d: "M26.6 30.4Q30 36.5 33.4 30.4Q30 32.4 26.6 30.4Z", fill: HAIR.K, stroke: ink, "stroke-width": 0.4 }),
      svg("path", { d: "M24.4 23.2L24.9 16.6 27.4 19.8 30 15.6 32.6 19.8 35.1 16.6 35.6 23.2Z", fill: GOLD, stroke: ink, "stroke-width": 0.5 }),
      svg("circle", { cx: 30, cy: 20.6, r: 0.9, fill: RED }),
    );
  } else if (rank === "Q") {
    g.append(
      svg("path", { d: "M26.2 22L27.6 18.8 30 20.6 32.4 18.8 33.8 22Z", fill: GOLD, stroke: ink, "stroke-width": 0.5 }),
      svg("circle", { cx: 30, cy: 20.2, r: 0.8, fill: lining }),
    );
  } else {
    g.append(
      svg("path", { d: "M23.8 24.2C24 19.8 26.6 18.6 30.4 18.8 34.2 19 36.4 20.6 36.3 24.2Z", fill: lining, stroke: ink, "stroke-width": 0.5 }),
      svg("path", { d: "M34.6 20.2C37 16.8 39.6 15.8 41.6 16.4 39.2 17.2 37.6 18.8 36 21", fill: GOLD, stroke: ink, "stroke-width": 0.4 }),
    );
  }
  g.append(pip(suit, 21.2, 37.6, 5.4));
  return g;
}

/** A court card's face (jack, queen, king): a figure drawn here, double-ended as on real cards. */
function courtFace(rank, suit) {
  const colour = suit === "h" || suit === "d" ? RED : BLACK;
  const g = svg("g", { class: "court-face", "data-rank": rank });
  const below = courtHalf(rank, suit);
  below.setAttribute("transform", "rotate(180 30 43)");
  g.append(courtHalf(rank, suit), below, svg("path", { d: "M15.5 43H44.5", stroke: colour, "stroke-width": 0.6 }));
  return g;
}

function back() {
  const root = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, "aria-hidden": "true", focusable: "false" });
  root.append(
    svg("rect", {
      x: 0.75, y: 0.75, width: WIDTH - 1.5, height: HEIGHT - 1.5, rx: 5,
      fill: "#fffdf7", stroke: "#9a968c", "stroke-width": 1.5,
    }),
    svg("rect", { x: 5, y: 5, width: WIDTH - 10, height: HEIGHT - 10, rx: 3, fill: "#7b1f2b" }),
  );
  let lattice = "";
  for (let i = -HEIGHT; i < WIDTH + HEIGHT; i += 8) {
    lattice += `M${i} 0L${i + HEIGHT} ${HEIGHT}M${i} ${HEIGHT}L${i + HEIGHT} 0`;
  }
  // a nested <svg> clips what it holds to its own box
  const inner = svg("svg", { x: 5, y: 5, width: WIDTH - 10, height: HEIGHT - 10 });
  inner.append(svg("path", { d: lattice, stroke: "#b5485a", "stroke-width": 1, fill: "none" }));
  root.append(
    inner,
    svg("rect", { x: 22, y: 35, width: 16, height: 16, rx: 2, fill: "#fffdf7", transform: "rotate(45 30 43)" }),
    pip("h", 30, 43, 9),
  );
  return root;
}

/** A card that is only shown: role img with its name ("Queen of spades"). */
export function cardImage(code, extra = {}) {
  return h("span", { class: "card", role: "img", "aria-label": cardName(code), dataset: { card: code }, ...extra }, face(code));
}

/** A card to choose: a real button named after the card. */
export function cardButton(code, onclick, extra = {}) {
  return h("button", { type: "button", class: "card", "aria-label": cardName(code), dataset: { card: code }, onclick, ...extra }, face(code));
}

/** A card seen from behind. */
export function cardBack(extra = {}) {
  return h("span", { class: "card back", role: "img", "aria-label": t("card.back"), ...extra }, back());
}

/** A pip on its own (the trump indicator). */
export function suitSymbol(suit, size = 16) {
  const root = svg("svg", { viewBox: "0 0 10 10", width: size, height: size, "aria-hidden": "true", focusable: "false" });
  if (SUIT_PATHS[suit]) root.append(pip(suit, 5, 5, 10));
  return root;
}

/** A hand in the page's order: grouped by suit, trump first, high cards first. */
export function sortHand(cards, trump) {
  const order = ["s", "h", "c", "d"];
  if (trump && order.includes(trump)) {
    order.splice(order.indexOf(trump), 1);
    order.unshift(trump);
  }
  const ranks = "ATKQJ9";
  return [...cards].sort(
    (a, b) => order.indexOf(a[1]) - order.indexOf(b[1]) || ranks.indexOf(a[0]) - ranks.indexOf(b[0]),
  );
}
