"""thousand: the card game Thousand, exact rules, records, bots."""

__version__ = "0.1.0"
