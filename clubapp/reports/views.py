"""Pages and downloads of the reports app: thin, the work is in selectors and writers."""

from __future__ import annotations

import io
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_safe

from clubapp.core.http import AuthenticatedRequest
from clubapp.core.rooms import scoped
from clubapp.members.models import Card, Receipt
from clubapp.play.models import Seat, TableSession
from clubapp.reports import cards, charts, lists, selectors, workbooks, xlsx
from clubapp.reports.forms import CardBatchForm
from clubapp.reports.pdf import render_template_pdf
from clubapp.reports.permissions import (
    can_print_cards,
    can_read_books,
    can_read_district,
    can_read_room,
    requires,
)
from clubapp.reports.selectors import Month
from clubapp.reports.tables import list_table

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PDF = "application/pdf"
PER_PAGE = 50
PDF_ROWS = 25


def file_response(data: bytes, filename: str, content_type: str) -> FileResponse:
    """A download under a Chinese file name (Django writes ``filename*=utf-8''…``)."""
    response = FileResponse(
        io.BytesIO(data), as_attachment=True, filename=filename, content_type=content_type
    )
    response["Cache-Control"] = "private, no-store"
    return response


def _month(request: HttpRequest) -> Month:
    try:
        return Month.parse(request.GET.get("month", ""))
    except ValueError:
        return Month.of(timezone.localdate())


def monthly_context(report: selectors.MonthlyReport, *, pdf: bool) -> dict[str, Any]:
    """What the monthly report's template gets, page and PDF alike."""
    return {
        "report": report,
        "room": report.room,
        "doc_title": _("Monthly report %(month)s") % {"month": report.month.label},
        "busiest_chart": charts.data_url(
            charts.busiest_hours_svg(report.visits, title=_("Busiest hours"))
        ),
        "layout": "reports/document.html" if pdf else "base.html",
        "pdf": pdf,
        # a PDF is a summary to hand on: long lists show their first rows (WeasyPrint
        # lays out about two pages a second), the page and the xlsx show every row
        "pdf_rows": PDF_ROWS,
        "row_limit": f":{PDF_ROWS}" if pdf else ":",
    }


@require_safe
@requires(can_read_books)
def monthly(request: AuthenticatedRequest) -> HttpResponse:
    report = selectors.monthly_report(room=request.room, month=_month(request))
    return render(request, "reports/monthly.html", monthly_context(report, pdf=False))


@require_safe
@requires(can_read_books)
def monthly_xlsx(request: AuthenticatedRequest) -> HttpResponseBase:
    report = selectors.monthly_report(room=request.room, month=_month(request))
    return file_response(workbooks.monthly_workbook(report), f"{report.month.label}月报.xlsx", XLSX)


@require_safe
@requires(can_read_books)
def monthly_pdf(request: AuthenticatedRequest) -> HttpResponseBase:
    report = selectors.monthly_report(room=request.room, month=_month(request))
    data = render_template_pdf("reports/monthly.html", monthly_context(report, pdf=True))
    return file_response(data, f"{report.month.label}月报.pdf", PDF)


# -------------------------------------------------------------------- lists


def _spec(request: AuthenticatedRequest, slug: str) -> lists.ListSpec:
    spec = lists.LISTS.get(slug)
    if spec is None:
        raise Http404
    if not spec.can_read(request.user):
        raise PermissionDenied
    return spec


def export_filename(spec: lists.ListSpec, form_data: dict[str, Any], suffix: str) -> str:
    """``2026年11月收支.xlsx`` when the rows are one calendar month, else the list's
    name and today's date (``会员名单_2026-12-01.csv``)."""
    days = next(
        (form_data[k] for k in ("day", "book_date", "registered", "created") if form_data.get(k)),
        None,
    )
    if days and days.start and days.stop:
        # django-filter's date range cleans to the first and the last moment
        start, stop = timezone.localdate(days.start), timezone.localdate(days.stop)
        month = Month.of(start)
        if start == month.first_day and stop == month.last_day:
            return f"{month.label}{spec.file_stem}.{suffix}"
    return f"{spec.file_stem}_{timezone.localdate().isoformat()}.{suffix}"


@require_safe
@login_required
def list_page(request: AuthenticatedRequest, slug: str) -> HttpResponse:
    spec = _spec(request, slug)
    filterset = lists.filtered(spec, request.room, request.GET)
    qs = filterset.qs
    paginator = Paginator(qs, PER_PAGE)
    page = paginator.get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    rows = spec.rows(cast(QuerySet[Any], page.object_list))  # a page of qs
    return render(
        request,
        "reports/list.html",
        {
            "spec": spec,
            "filter": filterset,
            "table": list_table(spec, rows),
            "page": page,
            "query": query.urlencode(),
        },
    )


@require_safe
@login_required
def list_export(request: AuthenticatedRequest, slug: str, fmt: str) -> HttpResponseBase:
    """The filtered rows of the list, every one of them (not only the page shown),
    streamed: the download starts before the file is finished."""
    spec = _spec(request, slug)
    filterset = lists.filtered(spec, request.room, request.GET)
    qs = filterset.qs
    data = filterset.form.cleaned_data if filterset.is_bound and filterset.is_valid() else {}
    columns = spec.columns()
    total = _("Total") if spec.total else None
    if fmt == "xlsx":
        body = xlsx.xlsx_stream(str(spec.title), columns, spec.rows(qs), total_label=total)
        content_type = XLSX
    else:
        body = xlsx.csv_stream(columns, spec.rows(qs))
        content_type = "text/csv; charset=utf-8"
    response = StreamingHttpResponse(scoped(request.room, body), content_type=content_type)
    disposition = content_disposition_header(True, export_filename(spec, data, fmt))
    assert disposition is not None  # an attachment always has one
    response["Content-Disposition"] = disposition
    response["Cache-Control"] = "private, no-store"
    return response


# --------------------------------------------------------- settlement sheet


def _sheet(
    request: AuthenticatedRequest, pk: int
) -> tuple[selectors.SettlementSheet, dict[str, Any]]:
    session = get_object_or_404(
        TableSession.objects.select_related("ruleset"), pk=pk, room=request.room
    )
    seated = Seat.objects.filter(session=session, user_id=request.user.pk).exists()
    if not (seated or can_read_room(request.user)):
        raise PermissionDenied
    sheet = selectors.settlement_sheet(session=session)
    title = _("Table %(table)s · %(day)s · settlement sheet") % {
        "table": session.table_number,
        "day": timezone.localtime(session.started_at).strftime("%Y-%m-%d"),
    }
    return sheet, {"sheet": sheet, "room": request.room, "doc_title": title}


def _sheet_filename(sheet: selectors.SettlementSheet, suffix: str) -> str:
    day = timezone.localtime(sheet.session.started_at).strftime("%Y-%m-%d")
    return f"结账单_{day}_{sheet.session.table_number}号桌.{suffix}"


@require_safe
@login_required
def sheet_page(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    _sheet_obj, context = _sheet(request, pk)
    return render(
        request, "reports/settlement_sheet.html", {**context, "layout": "base.html", "pdf": False}
    )


@require_safe
@login_required
def sheet_pdf(request: AuthenticatedRequest, pk: int) -> HttpResponseBase:
    sheet, context = _sheet(request, pk)
    data = render_template_pdf(
        "reports/settlement_sheet.html", {**context, "layout": "reports/document.html"}
    )
    return file_response(data, _sheet_filename(sheet, "pdf"), PDF)


@require_safe
@login_required
def sheet_xlsx(request: AuthenticatedRequest, pk: int) -> HttpResponseBase:
    sheet, context = _sheet(request, pk)
    data = workbooks.settlement_workbook(
        sheet, title=f"{context['room'].name} · {context['doc_title']}"
    )
    return file_response(data, _sheet_filename(sheet, "xlsx"), XLSX)


# ----------------------------------------------------------- cards, receipts


def _card_for(request: AuthenticatedRequest, pk: int) -> Card:
    card = get_object_or_404(
        Card.objects.select_related("member"), pk=pk, member__room=request.room
    )
    own = card.member.user_id is not None and card.member.user_id == request.user.pk
    if not (own or can_print_cards(request.user)):
        raise PermissionDenied
    return card


@require_safe
@login_required
def card_pdf(request: AuthenticatedRequest, pk: int) -> HttpResponseBase:
    """One 会员证 at ID-1 size: for the manager, or the member whose card it is."""
    card = _card_for(request, pk)
    data = render_template_pdf(
        "reports/card_single.html", {"card": cards.card_doc(card), "room": request.room}
    )
    return file_response(data, f"会员证_{card.number}.pdf", PDF)


@require_safe
@requires(can_print_cards)
def card_batch(request: AuthenticatedRequest) -> HttpResponse:
    """Choose the cards to print ten to an A4 sheet (GET shows the choice; the PDF
    link carries it)."""
    form = CardBatchForm(request.GET or None)
    chosen = form.cards(request.room) if form.is_valid() else Card.objects.none()
    return render(
        request,
        "reports/card_batch.html",
        {
            "form": form,
            "cards": chosen[:200],
            "count": chosen.count(),
            "query": request.GET.urlencode(),
        },
    )


@require_safe
@requires(can_print_cards)
def card_sheet_pdf(request: AuthenticatedRequest) -> HttpResponseBase:
    form = CardBatchForm(request.GET or None)
    if not form.is_valid():
        return redirect("reports:cards")
    docs = cards.cards_for_print(form.cards(request.room))
    if not docs:
        messages.error(request, _("No card matches: nothing to print."))
        return redirect(f"{reverse('reports:cards')}?{request.GET.urlencode()}")
    pages = [
        [{"x": s.x, "y": s.y, "card": s.card, "marks": cards.crop_marks(s)} for s in page]
        for page in cards.sheet_slots(docs)
    ]
    data = render_template_pdf("reports/card_sheet.html", {"pages": pages, "room": request.room})
    return file_response(data, f"会员证_{timezone.localdate().isoformat()}.pdf", PDF)


@require_safe
@requires(can_read_room)
def receipt_pdf(request: AuthenticatedRequest, number: str) -> HttpResponseBase:
    receipt = get_object_or_404(
        Receipt.objects.select_related("card", "visit", "received_by"),
        number=number,
        room=request.room,
    )
    data = render_template_pdf(
        "reports/receipt.html", {"doc": cards.receipt_doc(receipt), "room": request.room}
    )
    return file_response(data, f"收据_{receipt.number}.pdf", PDF)


# ------------------------------------------------------------------- today


@require_safe
@requires(can_read_room)
def today(request: AuthenticatedRequest) -> HttpResponse:
    """Today's page (also the home page of managers and accountants)."""
    return render(request, "reports/today.html", {"today": selectors.today_desk(room=request.room)})


# ----------------------------------------------------------------- district

#: the district page's figures: (field of RoomTotals, label, workbook kind)
DISTRICT_FIGURES = [
    ("active_members", _lazy("Valid cards at the month's end"), "int"),
    ("member_visits", _lazy("Member visits"), "int"),
    ("guest_visits", _lazy("Non-member visits"), "int"),
    ("sessions", _lazy("Table sessions"), "int"),
    ("hands", _lazy("Hands played"), "int"),
    ("income", _lazy("Income (yuan)"), "yuan"),
    ("expenses", _lazy("Expenses (yuan)"), "yuan"),
    ("handed_over", _lazy("Handed over (yuan)"), "yuan"),
    ("cash_on_hand", _lazy("Cash on hand at the month's end (yuan)"), "yuan"),
]


@require_safe
@requires(can_read_district)
def district(request: AuthenticatedRequest) -> HttpResponse:
    """Every room's totals of a month side by side (a figure per row, a room per
    column): read only, for the district readers and the superuser."""
    month = _month(request)
    rows, sums = selectors.district_totals(month=month)
    figures = [
        (label, [getattr(row, name) for row in rows], sums[name])
        for name, label, _kind in DISTRICT_FIGURES
    ]
    return render(
        request,
        "reports/district.html",
        {"month": month, "rooms": [row.room for row in rows], "figures": figures},
    )


@require_safe
@requires(can_read_district)
def district_xlsx(request: AuthenticatedRequest) -> HttpResponseBase:
    """The district page as a workbook: a room per row, a figure per column, a total."""
    month = _month(request)
    rows, _sums = selectors.district_totals(month=month)
    columns = [xlsx.Column(_("Room"), "text", 16)] + [
        xlsx.Column(label, kind, 10, total=True) for _name, label, kind in DISTRICT_FIGURES
    ]
    book = xlsx.workbook()
    xlsx.table_sheet(
        book,
        _("Rooms %(month)s") % {"month": month.label},
        columns,
        (
            [row.room.name] + [getattr(row, name) for name, _l, _k in DISTRICT_FIGURES]
            for row in rows
        ),
        heading=[_("The rooms side by side, %(month)s") % {"month": month.label}],
        total_label=_("Total"),
    )
    return file_response(xlsx.workbook_bytes(book), f"{month.label}各活动室.xlsx", XLSX)
