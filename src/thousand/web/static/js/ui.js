// Page-wide messages: a visible error line (role alert) and short toasts (role status).

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

export function toast(text, ms = 3500) {
  const box = document.getElementById("toasts");
  const item = h("div", { class: "toast" }, text);
  box.append(item);
  setTimeout(() => item.remove(), ms);
}
