"""赛事: tournaments (篇三 五.5 定期组织开展棋牌赛事活动).

A tournament has entrants (members; an entry fee is income with its receipt through
the cash book) and rounds. A pairing game's round (象棋, 围棋, 五子棋, 跳棋, 扑克)
has pairings and their results; a 麻将 round has tables, each an ordinary table
session with the tournament's ruleset, its seats drawn or set by hand. Standings are
read from the results or the sessions' ledgers (``activities.standings``); when the
tournament closes its standings are frozen into ``FinalStanding`` rows.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubapp.activities.models.common import Game
from clubapp.books.models.base import MONEY
from clubapp.core.appendonly import AppendOnlyModel
from clubapp.core.models import by_field, room_field


class Format(models.TextChoices):
    ROUND_ROBIN = "round_robin", _("Round robin")
    SWISS = "swiss", _("Swiss")
    TABLES = "tables", _("Mahjong tables")


class RankBy(models.TextChoices):
    POINTS = "points", _("Total points, then placings")
    PLACINGS = "placings", _("Placings, then total points")


class Tournament(models.Model):
    room = room_field()
    name = models.CharField(_("name"), max_length=100)
    game = models.CharField(_("game"), max_length=20, choices=Game.choices)
    format = models.CharField(_("format"), max_length=20, choices=Format.choices)
    starts = models.DateField(_("starts"))
    ends = models.DateField(_("ends"))
    #: the number of rounds planned (a round robin: one fewer than the entrants, or
    #: as many when odd)
    rounds_planned = models.PositiveSmallIntegerField(_("rounds"))
    entry_fee = models.DecimalField(_("entry fee (yuan)"), default=0, **MONEY)
    #: 麻将: the ruleset every round's table plays (play.RulesetVersion)
    ruleset = models.ForeignKey(
        "play.RulesetVersion",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("ruleset"),
    )
    rank_by = models.CharField(
        _("rank by"), max_length=10, choices=RankBy.choices, default=RankBy.POINTS
    )
    #: 麻将: the placing points of a table, first to fourth
    placings = models.CharField(_("placing points"), max_length=40, default="4,2,1,0")
    planned = models.ForeignKey(
        "activities.PlannedActivity",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("planned activity"),
    )
    created_by = by_field(_("created by"))
    created_at = models.DateTimeField(_("created at"))
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = by_field(_("closed by"), null=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-starts", "-pk"]
        indexes = [models.Index(fields=["room", "starts"], name="activities_tourn_room_starts")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends__gte=models.F("starts")),
                name="activities_tournament_ends_after_start",
            ),
            models.CheckConstraint(
                condition=models.Q(entry_fee__gte=0),
                name="activities_tournament_fee_not_negative",
            ),
            models.CheckConstraint(
                condition=(models.Q(game="mahjong") & models.Q(format="tables"))
                | (~models.Q(game="mahjong") & ~models.Q(format="tables")),
                name="activities_tournament_tables_for_mahjong",
            ),
            models.CheckConstraint(
                condition=~models.Q(name=""), name="activities_tournament_name_not_blank"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


class Entrant(models.Model):
    room = room_field()
    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="entrants", verbose_name=_("tournament")
    )
    member = models.ForeignKey(
        "members.Member", on_delete=models.PROTECT, related_name="+", verbose_name=_("member")
    )
    #: the order of entry (the last tie break)
    number = models.PositiveSmallIntegerField(_("entry number"))
    #: the entry fee's cash-book line (with its receipt), when there is a fee
    fee = models.OneToOneField(
        "books.IncomeEntry",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entry fee"),
    )
    entered_at = models.DateTimeField(_("entered at"))
    entered_by = by_field(_("entered by"))

    class Meta:
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "member"], name="activities_entrant_once"
            ),
            models.UniqueConstraint(
                fields=["tournament", "number"], name="activities_entrant_number_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} #{self.number}"


class Round(models.Model):
    room = room_field()
    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="rounds", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("round"))
    #: 麻将: the seed the seats were drawn from (shown); none when set by hand
    seed = models.BigIntegerField(_("draw seed"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"))
    created_by = by_field(_("created by"))

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="activities_round_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(number__gte=1), name="activities_round_from_one"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} R{self.number}"


class Pairing(models.Model):
    """Two entrants of a pairing game's round (``second`` empty: the bye)."""

    room = room_field()
    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, related_name="pairings", verbose_name=_("round")
    )
    board = models.PositiveSmallIntegerField(_("board"))
    first = models.ForeignKey(
        Entrant, on_delete=models.PROTECT, related_name="+", verbose_name=_("first")
    )
    second = models.ForeignKey(
        Entrant,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("second"),
    )

    class Meta:
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")
        ordering = ["round", "board"]
        constraints = [
            models.UniqueConstraint(fields=["round", "board"], name="activities_board_unique"),
            models.UniqueConstraint(fields=["round", "first"], name="activities_first_once"),
            models.UniqueConstraint(fields=["round", "second"], name="activities_second_once"),
            models.CheckConstraint(
                condition=~models.Q(first=models.F("second")),
                name="activities_pairing_two_players",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} board {self.board}"


class Result(AppendOnlyModel):
    """A pairing's result; a correction is a new row, the last one counts."""

    room = room_field()
    pairing = models.ForeignKey(
        Pairing, on_delete=models.PROTECT, related_name="results", verbose_name=_("pairing")
    )
    first_score = models.PositiveIntegerField(_("first's score"))
    second_score = models.PositiveIntegerField(_("second's score"))
    entered_by = by_field(_("entered by"))
    entered_at = models.DateTimeField(_("entered at"))

    class Meta:
        verbose_name = _("result")
        verbose_name_plural = _("results")
        ordering = ["pairing", "entered_at", "pk"]

    def __str__(self) -> str:
        return f"{self.pairing}: {self.first_score}-{self.second_score}"


class RoundTable(models.Model):
    """A 麻将 round's table: an ordinary table session with the tournament's ruleset."""

    room = room_field()
    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, related_name="tables", verbose_name=_("round")
    )
    number = models.PositiveSmallIntegerField(_("table"))
    session = models.OneToOneField(
        "play.TableSession",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_table",
        verbose_name=_("table session"),
    )

    class Meta:
        verbose_name = _("round table")
        verbose_name_plural = _("round tables")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="activities_table_unique")
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"


class RoundSeat(models.Model):
    """An entrant's seat at a 麻将 round: never two tables in one round (the database
    says so too)."""

    room = room_field()
    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, related_name="seats", verbose_name=_("round")
    )
    table = models.ForeignKey(
        RoundTable, on_delete=models.PROTECT, related_name="seats", verbose_name=_("table")
    )
    wind = models.CharField(_("wind"), max_length=1)
    entrant = models.ForeignKey(
        Entrant, on_delete=models.PROTECT, related_name="seats", verbose_name=_("entrant")
    )

    class Meta:
        verbose_name = _("round seat")
        verbose_name_plural = _("round seats")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "entrant"], name="activities_seat_one_table_a_round"
            ),
            models.UniqueConstraint(fields=["table", "wind"], name="activities_seat_wind_once"),
            models.CheckConstraint(
                condition=models.Q(wind__in=["E", "S", "W", "N"]),
                name="activities_seat_wind_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.wind}"


class FinalStanding(AppendOnlyModel):
    """The standings when the tournament closed, frozen."""

    room = room_field()
    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="final", verbose_name=_("tournament")
    )
    rank = models.PositiveSmallIntegerField(_("rank"))
    entrant = models.ForeignKey(
        Entrant, on_delete=models.PROTECT, related_name="+", verbose_name=_("entrant")
    )
    points = models.IntegerField(_("points"))
    #: the tie breaks as shown (Buchholz and head to head, or placing points)
    tie_break = models.CharField(_("tie break"), max_length=60, blank=True)

    class Meta:
        verbose_name = _("final standing")
        verbose_name_plural = _("final standings")
        ordering = ["tournament", "rank"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "rank"], name="activities_final_rank_unique"
            ),
            models.UniqueConstraint(
                fields=["tournament", "entrant"], name="activities_final_entrant_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} {self.rank}"
