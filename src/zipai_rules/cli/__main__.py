"""``python -m zipai_rules.cli``: the ``zipai`` command."""

import sys

from . import main

sys.exit(main())
