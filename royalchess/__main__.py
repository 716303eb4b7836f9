"""``python -m royalchess``: the command line."""

from royalchess.cli import main

raise SystemExit(main())
