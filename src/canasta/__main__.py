"""``python -m canasta``: the ``canasta`` command."""

import sys

from .cli import main

sys.exit(main())
