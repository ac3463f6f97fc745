"""Which of the five languages a request is answered in: ``?lang=``, else the browser's."""

from __future__ import annotations

from ..i18n import LanguageError, check_language, negotiate
from .tables import LobbyError


def chosen_language(lang: str | None, accept_language: str | None) -> str:
    """``lang`` when given (an unknown one is refused with 422), else the language negotiated
    from the ``Accept-Language`` header (English when none of its languages is ours)."""
    if lang is None or lang == "":
        return negotiate(accept_language)
    try:
        return check_language(lang)
    except LanguageError as e:
        raise LobbyError(422, str(e)) from None
