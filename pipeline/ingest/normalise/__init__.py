"""Normalisers: raw SGF property text -> typed values.

This layer knows the many ways servers and people write results, dates, time settings, ranks
and the other game-information fields; it knows nothing of bytes, encodings or the SGF grammar
(it receives already-decoded, already-unescaped ``str`` values), and nothing of ratings.
"""
