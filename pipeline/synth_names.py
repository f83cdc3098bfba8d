"""Tables for `pipeline.synth` (names, events, comments, per-style wording of ranks and results) and the
pool of players built from them.

Every string here is encodable in the codec of the styles that use it (checked by tests/test_synth.py):
simplified Chinese in GB18030, traditional Chinese in Big5, Japanese in Shift_JIS, Korean in EUC-KR.
Some entries carry a second byte of 0x5C (``\\``) or 0x5D (``]``) in their legacy codec on purpose
(Big5 許 珮 孫, Shift_JIS 曾 圭 能 江 予): real servers write those bytes unescaped.
It knows nothing of SGF syntax or encodings.
"""

from __future__ import annotations

import random

ZH_SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程"
ZH_GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰涛明超秀霞平刚英华玉文辉建国志海鹏宇浩博晨欣怡轩涵雨泽睿思嘉俊"
ZH_NICKNAMES = (
    "星空下的棋",
    "天天向上",
    "围棋小白",
    "黑白世界",
    "落子无悔",
    "江南布衣",
    "棋乐无穷",
    "清风徐来",
    "一念之间",
    "老顽童",
    "半目之差",
    "小飞象",
)
TW_SURNAMES = "陳林黃張李王吳劉蔡楊許鄭謝郭洪曾邱廖賴周徐蘇葉莊呂江何蕭羅高孫"
TW_GIVEN = "志明家豪俊傑建宏淑芬美玲怡君雅婷文雄國華宗翰冠宇承恩珮瑋柏育"
JA_SURNAMES = (
    "佐藤",
    "鈴木",
    "高橋",
    "田中",
    "伊藤",
    "渡辺",
    "山本",
    "中村",
    "小林",
    "加藤",
    "吉田",
    "山田",
    "佐々木",
    "山口",
    "松本",
    "井上",
    "木村",
    "斎藤",
    "清水",
    "山崎",
    "池田",
    "橋本",
    "阿部",
    "石川",
    "山下",
    "中島",
    "小川",
    "前田",
    "岡田",
    "長谷川",
    "藤田",
    "後藤",
    "近藤",
    "村上",
    "遠藤",
    "青木",
    "坂本",
    "曾根",
    "能登",
    "江口",
)
JA_GIVEN = (
    "健太",
    "翔太",
    "大輔",
    "拓也",
    "直樹",
    "和也",
    "誠",
    "聡",
    "浩二",
    "秀行",
    "正樹",
    "圭",
    "裕太",
    "智子",
    "陽子",
    "美咲",
    "恵",
    "優子",
    "一郎",
    "三郎",
    "修",
    "剛",
    "隆",
    "圭一",
    "江美",
)
KO_SURNAMES = "김이박최정강조윤장임한오서신권황안송류홍"
KO_GIVEN = (
    "민준",
    "서준",
    "도윤",
    "예준",
    "시우",
    "하준",
    "지호",
    "주원",
    "지훈",
    "준서",
    "현우",
    "수진",
    "지은",
    "민지",
    "서연",
    "하은",
    "지민",
    "영호",
    "성민",
    "동현",
    "상훈",
    "혜진",
    "재원",
    "은비",
)
EN_ADJECTIVES = ("lazy", "blue", "quiet", "wild", "sleepy", "happy", "dark", "lucky", "brave", "old", "shy")
EN_NOUNS = ("tiger", "fox", "stone", "crane", "dragon", "turtle", "owl", "ladder", "tenuki", "hane", "moyo")

# Fixed entries put first in their pools so that every corpus meets the awkward bytes.
TRICKY_NAMES = {"tw": ("許淑珮", "孫志明"), "ja": ("曾根圭", "能登江美")}

CLUB_MEMBERS = {
    "羽焰": "1d",
    "凝兰": "5k",
    "牛蛙": "1d",
    "阿扬": "4d",
    "二黑": "2d",
    "清风": "3k",
    "fish": "3d",
    "daigo": "2d",
}
# The seed-001 worked example for 羽焰 in May: (opponent, 羽焰 won, slow game).
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
CLUB_NOTES = "本月TOM对局记录由清风导出, daigo负责核对。\n打挂的对局不计分。\n"

EVENTS = {
    "zh": ("飞扬杯月赛", "TOM网络联赛", "棋友会对抗赛", "飞扬擂台赛", "新人王战"),
    "tw": ("應氏杯業餘賽", "台灣棋院段位賽", "棋友會對抗賽"),
    "ja": ("アマ本因坊戦", "碁聖戦予選", "アマ名人戦", "名人戦予選"),
    "ko": ("한국바둑리그", "아마추어 대회", "명인전 예선"),
    "en": ("Club Championship", "Spring Cup [Open]", "OGS Ladder", "KGS Meijin \\ Qualifier"),
}
ROUNDS = {"zh": "第{n}轮", "tw": "第{n}輪", "ja": "{n}回戦", "ko": "{n}라운드", "en": "Round {n}"}
COMMENTS = {
    "zh": ("好棋", "这步有问题", "黑棋形势不错", "白棋大龙危险", "败着", "应该脱先", "妙手!", "形势接近"),
    "tw": ("好棋", "這手有問題", "黑棋形勢不錯", "白棋大龍危險", "妙手!", "應該脫先"),
    "ja": ("好手", "これは疑問手", "黒の形勢が良い", "白の大石が危ない", "妙手!", "手抜きすべき"),
    "ko": ("좋은 수", "이 수는 의문수", "흑이 유리하다", "백 대마가 위험하다", "묘수!", "손을 빼야 한다"),
    "en": (
        "nice move",
        "fish [3d]: gg",
        "this should be tenuki",
        "W missed the ladder [atari at D4]",
        "saved to C:\\go\\games",
        "B is ahead by ~10 points",
    ),
}

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
# Which name pools each style draws its players from, with weights.
STYLE_LANGS = {
    "tom": (("zh", 85), ("en", 15)),
    "fox": (("zh", 75), ("en", 15), ("ko", 5), ("ja", 5)),
    "ogs": (("en", 70), ("zh", 10), ("ja", 10), ("ko", 10)),
    "kgs": (("en", 80), ("ja", 10), ("ko", 10)),
    "big5": (("tw", 90), ("en", 10)),
    "sjis": (("ja", 100),),
    "euckr": (("ko", 90), ("en", 10)),
}
STYLE_WEIGHTS = {"tom": 40, "fox": 20, "ogs": 15, "kgs": 10, "big5": 5, "sjis": 5, "euckr": 5}
STYLE_LANG = {"tom": "zh", "fox": "zh", "ogs": "en", "kgs": "en", "big5": "tw", "sjis": "ja", "euckr": "ko"}
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
# The club's special cases: (black, white, FF4 result, slow, handicap, kind); kind "pair" is a two-game file.
CLUB_SPECIAL_GAMES = (
    ("牛蛙", "二黑", "0", True, 0, "game"),
    ("清风", "fish", "", False, 0, "game"),
    ("daigo", "阿扬", "Void", True, 0, "game"),
    ("凝兰", "阿扬", "W+R", True, 3, "game"),
    ("fish", "清风", "W+6.5", True, 0, "game"),
    ("清风", "daigo", "B+R", False, 0, "pair"),
    ("牛蛙", "fish", "B+R", True, 0, "broken"),
)
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


def player_pool(rng: random.Random) -> dict[str, list[tuple[str, str]]]:
    """~320 distinct players by name language (`zh tw ja ko en`): (name, canonical rank such as `3d`)."""
    sizes = {"zh": 120, "tw": 40, "ja": 50, "ko": 50, "en": 60}
    pool: dict[str, list[tuple[str, str]]] = {}
    for lang, size in sizes.items():
        names = dict.fromkeys(TRICKY_NAMES.get(lang, ()))
        while len(names) < size:
            names[_name(rng, lang)] = None
        pool[lang] = [(name, _rank(rng, lang)) for name in names]
    return pool


def _name(rng: random.Random, lang: str) -> str:
    if lang == "zh":
        given = "".join(rng.choice(ZH_GIVEN) for _ in range(rng.choice((1, 2, 2))))
        return rng.choice(ZH_NICKNAMES) if rng.random() < 0.1 else rng.choice(ZH_SURNAMES) + given
    if lang == "tw":
        return rng.choice(TW_SURNAMES) + rng.choice(TW_GIVEN) + rng.choice(TW_GIVEN)
    if lang == "ja":
        return rng.choice(JA_SURNAMES) + rng.choice(JA_GIVEN)
    if lang == "ko":
        return rng.choice(KO_SURNAMES) + rng.choice(KO_GIVEN)
    adjective, noun = rng.choice(EN_ADJECTIVES), rng.choice(EN_NOUNS)
    return rng.choice((f"{adjective}_{noun}", f"{adjective.title()}{noun.title()}{rng.randint(1, 99)}", noun))


def _rank(rng: random.Random, lang: str) -> str:
    if lang in ("ja", "ko") and rng.random() < 0.25:
        return f"{rng.randint(1, 9)}p"
    return f"{rng.randint(1, 7)}d" if rng.random() < 0.5 else f"{rng.randint(1, 20)}k"
