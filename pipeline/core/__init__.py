"""core: the vocabulary every stage shares, and nothing else.

- :mod:`~pipeline.core.periods`: rating periods (month, quarter, half, year), their labels and arithmetic;
- :mod:`~pipeline.core.ranks`: ranks as written in records and rosters (``3d``, ``九段``, ``15级``);
- :mod:`~pipeline.core.text`: text folding and CJK numerals; :mod:`~pipeline.core.charset`: which codec
  decodes a record's (or a configuration file's) bytes;
- :mod:`~pipeline.core.schema` and :mod:`~pipeline.core.tables`: every table's Arrow schema with its
  column descriptions (docs/columns.md is generated from them);
- :mod:`~pipeline.core.store`: atomic Parquet files and streams;
- :mod:`~pipeline.core.arrays`: columnar helpers (a function once per distinct value, numpy masks);
- :mod:`~pipeline.core.progress`: how a long step reports how far it is.

Imports no other part of the package (``make lint`` checks it): the stages, the configuration, the run,
the reports, the site and the command line all stand on it.
"""
