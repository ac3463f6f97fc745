"""``python -m thousand`` is the ``thousand`` command."""

import sys

from .cli.main import main

sys.exit(main())
