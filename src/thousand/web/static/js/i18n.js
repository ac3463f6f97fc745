// The page's strings: static/i18n/LANG.json, flat key -> string with {name} placeholders.
// t(KEY, {name: "Ann"}) gives the string in the language in force (English where missing).

import { keepLanguage, savedLanguage } from "./store.js";

export const LANGUAGES = [
  { code: "en", name: "English" },
  { code: "ru", name: "Русский" },
  { code: "pl", name: "Polski" },
  { code: "uk", name: "Українська" },
  { code: "et", name: "Eesti" },
];

let lang = "en";
let strings = {};
let english = {};
const listeners = [];

async function load(code) {
  const response = await fetch(`/static/i18n/${code}.json`);
  if (!response.ok) throw new Error(`no catalogue for ${code}`);
  return response.json();
}

export function language() {
  return lang;
}

export function t(key, params = {}) {
  const text = plurals(strings[key] ?? english[key] ?? key, params);
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

const PLURAL = /\{(\w+), plural,/g;

/** The plural forms of a string, as ICU writes them: "{n, plural, one {# player} other {#
 * players}}" keeps the arm that Intl.PluralRules picks for ``params.n`` in the language in force
 * ("=0 {...}" for an exact number), with # as the number. */
function plurals(text, params) {
  let out = "";
  let at = 0;
  PLURAL.lastIndex = 0;
  for (let m = PLURAL.exec(text); m; m = PLURAL.exec(text)) {
    const value = Number(params[m[1]]);
    const arms = {};
    let i = PLURAL.lastIndex;
    for (;;) {
      while (text[i] === " ") i += 1;
      if (i >= text.length || text[i] === "}") break;
      const word = /^[=\w]+/.exec(text.slice(i));
      if (!word) break;
      i += word[0].length;
      while (text[i] === " ") i += 1;
      if (text[i] !== "{") break;
      let depth = 0;
      const start = i + 1;
      for (; i < text.length; i += 1) {
        if (text[i] === "{") depth += 1;
        else if (text[i] === "}" && --depth === 0) break;
      }
      arms[word[0]] = text.slice(start, i);
      i += 1;
    }
    const category = Number.isFinite(value) ? new Intl.PluralRules(lang).select(value) : "other";
    const arm = arms[`=${value}`] ?? arms[category] ?? arms.other ?? "";
    out += text.slice(at, m.index) + arm.replace(/#/g, Number.isFinite(value) ? value.toLocaleString(lang) : "");
    at = i + 1;
    PLURAL.lastIndex = at;
  }
  return out + text.slice(at);
}

/** Switch to ``code`` (kept in localStorage) and tell every listener. */
export async function setLanguage(code, { keep = true } = {}) {
  if (!LANGUAGES.some((l) => l.code === code)) code = "en";
  if (!Object.keys(english).length) english = await load("en");
  strings = code === "en" ? english : await load(code);
  lang = code;
  document.documentElement.lang = code;
  if (keep) keepLanguage(code);
  for (const listener of listeners) listener(code);
}

export function onLanguage(listener) {
  listeners.push(listener);
}

/** The language to start in: the saved choice, else the server's pick from Accept-Language,
 * else the browser's own list. */
export async function startLanguage() {
  const saved = savedLanguage();
  if (saved && LANGUAGES.some((l) => l.code === saved)) return saved;
  try {
    const response = await fetch("/api/languages");
    if (response.ok) {
      const answer = await response.json();
      if (LANGUAGES.some((l) => l.code === answer.default)) return answer.default;
    }
  } catch {
    // fall through to the browser's languages
  }
  for (const wanted of navigator.languages || []) {
    const code = wanted.slice(0, 2).toLowerCase();
    if (LANGUAGES.some((l) => l.code === code)) return code;
  }
  return "en";
}

// -- cards, suits and ranks in words --------------------------------------------------------------

/** A suit as a word: "hearts" (the trump indicator, marriages). */
export function suitName(suit) {
  return (
    {
      c: t("suit.c"),
      d: t("suit.d"),
      h: t("suit.h"),
      s: t("suit.s"),
      a: t("suit.a"),
    }[suit] ?? suit
  );
}

function suitOf(suit) {
  return { c: t("suitof.c"), d: t("suitof.d"), h: t("suitof.h"), s: t("suitof.s") }[suit] ?? suit;
}

function rankName(rank) {
  return (
    {
      9: t("rank.9"),
      T: t("rank.T"),
      J: t("rank.J"),
      Q: t("rank.Q"),
      K: t("rank.K"),
      A: t("rank.A"),
    }[rank] ?? rank
  );
}

/** The short rank on a card's corner: 9, 10, J, Q, K, A (В, Д, К, Т in Russian...). */
export function rankShort(rank) {
  return (
    {
      9: "9",
      T: "10",
      J: t("rankshort.J"),
      Q: t("rankshort.Q"),
      K: t("rankshort.K"),
      A: t("rankshort.A"),
    }[rank] ?? rank
  );
}

export function capitalize(text) {
  return text ? text[0].toLocaleUpperCase(lang) + text.slice(1) : text;
}

/** "Queen of spades" for "Qs", in the page's language. */
export function cardName(code) {
  return capitalize(t("card.name", { rank: rankName(code[0]), suit: suitOf(code[1]) }));
}
