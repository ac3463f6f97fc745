// Accounts: who is signed in (GET /api/session), the header's account area, and the account
// screen (#/account): sign in, sign up, and once signed in change the password, delete the
// account, sign out. The session cookie is HttpOnly: the page never sees it, only the session's
// CSRF token, which api.js sends with every change.

import { api, setCsrf } from "./api.js";
import { button, h } from "./dom.js";
import { t } from "./i18n.js";
import { showError, toast } from "./ui.js";

/** The signed-in account's name (null: a guest). */
export const session = { name: null };
const listeners = [];

export function onSession(listener) {
  listeners.push(listener);
}

function signedIn(answer) {
  session.name = answer?.name ?? null;
  setCsrf(answer?.csrf ?? null);
  for (const listener of listeners) listener(session.name);
}

/** Ask the server who is signed in here (a cookie it no longer knows is dropped). */
export async function loadSession() {
  try {
    signedIn(await api("/api/session"));
  } catch {
    signedIn(null);
  }
}

export async function signOut() {
  try {
    await api("/api/session", { method: "DELETE" });
  } catch (e) {
    showError(t("account.error", { detail: e.message }));
    return;
  }
  signedIn(null);
  toast(t("account.signed_out"));
}

/** Where a string's {name} goes: t(KEY, { name: NAME_MARK }), then withName. */
export const NAME_MARK = "\u0000";

/** A string made with NAME_MARK, with the name in bold where the mark is (as text: never
 * markup, whatever the name holds). */
export function withName(text, name, attrs = {}) {
  const [before, after = ""] = text.split(NAME_MARK);
  return [before, h("strong", attrs, name), after];
}

/** The header's part: the signed-in name and Sign out, or a Sign in link. */
export function accountArea() {
  if (!session.name) {
    return h("div", { class: "account-area", id: "account-area" }, h("a", { href: "#/account", id: "sign-in-link" }, t("account.sign_in")));
  }
  return h(
    "div",
    { class: "account-area", id: "account-area" },
    h("a", { href: "#/account", id: "account-link" }, withName(t("account.signed_in_as", { name: NAME_MARK }), session.name, { id: "account-name" })),
    button(t("account.sign_out"), signOut, { id: "sign-out" }),
  );
}

function field(id, label, attrs = {}) {
  return h("div", { class: "row" }, h("label", { for: id }, label), h("input", { id, required: true, ...attrs }));
}

function value(id) {
  return document.getElementById(id)?.value ?? "";
}

/** #/account: the forms to sign in and sign up, or the signed-in account's own. */
export function accountScreen(root) {
  let alive = true;

  async function send(path, method, body, after) {
    try {
      const answer = await api(path, { method, body });
      after(answer);
    } catch (e) {
      showError(t("account.error", { detail: e.message }));
    }
  }

  function signInForm() {
    return h(
      "form",
      {
        class: "account-form",
        id: "sign-in-form",
        onsubmit: (e) => {
          e.preventDefault();
          send("/api/session", "POST", { name: value("sign-in-name"), password: value("sign-in-password") }, (answer) => {
            signedIn(answer);
            location.hash = "#/";
          });
        },
      },
      h("h2", {}, t("account.sign_in")),
      field("sign-in-name", t("account.name"), { autocomplete: "username", maxlength: 32 }),
      field("sign-in-password", t("account.password"), { type: "password", autocomplete: "current-password" }),
      h("button", { type: "submit", class: "primary", id: "sign-in" }, t("account.sign_in")),
    );
  }

  function signUpForm() {
    return h(
      "form",
      {
        class: "account-form",
        id: "sign-up-form",
        onsubmit: (e) => {
          e.preventDefault();
          send("/api/accounts", "POST", { name: value("sign-up-name"), password: value("sign-up-password") }, (answer) => {
            signedIn(answer);
            location.hash = "#/";
          });
        },
      },
      h("h2", {}, t("account.sign_up")),
      h("p", { class: "muted" }, t("account.sign_up_intro")),
      field("sign-up-name", t("account.name"), { autocomplete: "username", maxlength: 32 }),
      field("sign-up-password", t("account.password"), { type: "password", autocomplete: "new-password", minlength: 8 }),
      h("button", { type: "submit", class: "primary", id: "sign-up" }, t("account.sign_up")),
    );
  }

  function passwordForm() {
    return h(
      "form",
      {
        class: "account-form",
        id: "password-form",
        onsubmit: (e) => {
          e.preventDefault();
          const body = { old_password: value("old-password"), new_password: value("new-password") };
          send("/api/account/password", "PUT", body, (answer) => {
            signedIn(answer);
            toast(t("account.password_changed"));
          });
        },
      },
      h("h2", {}, t("account.change_password")),
      field("old-password", t("account.old_password"), { type: "password", autocomplete: "current-password" }),
      field("new-password", t("account.new_password"), { type: "password", autocomplete: "new-password", minlength: 8 }),
      h("button", { type: "submit", id: "change-password" }, t("account.change_password")),
    );
  }

  function deleteForm() {
    function confirmDelete(e) {
      e.preventDefault();
      const password = value("delete-password");
      const dialog = h(
        "dialog",
        { class: "modal", "aria-labelledby": "delete-title" },
        h("h2", { id: "delete-title" }, t("account.delete")),
        h("p", {}, t("account.delete_text")),
        h(
          "div",
          { class: "row" },
          button(t("account.delete_confirm"), () => {
            dialog.close();
            send("/api/account", "DELETE", { password }, () => {
              signedIn(null);
              toast(t("account.deleted"));
              location.hash = "#/";
            });
          }, { class: "danger", id: "delete-confirm" }),
          button(t("common.cancel"), () => dialog.close(), { autofocus: true }),
        ),
      );
      dialog.addEventListener("close", () => dialog.remove());
      document.body.append(dialog);
      dialog.showModal();
    }
    return h(
      "form",
      { class: "account-form", id: "delete-form", onsubmit: confirmDelete },
      h("h2", {}, t("account.delete")),
      h("p", { class: "muted" }, t("account.delete_text")),
      field("delete-password", t("account.password"), { type: "password", autocomplete: "current-password" }),
      h("button", { type: "submit", class: "danger", id: "delete-account" }, t("account.delete")),
    );
  }

  function render() {
    if (!alive) return;
    if (!session.name) {
      root.replaceChildren(h("section", { class: "account" }, h("h1", {}, t("account.title")), signInForm(), signUpForm()));
      return;
    }
    root.replaceChildren(
      h(
        "section",
        { class: "account" },
        h("h1", {}, t("account.title")),
        h("p", { id: "account-owner" }, withName(t("account.signed_in_as", { name: NAME_MARK }), session.name)),
        passwordForm(),
        deleteForm(),
        h("p", {}, button(t("account.sign_out"), signOut, { id: "sign-out-here" })),
      ),
    );
  }

  render();
  return {
    render,
    destroy() {
      alive = false;
    },
  };
}
