"""``python -m controller.tablectl``: the same as the console script ``tablectl``."""

import sys

from .cli import main

sys.exit(main())
