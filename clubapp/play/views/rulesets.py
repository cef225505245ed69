"""Ruleset versions: the list and the editor (a manager's)."""

from __future__ import annotations

import json

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from clubapp.core.http import AuthenticatedRequest
from clubapp.play import selectors, services
from clubapp.play.forms import RulesetForm
from clubapp.play.permissions import (
    can_edit_rulesets,
    reader,
    ruleset_editor,
)
from clubapp.play.refusals import said
from scoring import ScoringError


@reader
def ruleset_list(request: AuthenticatedRequest) -> HttpResponse:
    # versions (hashes) and ruleset ids are the managers' (and a superuser's), here
    # only: the table pages name a ruleset, never its codes; the others see each
    # ruleset by name (its newest version)
    show_codes = can_edit_rulesets(request.user) or request.user.is_superuser
    return render(
        request,
        "play/ruleset_list.html",
        {
            "rulesets": selectors.ruleset_version_list(room=request.room)
            if show_codes
            else selectors.ruleset_versions_latest(room=request.room),
            "can_edit": can_edit_rulesets(request.user),
            "show_codes": show_codes,
        },
    )


#: the editor's JSON keys behind the columns a stored version may not fit
_RULESET_KEYS = {"ruleset_id": gettext_lazy("the id (id)"), "name": gettext_lazy("the name (name)")}


@ruleset_editor
@require_http_methods(["GET", "POST"])
def ruleset_edit(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Edit a copy of a stored version; saving stores a new version (old hands keep theirs)."""
    base = selectors.ruleset_version_get(room=request.room, pk=pk)
    initial = {"params": json.dumps(base.params, ensure_ascii=False, indent=2)}
    form = RulesetForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            saved = services.ruleset_version_save(
                params=form.cleaned_data["params"], room=request.room
            )
        except ScoringError as exc:
            form.add_error("params", said(exc))
        except ValidationError as exc:
            for name, errors in exc.message_dict.items():
                label = _RULESET_KEYS.get(name, name)
                for error in errors:
                    form.add_error(
                        "params", _("%(field)s: %(error)s") % {"field": label, "error": error}
                    )
        else:
            messages.success(
                request, _("Saved as version %(version)s.") % {"version": saved.version}
            )
            return redirect("play:rulesets")
    return render(request, "play/ruleset_edit.html", {"form": form, "base": base})
