"""What the rule names mean, in English, for a page in English: the rule names stay
Chinese (they are the room's terms) and the English stands beside them. Keyed by the
codes scoring gives (breakdown lines, feature ticks, flags, kong kinds)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

GLOSSARY: dict[str, Promise] = {
    # counted items
    "hard_flowers": _("flower tiles drawn"),
    "soft_flowers": _("from wind sets, a missing suit and the wait"),
    "run20": _("the base of every win"),
    "feng_peng": _("pong of winds"),
    "feng_anke": _("concealed pong of winds"),
    "feng_gang": _("kong of winds"),
    "minggang": _("exposed kong"),
    "angang": _("concealed kong"),
    "yadang": _("closed wait"),
    "duzhan": _("waiting on the pair"),
    "bianzhi": _("edge wait"),
    "queyi": _("one suit absent"),
    "doubled": _("the hand is doubled"),
    # features
    "menqing": _("concealed hand"),
    "menqianqing": _("concealed hand"),
    "hunyise": _("one suit and honours"),
    "qingyise": _("one suit only"),
    "duiduihu": _("all pongs"),
    "quanqiu_dudiao": _("four sets exposed, won on a single wait"),
    "qidui": _("seven pairs"),
    "danqidui": _("seven pairs"),
    "shuang_qidui": _("seven pairs with three of a kind waiting on the fourth"),
    "haohua_qidui": _("seven pairs holding four of a kind"),
    "haohua_shuang_qidui": _("seven pairs holding two fours of a kind"),
    "chaohaohua_qidui": _("seven pairs holding two fours of a kind"),
    "chaohaohua_shuang_qidui": _("seven pairs holding three fours of a kind"),
    "chaochaohaohua_qidui": _("seven pairs holding three fours of a kind"),
    "yajue": _("closed or edge wait on a tile already ponged"),
    "wuhuaguo": _("no hard flower"),
    "dasixi": _("big four winds"),
    "xiaosixi": _("little four winds"),
    "dadiaoche": _("everything exposed, won on a single wait"),
    "yitiaolong": _("one to nine of a suit"),
    "sananke": _("three concealed pongs"),
    "sianke": _("four concealed pongs"),
    # flags (how it was won)
    "after_flower": _("won on the tile drawn after a flower"),
    "after_kong": _("won on the tile drawn after a kong"),
    "xiaogang_kaihua": _("won on the tile drawn after a flower"),
    "dagang_kaihua": _("won on the tile drawn after a kong"),
    "gangshang_kaihua": _("won on the tile drawn after a kong"),
    "kong_discard": _("won on a discard after a kong"),
    "ganghou_pao": _("won on a discard after a kong"),
    "robbing_kong": _("robbing a kong"),
    "kuaizhao": _("instant win on the fourth set"),
    "tianhu": _("dealer wins on the deal"),
    "dihu": _("won on the first discard"),
    "last_tile": _("won on the last tile"),
    "haidi": _("won on the last tile"),
    # kongs and penalties
    "exposed": _("exposed kong"),
    "upgraded": _("kong added to a pong"),
    "concealed": _("concealed kong"),
    "flower": _("flower kong: four flowers of a set"),
    "follow": _("four in a row discarded the same tile"),
    "four_discards": _("discarded four of a tile"),
}
