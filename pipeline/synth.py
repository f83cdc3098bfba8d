"""Deterministic generator of realistic SGF game records: the shipped sample and benchmark corpora.

It writes bytes only. It knows nothing of the pipeline's decoder, grammar, normaliser or ratings, and it never
reads or copies the corpora: every record is built from code and the tables in `pipeline.synth_names`.
Randomness comes only from an explicit `random.Random`, so one seed always gives the same bytes.

Usage: `python -m pipeline.synth sample DIR` or `python -m pipeline.synth corpus DIR --n 20000 [--seed 1]`.
"""

from __future__ import annotations

import argparse
import calendar
import random
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from pipeline import synth_names as T

STYLES = ("tom", "fox", "ogs", "kgs", "big5", "sjis", "euckr")
CODECS = {
    "tom": "gb18030",
    "fox": "utf-8",
    "ogs": "utf-8",
    "kgs": "utf-8",
    "big5": "big5",
    "sjis": "shift_jis",
    "euckr": "euc-kr",
}
_WIN_RE = re.compile(r"([BW])\+(R|T|F|\d+(?:\.\d+)?)\Z")
_QUARTERS = ("", "1/4", "1/2", "3/4")
# Cumulative share, cause (R T F, P points, X other), move range: 20% short resignations, most 150-300.
_OUTCOMES = (
    (0.2, "R", 50, 120),
    (0.55, "R", 150, 300),
    (0.85, "P", 180, 310),
    (0.95, "T", 150, 300),
    (0.96, "F", 0, 1),
    (1.1, "X", 150, 300),
)
_Spec = tuple[str, str, str, bool, str, int, str]  # black, white, FF4 result, slow, style, handicap, kind
# Offsets to a recent move: those within two lines twice as likely as the farther ones (up to 3 lines).
_OFFSETS = tuple(
    (dx, dy)
    for dx in range(-3, 4)
    for dy in range(-3, 4)
    for near in (0, 1)
    if 0 < abs(dx) + abs(dy) <= 4 and (near == 0 or max(abs(dx), abs(dy)) <= 2)
)


@dataclass(frozen=True, slots=True)
class Record:
    """One generated file: where to write it (relative, '/'-separated) and its bytes."""

    relpath: str
    data: bytes


def escape(text: str) -> str:
    """SGF text escaping: a backslash before every `\\` and `]` of the *text* (done before encoding)."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


def render_rank(style: str, rank: str) -> str:
    """The style's wording of a canonical rank `3d`, `12k`, `9p` (e.g. `3段`, `12级`, `P9`, `三段`, `3단`)."""
    n, kind = int(rank[:-1]), rank[-1]
    numeral = T.KANJI_NUMERALS[n] if n < len(T.KANJI_NUMERALS) else str(n)
    return T.RANK_FORMS[style][kind].format(n=n, j=numeral)


def render_result(rng: random.Random, style: str, result: str, moves: int) -> str | None:
    """The style's wording of an FF4 result (`B+R`, `W+6.5`, `B+T`, `W+F`, `0`, `Void`, `?`).

    An empty result gives None (no RE property); a result in any other form is written as given.
    """
    if not result:
        return None
    match = _WIN_RE.match(result)
    if match is None:
        text = T.OTHER_RESULTS[style].get(result, result)
    else:
        cause = match[2] if match[2] in "RTF" else "P"
        colour = T.COLOUR_WORDS.get(style, ("B", "W"))[match[1] == "W"]
        points = "" if cause != "P" else _margin(style, float(match[2]))
        text = T.WIN_FORMS[style][cause].format(c=colour, p=points)
    if style == "tom" and rng.random() < 0.3:
        text = f"共{moves}手 {text}"
    return text


def _margin(style: str, points: float) -> str:
    """A winning margin in points as the style writes it: 子 (Chinese counting: 2 points), 目, 집, 3.5."""
    if style == "tom":
        whole, quarter = divmod(round(points * 2), 4)
        joint = "又" if whole and quarter else ""
        return f"{whole if whole or not quarter else ''}{joint}{_QUARTERS[quarter]}子"
    whole, half = int(points), points - int(points) >= 0.5
    if style in ("big5", "sjis"):
        return f"{whole}目半" if whole and half else ("半目" if half else f"{whole}目")
    if style == "euckr":
        return f"{whole}집반" if whole and half else ("반집" if half else f"{whole}집")
    return f"{points:g}"


def _point(x: int, y: int) -> str:
    """SGF coordinates of column x, row y (0-based): `(15, 3)` -> `'pd'`."""
    return chr(97 + x) + chr(97 + y)


def _candidate(rng: random.Random, played: Sequence[tuple[int, int]], size: int) -> tuple[int, int] | None:
    """A plausible next point, or None (rejected: try again): a corner or side point early and for a rare
    tenuki, else a point near one of the last three moves; first-line points are rare."""
    if len(played) < 4 or rng.random() < 0.08:
        a, b = rng.choice((3, 3, 3, 2, 4, 5)), rng.choice((3, 3, 2, 4, 2, size // 2))
        a, b = (b, a) if rng.random() < 0.5 else (a, b)
        return (a if rng.random() < 0.5 else size - 1 - a), (b if rng.random() < 0.5 else size - 1 - b)
    bx, by = played[-rng.randint(1, min(3, len(played)))]
    dx, dy = rng.choice(_OFFSETS)
    x, y = bx + dx, by + dy
    line = min(x, y, size - 1 - x, size - 1 - y)
    return (x, y) if line > 0 or (line == 0 and rng.random() < 0.15) else None


def _free_point(rng: random.Random, occupied: set[tuple[int, int]], size: int) -> tuple[int, int]:
    """The first free point from a random start (callers never ask on a full board)."""
    start = rng.randrange(size * size)
    for k in range(size * size):
        p = divmod((start + k) % (size * size), size)
        if p not in occupied:
            return p
    raise ValueError("board full")


def move_points(rng: random.Random, count: int, size: int = 19, taken: Iterable[str] = ()) -> list[str]:
    """`count` distinct plausible points (`'pd'` form) avoiding `taken`; fewer only if the board fills up."""
    occupied = {(ord(p[0]) - 97, ord(p[1]) - 97) for p in taken}
    played: list[tuple[int, int]] = []
    for _ in range(min(count, size * size - len(occupied))):
        tries = (_candidate(rng, played, size) for _ in range(12))
        p = next((c for c in tries if c is not None and c not in occupied), None)
        p = p or _free_point(rng, occupied, size)
        occupied.add(p)
        played.append(p)
    return [_point(x, y) for x, y in played]


def _style_values(
    rng: random.Random, style: str, komi: float, handicap: int, event: str | None
) -> dict[str, str]:
    """The game-dependent root values a style writes its own way (over the common FF4 ones)."""
    if style == "fox":
        ca = {"CA": "UTF-8"} if rng.random() < 0.4 else {}
        tt = rng.choice(("20", "30", "60"))
        return ca | {"GN": event or "", "HA": str(handicap), "KM": str(round(komi * 100)), "TT": tt}
    if style == "ogs":
        game = rng.randint(10**7, 7 * 10**7)
        return {"PC": f"OGS: https://online-go.com/game/{game}", "GN": event or "Friendly Match"}
    if style == "kgs":
        return {"KM": f"{komi:.2f}", "OT": f"{rng.choice((3, 5))}x30 byo-yomi"}
    return {"LT": rng.choice(("30", "60")), "LC": rng.choice(("3", "5"))} if style == "tom" else {}


def _sjis_time(rng: random.Random, seconds: int) -> str:
    """Main time as Japanese records write it: `5時間`, `90分` or plain seconds."""
    if seconds and seconds % 3600 == 0 and rng.random() < 0.6:
        return f"{seconds // 3600}時間"
    return f"{seconds // 60}分" if seconds and seconds % 60 == 0 and rng.random() < 0.3 else str(seconds)


def _root(style: str, values: dict[str, str | None], stones: Sequence[str]) -> str:
    """The root node's text: properties in the style's order and layout (None left out), then AB stones."""
    props = [f"{k}[{escape(v)}]" for k in T.ROOT_ORDER[style].split() if (v := values.get(k)) is not None]
    return T.ROOT_SEPARATORS[style].join(props) + ("AB" + "".join(f"[{p}]" for p in stones) if stones else "")


def _nodes(rng: random.Random, style: str, points: Sequence[str], first: int) -> str:
    """The main line: alternating B/W nodes from colour `first` (0 B, 1 W), rare comments in the file's
    language, a line break every 8-12 nodes (none in Fox files)."""
    comments, width = T.COMMENTS[T.STYLE_LANG[style]], rng.choice((8, 10, 10, 12))
    out: list[str] = []
    for i, point in enumerate(points, start=1):
        comment = f"C[{escape(rng.choice(comments))}]" if rng.random() < 0.03 else ""
        out.append(f";{'WB'[(i + first) % 2]}[{point}]{comment}")
        if i % width == 0 and style != "fox":
            out.append("\n")
    return "".join(out)


def game_record(
    rng: random.Random,
    *,
    style: str,
    black: str,
    white: str,
    black_rank: str,
    white_rank: str,
    result: str,
    date: str,
    main_time_s: int,
    moves: int,
    komi: float = 7.5,
    handicap: int = 0,
    event: str | None = None,
    round_: str | None = None,
    game_type: int = 1,
) -> bytes:
    """One game tree's bytes in the server `style` (one of STYLES), encoded strictly with CODECS[style].

    Names, ranks, event and round are written as given (escaped); `result` is an FF4 result rendered in the
    style's words (see render_result; "" leaves RE out); `date` is ISO `YYYY-MM-DD`; `moves` distinct points
    follow, W first when `handicap` >= 2 (AB stones in the root). Game type 4 (Gomoku) uses a 15x15 board.
    Raises UnicodeEncodeError when a name does not exist in the style's codec, KeyError for an unknown style.
    """
    size = 15 if game_type == 4 else 19
    order = T.HANDICAP_ORDER.get(min(handicap, 9), "") if size == 19 else ""
    stones = [T.HANDICAP_POINTS[int(i)] for i in order]
    ymd = re.fullmatch(r"(\d{4})-0?(\d{1,2})-0?(\d{1,2})", date)
    values: dict[str, str | None] = {
        "GM": str(game_type) if style != "tom" or game_type != 1 else None,
        "SZ": str(size),
        "EV": event,
        "TE": event,
        "GN": event,
        "RO": round_,
        "DT": date,
        "RD": "-".join(ymd.groups()) if ymd else date,
        "PB": black,
        "PW": white,
        "BR": black_rank,
        "WR": white_rank,
        "KM": f"{komi:g}",
        "KO": f"{komi:g}",
        "HA": str(handicap) if handicap >= 2 else None,
        "RE": render_result(rng, style, result, moves),
        "TM": _sjis_time(rng, main_time_s) if style == "sjis" else str(main_time_s),
    }
    values |= T.FIXED_ROOT[style] | _style_values(rng, style, komi, handicap, event)
    text = f"({_root(style, values, stones)}" if style == "tom" else f"(;{_root(style, values, stones)}"
    text += "\n" if style in ("ogs", "kgs", "sjis") else ""
    text += _nodes(rng, style, move_points(rng, moves, size, stones), 1 if stones else 0) + ")\n"
    text = text.replace("\n", "\r\n") if style in ("tom", "big5") else text
    return text.encode(CODECS[style], errors="strict")


def truncate(rng: random.Random, data: bytes) -> bytes:
    """`data` cut inside a move's value (`;B[p`) in its second half, as a crashed save leaves a file."""
    cuts = [m.start() + 4 for m in re.finditer(rb";[BW]\[[a-s]", data) if m.start() > len(data) // 2]
    return data[: rng.choice(cuts)] if cuts else data[: data.rfind(b"[") + 1]


def _outcome(rng: random.Random) -> tuple[str, int]:
    """A random FF4 result (`B+R`, `W+6.5`, `B+T`, `W+F`, `0`, `Void`, `?`, ``) and a main-line length."""
    colour, roll = rng.choice("BW"), rng.random()
    cause, low, high = next(row[1:] for row in _OUTCOMES if roll < row[0])
    result = {"P": f"{colour}+{rng.randint(0, 20) + 0.5}", "X": rng.choice(("0", "Void", "?", ""))}.get(cause)
    return result or f"{colour}+{cause}", rng.randint(low, high)


def _corpus_game(rng: random.Random, pool: dict[str, list[tuple[str, str]]], style: str, month: int) -> bytes:
    """One random game of `style` in `month` of 2024 between two players of the style's name pools."""
    langs, weights = zip(*T.STYLE_LANGS[style], strict=True)
    (black, black_rank), (white, white_rank) = rng.sample(pool[rng.choices(langs, weights)[0]], 2)
    result, moves = _outcome(rng)
    handicap = rng.choice((2, 3, 4, 5, 6, 9)) if rng.random() < 0.05 else 0
    lang = T.STYLE_LANG[style]
    event = rng.choice(T.EVENTS[lang]) if rng.random() < 0.15 else None
    round_ = T.ROUNDS[lang].format(n=rng.randint(1, 7)) if event and rng.random() < 0.6 else None
    unsure = "?" if style == "kgs" and rng.random() < 0.15 else ""
    return game_record(
        rng,
        style=style,
        black=black,
        white=white,
        black_rank=render_rank(style, black_rank) + unsure,
        white_rank=render_rank(style, white_rank),
        result=result,
        moves=moves,
        date=f"2024-{month:02d}-{rng.randint(1, calendar.monthrange(2024, month)[1]):02d}",
        main_time_s=rng.choice((300, 600, 900, 1200, 1800, 2400, 3600, 7200, 18000)),
        komi=0.5 if handicap else (7.5 if style in ("tom", "fox", "big5") else 6.5),
        handicap=handicap,
        event=event,
        round_=round_,
    )


def synthetic_corpus(n: int, seed: int = 1) -> Iterator[Record]:
    """`n` records over the 12 months of 2024 (`2024-MM/<style>_<i>.sgf`, unique), styles mixed by
    STYLE_WEIGHTS; about 1% are collections of 2-3 games and 0.5% are truncated."""
    rng = random.Random(seed)
    pool = T.player_pool(rng)
    styles, weights = list(T.STYLE_WEIGHTS), list(T.STYLE_WEIGHTS.values())
    for i in range(n):
        style, month = rng.choices(styles, weights)[0], rng.randint(1, 12)
        count = rng.randint(2, 3) if rng.random() < 0.01 else 1
        data = b"".join(_corpus_game(rng, pool, style, month) for _ in range(count))
        data = truncate(rng, data) if rng.random() < 0.005 else data
        yield Record(f"2024-{month:02d}/{style}_{i:06d}.sgf", data)


def _club_specs(rng: random.Random) -> list[tuple[int, _Spec]]:
    """The month's games by day: 羽焰's seed-001 worked example, each special case, random others."""
    specs: list[_Spec] = []
    for k, (opponent, won, slow) in enumerate(T.GOLDEN_GAMES):
        black, white = ("羽焰", opponent) if k % 2 == 0 else (opponent, "羽焰")
        colour = "B" if won == (k % 2 == 0) else "W"
        specs.append((black, white, f"{colour}+{'R' if k % 3 == 0 else '3.5'}", slow, "tom", 0, "game"))
    specs += [(b, w, result, slow, "tom", ha, kind) for b, w, result, slow, ha, kind in T.CLUB_SPECIAL_GAMES]
    others = [name for name in T.CLUB_MEMBERS if name != "羽焰"]
    for k in range(18):
        black, white = rng.sample(others, 2)
        result = f"{rng.choice('BW')}+{rng.choice(('R', 'R', 'T', f'{rng.randint(0, 5)}.5'))}"
        specs.append((black, white, result, rng.random() < 0.6, "fox" if k % 4 == 1 else "tom", 0, "game"))
    return sorted(((rng.randint(1, 31), spec) for spec in specs), key=lambda pair: pair[0])


def _club_bytes(rng: random.Random, day: int, spec: _Spec) -> bytes:
    """One club game of May 2024: slow games 30-60 minutes, fast 10-20; resignations shorter."""
    black, white, result, slow, style, handicap, _ = spec
    return game_record(
        rng,
        style=style,
        black=black,
        white=white,
        black_rank=render_rank(style, T.CLUB_MEMBERS[black]),
        white_rank=render_rank(style, T.CLUB_MEMBERS[white]),
        result=result,
        date=f"2024-05-{day:02d}",
        main_time_s=rng.choice((1800, 2400, 3600) if slow else (600, 900, 1200)),
        moves=rng.randint(60, 140) if result.endswith("R") else rng.randint(180, 300),
        komi=0.5 if handicap else 7.5,
        handicap=handicap,
    )


def club_sample(seed: int = 2024) -> list[Record]:
    """A club's May 2024 under `2024-05/`: 34 game files (mostly TOM/GBK, some Fox/UTF-8; one holds two
    games, one is truncated), an empty `.sgf` file and `notes.txt`. 羽焰's games are seed 001's example."""
    rng = random.Random(seed)
    records = []
    for k, (day, spec) in enumerate(_club_specs(rng), start=1):
        data = _club_bytes(rng, day, spec)
        if spec[6] == "pair":
            data += _club_bytes(rng, day, (spec[1], spec[0], "W+R", *spec[3:]))
        data = truncate(rng, data) if spec[6] == "broken" else data
        records.append(Record(f"2024-05/{spec[4]}_{k:04d}.sgf", data))
    records.append(Record(f"2024-05/tom_{len(records) + 1:04d}.sgf", b""))
    return [*records, Record("2024-05/notes.txt", T.CLUB_NOTES.encode("utf-8"))]


def write_records(records: Iterable[Record], out_dir: Path) -> int:
    """Write each record at out_dir/relpath (creating folders, replacing files); return the count written."""
    count = 0
    for record in records:
        path = out_dir / record.relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(record.data)
        count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    """Developer entry point: `sample DIR` or `corpus DIR [--n N] [--seed S]`; returns the exit status 0."""
    parser = argparse.ArgumentParser(prog="python -m pipeline.synth", description="Write synthetic SGF.")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("sample", help="the club's sample month").add_argument("out_dir", type=Path)
    corpus = commands.add_parser("corpus", help="a large mixed corpus for benchmarks")
    corpus.add_argument("out_dir", type=Path)
    corpus.add_argument("--n", type=int, default=20000)
    corpus.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    records = club_sample() if args.command == "sample" else synthetic_corpus(args.n, args.seed)
    print(f"wrote {write_records(records, args.out_dir)} files to {args.out_dir}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
