// The scoresheet: a row per scored deal from the reports (declarer, bid and contract, result,
// each seat's change and total, and the marks of the deal: barrel, penalties, dump truck).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { eventName, resultName } from "./moves.js";

export const signed = (n) => (n > 0 ? `+${n}` : String(n));

export function scoresheet(reports, names) {
  const seats = names.length;
  const head = h(
    "tr",
    {},
    h("th", { scope: "col" }, t("sheet.deal")),
    h("th", { scope: "col", class: "wide-only" }, t("sheet.declarer")),
    h("th", { scope: "col", class: "wide-only" }, t("sheet.contract")),
    h("th", { scope: "col", class: "wide-only" }, t("sheet.result")),
    names.map((name) => h("th", { scope: "col" }, name)),
  );
  const rows = reports.map((report, i) => {
    const marks = Array.from({ length: seats }, () => []);
    for (const e of report.events || []) {
      if (e.seat < seats) marks[e.seat].push(e.event);
    }
    const contract =
      report.contract === null
        ? "–"
        : report.bid !== null && report.bid !== report.contract
          ? t("sheet.bid_contract", { bid: report.bid, contract: report.contract })
          : String(report.contract);
    const declarer = report.declarer === null ? "–" : names[report.declarer];
    return h(
      "tr",
      { class: "deal-row", dataset: { result: report.result } },
      // on a phone the three columns after the number are folded under it (style.css)
      h("th", { scope: "row" }, String(i + 1), h("span", { class: "deal-summary" }, `${declarer} ${contract} ${resultName(report.result)}`)),
      h("td", { class: "wide-only" }, declarer),
      h("td", { class: "wide-only" }, contract),
      h("td", { class: "result wide-only" }, resultName(report.result)),
      report.changes.map((change, seat) =>
        h(
          "td",
          { class: "score", dataset: { seat: String(seat), total: String(report.totals[seat]) } },
          h("span", { class: "change" }, signed(change)),
          " ",
          h("span", { class: "total" }, String(report.totals[seat])),
          marks[seat].map((m) => h("span", { class: `mark mark-${m}` }, eventName(m))),
        ),
      ),
    );
  });
  const last = reports.length ? reports[reports.length - 1].totals : null;
  const foot = last
    ? h(
        "tfoot",
        {},
        h(
          "tr",
          { class: "totals-row" },
          h("th", { scope: "row" }, t("sheet.totals")),
          h("td", { colspan: 3, class: "wide-only" }),
          last.map((total, seat) => h("td", { class: "total", dataset: { seat: String(seat) } }, String(total))),
        ),
      )
    : null;
  return h(
    "section",
    { class: "scoresheet", "aria-label": t("sheet.title") },
    h("h2", {}, t("sheet.title")),
    reports.length
      ? h(
          "div",
          { class: "sheet-scroll" },
          h("table", {}, h("thead", {}, head), h("tbody", {}, rows), foot),
        )
      : h("p", { class: "muted" }, t("sheet.empty")),
  );
}
