"""`python -m tegula`: the command-line interface (see tegula.cli)."""
from tegula.cli import main

raise SystemExit(main())
