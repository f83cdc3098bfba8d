"""sgf-ratings: a batch pipeline from folders of SGF game records to rating snapshots.

Stages (one module or sub-package each): discover, decode, sgftext (the grammar),
normalise, ingest (orchestration and the incremental cache), write, cli.
"""

__version__ = "0.1.0"
