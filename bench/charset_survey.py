"""Charset survey: how often each detector names the right codec for short records without CA.

Records are the project's synthetic ones (pipeline.synth, every East-Asian style) with their CA removed,
cut to the header and the first moves, as short club records are; plus the corpora's fixtures whose CA
names their encoding. Compares pipeline.core.charset.detect with charset-normalizer on its own.
"""

from __future__ import annotations

import argparse
import random
import re
from collections import Counter
from pathlib import Path

from charset_normalizer import from_bytes

from pipeline.core.charset import detect
from pipeline.ingest.decode import codec_for
from pipeline.synth import CODECS, game_record, player_pool, render_rank

_CA = re.compile(rb"CA\[[^\]]*\]")
_STYLE_LANG = {"tom": "zh", "big5": "tw", "sjis": "ja", "euckr": "ko"}
# Codecs that read the same bytes identically for these records count as right.
_SAME = {
    "gb18030": {"gb18030", "gbk", "gb2312"},
    "big5": {"big5", "cp950", "big5hkscs"},
    "shift_jis": {"shift_jis", "cp932"},
    "euc-kr": {"euc_kr", "cp949"},
}


def synthetic(n: int, seed: int) -> list[tuple[str, bytes]]:
    rng = random.Random(seed)
    pool = player_pool(rng)
    cases = []
    for i in range(n):
        style = list(_STYLE_LANG)[i % len(_STYLE_LANG)]
        (black, br), (white, wr) = rng.sample(pool[_STYLE_LANG[style]], 2)
        data = game_record(
            rng,
            style=style,
            black=black,
            white=white,
            black_rank=render_rank(style, br),
            white_rank=render_rank(style, wr),
            result=rng.choice(["B+R", "W+R", "B+3.5", "W+0.5"]),
            date="2024-05-12",
            main_time_s=1800,
            moves=rng.randint(0, 12),
        )
        cases.append((CODECS[style], _CA.sub(b"", data)))
    return cases


def fixtures(corpora: Path) -> list[tuple[str, bytes]]:
    cases = []
    for path in sorted(corpora.rglob("*.sgf")):
        data = path.read_bytes()
        m = re.search(rb"CA\[([^\]]*)\]", data)
        codec = codec_for(m.group(1).decode("ascii", "replace")) if m else None
        if codec in {"gb18030", "cp950", "cp932", "cp949"} and not data.isascii():
            cases.append(
                (
                    {"cp950": "big5", "cp932": "shift_jis", "cp949": "euc-kr"}.get(codec, codec),
                    _CA.sub(b"", data),
                )
            )
    return cases


def right(expected: str, got: str | None) -> bool:
    norm = (got or "").lower().replace("-", "_")
    return norm in {c.replace("-", "_") for c in _SAME[expected]}


def survey(name: str, cases: list[tuple[str, bytes]]) -> None:
    ours, theirs, misses = Counter(), Counter(), Counter()
    for expected, data in cases:
        ours[expected] += right(expected, detect(data))
        best = from_bytes(data).best()
        got = best.encoding if best else None
        theirs[expected] += right(expected, got)
        misses[(expected, got)] += not right(expected, got)
    total = Counter(e for e, _ in cases)
    print(f"\n{name}: {len(cases)} records without CA")
    print("| encoding | records | pipeline.core.charset | charset-normalizer |\n|---|---|---|---|")
    for enc in sorted(total):
        share = {
            name: f"{100 * hits[enc] / total[enc]:.1f}%" for name, hits in (("ours", ours), ("cn", theirs))
        }
        print(f"| {enc} | {total[enc]} | {share['ours']} | {share['cn']} |")
    worst = ", ".join(f"{e}->{g} x{n}" for (e, g), n in misses.most_common(4) if n)
    print(f"charset-normalizer's commonest mistakes: {worst or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=400)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--corpora", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "corpora"
    )
    args = parser.parse_args()
    survey("synthetic short records", synthetic(args.n, args.seed))
    if args.corpora.is_dir():
        survey("corpora fixtures (CA removed)", fixtures(args.corpora))


if __name__ == "__main__":
    main()
