"""Table sessions (场), their seats, hands and the points ledger (花).

Scoring is never done here: a hand's result comes from ``scoring.score`` through
``services.hand_record``. Balances are sums of ledger lines; each row of a session's
journal also keeps the table's state after it (``scoring.night``), a checkpoint that
``manage.py play_check`` recomputes from the lines and the results.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

import scoring
import scoring.rulesets
from clubapp.core.appendonly import AppendOnlyModel, AppendOnlyQuerySet
from clubapp.core.models import by_field, room_field
from clubapp.play.refusals import said
from scoring import night
from scoring.record import SEATS as SEATS  # the seats as the scorer names them


class Wind(models.TextChoices):
    """The four seats, placed by drawing winds; the turn passes E → S → W → N."""

    EAST = "E", _("East")
    SOUTH = "S", _("South")
    WEST = "W", _("West")
    NORTH = "N", _("North")


class RulesetVersionQuerySet(AppendOnlyQuerySet):
    """Append-only (bulk update and delete refused), found by natural key: (id,
    version) of a standard ruleset, (id, version, room's code) of a room's own."""

    def get_by_natural_key(
        self, ruleset_id: str, version: str, room: str | None = None
    ) -> RulesetVersion:
        if room is None:
            return self.get(ruleset_id=ruleset_id, version=version, room__isnull=True)
        return self.get(ruleset_id=ruleset_id, version=version, room__slug=room)


class RulesetVersion(AppendOnlyModel):
    """One exact set of a ruleset's numbers, as scored. Never edited: a changed
    parameter is a new row (its ``version`` is the hash scoring computes), so a
    recorded hand always names the numbers it was scored with. Append-only, down to
    the database's triggers (migration ``0015_rulesetversion_append_only``).

    The standard rulesets (shipped with scoring/) have no room: every room's, read
    only. A version a room's manager saves carries that room (docs/rooms.md)."""

    room = models.ForeignKey(
        "core.Room",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("room"),
    )
    ruleset_id = models.SlugField(_("ruleset"), max_length=60)
    name = models.CharField(_("name"), max_length=100)
    family = models.CharField(_("family"), max_length=20)
    version = models.CharField(_("version"), max_length=12)
    params = models.JSONField(_("parameters"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    # the base's manager, with the natural key added
    objects = RulesetVersionQuerySet.as_manager()  # type: ignore[misc]

    class Meta:
        verbose_name = _("ruleset version")
        verbose_name_plural = _("ruleset versions")
        ordering = ["ruleset_id", "created_at", "id"]
        constraints = [
            # a version once among the standard ones, once in each room
            models.UniqueConstraint(
                fields=["ruleset_id", "version"],
                condition=models.Q(room__isnull=True),
                name="play_rulesetversion_standard_unique",
            ),
            models.UniqueConstraint(
                fields=["room", "ruleset_id", "version"],
                name="play_rulesetversion_unique_in_room",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.version})"

    def natural_key(self) -> tuple[str, ...]:
        if self.room is None:
            return (self.ruleset_id, self.version)
        return (self.ruleset_id, self.version, self.room.slug)

    natural_key.dependencies = ["core.room"]  # type: ignore[attr-defined]

    @property
    def is_standard(self) -> bool:
        """Shipped with scoring/: every room's, read only."""
        return self.room_id is None

    def clean(self) -> None:
        """scoring bounds every number (``scoring.rulesets.MAX_NUMBER``); its refusal is
        worded as the pages word it (``refusals.said``)."""
        try:
            scoring.rulesets.from_mapping(self.params or {})
        except scoring.ScoringError as exc:
            raise ValidationError({"params": said(exc)}) from None

    def as_ruleset(self) -> scoring.rulesets.Ruleset:
        """The parameters read by scoring (about 0.15 ms: read each time, not kept)."""
        return scoring.rulesets.from_mapping(self.params)


class Mode(models.TextChoices):
    OPEN = "open", _("no cap")
    GARDEN = "garden", _("garden")


class SettleEvery(models.TextChoices):
    """When the table settles (结账)."""

    HAND = "hand", _("every hand")
    QUAN = "quan", _("every round")
    JIANG = "jiang", _("every game")
    SESSION = "session", _("at the end of the session")
    WORKSITE = "worksite", _("worksite timing")
    GARDEN = "garden", _("when a garden closes")


class TableSession(models.Model):
    """One table's night (场): a ruleset version, a mode and four seats."""

    room = room_field()
    #: the room's table (members app); one open session per table (a partial unique
    #: constraint)
    table = models.ForeignKey(
        "members.Table",
        on_delete=models.PROTECT,
        related_name="sessions",
        verbose_name=_("table"),
    )
    #: the table's number, copied from ``table`` when the session opens (tables are
    #: never renumbered): what the history and the reports print
    table_number = models.PositiveSmallIntegerField(_("table number"))
    ruleset = models.ForeignKey(RulesetVersion, on_delete=models.PROTECT, verbose_name=_("ruleset"))
    mode = models.CharField(_("mode"), max_length=10, choices=Mode.choices, default=Mode.OPEN)
    garden_size = models.PositiveIntegerField(_("garden size"), null=True, blank=True)
    end_when_out = models.PositiveSmallIntegerField(
        _("garden ends when out"), default=2, choices=[(1, "1"), (2, "2")]
    )
    settle_every = models.CharField(
        _("settle"), max_length=10, choices=SettleEvery.choices, default=SettleEvery.QUAN
    )
    jiang_count = models.PositiveSmallIntegerField(
        _("Games in the night"), default=2, choices=[(2, "2"), (3, "3")]
    )
    started_at = models.DateTimeField(_("started"))
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)
    created_by = by_field(_("created by"), null=True)
    #: a manager reopened the session after it was ended by mistake (the last time)
    reopened_at = models.DateTimeField(_("reopened"), null=True, blank=True)
    reopened_by = by_field(_("reopened by"), null=True)

    class Meta:
        verbose_name = _("table session")
        verbose_name_plural = _("table sessions")
        ordering = ["-started_at", "-id"]
        indexes = [
            models.Index(fields=["room", "-started_at"], name="play_session_room_started"),
        ]
        constraints = [
            # one open session per physical table, whatever the app does
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(ended_at__isnull=True),
                name="play_session_one_open_per_table",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(mode="open", garden_size__isnull=True)
                    | models.Q(mode="garden", garden_size__isnull=False, garden_size__gt=0)
                ),
                name="play_session_garden_size_with_mode",
            ),
            models.CheckConstraint(
                condition=models.Q(mode__in=["open", "garden"]), name="play_session_mode_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(end_when_out__in=[1, 2]), name="play_session_end_when_out"
            ),
            models.CheckConstraint(
                condition=models.Q(jiang_count__in=[2, 3]), name="play_session_jiang_count"
            ),
            models.CheckConstraint(
                condition=models.Q(settle_every__in=SettleEvery.values),
                name="play_session_settle_every_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(ended_at__isnull=True)
                | models.Q(ended_at__gte=models.F("started_at")),
                name="play_session_ends_after_start",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.table_number} {self.started_at:%Y-%m-%d %H:%M}"

    def get_absolute_url(self) -> str:
        return reverse("play:session", args=[self.pk])

    @property
    def is_open(self) -> bool:
        return self.ended_at is None

    def night(self) -> night.Table:
        """What the session fixes for the night's state (scoring.night)."""
        return night.Table(
            settle_every=self.settle_every,
            garden_size=self.garden_size,
            jiang_count=self.jiang_count,
        )

    def seat_list(self) -> list[Seat]:
        """The four seats in E S W N order (from ``prefetch_related("seats")`` when the
        session was read with it)."""
        return sorted(self.seats.all(), key=lambda seat: SEATS.index(seat.wind))

    def names(self) -> dict[str, str]:
        """{wind: player's name}."""
        return {seat.wind: seat.name for seat in self.seats.all()}


class Seat(models.Model):
    """A player at a wind of a session: the player's visit to the room (members app:
    a member or a paying non-member), a member's account, or a named guest."""

    room = room_field()
    session = models.ForeignKey(
        TableSession, on_delete=models.CASCADE, related_name="seats", verbose_name=_("session")
    )
    wind = models.CharField(_("wind"), max_length=1, choices=Wind.choices)
    name = models.CharField(_("player"), max_length=60)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="play_seats",
        verbose_name=_("member account"),
    )
    visit = models.ForeignKey(
        "members.Visit",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
        verbose_name=_("visit"),
    )
    #: why a manager typed a guest's name instead of seating a checked-in visit
    guest_reason = models.CharField(_("reason for a typed name"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["session", "wind"], name="play_seat_wind_unique"),
            # one account, one visit: one seat of a session
            models.UniqueConstraint(
                fields=["session", "user"],
                condition=models.Q(user__isnull=False),
                name="play_seat_account_once",
            ),
            models.UniqueConstraint(
                fields=["session", "visit"],
                condition=models.Q(visit__isnull=False),
                name="play_seat_visit_once",
            ),
            models.CheckConstraint(condition=models.Q(wind__in=SEATS), name="play_seat_wind_valid"),
            models.CheckConstraint(condition=~models.Q(name=""), name="play_seat_name_not_blank"),
        ]

    def __str__(self) -> str:
        return f"{self.get_wind_display()} {self.name}"


class Hand(AppendOnlyModel):
    """One row of a session's journal: a hand as played, or the reversal of one.

    ``number`` counts every row of the session from 1 without gaps (a reversal takes
    a number too). A played hand keeps its record (HAND_RECORD.md) and the result
    scoring gave under ``ruleset``; a reversal names the hand it ``voids``.

    Every row also keeps **the table's state after it** (``scoring.night.State``):
    who deals next and whether that hand is doubled, the deal's passes (将 and 圈),
    each seat's balance, what is owed since the last statement, and the 园子. The
    booking computes it under the session lock and writes it in the row's one
    INSERT; balances stay the sums of ledger lines, and ``play_check`` proves the
    stored states equal to a recomputation.
    """

    room = room_field()
    session = models.ForeignKey(
        TableSession, on_delete=models.PROTECT, related_name="hands", verbose_name=_("session")
    )
    number = models.PositiveIntegerField(_("number"))
    record = models.JSONField(_("record"))
    result = models.JSONField(_("result"))
    ruleset = models.ForeignKey(
        RulesetVersion, on_delete=models.PROTECT, related_name="+", verbose_name=_("ruleset")
    )
    idempotency_key = models.UUIDField(_("idempotency key"), unique=True)
    recorded_by = by_field(_("recorded by"), null=True)
    created_at = models.DateTimeField(_("recorded"), auto_now_add=True)
    voids = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="voided_by",
        verbose_name=_("voids"),
    )
    void_reason = models.CharField(_("reason"), max_length=200, blank=True)
    #: how many ledger lines the row has: the database refuses any line beyond them
    #: (they are written with the row, in its transaction: ``clubapp/play/guards.py``)
    line_count = models.PositiveSmallIntegerField(_("ledger lines"))
    # The table's state after this row: ``scoring.night.State``, each field in the column
    # of its name (``STATE_FIELDS``; the state's ``number`` is the row's). So ``dealer``
    # deals the *next* hand; this hand's dealer is ``record["dealer"]``.
    dealer = models.CharField(_("next dealer"), max_length=1, choices=Wind.choices)
    doubled = models.BooleanField(_("next hand doubled"))
    passes = models.PositiveIntegerField(_("deal passes"))
    hands = models.PositiveIntegerField(_("hands standing"))
    balances = models.JSONField(_("balances"))
    unsettled = models.JSONField(_("since the last statement"))
    due = models.BooleanField(_("statement due"))
    garden = models.PositiveSmallIntegerField(_("garden number"), null=True, blank=True)
    garden_left = models.JSONField(_("garden balances"), null=True, blank=True)

    class Meta:
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="play_hand_number_unique"),
            models.CheckConstraint(
                condition=models.Q(number__gte=1), name="play_hand_number_gte_1"
            ),
            models.CheckConstraint(
                condition=models.Q(voids__isnull=True, void_reason="")
                | (models.Q(voids__isnull=False) & ~models.Q(void_reason="")),
                name="play_hand_void_has_reason",
            ),
            models.CheckConstraint(
                condition=models.Q(dealer__in=SEATS), name="play_hand_next_dealer_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(garden__isnull=True, garden_left__isnull=True)
                | models.Q(garden__gte=1, garden_left__isnull=False),
                name="play_hand_garden_state",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session} #{self.number}"

    #: the columns that keep the table's state after the row: every field of
    #: ``scoring.night.State`` but ``number`` (the row's own), by the same name
    STATE_FIELDS = (
        "dealer", "doubled", "passes", "hands", "balances", "unsettled", "due", "garden",
        "garden_left",
    )  # fmt: skip

    @property
    def is_reversal(self) -> bool:
        return self.voids_id is not None

    @property
    def reversal(self) -> Hand | None:
        """The row that reversed this hand, if any."""
        try:
            return self.voided_by
        except Hand.DoesNotExist:
            return None

    def state(self) -> night.State:
        """The table's state after this row."""
        return night.State(
            number=self.number, **{name: getattr(self, name) for name in self.STATE_FIELDS}
        )

    @staticmethod
    def state_fields(state: night.State) -> dict[str, object]:
        """The row's columns that keep ``state`` (the inverse of ``state()``; the JSON
        columns take the state's mappings as plain dicts)."""
        fields = {name: getattr(state, name) for name in Hand.STATE_FIELDS}
        return {name: dict(v) if isinstance(v, Mapping) else v for name, v in fields.items()}


class LedgerLine(AppendOnlyModel):
    """One seat's points (花) in one entry: + received, − paid. The lines of an
    entry sum to zero (a deferred trigger checks it at commit on PostgreSQL)."""

    room = room_field()
    hand = models.ForeignKey(
        Hand, on_delete=models.PROTECT, related_name="lines", verbose_name=_("hand")
    )
    seat = models.CharField(_("seat"), max_length=1, choices=Wind.choices)
    #: the other side of the payment
    counterparty = models.CharField(_("counterparty"), max_length=1, choices=Wind.choices)
    points = models.IntegerField(_("points"))
    reason = models.CharField(_("reason"), max_length=20)

    class Meta:
        verbose_name = _("ledger line")
        verbose_name_plural = _("ledger lines")
        constraints = [
            models.CheckConstraint(condition=~models.Q(points=0), name="play_line_points_not_zero"),
            models.CheckConstraint(condition=models.Q(seat__in=SEATS), name="play_line_seat_valid"),
            models.CheckConstraint(
                condition=models.Q(counterparty__in=SEATS)
                & ~models.Q(counterparty=models.F("seat")),
                name="play_line_counterparty_valid",
            ),
            models.CheckConstraint(
                condition=~models.Q(reason=""), name="play_line_reason_not_blank"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hand} {self.seat} {self.points:+d}"


class Settlement(AppendOnlyModel):
    """A statement (结账) frozen when made: each seat's net over a window of rows
    and the fewest transfers that settle it. Never recomputed: a hand voided later
    shows up, reversed, in the next statement."""

    room = room_field()
    session = models.ForeignKey(
        TableSession,
        on_delete=models.PROTECT,
        related_name="settlements",
        verbose_name=_("session"),
    )
    number = models.PositiveIntegerField(_("number"))
    #: the journal rows it covers (hands and reversals, by number)
    first_number = models.PositiveIntegerField(_("from #"))
    last_number = models.PositiveIntegerField(_("through #"))
    statement = models.JSONField(_("statement"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    created_by = by_field(_("created by"), null=True)

    class Meta:
        verbose_name = _("settlement")
        verbose_name_plural = _("settlements")
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "number"], name="play_settlement_number_unique"
            ),
            models.UniqueConstraint(
                fields=["session", "last_number"], name="play_settlement_window_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(first_number__gte=1)
                & models.Q(last_number__gte=models.F("first_number")),
                name="play_settlement_window_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session} 结账 {self.number}"

    def get_absolute_url(self) -> str:
        return reverse("play:settlement", args=[self.session_id, self.number])


class HandSignoff(AppendOnlyModel):
    """A player's confirmation of a booked hand, given on their own phone."""

    room = room_field()
    hand = models.ForeignKey(
        Hand, on_delete=models.PROTECT, related_name="signoffs", verbose_name=_("hand")
    )
    seat = models.CharField(_("seat"), max_length=1, choices=Wind.choices)
    user = by_field(_("player"))
    created_at = models.DateTimeField(_("confirmed"), auto_now_add=True)

    class Meta:
        verbose_name = _("sign-off")
        verbose_name_plural = _("sign-offs")
        constraints = [
            models.UniqueConstraint(fields=["hand", "seat"], name="play_signoff_once_per_seat"),
            models.CheckConstraint(
                condition=models.Q(seat__in=SEATS), name="play_signoff_seat_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hand} ✓ {self.seat}"


class VoidRequest(models.Model):
    """A seated player's request to void a hand; a second seated player confirms it
    (that writes the reversal), or a manager voids the hand."""

    room = room_field()
    hand = models.ForeignKey(
        Hand, on_delete=models.PROTECT, related_name="void_requests", verbose_name=_("hand")
    )
    reason = models.CharField(_("reason"), max_length=200)
    seat = models.CharField(_("seat"), max_length=1, choices=Wind.choices)
    requested_by = by_field(_("asked by"))
    created_at = models.DateTimeField(_("asked"), auto_now_add=True)
    #: the reversal written when it was confirmed
    reversal = models.OneToOneField(
        Hand,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="void_request",
        verbose_name=_("reversal"),
    )

    class Meta:
        verbose_name = _("void request")
        verbose_name_plural = _("void requests")
        constraints = [
            models.UniqueConstraint(
                fields=["hand"],
                condition=models.Q(reversal__isnull=True),
                name="play_void_request_one_pending",
            ),
            models.CheckConstraint(
                condition=~models.Q(reason=""), name="play_void_request_has_reason"
            ),
            models.CheckConstraint(
                condition=models.Q(seat__in=SEATS), name="play_void_request_seat_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hand} ? {self.seat}"
