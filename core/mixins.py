"""The view pieces every app's views share: service errors on forms, pages that render again
with a bound form, clamped page sizes.

Terms:
- service form: a form whose `form_valid` calls one service; the service's ValidationError
  becomes the form's errors (on the field it names, when the form has it).
- page: a view whose POST handlers, on a form error, render the page again with their bound form
  (status 400), so what was typed is kept.

The pieces that know the club (the current club, its sessions, its public pages) are the
club's: club.mixins. One-time forms: core.submissions; the visitors' cache: core.pages.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Page, Paginator
from django.shortcuts import redirect, render

MAX_PER_PAGE = 500


def add_service_errors(form, error: ValidationError, field_map: dict | None = None) -> None:
    """Put a service's ValidationError on the form: on its field where the form has it."""
    field_map = field_map or {}
    if hasattr(error, "error_dict"):
        for field, field_errors in error.error_dict.items():
            field = field_map.get(field, field)
            form.add_error(field if field in form.fields else None, field_errors)
    else:
        form.add_error(None, error)


class ServiceFormMixin:
    """form_valid calls `perform(form)`; a ValidationError from the service becomes form errors."""

    success_message = ""
    # The service's field names that the form calls otherwise (e.g. {"user": "login"}).
    service_field_map: dict[str, str] = {}

    def perform(self, form):
        raise NotImplementedError

    def form_valid(self, form):
        try:
            self.perform(form)
        except ValidationError as error:
            add_service_errors(form, error, self.service_field_map)
            return self.form_invalid(form)
        if self.success_message:
            messages.success(self.request, self.success_message)
        return redirect(self.get_success_url())


class CountedPage(Page):
    """A page whose length comes from its paginator's count and page size: asking whether it
    has rows (django-tables2's table template does) does not read them, for a table that
    reads its page's rows its own way."""

    def __len__(self):
        paginator = self.paginator
        bottom = (self.number - 1) * paginator.per_page
        top = bottom + paginator.per_page
        if top + paginator.orphans >= paginator.count:
            top = paginator.count
        return max(top - bottom, 0)


class ClampedPaginator(Paginator):
    """Django's paginator with the page size held to 1..MAX_PER_PAGE: django-tables2 takes
    `?per_page=` from the query string, and 0 or less (or a huge number) made the page fail.
    `count`, when the view has already read how many rows there are (with other sums), is
    taken as the rows' count instead of counting them again, and its pages know their length
    from it (`CountedPage`)."""

    def __init__(self, object_list, per_page, *args, count=None, **kwargs):
        per_page = min(max(int(per_page), 1), MAX_PER_PAGE)
        super().__init__(object_list, per_page, *args, **kwargs)
        self.count_given = count is not None
        if self.count_given:
            self.count = count  # Paginator.count is a cached property: this is its value

    def _get_page(self, *args, **kwargs):
        if self.count_given:
            return CountedPage(*args, **kwargs)
        return super()._get_page(*args, **kwargs)


class PageMixin:
    """A page whose POST views, on a form error, render it again with their bound form:
    `page_context(**overrides)` builds the context, `render_page` renders it."""

    template_name = ""

    def page_context(self, **overrides) -> dict:
        raise NotImplementedError

    def render_page(self, status=200, **overrides):
        return render(
            self.request, self.template_name, self.page_context(**overrides), status=status
        )
