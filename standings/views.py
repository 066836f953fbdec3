"""Views of the standings app: the season table, the all-time table with records and
highlights, and a player's page with their season, head-to-head and charts. Public when the club
publishes its standings; visitors get them from the cache (club.mixins.ClubVisitorCacheMixin).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import MAXYEAR, MINYEAR

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.views.generic import TemplateView
from django_tables2 import SingleTableMixin

from club.mixins import ClubMixin, ClubVisitorCacheMixin, PublicReadMixin
from club.models import Player
from club.seasons import season_label
from club.selectors import current_club
from core.export import CsvExportMixin
from money.selectors import may_see_player_money
from standings import catch_up
from standings.charts import Point, bar_chart_svg, line_chart_svg
from standings.highlights import GRAND_SLAM_GAMES, STREAK_GAMES
from standings.models import PROVISIONAL_GAMES
from standings.rating_selectors import (
    PlayerRating,
    current_ratings,
    expected_vs_actual,
    player_rating_history,
    player_rating_now,
    ratings_pending_from,
)
from standings.ratings import MODEL
from standings.selectors import (
    SeasonStanding,
    all_time_standings_cached,
    club_records_cached,
    club_seasons,
    player_season_cached,
    season_table_cached,
)
from standings.tables import RatingTable, SeasonStandingTable, rating_text


def with_ratings(rows: list[SeasonStanding], ratings: list[PlayerRating]) -> list[SeasonStanding]:
    """The table's rows with each rated player's rating (the ordinal) and provisional mark."""
    by_player = {rating.player_id: rating for rating in ratings}
    return [
        replace(row, rating=rating.ordinal, provisional=rating.provisional)
        if (rating := by_player.get(row.player_id))
        else row
        for row in rows
    ]


class SeasonMixin(PublicReadMixin, ClubMixin):
    """Standings pages: public when the club publishes them; `?season=` picks the season. Each
    shows ratings, so each says when they are still being replayed (`ratings_pending_from`)."""

    permission_required = "club.view_session"

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            ratings_pending_from=ratings_pending_from(self.club), **kwargs
        )

    def seasons(self) -> list[int]:
        if not hasattr(self, "_seasons"):
            # A season whose dates the calendar cannot hold is never listed (a mistyped year
            # stored before session dates were checked on entry).
            self._seasons = [s for s in club_seasons(self.club) if MINYEAR <= s < MAXYEAR]
        return self._seasons

    def default_season(self) -> int:
        """This season if the club played in it, else the latest before it, else the earliest
        after it: one session dated far ahead must not take every visitor there."""
        seasons = self.seasons()
        now = self.club.season_of(timezone.localdate())
        if not seasons:
            return now
        played = [season for season in seasons if season <= now]
        return max(played) if played else min(seasons)

    def season_context(self) -> dict:
        """The season shown, its name, and the picker's (season, name) choices: named as the
        session list names them (club.seasons.season_label)."""
        season = self.season()
        return {
            "season": season,
            "season_label": season_label(self.club, season),
            "seasons": [(each, season_label(self.club, each)) for each in self.seasons()],
        }

    def season(self) -> int:
        seasons = self.seasons()
        default = self.default_season()
        try:
            season = int(self.request.GET.get("season", default))
        except ValueError:
            raise Http404("Pick a season from the list.") from None
        # Before the first session no season is listed: a year no date can have is still a 404.
        if (seasons and season not in seasons) or not MINYEAR <= season < MAXYEAR:
            raise Http404("The club has no such season.")
        return season


class StandingsView(
    ClubVisitorCacheMixin, SeasonMixin, CsvExportMixin, SingleTableMixin, TemplateView
):
    template_name = "standings/standings.html"
    table_class = SeasonStandingTable
    table_pagination = False
    visitor_cache_params = ("season", "sort", "_export")

    def get_export_filename(self, export_format):
        return f"standings-{self.season()}.{export_format}"

    def get_table_data(self):
        season = self.season()
        return with_ratings(
            season_table_cached(self.club, season).standings,
            current_ratings(self.club, season=season),
        )

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            **self.season_context(),
            best=self.club.best_sessions,
            provisional_games=PROVISIONAL_GAMES,
            **kwargs,
        )


class AllTimeView(
    ClubVisitorCacheMixin, SeasonMixin, CsvExportMixin, SingleTableMixin, TemplateView
):
    template_name = "standings/all_time.html"
    table_class = SeasonStandingTable
    table_pagination = False
    visitor_cache_params = ("sort", "_export")
    export_name = "all-time"

    def get_table_data(self):
        if not hasattr(self, "standings"):
            self.standings = with_ratings(
                all_time_standings_cached(self.club), current_ratings(self.club)
            )
        return self.standings

    def get_context_data(self, **kwargs):
        records = club_records_cached(self.club, standings=self.get_table_data())
        return super().get_context_data(
            records=records,
            provisional_games=PROVISIONAL_GAMES,
            streak_games=STREAK_GAMES,
            grand_slam_games=GRAND_SLAM_GAMES,
            **kwargs,
        )


class RatingsView(
    ClubVisitorCacheMixin, SeasonMixin, CsvExportMixin, SingleTableMixin, TemplateView
):
    """The club's ratings: every rated player, best first, with CSV."""

    template_name = "standings/ratings.html"
    table_class = RatingTable
    table_pagination = False
    visitor_cache_params = ("sort", "_export")
    export_name = "ratings"

    def dispatch(self, request, *args, **kwargs):
        # A replay left behind by a process that died resumes when someone looks (before the
        # visitors' cache, which would keep serving the page that says it is pending).
        if (club := current_club(request)) is not None:
            catch_up.resume(club.pk)
        return super().dispatch(request, *args, **kwargs)

    def get_table_data(self):
        return current_ratings(self.club)

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            provisional_games=PROVISIONAL_GAMES, mu=MODEL.mu, sigma=MODEL.sigma, **kwargs
        )


class PlayerPageView(ClubVisitorCacheMixin, SeasonMixin, TemplateView):
    template_name = "standings/player.html"
    visitor_cache_params = ("season",)

    def get_context_data(self, **kwargs):
        player = get_object_or_404(Player, pk=self.kwargs["pk"], club=self.club)
        season = self.season()
        data = player_season_cached(self.club, player, season)
        points = [
            Point(label=f"{day:%-d %b}", value=value) for day, value in data.points_by_session
        ]
        ranks = [Point(label=f"{day:%-d %b}", value=rank) for day, rank in data.rank_by_session]
        # The season's points for the chart and the latest for the rating shown: a player's
        # whole history is thousands of games at ten years.
        in_view = player_rating_history(self.club, player, season)
        now = player_rating_now(self.club, player)
        return super().get_context_data(
            rating=now,
            rating_shown=rating_text(now.ordinal) if now else "",
            provisional_games=PROVISIONAL_GAMES,
            season_luck=expected_vs_actual(self.club, player, season),
            career_luck=expected_vs_actual(self.club, player),
            rating_chart=mark_safe(  # noqa: S308 - standings.charts escapes every text it draws
                line_chart_svg(
                    points=[Point(f"{p.date:%-d %b}", round(p.mu, 3)) for p in in_view],
                    band=[
                        (round(p.mu - 3 * p.sigma, 3), round(p.mu + 3 * p.sigma, 3))
                        for p in in_view
                    ],
                    title=f"{player.display_name}: rating after each game, "
                    f"{season_label(self.club, season)} (the line is mu, the band mu ± 3 sigma; "
                    "the rating shown is the band's lower edge)",
                    y_label="Mu",
                    integer_ticks=False,
                )
            ),
            player=player,
            # Their money page, for the player themself and organisers (a visitor's cached copy
            # never has it: visitors may not read it).
            money_link=may_see_player_money(self.request.user, player),
            **self.season_context(),
            data=data,
            points_chart=mark_safe(  # noqa: S308 - standings.charts escapes every text it draws
                bar_chart_svg(
                    points=points,
                    title=f"{player.display_name}: game points per session, "
                    f"{season_label(self.club, season)}",
                    y_label="Game points",
                )
            ),
            rank_chart=mark_safe(  # noqa: S308 - standings.charts escapes every text it draws
                line_chart_svg(
                    points=ranks,
                    title=f"{player.display_name}: rank in the season after each session",
                    y_label="Rank",
                    invert_y=True,
                    y_min=1,
                    y_max=max(data.players, 2),
                )
            ),
            **kwargs,
        )
