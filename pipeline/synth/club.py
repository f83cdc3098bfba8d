"""The sample club's people and the script of its season (May-August 2024): tables only.

The club is the club proposal's 飞扬 on the TOM server (docs/rules.md ("club")). `config/roster.toml` and
`config/events.toml` describe the same people and events (tests/test_synth.py checks they agree). It knows
nothing of SGF text, encodings or files (see `pipeline.synth.season`), nor of how the pipeline rates the
games.
"""

from __future__ import annotations

from dataclasses import dataclass

# The roster's members: canonical name -> declared rank (the club proposal's list, plus 牛蛙 of its worked
# example).
MEMBERS = {
    "羽焰": "1d",
    "凝兰": "5k",
    "牛蛙": "1d",
    "阿扬": "4d",
    "二黑": "2d",
    "fish": "3d",
    "太阳熊": "5d",
    "宜城老僧": "4d",
    "小猪乐乐": "4d",
    "西方失败": "2d",
    "莹莹": "1d",
    "雪茄": "3k",
    "daigo": "2d",
}
# On the roster with member = false (a forum regular who never joined).
NON_MEMBERS = {"天狼星": "2k"}
# Roster aliases: the spelling in SGF PB/PW -> canonical name. Fox files use the Fox nickname.
ALIASES = {"yuyan": "羽焰", "niuwa": "牛蛙", "FishGo": "fish", "SunBear": "太阳熊", "piggy": "小猪乐乐"}
FOX_NAMES = {"fish": "FishGo", "太阳熊": "SunBear", "小猪乐乐": "piggy"}
# Not on the roster: other clubs' players (rank as their records show it) and one passer-by on Fox.
GUESTS = {
    "弈林老刀": "5d",
    "白云深处": "4d",
    "独孤求败": "3d",
    "小石头": "2d",
    "溪边钓翁": "3d",
    "青衫客": "3d",
    "山中无甲子": "4d",
    "棋痴老王": "5d",
    "江南布衣": "1k",
}
# Random filler games: members only, never 羽焰 or 二黑 (their ratings are the worked example's arithmetic).
FILLER_PLAYERS = (
    "凝兰",
    "牛蛙",
    "阿扬",
    "fish",
    "太阳熊",
    "宜城老僧",
    "小猪乐乐",
    "西方失败",
    "莹莹",
    "雪茄",
    "daigo",
)
FILLER_COUNTS = {5: 14, 6: 8, 7: 8, 8: 8}
# The pair that plays 12 games in June (games 11 and 12 pass the cap); filler never pairs them.
CAP_PAIR = ("莹莹", "牛蛙")
# The club proposal's worked example for 羽焰 in May (docs/rules.md ("club"), "Worked examples"):
# (opponent, 羽焰 won, slow game).
GOLDEN_GAMES = (
    ("凝兰", True, True),
    ("凝兰", True, True),
    ("凝兰", True, True),
    ("牛蛙", False, False),
    ("阿扬", False, True),
    ("fish", True, True),
    ("二黑", True, True),
    ("二黑", False, False),
    ("二黑", False, False),
)
NOTES = "本月TOM对局记录由凝兰导出, daigo负责核对。\n打挂的对局不计分。\n"

TEAM_MATCH = "飞扬对弈林对抗赛"
ARENA = "飞扬对清溪擂台赛"
CUP = "TOM夏季杯"
OPEN = "TOM快棋公开赛"


@dataclass(frozen=True, slots=True)
class Game:
    """One scripted game: players as written in PB/PW, an FF4 result, and how the record is written.

    `day` 0 means no date in the record (DT/RD left out); `moves` None means a length fitting the result;
    `file` is "game", "pair" (a two-game collection, the second with colours swapped), "broken" (truncated)
    or "backup" (also copied under `2024-MM/backup/`).
    """

    month: int
    day: int
    black: str
    white: str
    result: str
    slow: bool = True
    style: str = "tom"
    handicap: int = 0
    event: str | None = None
    round_: str | None = None
    moves: int | None = None
    game_type: int = 1
    file: str = "game"


# 二黑 (2d, 200, coefficient 2) in May: loses to 羽焰 slow -2x10 = -20, beats 羽焰 twice fast +2x(1x5) = +10,
# beats 阿扬 (4d) three times slow +3x(4x10) = +120: 200 - 20 + 10 + 120 = 310 >= 300, so he is 3d in June
# and 羽焰's fast win over him is worth 3x5 = 15 (128 -> 143).
ERHEI_MAY = (
    Game(5, 4, "二黑", "阿扬", "B+R"),
    Game(5, 11, "阿扬", "二黑", "W+2.5"),
    Game(5, 25, "二黑", "阿扬", "B+R"),
)
GOLDEN_JUNE = Game(6, 8, "二黑", "羽焰", "W+R", slow=False)

# Every game that some validity rule excludes, and some that test the reading of names and results.
SPECIAL_GAMES = (
    Game(5, 3, "牛蛙", "莹莹", "0"),  # draw
    Game(5, 9, "雪茄", "fish", "", slow=False),  # no RE: no_result
    Game(5, 14, "daigo", "阿扬", "Void"),  # 打挂: no_result
    Game(5, 18, "凝兰", "阿扬", "W+R", handicap=3),  # handicap
    Game(5, 21, "Fish", "雪茄", "W+6.5"),  # "Fish": fish, case-insensitively; counted
    Game(5, 27, "雪茄", "daigo", "B+R", slow=False, file="pair"),  # two games in one file, both counted
    Game(5, 29, "牛蛙", "fish", "B+R", file="broken"),  # truncated: parse_error
    Game(6, 5, "天狼星", "雪茄", "B+R", slow=False),  # 天狼星 is on the roster as a non-member
    Game(6, 12, "daigo", "凝兰", "W+F", moves=0),  # forfeit: no_show
    Game(6, 19, "宜城老僧", "小猪乐乐", "B+3.5", file="backup"),  # the backup copy: duplicate
    Game(7, 2, "牛蛙", "niuwa", "B+R", slow=False),  # niuwa is 牛蛙's alias: self_play
    Game(7, 13, "莹莹", "雪茄", "B+R", style="fox", game_type=4, moves=41),  # Gomoku: wrong_game_type
    Game(7, 0, "阿扬", "西方失败", "W+R"),  # no DT/RD: missing_date
    Game(7, 20, "SunBear", "FishGo", "?", style="fox"),  # Fox nicknames of 太阳熊 and fish; no_result
    Game(7, 27, "江南布衣", "莹莹", "W+R", slow=False, style="fox"),  # an outsider: non_member
    Game(8, 7, "凝兰", "雪茄", "B+R", moves=1),  # a decisive game with 1 move: no_show
    Game(8, 10, "雪茄", "太阳熊", "0", handicap=3),  # a handicap draw: draw and handicap
)

# 12 games of CAP_PAIR in June, every other day: games 11 and 12 (June 21 and 23) are over the cap.
CAP_GAMES = tuple(
    Game(6, 1 + 2 * k, *(CAP_PAIR if k % 2 == 0 else CAP_PAIR[::-1]), f"{'BWBBWWBWBWBW'[k]}+R", slow=False)
    for k in range(12)
)

# June 15: four boards against 弈林, slow; the members win boards 2 and 3 (+10 bonus each).
TEAM_GAMES = (
    Game(6, 15, "太阳熊", "弈林老刀", "W+R", event=TEAM_MATCH, round_="第1台"),
    Game(6, 15, "白云深处", "阿扬", "W+4.5", event=TEAM_MATCH, round_="第2台"),
    Game(6, 15, "fish", "独孤求败", "B+R", event=TEAM_MATCH, round_="第3台"),
    Game(6, 15, "小石头", "西方失败", "B+1.5", event=TEAM_MATCH, round_="第4台"),
)
# July 6-10: 小猪乐乐 wins three in a row (10 + 15 + 20 = 45), then loses to 棋痴老王;
# 宜城老僧 beats 棋痴老王 (+10).
ARENA_GAMES = (
    Game(7, 6, "小猪乐乐", "溪边钓翁", "B+R", event=ARENA, round_="第1局"),
    Game(7, 7, "青衫客", "小猪乐乐", "W+5.5", event=ARENA, round_="第2局"),
    Game(7, 8, "小猪乐乐", "山中无甲子", "B+R", event=ARENA, round_="第3局"),
    Game(7, 9, "棋痴老王", "小猪乐乐", "B+R", event=ARENA, round_="第4局"),
    Game(7, 10, "宜城老僧", "棋痴老王", "B+0.5", event=ARENA, round_="第5局"),
)
# TOM's summer cup: fast qualifiers in July (+10 per win), slow main stage in August (+50 per win);
# fish is champion (+500), 宜城老僧 runner-up (+100), in August (events.toml: ends = 2024-08-17).
CUP_GAMES = (
    Game(7, 16, "fish", "雪茄", "B+R", slow=False, event=CUP, round_="外围赛第1轮"),
    Game(7, 16, "凝兰", "宜城老僧", "W+R", slow=False, event=CUP, round_="外围赛第1轮"),
    Game(7, 17, "阿扬", "daigo", "B+6.5", slow=False, event=CUP, round_="外围赛第1轮"),
    Game(7, 17, "莹莹", "太阳熊", "W+R", slow=False, event=CUP, round_="外围赛第1轮"),
    Game(8, 3, "太阳熊", "fish", "W+R", event=CUP, round_="本赛第1轮"),
    Game(8, 3, "宜城老僧", "阿扬", "B+3.5", event=CUP, round_="本赛第1轮"),
    Game(8, 17, "fish", "宜城老僧", "B+R", event=CUP, round_="决赛"),
)
# TOM's open blitz, no qualifiers (+20 per win): 西方失败 champion (+500), 小猪乐乐 runner-up (+100).
OPEN_GAMES = (
    Game(8, 24, "西方失败", "莹莹", "B+R", slow=False, event=OPEN, round_="第1轮"),
    Game(8, 24, "daigo", "小猪乐乐", "W+R", slow=False, event=OPEN, round_="第1轮"),
    Game(8, 25, "小猪乐乐", "西方失败", "W+2.5", slow=False, event=OPEN, round_="决赛"),
)
SCRIPTED = (
    *ERHEI_MAY,
    GOLDEN_JUNE,
    *SPECIAL_GAMES,
    *CAP_GAMES,
    *TEAM_GAMES,
    *ARENA_GAMES,
    *CUP_GAMES,
    *OPEN_GAMES,
)
