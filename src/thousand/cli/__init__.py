"""The ``thousand`` command line."""

DEFAULT_LEVEL = "medium"
"""The bots' level when ``thousand play`` is given no ``--level`` (at a server's table and in
``--plain`` alike), as on the web page: bots that play sensibly and at once."""
