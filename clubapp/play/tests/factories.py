"""factory_boy factories of the play app."""

from __future__ import annotations

import factory
from django.utils import timezone

from clubapp.core.tests.factories import RoomFactory
from clubapp.play.models import RulesetVersion, Seat, TableSession


def shipped(ruleset_id: str = "nanjing") -> RulesetVersion:
    """The stored version of a shipped ruleset (the data migration stores them)."""
    return RulesetVersion.objects.filter(ruleset_id=ruleset_id).latest("id")


class TableSessionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TableSession
        skip_postgeneration_save = True

    room = factory.SubFactory(RoomFactory)
    table_number = factory.Sequence(lambda n: n % 90 + 1)
    ruleset = factory.LazyFunction(shipped)
    started_at = factory.LazyFunction(timezone.now)

    @factory.post_generation
    def seats(self, create: bool, extracted: object, **kwargs: object) -> None:
        """Four guest seats 东南西北 unless ``seats=False``."""
        if create and extracted is not False:
            for wind, name in zip("ESWN", ("老王", "小李", "阿张", "赵姐"), strict=True):
                Seat.objects.create(session=self, wind=wind, name=name)
