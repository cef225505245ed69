"""factory_boy factories shared by every app's tests."""

from __future__ import annotations

from typing import Any

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from clubapp.core.models import Room, UserRoom
from clubapp.core.roles import Role

# Every factory user has this password, for tests that go through the login form.
PASSWORD = "correct-horse-battery"


class RoomFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Room
        django_get_or_create = ("slug",)

    slug = "main"
    name = "测试棋牌室"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    first_name = factory.Sequence(lambda n: f"用户{n}")
    password = factory.django.Password(PASSWORD)

    @factory.post_generation
    def roles(self, create: bool, extracted: list[Role] | None, **kwargs: Any) -> None:
        """UserFactory(roles=[Role.MANAGER]) puts the user in those groups (made by migration).

        get_or_create: a transactional test (live server, PostgreSQL races) flushes the
        database afterwards, the migration's groups with it, and a browser test's
        connection cannot restore them from the serialized copy.
        """
        if create and extracted:
            self.groups.add(
                *(Group.objects.get_or_create(name=Role(r).value)[0] for r in extracted)
            )

    @factory.post_generation
    def room(self, create: bool, extracted: Room | bool | None, **kwargs: Any) -> None:
        """The user's room: the test room ("main") unless given; ``room=False``: none."""
        if not create or extracted is False:
            return
        room = extracted if isinstance(extracted, Room) else RoomFactory()
        UserRoom.objects.update_or_create(user=self, defaults={"room": room})
