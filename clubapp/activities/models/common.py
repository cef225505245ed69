"""What the room's regulations name for its life beyond the money (篇三 二, 五)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Game(models.TextChoices):
    """The games of 篇三 二: 象棋、围棋、五子棋、跳棋以及扑克、麻将."""

    XIANGQI = "xiangqi", _("Chinese chess")
    WEIQI = "weiqi", _("Go")
    WUZIQI = "wuziqi", _("Gomoku")
    TIAOQI = "tiaoqi", _("Chinese checkers")
    POKER = "poker", _("Poker")
    MAHJONG = "mahjong", _("Mahjong")


class ActivityKind(models.TextChoices):
    PLAY = "play", _("Daily play")
    TOURNAMENT = "tournament", _("Tournament")
    TRAINING = "training", _("Training")
    OTHER = "other", _("Other")
