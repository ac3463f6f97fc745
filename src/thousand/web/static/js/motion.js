// Cards that move: dealt from the middle of the table, played from a hand or a seat to the
// trick, a finished trick gathered to its winner. With prefers-reduced-motion nothing moves.

const query = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : null;

/** Whether cards may move (the player has not asked for reduced motion). */
export const moving = () => !query?.matches;

const centreOf = (r) => [r.left + r.width / 2, r.top + r.height / 2];

/** Move ``el`` from the box ``from`` (a DOMRect) to where it now is. */
export function flyFrom(el, from, { duration = 320, delay = 0 } = {}) {
  if (!moving() || !from || typeof el.animate !== "function") return;
  const to = el.getBoundingClientRect();
  if (!to.width || !from.width) return;
  const [fx, fy] = centreOf(from);
  const [tx, ty] = centreOf(to);
  const scale = Math.min(1.6, Math.max(0.4, from.width / to.width));
  el.animate(
    [{ transform: `translate(${fx - tx}px, ${fy - ty}px) scale(${scale})`, opacity: 0.6 }, { transform: "none", opacity: 1 }],
    { duration, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" },
  );
}

/** Copies of cards no longer on the table (``cards``: [{node, rect}]) fly from where they were
 * to the box ``to`` (the seat that took them) and vanish. */
export function gather(cards, to, { duration = 420 } = {}) {
  if (!moving() || !to || !cards.length) return;
  const [tx, ty] = centreOf(to);
  for (const { node, rect } of cards) {
    if (typeof node.animate !== "function") continue;
    node.classList.add("ghost");
    node.setAttribute("aria-hidden", "true");
    document.body.append(node);
    const [fx, fy] = centreOf(rect);
    // the copy's place and size are the animation's own (the page sets no style attribute)
    const box = { left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px` };
    const run = node.animate(
      [
        { ...box, transform: "none", opacity: 1 },
        { ...box, transform: `translate(${tx - fx}px, ${ty - fy}px) scale(.45)`, opacity: 0 },
      ],
      { duration, easing: "ease-in", fill: "forwards" },
    );
    run.onfinish = () => node.remove();
    run.oncancel = () => node.remove();
  }
}
