// Page-wide messages: a visible error line (role alert), the connection line (role status:
// shown while a table's connection is lost, cleared once it is back) and short toasts (role
// status; a screen may give them a place of their own, such as the table's felt).

import { h } from "./dom.js";
import { t } from "./i18n.js";

export function showError(text) {
  const box = document.getElementById("error");
  box.replaceChildren(
    h("span", {}, text),
    h("button", { type: "button", class: "close", "aria-label": t("error.dismiss"), onclick: clearError }, "×"),
  );
  box.hidden = false;
}

export function clearError() {
  const box = document.getElementById("error");
  box.replaceChildren();
  box.hidden = true;
}

let lost = false;

/** Say whether the connection to the table is lost (at once, not at the next move). */
export function showConnection(isLost = lost) {
  lost = isLost;
  const line = document.getElementById("connection");
  if (!line) return;
  line.setAttribute("aria-label", t("connection.label"));
  line.textContent = lost ? t("connection.lost") : "";
}

let toastHost = null;

/** Where toasts go: ``el`` (null: the page's own corner). */
export function keepToastsIn(el) {
  toastHost = el;
}

export function toast(text, ms = 3500) {
  const box = toastHost?.isConnected ? toastHost : document.getElementById("toasts");
  const item = h("div", { class: "toast" }, text);
  box.append(item);
  setTimeout(() => item.remove(), ms);
}
