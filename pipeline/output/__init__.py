"""output: the write stage. Writes the tables it is handed into a generation of the output folder
(Parquet partitions per period, whole-run files, the state a later run resumes from, the index by
player that the questions about one player read) and switches the
output folder to it atomically; reads back what an earlier generation wrote.

Knows nothing of how a rating is computed, nor of SGF: it stores the tables it is given.
"""
