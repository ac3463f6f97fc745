"""A small PNG chart of an arena result, written with zlib alone (no plotting library).

The chart shows each bot's points per deal as a bar with its 95% confidence interval, and below
it the running mean of the paired difference (first bot minus second) over the deal-sets, with
its confidence band. Text is drawn with a built-in 3x5 pixel font.
"""

from __future__ import annotations

import math
import struct
import zlib
from dataclasses import dataclass
from typing import Any

# 3x5 glyphs, rows top to bottom, each row three bits (left bit first).
_GLYPHS: dict[str, tuple[int, ...]] = {
    "0": (7, 5, 5, 5, 7), "1": (2, 6, 2, 2, 7), "2": (7, 1, 7, 4, 7), "3": (7, 1, 7, 1, 7),
    "4": (5, 5, 7, 1, 1), "5": (7, 4, 7, 1, 7), "6": (7, 4, 7, 5, 7), "7": (7, 1, 1, 1, 1),
    "8": (7, 5, 7, 5, 7), "9": (7, 5, 7, 1, 7), "a": (2, 5, 7, 5, 5), "b": (6, 5, 6, 5, 6),
    "c": (7, 4, 4, 4, 7), "d": (6, 5, 5, 5, 6), "e": (7, 4, 6, 4, 7), "f": (7, 4, 6, 4, 4),
    "g": (7, 4, 5, 5, 7), "h": (5, 5, 7, 5, 5), "i": (7, 2, 2, 2, 7), "j": (1, 1, 1, 5, 7),
    "k": (5, 5, 6, 5, 5), "l": (4, 4, 4, 4, 7), "m": (5, 7, 7, 5, 5), "n": (6, 5, 5, 5, 5),
    "o": (7, 5, 5, 5, 7), "p": (7, 5, 7, 4, 4), "q": (7, 5, 5, 7, 1), "r": (6, 5, 6, 5, 5),
    "s": (7, 4, 7, 1, 7), "t": (7, 2, 2, 2, 2), "u": (5, 5, 5, 5, 7), "v": (5, 5, 5, 5, 2),
    "w": (5, 5, 7, 7, 5), "x": (5, 5, 2, 5, 5), "y": (5, 5, 2, 2, 2), "z": (7, 1, 2, 4, 7),
    "-": (0, 0, 7, 0, 0), "+": (0, 2, 7, 2, 0), ".": (0, 0, 0, 0, 2), ",": (0, 0, 0, 2, 4),
    ":": (0, 2, 0, 2, 0), "%": (5, 1, 2, 4, 5), "/": (1, 1, 2, 4, 4), "(": (1, 2, 2, 2, 1),
    ")": (4, 2, 2, 2, 4), "=": (0, 7, 0, 7, 0), " ": (0, 0, 0, 0, 0),
}  # fmt: skip

Color = tuple[int, int, int]
WHITE: Color = (255, 255, 255)
BLACK: Color = (0, 0, 0)
GREY: Color = (200, 200, 200)
COLORS: tuple[Color, ...] = ((31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40))


class Canvas:
    """An RGB raster with the few drawing calls a chart needs."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.pixels = bytearray(WHITE * (width * height))

    def dot(self, x: int, y: int, color: Color) -> None:
        if 0 <= x < self.width and 0 <= y < self.height:
            i = 3 * (y * self.width + x)
            self.pixels[i : i + 3] = bytes(color)

    def rect(self, x0: int, y0: int, x1: int, y1: int, color: Color) -> None:
        for y in range(max(0, min(y0, y1)), min(self.height, max(y0, y1) + 1)):
            for x in range(max(0, min(x0, x1)), min(self.width, max(x0, x1) + 1)):
                self.dot(x, y, color)

    def line(self, x0: int, y0: int, x1: int, y1: int, color: Color) -> None:
        steps = max(abs(x1 - x0), abs(y1 - y0), 1)
        for i in range(steps + 1):
            self.dot(round(x0 + (x1 - x0) * i / steps), round(y0 + (y1 - y0) * i / steps), color)

    def text(self, x: int, y: int, text: str, color: Color = BLACK, scale: int = 2) -> None:
        for ch in text.lower():
            rows = _GLYPHS.get(ch, _GLYPHS[" "])
            for r, bits in enumerate(rows):
                for col in range(3):
                    if bits >> (2 - col) & 1:
                        self.rect(
                            x + col * scale,
                            y + r * scale,
                            x + col * scale + scale - 1,
                            y + r * scale + scale - 1,
                            color,
                        )
            x += 4 * scale

    def png(self) -> bytes:
        raw = b"".join(
            b"\x00" + bytes(self.pixels[3 * y * self.width : 3 * (y + 1) * self.width])
            for y in range(self.height)
        )

        def chunk(kind: bytes, data: bytes) -> bytes:
            body = kind + data
            return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        return (
            b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b"")
        )


def text_width(text: str, scale: int) -> int:
    """How many pixels wide :meth:`Canvas.text` draws ``text`` at ``scale``: each glyph three
    columns and a column's gap, less the last gap."""
    return max(0, 4 * scale * len(text) - scale)


def fitted(lines: list[str], room: int) -> tuple[list[str], int]:
    """``lines`` and the text scale to draw them at so that each fits ``room`` pixels: 2 where
    every line fits at 2, else 1, and a line too wide even at 1 cut short, its last glyph a
    dot."""
    if all(text_width(line, 2) <= room for line in lines):
        return lines, 2
    most = max(1, (room + 1) // 4)
    return [line if len(line) <= most else line[: most - 1] + "." for line in lines], 1


@dataclass(frozen=True, slots=True)
class Label:
    """A line of text on the chart: where its top left corner is, what it says, at what scale
    and colour."""

    x: int
    y: int
    text: str
    scale: int
    color: Color

    @property
    def right(self) -> int:
        """The last pixel column the text covers."""
        return self.x + text_width(self.text, self.scale) - 1


def bar_labels(bots: list[dict[str, Any]], width: int, top: int) -> list[Label]:
    """The lines under each bot's bar, from ``top`` down: its name, its points per deal and its
    make-rate (where the result has one), each bot's lines within its own column of the chart
    (narrower when the names are long or the bots many), so that no two bots' lines meet."""
    slot = (width - 100) // max(1, len(bots))
    texts = []
    for b in bots:
        lines = [str(b["bot"]), f"{b['points_per_deal'] or 0.0:+.1f}/deal"]
        if b.get("make_rate") is not None:
            lines.append(f"make {100 * b['make_rate']:.0f}%")
        texts.append(lines)
    room = min(slot - 8, width - 80)
    _, scale = fitted([line for lines in texts for line in lines], room)
    labels = []
    for i, lines in enumerate(texts):
        color = COLORS[i % len(COLORS)]
        for row, line in enumerate(fitted(lines, room)[0]):
            labels.append(Label(80 + i * slot, top + row * 7 * scale, line, scale, color))
    return labels


def _scale(lo: float, hi: float, top: int, bottom: int) -> tuple[float, float]:
    if hi <= lo:
        hi = lo + 1
    return lo, (bottom - top) / (hi - lo)


def arena_png(result: dict[str, Any], width: int = 640, height: int = 480) -> bytes:
    """The chart of an arena result (as :func:`thousand.bots.arena.summarize` returns it)."""
    c = Canvas(width, height)
    bots = result["bots"]
    config = result["config"]
    title = f"{config['template']}: {' vs '.join(config['bots'])}, {config['deal_sets']} deal-sets"
    (title,), scale = fitted([title], width - 20)
    c.text(10, 8, title, scale=scale)
    # Top panel: points per deal with 95% CI.
    top, bottom = 40, 220
    values = [b["points_per_deal"] or 0.0 for b in bots]
    lows = [(b["points_per_deal_ci95"][0] or v) for b, v in zip(bots, values, strict=True)]
    highs = [(b["points_per_deal_ci95"][1] or v) for b, v in zip(bots, values, strict=True)]
    lo = min(0.0, *lows)
    hi = max(0.0, *highs)
    base, k = _scale(lo, hi, top, bottom)

    def ypos(v: float) -> int:
        return round(bottom - (v - base) * k)

    zero = ypos(0.0)
    c.line(60, zero, width - 20, zero, BLACK)
    c.text(10, zero - 5, "0")
    c.text(10, top, f"{hi:.0f}")
    slot = (width - 100) // max(1, len(bots))
    for i in range(len(bots)):
        x0 = 80 + i * slot
        x1 = x0 + slot // 2
        color = COLORS[i % len(COLORS)]
        c.rect(x0, ypos(values[i]), x1, zero, color)
        mid = (x0 + x1) // 2
        c.line(mid, ypos(lows[i]), mid, ypos(highs[i]), BLACK)
        c.line(mid - 6, ypos(lows[i]), mid + 6, ypos(lows[i]), BLACK)
        c.line(mid - 6, ypos(highs[i]), mid + 6, ypos(highs[i]), BLACK)
    for label in bar_labels(bots, width, bottom + 8):
        c.text(label.x, label.y, label.text, label.color, label.scale)
    # Bottom panel: running mean of the paired difference, with its 95% band.
    rows = result.get("per_deal_set") or []
    if len(bots) == 2 and len(rows) >= 2:
        diffs = [(r[0] or 0.0) - (r[1] or 0.0) for r in rows]
        means, bands = [], []
        total = sq = 0.0
        for n, d in enumerate(diffs, start=1):
            total += d
            sq += d * d
            m = total / n
            var = (sq - n * m * m) / (n - 1) if n > 1 else 0.0
            means.append(m)
            bands.append(1.96 * math.sqrt(max(var, 0.0) / n) if n > 1 else 0.0)
        top2, bottom2 = 290, height - 30
        skip = max(1, len(diffs) // 20)  # the first few means swing widely: start the axis later
        lo2 = min(0.0, *(m - b for m, b in zip(means[skip:], bands[skip:], strict=True)))
        hi2 = max(0.0, *(m + b for m, b in zip(means[skip:], bands[skip:], strict=True)))
        base2, k2 = _scale(lo2, hi2, top2, bottom2)

        def y2(v: float) -> int:
            return round(bottom2 - (min(max(v, lo2), hi2) - base2) * k2)

        def x2(i: int) -> int:
            return round(60 + (width - 80) * i / (len(diffs) - 1))

        for i in range(skip, len(diffs)):
            c.line(x2(i), y2(means[i] - bands[i]), x2(i), y2(means[i] + bands[i]), GREY)
        c.line(60, y2(0.0), width - 20, y2(0.0), BLACK)
        for i in range(skip + 1, len(diffs)):
            c.line(x2(i - 1), y2(means[i - 1]), x2(i), y2(means[i]), COLORS[0])
        c.text(10, top2 - 18, f"running paired difference, {bots[0]['bot']} - {bots[1]['bot']}")
        c.text(10, y2(0.0) - 5, "0")
        c.text(10, top2, f"{hi2:.0f}")
        c.text(width - 120, bottom2 + 10, f"{len(diffs)} deal-sets")
    return c.png()
