"""The tournament's public pages: the qualifying standings with the cut line, and the bracket.
Public while the club publishes its standings (club.mixins.PublicReadMixin), else its members'.

Terms (tournaments.models, tournaments.bracket):
- cut line: drawn after the last qualifier; before qualifying closes it falls after the
  `qualifier_count` best as the standings are now, and a tie across it is named (a cut of the
  cards decides it at the close); after, the qualifiers are the seeds (`Tournament.seeds`).
- chart: the bracket as the page draws it (tournaments.chart).

Every page asks a fixed number of queries whatever the size of the tournament.
"""

from __future__ import annotations

from dataclasses import replace

from django.shortcuts import get_object_or_404
from django.views.generic import TemplateView

from club.mixins import ClubMixin, PublicReadMixin
from tournaments.bracket import bracket_size, bye_count, qualifier_count
from tournaments.chart import chart
from tournaments.models import Stage, Tournament
from tournaments.selectors import (
    QualifyingRow,
    bracket,
    bracket_scores,
    entrant_count,
    qualifying_progress,
    qualifying_standings,
)


class TournamentMixin(PublicReadMixin, ClubMixin):
    """A page of the tournament the URL's `pk` names, within the current club (else 404)."""

    permission_required = "club.view_session"

    def get_tournament(self) -> Tournament:
        if not hasattr(self, "tournament"):
            self.tournament = get_object_or_404(
                Tournament.objects.select_related("champion"), pk=self.kwargs["pk"], club=self.club
            )
        return self.tournament

    def get_context_data(self, **kwargs):
        return super().get_context_data(tournament=self.get_tournament(), **kwargs)


def straddle(rows: list[QualifyingRow], cut: int) -> tuple[int, int] | None:
    """The places (first, last) of a tie that runs across the cut line, or None."""
    if not 0 < cut < len(rows) or rows[cut - 1].rank != rows[cut].rank:
        return None
    level = [place for place, row in enumerate(rows, start=1) if row.rank == rows[cut].rank]
    return level[0], level[-1]


class StandingsView(TournamentMixin, TemplateView):
    template_name = "tournaments/standings.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tournament = self.get_tournament()
        rows = qualifying_standings(tournament)
        seeds = {player: seed for seed, player in enumerate(tournament.seeds, start=1)}
        if seeds:
            # Players level on every measure share a rank; the cut of the cards put some of them
            # in: list those first, in seed order, so the line falls after the last qualifier.
            rows.sort(
                key=lambda row: (row.rank, row.player_id not in seeds, seeds.get(row.player_id, 0))
            )
            rows = [replace(row, seed=seeds.get(row.player_id)) for row in rows]
        cut = sum(1 for row in rows if row.in_cut)
        closed = tournament.stage in (Stage.PLAYOFFS, Stage.FINISHED)
        drawn = entered = 0
        if not closed:
            drawn, entered = qualifying_progress(tournament)
        return context | {
            "rows": rows,
            "seeds": bool(seeds),
            "last_qualifier": rows[cut - 1].player_id if cut and cut < len(rows) else None,
            "closed": closed,
            "cut": cut,
            "entrants": len(rows),
            "drawn": drawn,
            "entered": entered,
            # Before the first round everyone is level: no tie worth naming yet.
            "straddle": straddle(rows, cut) if drawn else None,
        }


class BracketView(TournamentMixin, TemplateView):
    template_name = "tournaments/bracket.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tournament = self.get_tournament()
        rounds = bracket(tournament)
        if rounds:
            matches = [match for each in rounds.values() for match in each]
            halves = chart(rounds, bracket_scores(matches))
            return context | {"halves": halves, "size": 2 * len(rounds[1])}
        entrants = entrant_count(tournament)
        expected = {"entrants": entrants}
        if entrants >= 2:
            qualifiers = qualifier_count(entrants)
            expected |= {
                "qualifiers": qualifiers,
                "size": bracket_size(qualifiers),
                "byes": bye_count(qualifiers),
            }
        return context | {"halves": [], "expected": expected}
