"""core.i18n.Said: a sentence the data keep in English and a person reads in the language spoken."""

from __future__ import annotations

import json
import pickle

from pipeline.core.i18n import N_, Said, said, speaking

SCALE = Said(N_("{name}'s scale ({low} to {high})"), name="hkga", low="100", high="3000")


def test_the_string_itself_is_the_english_sentence() -> None:
    assert SCALE == "hkga's scale (100 to 3000)"


def test_said_in_simplified_chinese() -> None:
    with speaking("zh-Hans"):
        assert SCALE.said() == "hkga 的等级分范围（100 至 3000）"


def test_said_in_traditional_chinese() -> None:
    with speaking("zh-Hant"):
        assert SCALE.said() == "hkga 的等級分範圍（100 至 3000）"


def test_the_english_plural_form_follows_the_count() -> None:
    one = N_("{where}{n} rating outside {scale}, used as given: {listed}")
    many = N_("{where}{n} ratings outside {scale}, used as given: {listed}")
    assert Said(one, many, where="", n=1, scale="s", listed="A").startswith("1 rating outside")
    assert Said(one, many, where="", n=2, scale="s", listed="A, B").startswith("2 ratings outside")


def test_a_field_that_is_said_is_said_in_the_same_language() -> None:
    outside = Said(
        N_("{where}{n} rating outside {scale}, used as given: {listed}"),
        N_("{where}{n} ratings outside {scale}, used as given: {listed}"),
        where="",
        n=2,
        scale=SCALE,
        listed=["A -300", "B 9000"],
    )
    assert outside == "2 ratings outside hkga's scale (100 to 3000), used as given: A -300, B 9000"
    with speaking("zh-Hans"):
        assert (
            outside.said()
            == "2 个等级分超出 hkga 的等级分范围（100 至 3000），按所给的值使用：A -300、B 9000"
        )


def test_a_json_round_trip_says_the_same() -> None:
    outside = Said(N_("{listed}, and {more} more"), listed=[SCALE, "x"], more=3)
    again = Said.from_json(json.loads(json.dumps(outside.as_json())))
    assert again == outside
    with speaking("zh-Hant"):
        assert again.said() == outside.said()


def test_a_pickle_round_trip_keeps_the_words() -> None:
    again = pickle.loads(pickle.dumps(SCALE))
    assert isinstance(again, Said) and again == SCALE
    with speaking("zh-Hans"):
        assert again.said() == SCALE.said()


def test_a_plain_string_is_said_as_it_is() -> None:
    with speaking("zh-Hans"):
        assert said("as written") == "as written"
