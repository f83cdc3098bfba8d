"""`python -m pipeline.synth sample DIR` / `... gomoku DIR` / `... corpus DIR --n N [--seed S]`."""

from pipeline.synth.cli import main

raise SystemExit(main())
