// What the page keeps in localStorage: seat tokens per table, the player's name, the language,
// the pace of other players' moves, whether sounds are on.

const PREFIX = "thousand.";

function get(key) {
  try {
    return localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
}

function set(key, value) {
  try {
    if (value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, value);
  } catch {
    // storage refused (private mode): the page still works, it just forgets
  }
}

/** The seat held at a table: {seat, token} or null. */
export function seatAt(tableId) {
  const text = get(`seat.${tableId}`);
  if (!text) return null;
  try {
    const seat = JSON.parse(text);
    return typeof seat.token === "string" ? seat : null;
  } catch {
    return null;
  }
}

export function keepSeat(tableId, seat, token) {
  set(`seat.${tableId}`, JSON.stringify({ seat, token }));
}

export function forgetSeat(tableId) {
  set(`seat.${tableId}`, null);
}

export const playerName = () => get("name") || "";
export const keepName = (name) => set("name", name);
export const savedLanguage = () => get("lang");
export const keepLanguage = (code) => set("lang", code);

/** Milliseconds between other players' moves: ?pace=N in the URL, else the saved setting. */
export function pace() {
  const fromUrl = new URLSearchParams(location.search).get("pace");
  const text = fromUrl ?? get("pace");
  const value = Number(text);
  return text !== null && Number.isFinite(value) && value >= 0 ? value : 700;
}

export const keepPace = (ms) => set("pace", String(ms));

/** Whether the table's sounds are on (on unless the player switched them off). */
export const soundOn = () => get("sound") !== "off";
export const keepSound = (on) => set("sound", on ? "on" : "off");
