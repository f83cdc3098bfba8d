"""`python -m pipeline.synth sample DIR` / `python -m pipeline.synth corpus DIR --n N [--seed S]`."""

from pipeline.synth.cli import main

raise SystemExit(main())
