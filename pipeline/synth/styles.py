"""Per-style wording and layout tables for `pipeline.synth.records`: how each server writes ranks, results and
its root node (fixed properties, property order, separators) and where handicap stones go.

Every string is encodable in its style's codec. It knows nothing of names, of SGF escaping or of encodings.
"""

from __future__ import annotations

KANJI_NUMERALS = "〇初二三四五六七八九十"
RANK_FORMS = {
    "tom": {"d": "{n}段", "k": "{n}级", "p": "职业{n}段"},
    "fox": {"d": "{n}段", "k": "{n}级", "p": "P{n}"},
    "ogs": {"d": "{n}d", "k": "{n}k", "p": "{n}p"},
    "kgs": {"d": "{n}d", "k": "{n}k", "p": "{n}p"},
    "big5": {"d": "{n}段", "k": "{n}級", "p": "職業{n}段"},
    "sjis": {"d": "{j}段", "k": "{n}級", "p": "{j}段"},
    "euckr": {"d": "{n}단", "k": "{n}급", "p": "{n}단"},
}

COLOUR_WORDS = {"tom": ("黑", "白"), "big5": ("黑", "白"), "sjis": ("黒", "白"), "euckr": ("흑", "백")}
# Per style: a win by cause: R resignation, T time, F forfeit, P points ({c} colour, {p} margin).
WIN_FORMS = {
    "tom": {"R": "{c}中盘胜", "T": "{c}超时胜", "F": "{c}不战胜", "P": "{c}胜{p}"},
    "big5": {"R": "{c}中盤勝", "T": "{c}超時勝", "F": "{c}不戰勝", "P": "{c}勝{p}"},
    "sjis": {"R": "{c}中押し勝ち", "T": "{c}時間勝ち", "F": "{c}不戦勝", "P": "{c}{p}勝ち"},
    "euckr": {"R": "{c} 불계승", "T": "{c} 시간승", "F": "{c} 기권승", "P": "{c} {p}승"},
    "fox": {"R": "{c}+R", "T": "{c}+T", "F": "{c}+F", "P": "{c}+{p}"},
    "ogs": {"R": "{c}+R", "T": "{c}+T", "F": "{c}+F", "P": "{c}+{p}"},
    "kgs": {"R": "{c}+Resign", "T": "{c}+Time", "F": "{c}+Forfeit", "P": "{c}+{p}"},
}
# Per style: the draw, the suspended/void game and the unknown result ("0", "Void", "?" in FF4).
OTHER_RESULTS = {
    "tom": {"0": "和棋", "Void": "打挂", "?": "?"},
    "big5": {"0": "和棋", "Void": "無勝負", "?": "?"},
    "sjis": {"0": "持碁", "Void": "無勝負", "?": "?"},
    "euckr": {"0": "무승부", "Void": "무효", "?": "?"},
    "fox": {"0": "Draw", "Void": "Void", "?": "?"},
    "ogs": {"0": "0", "Void": "Void", "?": "?"},
    "kgs": {"0": "Jigo", "Void": "Void", "?": "?"},
}
# Root properties each style always writes the same way (game-dependent ones are built by the generator).
FIXED_ROOT = {
    "tom": {"PC": "TOM"},
    "fox": {"FF": "4", "RU": "Chinese", "AP": "foxwq", "TC": "3"},
    "ogs": {"FF": "4", "CA": "UTF-8", "OT": "3x30 byo-yomi", "RU": "Japanese"},
    "kgs": {
        "FF": "4",
        "CA": "UTF-8",
        "AP": "CGoban:3",
        "ST": "2",
        "RU": "Japanese",
        "PC": "The KGS Go Server at http://www.gokgs.com/",
    },
    "big5": {"FF": "4", "PC": "台灣棋院"},
    "sjis": {"FF": "4", "CA": "Shift_JIS", "PC": "日本棋院"},
    "euckr": {"FF": "4", "PC": "한국기원"},
}
HANDICAP_POINTS = ("pd", "dp", "pp", "dd", "jj", "dj", "pj", "jd", "jp")
HANDICAP_ORDER = {
    2: "01",
    3: "012",
    4: "0123",
    5: "01234",
    6: "012356",
    7: "0123456",
    8: "01235678",
    9: "012345678",
}
# Property order of each style's root node ("tom": the implicit root before the first ';').
ROOT_ORDER = {
    "tom": "GM TE RO RD PC PB BR PW WR KO HA TM LT LC RE",
    "fox": "GM FF CA SZ GN RO DT PB PW BR WR KM HA RU AP RE TM TC TT",
    "ogs": "FF CA GM DT PC GN RO PB PW BR WR TM OT RE SZ HA KM RU",
    "kgs": "GM FF CA AP ST RU SZ HA KM TM OT EV RO PW PB WR BR DT PC RE",
    "big5": "GM FF SZ EV RO DT PC PB BR PW WR KM HA TM RE",
    "sjis": "GM FF CA SZ EV RO DT PC PB BR PW WR KM HA TM RE",
    "euckr": "GM FF SZ EV RO DT PC PB BR PW WR KM HA TM RE",
}
ROOT_SEPARATORS = {"tom": "", "fox": "  ", "ogs": "\n", "kgs": "", "big5": "", "sjis": "\n", "euckr": ""}
