"""boards: the leaderboards of every period and calendar year (games, wins, win rate, longest streak),
computed from the changes a period at a time (:mod:`~pipeline.boards.leaderboards`, over the tallies of
:mod:`~pipeline.boards.tally`).

A stage beside the rating: it reads the changes and ratings it is given, never a rule set, a file or the
configuration.
"""
