"""identity.weights: how much each kind of evidence weighs that two players are one person, and the
scores a pair needs to be listed and grouped (:mod:`pipeline.reports.identity.pairs` combines them).

A module of its own so that the command line can show :data:`MIN_SCORE` in its help without importing
pandas. Knows nothing of how the evidence is found.
"""

from __future__ import annotations

#: The weight of each kind of evidence for (the noisy-or of :func:`pipeline.reports.identity.pairs.score`).
WEIGHTS = {
    "case_width": 0.95,
    "script": 0.9,
    "tail": 0.8,
    "nickname": 0.6,
    "romanisation": 0.5,  # many Chinese names share a pinyin (莹莹, 盈盈, 英英: yingying)
    "same_rank": 0.2,
}
#: Co-opponents weigh ``base + slope * overlap`` (0.35 to 0.45 for overlaps from 0.5 to 1): under
#: :data:`MIN_SCORE` alone (club-mates who never met but share a league's opponents are common), over it
#: with the same declared rank and a full overlap.
CO_WEIGHT = (0.25, 0.2)
#: The factor of a score when both players declare ranks and none is the same.
RANK_DIFFERS = 0.8
#: The least score a pair needs to be grouped (and written to the roster snippet).
MIN_SCORE = 0.5
#: The least score a pair needs to be listed at all (co-opponents alone reach it, not :data:`MIN_SCORE`).
LIST_SCORE = 0.3
