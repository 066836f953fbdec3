"""Views of the scoring app: the public hand counter.

The counter answers a plain GET form (works without JavaScript); with JavaScript the page asks
for just the result fragment (header `X-Requested-With: fetch`) and swaps it in without a reload.
"""

from django.views.generic import TemplateView

from scoring.engine import DECK, SUITS
from scoring.forms import HandCounterForm

FRAGMENT_HEADER = "fetch"


class HandCounterView(TemplateView):
    template_name = "scoring/counter.html"
    fragment_template_name = "scoring/includes/count_result.html"

    def is_fragment(self) -> bool:
        return self.request.headers.get("X-Requested-With") == FRAGMENT_HEADER

    def get_template_names(self):
        return [self.fragment_template_name if self.is_fragment() else self.template_name]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        asked = "hand" in self.request.GET or "starter" in self.request.GET
        form = HandCounterForm(self.request.GET if asked else None)
        context["form"] = form
        context["fragment"] = self.is_fragment()
        context["counted"] = form.counted if asked and form.is_valid() else None
        context["suits"] = [[card for card in DECK if card.suit == suit] for suit in SUITS]
        return context
