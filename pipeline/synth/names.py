"""Name tables for `pipeline.synth`: player names by language, events, rounds and comments, which name pools
each style draws from, and the pool of players built from them.

Every string here is encodable in the codec of the styles that use it (checked by tests/test_synth.py):
simplified Chinese in GB18030, traditional Chinese in Big5, Japanese in Shift_JIS, Korean in EUC-KR.
Some entries carry a second byte of 0x5C (``\\``) or 0x5D (``]``) in their legacy codec on purpose
(Big5 許 珮 孫, Shift_JIS 曾 圭 能 江 予): real servers write those bytes unescaped.
It knows nothing of SGF syntax, encodings or the club sample (see `pipeline.synth.club`).
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
