"""``python -m canasta.cli``: the ``canasta`` command."""

import sys

from . import main

sys.exit(main())
