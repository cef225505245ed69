"""The scorer's refusals in the page's words (issue 22.6: one translation path).

scoring names each refusal by a stable ``code`` with its ``params`` (``ScoringError``);
its own ``message`` and ``zh`` are for its command line. The app words a refusal here,
through gettext: one English msgid per code (the scorer's ``message``, its values as
``%(name)s``), the Chinese in ``django.po`` (the scorer's ``zh``, so a Chinese page reads
as it did). Each scorer's code is its msgid's context: two refusals worded alike in
English stay two entries, and none borrows another page's translation of ``missing``.
``tests/test_refusals.py`` proves every code scoring can raise is here and translated.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring import ScoringError

#: scoring.entry's refusals (the quick-entry grammar: the melds typed on the page)
ENTRY: dict[str, Promise] = {
    "meld_unreadable": _("Cannot read the meld “%(token)s” (e.g. P5sW, K7m, U3pS)."),
    "pong_needs_feeder": _("The pong “%(token)s” needs who fed it (e.g. P5sW)."),
}

#: every other refusal of scoring's, by code, in the order of its modules
SCORING: dict[str, Promise] = {
    # record.py
    "unknown_seat": pgettext_lazy("unknown_seat", "unknown seat %(seat)s (E, S, W or N)"),
    "unknown_key": pgettext_lazy("unknown_key", "unknown key %(key)s"),
    "not_a_list": pgettext_lazy("not_a_list", "must be a list"),
    "not_a_bool": pgettext_lazy("not_a_bool", "must be true or false"),
    "not_a_number_between": pgettext_lazy(
        "not_a_number_between", "must be a whole number from %(lo)s to %(hi)s"
    ),
    "not_tiles": pgettext_lazy("not_tiles", "must be tiles in MPSZ notation"),
    "flower_in_hand": pgettext_lazy(
        "flower_in_hand", "flower tile %(tile)s in the hand (flowers go in 'flowers')"
    ),
    "not_a_flower": pgettext_lazy("not_a_flower", "%(tile)s is not a flower tile"),
    "not_one_tile": pgettext_lazy("not_one_tile", "must be exactly one tile"),
    "format": pgettext_lazy("format", "must be %(format)s"),
    "no_ruleset": pgettext_lazy("no_ruleset", "must name a ruleset"),
    "no_wins": pgettext_lazy("no_wins", "missing (an empty list for a drawn hand)"),
    "discarder_is_winner": pgettext_lazy(
        "discarder_is_winner", "the discarder cannot be the winner"
    ),
    "liable_is_winner": pgettext_lazy("liable_is_winner", "the liable seat cannot be the winner"),
    "hard_flowers_mismatch": pgettext_lazy(
        "hard_flowers_mismatch", "says %(said)s but 'flowers' holds %(held)s"
    ),
    "too_many_sets": pgettext_lazy("too_many_sets", "more than four sets"),
    "tile_count": pgettext_lazy(
        "tile_count", "holds %(held)s tiles; with %(sets)s sets it must hold %(need)s"
    ),
    "winning_tile_not_held": pgettext_lazy(
        "winning_tile_not_held", "%(tile)s is not among the concealed tiles"
    ),
    "meld_type": pgettext_lazy("meld_type", "must be 'pong' or 'kong'"),
    "meld_fed_by_holder": pgettext_lazy(
        "meld_fed_by_holder", "a set cannot be fed by its own holder"
    ),
    "pong_without_feeder": pgettext_lazy(
        "pong_without_feeder", "a pong needs the seat that fed it"
    ),
    "upgraded_not_fed_kong": pgettext_lazy(
        "upgraded_not_fed_kong", "only a kong made from a fed pong is upgraded"
    ),
    "unknown_kong_type": pgettext_lazy("unknown_kong_type", "unknown kong type %(kind)s"),
    # xgettext:no-python-format (the Chinese leaves a value out)
    "kong_needs_feeder": pgettext_lazy(
        "kong_needs_feeder", "an %(kind)s kong needs the seat that fed it"
    ),
    # xgettext:no-python-format (the Chinese leaves a value out)
    "kong_not_fed": pgettext_lazy("kong_not_fed", "a %(kind)s kong is fed by nobody"),
    "kong_fed_by_holder": pgettext_lazy(
        "kong_fed_by_holder", "a kong cannot be fed by its own holder"
    ),
    "robbed_not_upgraded": pgettext_lazy(
        "robbed_not_upgraded", "only an upgraded kong can be robbed"
    ),
    "unknown_penalty": pgettext_lazy(
        "unknown_penalty", "unknown penalty %(kind)s (follow or four_discards)"
    ),
    "end_when_out": pgettext_lazy("end_when_out", "must be 1 or 2"),
    "garden_over": pgettext_lazy("garden_over", "this 园子 is already over; start a new one"),
    "garden_below_zero": pgettext_lazy(
        "garden_below_zero",
        "hand %(number)s would take a 园子 balance below zero: void the later hands first",
    ),
    "seat_wins_twice": pgettext_lazy("seat_wins_twice", "a seat wins twice"),
    "too_many_winners": pgettext_lazy(
        "too_many_winners", "at most three seats can win on one discard"
    ),
    "winners_discarder": pgettext_lazy(
        "winners_discarder", "several winners need one shared discarder"
    ),
    "winners_tile": pgettext_lazy("winners_tile", "several winners need one shared winning tile"),
    "robbed_without_robber": pgettext_lazy(
        "robbed_without_robber", "no robbing_kong win robbed it"
    ),
    "robbed_own_kong": pgettext_lazy("robbed_own_kong", "a winner cannot rob its own kong"),
    "dihu_set": pgettext_lazy("dihu_set", "dihu with a set declared"),
    "kong_chain_without_flag": pgettext_lazy(
        "kong_chain_without_flag", "above 1 without after_kong or kong_discard"
    ),
    "not_a_number_from": pgettext_lazy("not_a_number_from", "must be a whole number from %(lo)s"),
    "no_winning_tile": pgettext_lazy("no_winning_tile", "missing"),
    "no_tiles_nor_counts": pgettext_lazy(
        "no_tiles_nor_counts", "give the concealed tiles, or hard_flowers for a quick entry"
    ),
    "kuaizhao_needs_four_sets": pgettext_lazy(
        "kuaizhao_needs_four_sets", "a kuaizhao win needs its four sets"
    ),
    "kuaizhao_tiles_left": pgettext_lazy(
        "kuaizhao_tiles_left", "a kuaizhao win leaves one or two tiles in hand"
    ),
    "kuaizhao_winning_tile": pgettext_lazy(
        "kuaizhao_winning_tile", "in a kuaizhao win it is the tile of the last set"
    ),
    "meld_one_tile": pgettext_lazy("meld_one_tile", "must be exactly one tile"),
    "garden_seat_missing": pgettext_lazy("garden_seat_missing", "missing seat %(seat)s"),
    "flower_held_twice": pgettext_lazy(
        "flower_held_twice", "a flower tile held twice: %(tile)s (%(count)s)"
    ),
    "too_many_flower_copies": pgettext_lazy(
        "too_many_flower_copies", "more than four copies: %(tile)s (%(count)s)"
    ),
    "too_many_with_pong": pgettext_lazy(
        "too_many_with_pong",
        "more than four copies of %(tile)s with another player's pong (%(count)s)",
    ),
    # xgettext:no-python-format (the Chinese leaves a value out)
    "flower_kongs_mismatch": pgettext_lazy(
        "flower_kongs_mismatch",
        "holds %(held)s complete flower set(s) but %(recorded)s flower kong(s) "
        "are recorded for %(seat)s",
    ),
    "tianhu_dealer": pgettext_lazy("tianhu_dealer", "tianhu is the dealer's win"),
    "tianhu_discard": pgettext_lazy("tianhu_discard", "tianhu cannot be on a discard"),
    "tianhu_set": pgettext_lazy("tianhu_set", "tianhu with a set declared"),
    "after_flower_discard": pgettext_lazy("after_flower_discard", "after_flower on a discard"),
    "after_flower_no_flowers": pgettext_lazy(
        "after_flower_no_flowers", "after_flower with no flowers"
    ),
    "after_kong_discard": pgettext_lazy("after_kong_discard", "after_kong on a discard"),
    "after_kong_chain": pgettext_lazy(
        "after_kong_chain",
        "after_kong needs %(chain)s kong(s) of the winner's; there are %(kongs)s",
    ),
    "kong_discard_no_discarder": pgettext_lazy(
        "kong_discard_no_discarder", "kong_discard needs a discarder"
    ),
    "kong_discard_chain": pgettext_lazy(
        "kong_discard_chain",
        "kong_discard needs %(chain)s kong(s) by the discarder; there are %(kongs)s",
    ),
    "flower_chain_too_long": pgettext_lazy(
        "flower_chain_too_long",
        "a chain of %(chain)s after a flower needs as many flowers or kongs",
    ),
    "robbing_discarder": pgettext_lazy(
        "robbing_discarder",
        "a robbing win's discarder, when given, is the seat whose kong was robbed",
    ),
    # xgettext:no-python-format (the Chinese leaves a value out)
    "robbing_tile_held": pgettext_lazy(
        "robbing_tile_held", "a robbing winner holds only the robbed %(tile)s"
    ),
    "kuaizhao_needs_liable": pgettext_lazy(
        "kuaizhao_needs_liable", "a kuaizhao win needs the liable seat"
    ),
    "kuaizhao_discard": pgettext_lazy("kuaizhao_discard", "a kuaizhao win is not on a discard"),
    "no_kuaizhao": pgettext_lazy(
        "no_kuaizhao",
        "the three sets before the last show no 快照 against %(seat)s and the "
        "four sets are not of one suit: no kuaizhao win",
    ),
    "unknown_flag": pgettext_lazy("unknown_flag", "unknown flag %(flag)s"),
    "not_a_feature_code": pgettext_lazy("not_a_feature_code", "must be a feature code"),
    "too_many_copies": pgettext_lazy(
        "too_many_copies", "more than four copies of %(tile)s (%(count)s)"
    ),
    # xgettext:no-python-format (the Chinese leaves a value out)
    "kongs_mismatch": pgettext_lazy(
        "kongs_mismatch",
        "the winner's kong sets (%(sets)s) do not match the kongs recorded for "
        "%(seat)s (%(recorded)s)",
    ),
    # tiles.py
    "unknown_tile": pgettext_lazy("unknown_tile", "unknown tile %(tile)s"),
    # engine.py
    "nanjing_no_false_wins": pgettext_lazy(
        "nanjing_no_false_wins", "诈糊 and 相公 are not part of 南京麻将"
    ),
    "worksite_doubled": pgettext_lazy("worksite_doubled", "工地麻将 never doubles a hand"),
    "worksite_garden": pgettext_lazy("worksite_garden", "进园子 is a 南京 table mode"),
    "not_an_object": pgettext_lazy("not_an_object", "must be an object"),
    # xgettext:no-python-format (the Chinese leaves a value out)
    "win_not_in_tiles": pgettext_lazy(
        "win_not_in_tiles", "winning tile %(tile)s is not in the hand"
    ),
    "tiles_copies": pgettext_lazy("tiles_copies", "more than four copies of a tile"),
    "not_winning": pgettext_lazy("not_winning", "not a winning hand"),
    # xgettext:no-python-format (the Chinese leaves a value out)
    "ruleset_mismatch": pgettext_lazy(
        "ruleset_mismatch", "the record names %(named)s but is scored under %(used)s"
    ),
    "robbing_needs_liable": pgettext_lazy(
        "robbing_needs_liable", "a robbing_kong win needs the konger as liable"
    ),
    "robbing_discarder_liable": pgettext_lazy(
        "robbing_discarder_liable",
        "a robbing win's discarder, when given, is the konger (the liable seat)",
    ),
    "nanjing_kong_chain_without_flag": pgettext_lazy(
        "nanjing_kong_chain_without_flag",
        "above 1 without after_kong or kong_discard (a flower is no kong in 南京)",
    ),
    "worksite_kuaizhao": pgettext_lazy("worksite_kuaizhao", "快照 is not part of 工地麻将"),
    # xgettext:no-python-format (the Chinese leaves a value out)
    "flower_in_tiles": pgettext_lazy("flower_in_tiles", "flower tile %(tile)s in the hand"),
    # xgettext:no-python-format (the Chinese leaves a value out)
    "tiles_count": pgettext_lazy(
        "tiles_count", "%(held)s tiles; with %(sets)s sets a hand holds %(need)s"
    ),
    # xgettext:no-python-format (the Chinese leaves a value out)
    "tiles_copies_of": pgettext_lazy("tiles_copies_of", "more than four copies of %(tile)s"),
    # nanjing.py
    "too_few_hard_flowers": pgettext_lazy(
        "too_few_hard_flowers",
        "not a legal win: a hand that is not 门清 and has no big hand needs at "
        "least %(need)s hard flowers, it has %(hard)s",
    ),
    "feature_needs_flag": pgettext_lazy(
        "feature_needs_flag", "%(feature)s needs its flag in 'flags'"
    ),
    "one_seven_pairs": pgettext_lazy("one_seven_pairs", "only one seven-pairs tier counts"),
    "hunyise_qingyise": pgettext_lazy("hunyise_qingyise", "混一色 and 清一色 exclude each other"),
    "seven_pairs_exclude": pgettext_lazy(
        "seven_pairs_exclude", "seven pairs cannot be 门清, 对对胡, 全球独钓 or 压绝"
    ),
    "dudiao_duiduihu": pgettext_lazy("dudiao_duiduihu", "全球独钓 is always 对对胡 too"),
    "dudiao_menqing": pgettext_lazy("dudiao_menqing", "全球独钓 cannot be 门清"),
    "menqing_melds": pgettext_lazy("menqing_melds", "门清 is contradicted by the melds"),
    "wuhuaguo_big": pgettext_lazy("wuhuaguo_big", "无花果 needs 门清 or another big hand"),
    "kuaizhao_duiduihu_only": pgettext_lazy(
        "kuaizhao_duiduihu_only",
        "a 快照 whose fourth set another player than the liable seat fed counts "
        "对对胡 only (篇一 快照2)",
    ),
    "ticked_not_given": pgettext_lazy(
        "ticked_not_given",
        "%(feature)s is ticked but the tiles do not give it (they give: %(given)s)",
    ),
    "soft_flowers_mismatch": pgettext_lazy(
        "soft_flowers_mismatch", "says %(said)s soft flowers but the tiles give %(given)s"
    ),
    "soft_flower_ticked": pgettext_lazy(
        "soft_flower_ticked", "%(feature)s is a soft flower: give the count in soft_flowers"
    ),
    # xgettext:no-python-format (the Chinese leaves a value out)
    "unknown_feature": pgettext_lazy(
        "unknown_feature", "unknown feature %(feature)s in %(ruleset)s"
    ),
    "wuhuaguo_hard": pgettext_lazy("wuhuaguo_hard", "无花果 needs no hard flower"),
    # worksite.py
    "robbing_needs_konger": pgettext_lazy(
        "robbing_needs_konger",
        "a robbing win in 工地 is paid by the konger: give it as discarder, "
        "or mark the robbed kong",
    ),
    "false_winner_wins": pgettext_lazy(
        "false_winner_wins", "a false winner (诈糊) may not win again in this hand"
    ),
    "dead_hand_wins": pgettext_lazy("dead_hand_wins", "a dead hand (相公) may not win"),
    "too_few_flowers": pgettext_lazy(
        "too_few_flowers",
        "not a legal win: a win needs at least %(need)s flowers, the hand has %(flowers)s",
    ),
    "worksite_seven_pairs_exclude": pgettext_lazy(
        "worksite_seven_pairs_exclude", "seven pairs cannot combine with set patterns or 门前清"
    ),
    "passed_tile": pgettext_lazy(
        "passed_tile",
        "过水: %(tile)s may not be won on a discard after passing %(passed)s "
        "before the winner's own next draw",
    ),
    # xgettext:no-python-format (the Chinese leaves a value out)
    "worksite_ticked_not_given": pgettext_lazy(
        "worksite_ticked_not_given",
        "%(feature)s is ticked but the tiles do not give it (they give: %(given)s)",
    ),
    "other_flowers_mismatch": pgettext_lazy(
        "other_flowers_mismatch", "says %(said)s other flowers but the tiles give %(given)s"
    ),
    "features_exclude": pgettext_lazy("features_exclude", "%(features)s exclude each other"),
    # timing.py
    "deal_unknown_seat": pgettext_lazy("deal_unknown_seat", "unknown seat"),
    # xgettext:no-python-format (the Chinese leaves a value out)
    "deal_passes": pgettext_lazy(
        "deal_passes", "the deal stays with %(dealer)s or passes to %(next)s, not to %(following)s"
    ),
    # xgettext:no-python-format (the Chinese leaves a value out)
    "deal_mismatch": pgettext_lazy(
        "deal_mismatch",
        "hand %(hand)s is dealt by %(dealer)s, but the hand before passed the deal to %(passed)s",
    ),
    # rulesets/__init__.py
    "ruleset_unknown_key": pgettext_lazy(
        "ruleset_unknown_key", "ruleset %(where)s: unknown key %(key)s"
    ),
    "ruleset_missing_key": pgettext_lazy(
        "ruleset_missing_key", "ruleset %(where)s: missing key %(key)s"
    ),
    "ruleset_family": pgettext_lazy(
        "ruleset_family", "ruleset %(where)s: unknown family %(family)s"
    ),
    "ruleset_id_name": pgettext_lazy(
        "ruleset_id_name", "ruleset %(where)s: needs an id and a name"
    ),
    # xgettext:no-python-format (the Chinese leaves a value out)
    "unknown_ruleset": pgettext_lazy(
        "unknown_ruleset", "unknown ruleset %(ruleset)s (known: %(known)s)"
    ),
    "ruleset_file_id": pgettext_lazy(
        "ruleset_file_id", "ruleset %(where)s: file %(where)s.toml declares id %(id)s"
    ),
    "ruleset_section": pgettext_lazy(
        "ruleset_section", "ruleset %(where)s: missing section [%(section)s]"
    ),
    "ruleset_toml": pgettext_lazy(
        "ruleset_toml", "ruleset %(where)s: is not valid TOML: %(error)s"
    ),
    "ruleset_choice": pgettext_lazy(
        "ruleset_choice", "ruleset %(where)s: %(key)s must be one of %(choices)s"
    ),
    # xgettext:no-python-format (the Chinese leaves a value out)
    "ruleset_doubling": pgettext_lazy(
        "ruleset_doubling", "ruleset %(where)s: %(key)s lists unknown triggers"
    ),
    "ruleset_not_a_number": pgettext_lazy(
        "ruleset_not_a_number", "ruleset %(where)s: %(key)s must be a whole number ≥ 0"
    ),
    "ruleset_too_large": pgettext_lazy(
        "ruleset_too_large", "ruleset %(where)s: %(key)s must be at most %(top)s"
    ),
}

#: code → msgid, for every refusal scoring can raise
REFUSALS: dict[str, Promise] = {**ENTRY, **SCORING}


def said(error: ScoringError) -> str:
    """A refusal of scoring's in the page's language, worded from its code."""
    return worded(error.code, error.params)


def worded(code: str, params: Mapping[str, str]) -> str:
    """A refusal by its code and params (a comparison row's ``error_code``) in the
    page's language. A code with no entry here is a KeyError: the test of this table
    makes that impossible for every code scoring raises, rather than showing the
    scorer's own words."""
    return str(REFUSALS[code]) % params
