"""What the terminal client says of a table's chat, in the language in force: each line (its
writer, and its text, or its canned phrase in the reader's words), and what a player types to
chat (text, or ``:good-game`` for a canned phrase)."""

from __future__ import annotations

from typing import Any, Final

from ..i18n import tr

#: each canned phrase the server knows (:class:`thousand.server.chat.Phrase`), in English
PHRASES: Final = {
    "good-luck": "Good luck!",
    "good-game": "Good game!",
    "well-played": "Well played!",
    "thanks": "Thanks!",
    "sorry": "Sorry!",
    "oops": "Oops!",
}

SENTENCES: Final = {
    "seat said": "{who}: {text}",
    "spectator said": "{who} (watching): {text}",
    "muted": "Muted: {names}",
    "muted none": "Nobody is muted.",
    "how to chat": "Chat: type in the box under the log and press Enter; "
    "{phrases} send a canned phrase.",
}


def chat_said(key: str, **parts: Any) -> str:
    return tr(SENTENCES[key]).format(**parts)


def chat_line(line: dict[str, Any]) -> str:
    """A ``chat-line`` (or a line of a ``chat-history``) as the log shows it: plain text."""
    phrase = line.get("phrase")
    text = tr(PHRASES[phrase]) if phrase in PHRASES else str(line.get("text", ""))
    key = "spectator said" if line.get("seat") is None else "seat said"
    return chat_said(key, who=line["name"], text=text)


def muted_line(muted: list[dict[str, Any]]) -> str:
    if not muted:
        return chat_said("muted none")
    return chat_said("muted", names=", ".join(str(m["name"]) for m in muted))


def how_to_chat() -> str:
    return chat_said("how to chat", phrases=", ".join(f":{p}" for p in PHRASES))


def typed_chat(typed: str) -> dict[str, Any] | None:
    """The chat message a player typed: ``:ID`` for a canned phrase, anything else as text
    (None for nothing typed). The server checks the text."""
    text = typed.strip()
    if not text:
        return None
    if text.startswith(":") and text[1:] in PHRASES:
        return {"type": "chat", "phrase": text[1:]}
    return {"type": "chat", "text": text}


def strings() -> set[str]:
    """Every string this module passes to ``tr`` (for the catalogues)."""
    return {*PHRASES.values(), *SENTENCES.values()}
