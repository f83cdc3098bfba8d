"""fuzz: the project's own fuzz target (issue 10): generated inputs through the whole ``ratings run``.

Modules: :mod:`~fuzz.seeds` (real and generated seed records), :mod:`~fuzz.values` and
:mod:`~fuzz.mutate` (the mutants), :mod:`~fuzz.batch` (one ``ratings run`` and its accounting),
:mod:`~fuzz.probe` (every file timed alone), :mod:`~fuzz.culprits` (crash bisection),
:mod:`~fuzz.minimise`, :mod:`~fuzz.crashers` (failing inputs saved), :mod:`~fuzz.report` and
:mod:`~fuzz.driver` (the command line). ``make fuzz`` runs 100,000 inputs; ``tests/test_fuzz.py`` a sample.

Knows nothing of the pipeline's internals beyond its command line, its ``games.parquet`` and its
per-file reader (:func:`pipeline.ingest.record.rows_for_bytes`); never writes into the repository but
under ``fuzz/out/``.
"""
