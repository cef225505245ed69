"""Hand analysis: every decomposition, seven pairs, and the wait set."""

from __future__ import annotations

from scoring import analyze, shape, tiles


def counts(text: str) -> tuple[int, ...]:
    out = [0] * tiles.NUM_KINDS
    for code in tiles.parse(text):
        out[tiles.kind_of(code)] += 1
    return tuple(out)


def test_it_finds_every_decomposition() -> None:
    # 111222333m: three triplets, or three runs of 123; plus 55p
    found = shape.decompositions(counts("111222333m55p"))
    readings = {tuple(sorted(d.sets)) for d in found}
    assert readings == {
        (("r", 0), ("r", 0), ("r", 0)),
        (("t", 0), ("t", 1), ("t", 2)),
    }
    assert all(d.pair == tiles.kind_of("5p") for d in found)


def test_it_finds_the_pair_in_different_places() -> None:
    # 1112m + sets: 11 + 12? no — 111 22? no: 11122m reads 111 + 22 only; 1122334m does
    # not close; 11 + 123 + 234 + ... : take 112233m44m
    found = shape.decompositions(counts("11223344m567p789s"))
    assert {tiles.code_of(d.pair) for d in found} == {"1m", "4m"}


def test_winds_never_form_runs() -> None:
    assert shape.decompositions(counts("123z456m789m123p11s")) == []


def test_seven_pairs_counts_a_four_as_two_pairs() -> None:
    assert shape.is_seven_pairs(counts("1111m2233p4455s66z"[:0] + "1111m2233p4455s11z"))
    assert not shape.is_seven_pairs(counts("111m2233p44556s11z"))


def test_it_refuses_a_hand_of_wrong_size_per_suit() -> None:
    assert not shape.is_standard(counts("1m2m"))
    assert not shape.is_standard(counts("11m22p"))


def test_the_wait_set_of_a_pair_wait() -> None:
    pre = counts("234m567m999m111p5p")
    assert shape.waits(pre, pre, True) == [tiles.kind_of("5p")]


def test_the_wait_set_of_a_nine_sided_hand() -> None:
    pre = counts("1112345678999m")
    assert [tiles.code_of(k) for k in shape.waits(pre, pre, True)] == [
        f"{n}m" for n in range(1, 10)
    ]


def test_the_wait_set_leaves_out_a_kind_held_four_times() -> None:
    pre = counts("1123m456p789s")  # beside one declared set: waits 1m and 4m
    own = list(pre)
    own[tiles.kind_of("4m")] += 3  # a pong of 4m: one 4m is still out there
    assert shape.waits(pre, tuple(own), False) == [tiles.kind_of("1m"), tiles.kind_of("4m")]
    own[tiles.kind_of("4m")] += 1  # a kong of 4m: no 4m left to win on
    assert shape.waits(pre, tuple(own), False) == [tiles.kind_of("1m")]


def test_seven_pairs_waits_only_when_allowed() -> None:
    pre = counts("1122m3344p5566s7z"[:0] + "1122m3344p5566s1z")
    assert shape.waits(pre, pre, True) == [tiles.kind_of("1z")]
    assert shape.waits(pre, pre, False) == []


def test_analyze_reports_shape_waits_and_features() -> None:
    result = analyze("123m456p789s11z55s", win="5s")
    assert result["shape"] == "standard"
    assert result["waits"] == ["5s", "1z"]
    assert "menqing" in result["features"]


def test_the_one_pass_readability_check_agrees_with_the_full_listing() -> None:
    import itertools
    import random

    winds = itertools.product(range(5), repeat=4)
    rng = random.Random(7)
    suits = [tuple(rng.choice((0, 0, 1, 2, 3, 4)) for _ in range(9)) for _ in range(3000)]
    for counts, runs in [(w, False) for w in winds] + [(s, True) for s in suits]:
        readings = shape._suit_readings(counts, 0 if runs else 27)[1]
        assert shape._readable(counts, runs) == bool(readings), counts


def test_a_suits_completions_are_the_tiles_that_make_it_read_whole() -> None:
    """_completions() (a search for the two-tile part a tile completes) gives exactly
    the kinds, held fewer than four times, whose tile makes the suit readable."""
    import itertools
    import random

    def by_definition(counts: tuple[int, ...], runs: bool) -> tuple[int, ...]:
        found = []
        for k, n in enumerate(counts):
            more = list(counts)
            more[k] += 1
            if n < 4 and shape._readable(tuple(more), runs):
                found.append(k)
        return tuple(found)

    winds = itertools.product(range(5), repeat=4)
    rng = random.Random(11)
    suits = [tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(9)) for _ in range(4000)]
    suits += [(1,) * 9, (3, 1, 1, 1, 1, 1, 1, 1, 3), (0,) * 9]
    checked = 0
    for counts, runs in [(w, False) for w in winds] + [
        (s, r) for s in suits for r in (True, False)
    ]:
        if sum(counts) <= 13:
            assert shape._completions(counts, runs) == by_definition(counts, runs), counts
            checked += 1
    assert checked > 3000
    assert shape._completions((3, 1, 1, 1, 1, 1, 1, 1, 3), True) == tuple(range(9))  # 九莲宝灯


def test_the_wait_set_of_a_won_hand_is_read_off_two_suits() -> None:
    """won_waits() (the winning tile's suit and the pair's) gives what waits() gives
    on the counts before the win, on every standard winning hand dealt."""
    from scoring.generate import random_hands
    from scoring.record import read_hand

    checked = 0
    for ruleset in ("nanjing", "jiangsu-worksite"):
        for record in random_hands(11, 1500, ruleset):
            for win in read_hand(record).wins:
                if win.counts is None or "kuaizhao" in win.flags:
                    continue
                found = shape.decompositions(win.counts)
                if not found:
                    continue
                kind = tiles.kind_of(win.winning_tile)
                seen: dict[int, int] = {}
                for m in win.melds:
                    seen[m.kind] = seen.get(m.kind, 0) + m.size
                pre = list(win.counts)
                pre[kind] -= 1
                own = list(pre)
                for k, n in seen.items():
                    own[k] += n
                expected = shape.waits(tuple(pre), tuple(own), not win.melds)
                assert kind in expected
                got = shape.won_waits(win.counts, kind, found[0].pair, seen, not win.melds)
                assert got == expected, (record, win)
                checked += 1
    assert checked > 2000
