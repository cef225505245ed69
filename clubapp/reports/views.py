"""Pages and downloads of the reports app: thin, the work is in selectors and writers."""

from __future__ import annotations

import io
from typing import Any

from django.http import FileResponse, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from clubapp.core.selectors import room_get
from clubapp.reports import charts, selectors, workbooks
from clubapp.reports.pdf import render_template_pdf
from clubapp.reports.permissions import can_read_books, requires
from clubapp.reports.selectors import Month

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PDF = "application/pdf"


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
        "busiest_svg": charts.busiest_hours_svg(report.visits, title=_("Busiest hours")),
        "layout": "reports/document.html" if pdf else "base.html",
        "pdf": pdf,
    }


@require_safe
@requires(can_read_books)
def monthly(request: HttpRequest) -> HttpResponse:
    report = selectors.monthly_report(room=room_get(), month=_month(request))
    return render(request, "reports/monthly.html", monthly_context(report, pdf=False))


@require_safe
@requires(can_read_books)
def monthly_xlsx(request: HttpRequest) -> HttpResponse:
    report = selectors.monthly_report(room=room_get(), month=_month(request))
    return file_response(workbooks.monthly_workbook(report), f"{report.month.label}月报.xlsx", XLSX)


@require_safe
@requires(can_read_books)
def monthly_pdf(request: HttpRequest) -> HttpResponse:
    report = selectors.monthly_report(room=room_get(), month=_month(request))
    data = render_template_pdf("reports/monthly.html", monthly_context(report, pdf=True))
    return file_response(data, f"{report.month.label}月报.pdf", PDF)
