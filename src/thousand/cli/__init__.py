"""The ``thousand`` command line."""
