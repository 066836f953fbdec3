"""The organisers' table cards page (`/games/table-cards/`): one card per table number of the
club, laid out for print (the table number large, its QR code, its short link, the club's name),
a form to make the cards the club is missing or more, and "New cards" with its warning
(games.services.table_cards; docs/club/table-links.md "Table cards").

The cards' links are keys to the tables, so the page is never cached (`Cache-Control:
no-store`), as the seating chart is not. The links' host is `PEGBOARD_BASE_URL` when set; a
loopback host no phone can open gets a warning on screen.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import PermissionRequiredMixin
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.generic import View

from club.mixins import ClubMixin
from club.views.logins import NeverCachedMixin
from core.mixins import PageMixin, add_service_errors
from core.qr import absolute_url, is_local_only, qr_svg
from core.submissions import AlreadySaved
from games import services
from games.forms import TableCardsForm, TableCardsRenewForm


def _which(made) -> str:
    """ "table 5", "tables 1 to 4" or "tables 2, 5" for the cards just made."""
    numbers = [card.number for card in made]
    if len(numbers) == 1:
        return f"table {numbers[0]}"
    if numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"tables {numbers[0]} to {numbers[-1]}"
    return "tables " + ", ".join(map(str, numbers))


class TableCardsView(NeverCachedMixin, PermissionRequiredMixin, ClubMixin, PageMixin, View):
    """The cards (GET); its form posts here to make the cards for tables 1 to N that the club
    does not have yet."""

    template_name = "games/table_cards.html"

    def get_permission_required(self):
        if self.request.method == "POST":
            return ("games.add_tablecard",)
        return ("games.view_tablecard",)

    def get(self, request):
        return self.render_page()

    def post(self, request):
        form = TableCardsForm(request.POST)
        if form.is_valid():
            up_to = form.cleaned_data["up_to"]
            try:
                made = services.table_cards_make(club=self.club, actor=request.user, up_to=up_to)
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                if made:
                    messages.success(request, f"Made the cards of {_which(made)}: print them.")
                else:
                    messages.info(request, f"Tables 1 to {up_to} have their cards already.")
                return redirect("games:table_cards")
        return self.render_page(status=400, make_form=form)

    def page_context(self, **overrides) -> dict:
        club = self.club
        cards = list(services.current_cards(club))
        for card in cards:
            path = reverse("table:page", args=[card.token])
            card.link = absolute_url(self.request, path)
            card.link_host = card.link.split("://", 1)[-1].removesuffix(path)
            card.link_path = path
            card.qr = qr_svg(card.link, title=f"Table {card.number}: {card.link}")
        numbers = {card.number for card in cards}
        most = services.most_tables(club)
        highest = max(numbers, default=0)
        context = {
            "cards": cards,
            "most": most,
            "missing": [number for number in range(1, most + 1) if number not in numbers],
            "links_off": not club.table_links,
            "local_only": bool(cards) and is_local_only(cards[0].link),
            "make_form": TableCardsForm(initial={"up_to": max(most, highest + 1)}),
        }
        context.update(overrides)
        return context


class TableCardsRenewView(NeverCachedMixin, PermissionRequiredMixin, ClubMixin, View):
    """ "New cards": the page warns that every printed card stops working and asks to confirm
    (GET); the confirm button posts. Pressed twice, the cards are made new once."""

    permission_required = "games.change_tablecard"
    template_name = "games/table_cards_renew.html"

    def render_page(self, form: TableCardsRenewForm, status: int = 200):
        cards = list(services.current_cards(self.club))
        highest = cards[-1].number if cards else 0
        context = {"cards": cards, "highest": highest, "form": form}
        return render(self.request, self.template_name, context, status=status)

    def get(self, request):
        return self.render_page(TableCardsRenewForm())

    def post(self, request):
        form = TableCardsRenewForm(request.POST)
        if form.is_valid():
            try:
                made = services.table_cards_renew(
                    club=self.club, actor=request.user, token=form.submission_token()
                )
            except AlreadySaved as done:
                messages.info(request, done.message)
                return redirect("games:table_cards")
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(
                    request,
                    f"{len(made)} new card{'s' if len(made) != 1 else ''}: print them and put "
                    "them on the tables. The old cards no longer open a table.",
                )
                return redirect("games:table_cards")
        return self.render_page(form, status=400)
