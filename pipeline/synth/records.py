"""One SGF game record as a server writes it, in seven styles (TOM, Fox, OGS, KGS, Big5, Shift_JIS, EUC-KR).

It writes bytes only: names, ranks, results, time settings and a plausible main line, in the style's wording,
layout and codec. It knows nothing of the pipeline's decoder, grammar, normaliser or ratings, nor of which
games a corpus or the club sample holds. Randomness comes only from the `random.Random` passed in.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pipeline.synth import styles as S
from pipeline.synth.moves import move_points as move_points
from pipeline.synth.names import COMMENTS, STYLE_LANG

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
    numeral = S.KANJI_NUMERALS[n] if n < len(S.KANJI_NUMERALS) else str(n)
    return S.RANK_FORMS[style][kind].format(n=n, j=numeral)


def render_result(rng: random.Random, style: str, result: str, moves: int) -> str | None:
    """The style's wording of an FF4 result (`B+R`, `W+6.5`, `B+T`, `W+F`, `0`, `Void`, `?`).

    An empty result gives None (no RE property); a result in any other form is written as given.
    """
    if not result:
        return None
    match = _WIN_RE.match(result)
    if match is None:
        text = S.OTHER_RESULTS[style].get(result, result)
    else:
        cause = match[2] if match[2] in "RTF" else "P"
        colour = S.COLOUR_WORDS.get(style, ("B", "W"))[match[1] == "W"]
        points = "" if cause != "P" else _margin(style, float(match[2]))
        text = S.WIN_FORMS[style][cause].format(c=colour, p=points)
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
    props = [f"{k}[{escape(v)}]" for k in S.ROOT_ORDER[style].split() if (v := values.get(k)) is not None]
    return S.ROOT_SEPARATORS[style].join(props) + ("AB" + "".join(f"[{p}]" for p in stones) if stones else "")


def _nodes(rng: random.Random, style: str, points: Sequence[str], first: int) -> str:
    """The main line: alternating B/W nodes from colour `first` (0 B, 1 W), rare comments in the file's
    language, a line break every 8-12 nodes (none in Fox files)."""
    comments, width = COMMENTS[STYLE_LANG[style]], rng.choice((8, 10, 10, 12))
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
    points: Sequence[str] | None = None,
) -> bytes:
    """One game tree's bytes in the server `style` (one of STYLES), encoded strictly with CODECS[style].

    Names, ranks, event and round are written as given (escaped); `result` is an FF4 result rendered in the
    style's words (see render_result; "" leaves RE out); `date` is ISO `YYYY-MM-DD` ("" leaves DT/RD out);
    `moves` distinct points follow, W first when `handicap` >= 2 (AB stones in the root). Game type 4 (Gomoku)
    uses a 15x15 board. `points` gives the main line instead (the scale corpus reuses a bank of lines).
    Raises UnicodeEncodeError when a name does not exist in the style's codec, KeyError for an unknown style.
    """
    size = 15 if game_type == 4 else 19
    stones = _handicap_stones(handicap, size)
    values = _info_values(style, game_type, size, event, round_, date) | {
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
    values |= S.FIXED_ROOT[style] | _style_values(rng, style, komi, handicap, event)
    root = _root(style, values, stones)
    points = move_points(rng, moves, size, stones) if points is None else points
    main_line = _nodes(rng, style, points, 1 if stones else 0)
    return _layout(style, root, main_line).encode(CODECS[style], errors="strict")


def _handicap_stones(handicap: int, size: int) -> list[str]:
    """The AB points of `handicap` stones on a 19x19 board (none below 2 or on another size)."""
    order = S.HANDICAP_ORDER.get(min(handicap, 9), "") if size == 19 else ""
    return [S.HANDICAP_POINTS[int(i)] for i in order]


def _info_values(
    style: str, game_type: int, size: int, event: str | None, round_: str | None, date: str
) -> dict[str, str | None]:
    """The game-type, board, event and date root values (None: left out); TOM omits GM for Go.

    `date` "" leaves DT and RD out; RD is the date without leading zeros (`2024-5-12`), as TOM writes it.
    """
    ymd = re.fullmatch(r"(\d{4})-0?(\d{1,2})-0?(\d{1,2})", date)
    return {
        "GM": str(game_type) if style != "tom" or game_type != 1 else None,
        "SZ": str(size),
        "EV": event,
        "TE": event,
        "GN": event,
        "RO": round_,
        "DT": date or None,
        "RD": ("-".join(ymd.groups()) if ymd else date) or None,
    }


def _layout(style: str, root: str, main_line: str) -> str:
    """The game tree's text: TOM's implicit root before the first ';', a line break after the root in the
    styles that write one, CRLF line ends in TOM and Big5 files."""
    text = f"({root}" if style == "tom" else f"(;{root}"
    text += "\n" if style in ("ogs", "kgs", "sjis") else ""
    text += main_line + ")\n"
    return text.replace("\n", "\r\n") if style in ("tom", "big5") else text


def truncate(rng: random.Random, data: bytes) -> bytes:
    """`data` cut inside a move's value (`;B[p`) in its second half, as a crashed save leaves a file."""
    cuts = [m.start() + 4 for m in re.finditer(rb";[BW]\[[a-s]", data) if m.start() > len(data) // 2]
    return data[: rng.choice(cuts)] if cuts else data[: data.rfind(b"[") + 1]


def write_records(records: Iterable[Record], out_dir: Path) -> int:
    """Write each record at out_dir/relpath (creating folders, replacing files); return the count written."""
    count = 0
    for record in records:
        path = out_dir / record.relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(record.data)
        count += 1
    return count
