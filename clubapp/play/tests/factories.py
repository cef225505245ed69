"""factory_boy factories of the play app."""

from __future__ import annotations

import factory
from django.utils import timezone

import scoring.rulesets
from clubapp.core.tests.factories import RoomFactory
from clubapp.members.models import Table
from clubapp.play.models import RulesetVersion, Seat, TableSession


def shipped(ruleset_id: str = "nanjing") -> RulesetVersion:
    """The stored version of a shipped ruleset.

    The data migration stores them, but transactional tests flush the tables
    after each test, so this stores it again when it is missing.
    """
    from clubapp.play.services import ruleset_version_save

    return ruleset_version_save(params=scoring.rulesets.get(ruleset_id).params, room=None)


class TableSessionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TableSession
        skip_postgeneration_save = True

    room = factory.SubFactory(RoomFactory)
    table_number = factory.Sequence(lambda n: n % 900 + 1)
    #: the room's table of that number (made when the room has none)
    table = factory.LazyAttribute(
        lambda o: Table.objects.get_or_create(room=o.room, number=o.table_number)[0]
    )
    ruleset = factory.LazyFunction(shipped)
    started_at = factory.LazyFunction(timezone.now)

    @factory.post_generation
    def seats(self, create: bool, extracted: object, **kwargs: object) -> None:
        """Four guest seats 东南西北 unless ``seats=False``."""
        if create and extracted is not False:
            for wind, name in zip("ESWN", ("老王", "小李", "阿张", "赵姐"), strict=True):
                Seat.objects.create(room=self.room, session=self, wind=wind, name=name)

    @factory.post_generation
    def seated(self, create: bool, extracted: object, **kwargs: object) -> None:
        """``seated=user``: that account sits at 东 (the seat keeps its name), so the
        user reads and records at this table as its player."""
        if create and extracted is not None:
            Seat.objects.filter(session=self, wind="E").update(user=extracted)


def discard_win(seat: str = "S", discarder: str = "E", hard: int = 4, **extra: object) -> dict:
    """A quick-entry record: ``seat`` wins on ``discarder``'s tile, a small hand."""
    win = {"seat": seat, "discarder": discarder, "hard_flowers": hard, "soft_flowers": 0}
    win["features"] = []
    win.update(extra)
    return {"wins": [win]}


def self_drawn(seat: str = "E", hard: int = 4, features: tuple[str, ...] = ("menqing",)) -> dict:
    """A quick-entry record: ``seat`` wins self-drawn (门清 by default)."""
    return {
        "wins": [{"seat": seat, "hard_flowers": hard, "soft_flowers": 1, "features": [*features]}]
    }


def drawn_hand() -> dict:
    return {"wins": []}


def book(session, record: dict, by=None):
    """Book a record through the service with a fresh idempotency key."""
    import uuid

    from clubapp.play.services import hand_record

    return hand_record(session=session, record=record, idempotency_key=uuid.uuid4(), by=by)


def state_of(session):
    """The table's state now (after the journal's last row)."""
    from clubapp.play.selectors import journal_tip

    return journal_tip(session=session).state


def hand_data(**fields) -> dict:
    """What the entry page's form sends: the management forms of its kong and penalty
    rows, and ``fields`` named as on the page (``winners``, ``S-hard``, ``kong-0-seat``)."""
    return {
        "kong-TOTAL_FORMS": "4",
        "kong-INITIAL_FORMS": "0",
        "penalty-TOTAL_FORMS": "2",
        "penalty-INITIAL_FORMS": "0",
        **fields,
    }
