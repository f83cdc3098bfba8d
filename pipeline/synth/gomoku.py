"""The sample's Gomoku records: a year (2024) of the Taiwan Gomoku Association's events, `GM[4]` on 15x15.

Five events, one file per game at `2024-MM/<event>_r<round>_b<board>.sgf` (`data/gomoku/raw`, a folder of
its own, apart from the Go club's `data/raw`): the TGA's own events
typed by its tournament directors (Big5, `CA[Big5]`, CRLF, results `黑勝`/`白勝`/`和局`, ranks `初段`, `3段`,
`12級`) and an international open saved by a tournament server (UTF-8, `CA[UTF-8]`, results `B+`/`W+`,
ranks `3d`, a foreign guest of unknown rank, one Taiwanese player written in romanisation). Every game
is scripted (`EVENTS`); only the moves are random: a walk from the centre in which the winner's last
move completes a five and no earlier move makes one. It knows nothing of the pipeline's reading of the
records nor of the promotions they give (docs/sample.md, "Gomoku", works those out by hand;
config/examples/tga-events.toml and tga-roster.toml describe the same events and people).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pipeline.synth.records import Record, escape

SIZE = 15
_CENTRE = (7, 7)
_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
#: Ranks at the start of 2024 (the TGA's register); "Martin Novak" has none (an international guest).
RANKS = {
    "陳志明": "2d",
    "黃建宏": "3d",
    "張雅婷": "2d",
    "王國華": "4d",
    "李宗翰": "5d",
    "吳怡君": "2d",
    "林俊傑": "3d",
    "蔡承恩": "2d",
    "劉家豪": "1d",
    "楊美玲": "1d",
    "鄭冠宇": "1d",
    "周柏宇": "1k",
    "賴淑芬": "2k",
    "洪文雄": "3k",
    "曾柏翰": "3k",
    "邱怡婷": "4k",
    "廖志豪": "5k",
    "江美君": "6k",
    "何俊宏": "6k",
    "蕭文傑": "7k",
    "羅雅芬": "8k",
    "高承翰": "9k",
    "蘇宇恩": "10k",
    "葉柏宇": "13k",
    "莊美玲": "15k",
    "呂文華": "12k",
    "徐俊豪": "11k",
    "周雅君": "16k",
    "林承宇": "18k",
}
_RESULTS = {
    "tga": {"B": "黑勝", "W": "白勝", "0": "和局"},
    "server": {"B": "B+", "W": "W+", "0": "Draw"},
}

Bout = tuple[str, str, str]  # black, white, winner: "B", "W" or "0" (a draw)


@dataclass(frozen=True, slots=True)
class Event:
    """One event as its records write it: the file-name `key`, `EV` text, the date of each round, the
    `style` ("tga" Big5 or "server" UTF-8), the main time, the games of each round, ranks written
    differently from `RANKS` (promotions earlier in the year) and names spelled differently."""

    key: str
    ev: str
    days: tuple[str, ...]
    style: str
    main_time_s: int
    rounds: tuple[tuple[Bout, ...], ...]
    ranks: Mapping[str, str] = field(default_factory=dict)
    spelled: Mapping[str, str] = field(default_factory=dict)


# March: the national open (recognised). 陳志明 (2d) beats 3d, 2d, 4d, loses to the 5d, draws a 2d.
NATIONAL_OPEN = Event(
    "national_open",
    "2024全國五子棋公開賽",
    ("2024-03-09",) * 3 + ("2024-03-10",) * 2,
    "tga",
    1800,
    (
        (("陳志明", "黃建宏", "B"), ("李宗翰", "王國華", "B")),
        (("張雅婷", "陳志明", "W"), ("吳怡君", "黃建宏", "W")),
        (("陳志明", "王國華", "B"), ("李宗翰", "張雅婷", "B")),
        (("李宗翰", "陳志明", "B"),),
        (("陳志明", "吳怡君", "0"),),
    ),
)
# April: the promotion tournament (晉段賽), 12 kyu players, five Swiss rounds.
PROMOTION = Event(
    "promotion",
    "2024年第一次晉段賽",
    ("2024-04-13",) * 3 + ("2024-04-14",) * 2,
    "tga",
    1200,
    (
        (
            ("周柏宇", "江美君", "B"),
            ("賴淑芬", "何俊宏", "B"),
            ("洪文雄", "蕭文傑", "B"),
            ("曾柏翰", "羅雅芬", "B"),
            ("邱怡婷", "高承翰", "W"),
            ("廖志豪", "蘇宇恩", "B"),
        ),
        (
            ("曾柏翰", "周柏宇", "W"),
            ("高承翰", "賴淑芬", "W"),
            ("廖志豪", "洪文雄", "W"),
            ("江美君", "邱怡婷", "W"),
            ("何俊宏", "蕭文傑", "W"),
            ("蘇宇恩", "羅雅芬", "W"),
        ),
        (
            ("周柏宇", "賴淑芬", "B"),
            ("洪文雄", "曾柏翰", "B"),
            ("高承翰", "廖志豪", "B"),
            ("邱怡婷", "蕭文傑", "B"),
            ("羅雅芬", "江美君", "W"),
            ("蘇宇恩", "何俊宏", "W"),
        ),
        (
            ("洪文雄", "周柏宇", "W"),
            ("賴淑芬", "邱怡婷", "B"),
            ("曾柏翰", "高承翰", "W"),
            ("廖志豪", "蕭文傑", "B"),
            ("何俊宏", "羅雅芬", "W"),
            ("江美君", "蘇宇恩", "W"),
        ),
        (
            ("周柏宇", "高承翰", "B"),
            ("賴淑芬", "廖志豪", "B"),
            ("羅雅芬", "洪文雄", "W"),
            ("邱怡婷", "曾柏翰", "B"),
            ("蕭文傑", "蘇宇恩", "B"),
            ("江美君", "何俊宏", "W"),
        ),
    ),
)
# May: an international open (recognised), from the tournament server. 林俊傑 (3d) beats three 1d and
# loses twice; the guest Martin Novak (rank unknown) beats a 4d and a 3d and loses to 蔡承恩 (2d).
TAIPEI_OPEN = Event(
    "taipei_open",
    "2024 Taipei International Gomoku Open",
    ("2024-05-18",) * 3 + ("2024-05-19",) * 2,
    "server",
    1500,
    (
        (("林俊傑", "劉家豪", "B"), ("蔡承恩", "楊美玲", "B"), ("Martin Novak", "王國華", "B")),
        (("楊美玲", "林俊傑", "W"), ("劉家豪", "蔡承恩", "W")),
        (("Martin Novak", "林俊傑", "B"), ("鄭冠宇", "蔡承恩", "W")),
        (("王國華", "林俊傑", "B"), ("蔡承恩", "Martin Novak", "B")),
        (("林俊傑", "鄭冠宇", "B"), ("王國華", "蔡承恩", "B")),
    ),
    spelled={"林俊傑": "LIN Chun-Chieh"},
)
# July: the youth championship's standard-rules group A (kyu awards), six players, a round robin.
YOUTH = Event(
    "youth_standard_a",
    "2024全國青少年五子棋錦標賽 普規甲組",
    ("2024-07-20",) * 5,
    "tga",
    900,
    (
        (("葉柏宇", "林承宇", "B"), ("莊美玲", "周雅君", "B"), ("呂文華", "徐俊豪", "B")),
        (("林承宇", "徐俊豪", "W"), ("周雅君", "呂文華", "W"), ("葉柏宇", "莊美玲", "B")),
        (("莊美玲", "林承宇", "B"), ("呂文華", "葉柏宇", "W"), ("徐俊豪", "周雅君", "B")),
        (("林承宇", "周雅君", "W"), ("葉柏宇", "徐俊豪", "0"), ("莊美玲", "呂文華", "B")),
        (("呂文華", "林承宇", "B"), ("徐俊豪", "莊美玲", "W"), ("周雅君", "葉柏宇", "W")),
    ),
)
# August: the low-dan event (初二三段), six players, a round robin; April's two new 1d and May's new 3d
# play at their new ranks.
LOW_DAN = Event(
    "low_dan",
    "2024低段組五子棋賽",
    ("2024-08-10",) * 3 + ("2024-08-11",) * 2,
    "tga",
    1800,
    (
        (("周柏宇", "蔡承恩", "W"), ("賴淑芬", "林俊傑", "W"), ("張雅婷", "吳怡君", "0")),
        (("蔡承恩", "吳怡君", "0"), ("林俊傑", "張雅婷", "B"), ("周柏宇", "賴淑芬", "B")),
        (("賴淑芬", "蔡承恩", "W"), ("張雅婷", "周柏宇", "B"), ("吳怡君", "林俊傑", "W")),
        (("蔡承恩", "林俊傑", "B"), ("周柏宇", "吳怡君", "W"), ("賴淑芬", "張雅婷", "B")),
        (("張雅婷", "蔡承恩", "B"), ("吳怡君", "賴淑芬", "B"), ("林俊傑", "周柏宇", "B")),
    ),
    ranks={"周柏宇": "1d", "賴淑芬": "1d", "蔡承恩": "3d"},
)
EVENTS = (NATIONAL_OPEN, PROMOTION, TAIPEI_OPEN, YOUTH, LOW_DAN)


def gomoku_sample(seed: int = 2024) -> list[Record]:
    """The Gomoku records of `EVENTS` (what `data/gomoku/raw` holds), sorted by path:
    `2024-MM/<key>_r<round>_b<board>.sgf`."""
    rng = random.Random(seed)
    records = [
        Record(f"{event.days[r][:7]}/{event.key}_r{r + 1}_b{b + 1}.sgf", _game_bytes(rng, event, r, bout))
        for event in EVENTS
        for r, games in enumerate(event.rounds)
        for b, bout in enumerate(games)
    ]
    return sorted(records, key=lambda record: record.relpath)


def render_rank(style: str, rank: str) -> str:
    """A canonical rank (`1d`, `12k`) as the style writes it: `初段`, `3段`, `12級` or `3d`, `12k`."""
    if style == "server":
        return rank
    n = int(rank[:-1])
    return ("初段" if n == 1 else f"{n}段") if rank.endswith("d") else f"{n}級"


def _game_bytes(rng: random.Random, event: Event, round_: int, bout: Bout) -> bytes:
    """One game's file: the root node in the event's style, then the moves; Big5 files use CRLF."""
    black, white, winner = bout
    count = rng.randint(90, 120) if winner == "0" else 2 * rng.randint(10, 30) + (winner == "B")
    moves = gomoku_moves(rng, count, None if winner == "0" else winner)
    props = _root(event, round_, black, white, winner)
    root = "".join(f"{key}[{escape(value)}]" for key, value in props if value is not None)
    body = "".join(
        f";{'BW'[i % 2]}[{point}]" + ("\n" if i % 10 == 9 else "") for i, point in enumerate(moves)
    )
    text = f"(;{root}\n{body})\n"
    if event.style == "server":
        return text.encode("utf-8")
    return text.replace("\n", "\r\n").encode("big5", errors="strict")


def _root(event: Event, round_: int, black: str, white: str, winner: str) -> list[tuple[str, str | None]]:
    """The root properties in the style's order (None: left out, e.g. the rank of an unranked guest)."""
    style = event.style
    rank = {name: render_rank(style, r) for name, r in (RANKS | dict(event.ranks)).items()}
    head = [("GM", "4"), ("FF", "4"), ("CA", "Big5" if style == "tga" else "UTF-8"), ("SZ", str(SIZE))]
    where = ("PC", "台灣五子棋協會" if style == "tga" else "Taipei")
    info = [
        ("EV", event.ev),
        ("RO", f"第{round_ + 1}輪" if style == "tga" else f"Round {round_ + 1}"),
        ("DT", event.days[round_]),
        where,
    ]
    players = [
        ("PB", event.spelled.get(black, black)),
        ("BR", rank.get(black)),
        ("PW", event.spelled.get(white, white)),
        ("WR", rank.get(white)),
    ]
    return [*head, *info, *players, ("RE", _RESULTS[style][winner]), ("TM", str(event.main_time_s))]


def gomoku_moves(rng: random.Random, count: int, winner: str | None) -> list[str]:
    """`count` distinct points (`'hh'` form), Black first at the centre, each move near one of the last
    three. With `winner` "B" or "W" (whose turn the last move must be) that last move completes a five
    whose other four stones the winner placed earlier; otherwise (a draw) nobody makes five.

    Raises ValueError if `count` does not fit: under 11 moves for a win, or a win on the wrong turn.
    """
    if winner is not None and (count < 11 or "BW"[(count - 1) % 2] != winner):
        raise ValueError(f"{count} moves cannot end in a win by {winner}")
    while True:
        points = _attempt(rng, count, winner)
        if points is not None:
            return [chr(97 + x) + chr(97 + y) for x, y in points]


def _attempt(rng: random.Random, count: int, winner: str | None) -> list[tuple[int, int]] | None:
    """One try of :func:`gomoku_moves`; None when a five appears where it should not."""
    reserved: dict[int, tuple[int, int]] = {}
    if winner is not None:
        line = _line(rng)
        turns = [i for i in range(1, count - 1) if "BW"[i % 2] == winner]
        for i, point in zip([*rng.sample(turns, 4), count - 1], line, strict=True):
            reserved[i] = point
    taken = set(reserved.values())
    played: list[tuple[int, int]] = []
    for i in range(count):
        point = _CENTRE if i == 0 else reserved.get(i) or _near(rng, played, taken)
        played.append(point)
        taken.add(point)
    last = len(played) - 1 if winner is not None else len(played)
    for colour in (0, 1):
        if _has_five({p for i, p in enumerate(played[:last]) if i % 2 == colour}):
            return None
    return played


def _line(rng: random.Random) -> list[tuple[int, int]]:
    """Five points in a row within two lines of the board's edge, avoiding the centre, shuffled."""
    while True:
        dx, dy = rng.choice(_DIRECTIONS)
        x, y = rng.randint(2, SIZE - 3), rng.randint(2, SIZE - 3)
        line = [(x + k * dx, y + k * dy) for k in range(5)]
        if all(2 <= a < SIZE - 2 and 2 <= b < SIZE - 2 for a, b in line) and _CENTRE not in line:
            rng.shuffle(line)
            return line


def _near(
    rng: random.Random, played: Sequence[tuple[int, int]], taken: set[tuple[int, int]]
) -> tuple[int, int]:
    """A free point within two lines of one of the last three moves (any free point if none is)."""
    for _ in range(40):
        bx, by = played[-rng.randint(1, min(3, len(played)))]
        x, y = bx + rng.randint(-2, 2), by + rng.randint(-2, 2)
        if 0 <= x < SIZE and 0 <= y < SIZE and (x, y) not in taken:
            return x, y
    free = [(x, y) for x in range(SIZE) for y in range(SIZE) if (x, y) not in taken]
    return rng.choice(free)


def _has_five(stones: set[tuple[int, int]]) -> bool:
    """True if five of `stones` stand in a row (across, down or diagonally)."""
    return any(
        all((x + k * dx, y + k * dy) in stones for k in range(5)) for x, y in stones for dx, dy in _DIRECTIONS
    )
