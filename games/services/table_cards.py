"""Table cards: one printed card per physical table number of a club, whose link (`/t/<token>/`)
opens the game at that table number in the current round, so a card printed once serves every
round and every morning (docs/club/table-links.md "Table cards").

Terms:
- table card: a `TableCard`, the club's card for one table number; current until "New cards"
  retires it (`retired_at`) and makes another with a new token.
- today's session: the club's open session dated latest but not after today. A session opened
  ahead for a later date waits for its day, and a session left open from an earlier morning is
  passed over once today's is open (docs/decisions/table-links.md "Two open sessions").
- current round: the newest round of today's session; the table's current game is its game at
  the card's number, if it has one.
- forwarding: an old game link (a round over because a later one is drawn, its session still
  open) opened with GET goes to the same table number's current game; a post through it stays
  refused (games.services.table_refusal), so a result is never entered at the wrong game.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from club.models import Club, Session, SessionState
from core.audit import audit_record_many
from core.locking import locked
from core.submissions import spend_token
from games.audit import GameVerb
from games.models import MOST_TABLE_CARDS as MOST_CARDS
from games.models import Game, Round, TableCard, new_table_token
from games.services.results import status_refusal
from games.services.table import LINKS_OFF, TOKEN_PATTERN, later_round, links_on


def unused_token() -> str:
    """A new token no game and no card has (one `/t/<token>/` resolver tells them apart)."""
    while True:
        token = new_table_token()
        taken = (
            Game.objects.filter(table_token=token).exists()
            or TableCard.objects.filter(token=token).exists()
        )
        if not taken:
            return token


def current_cards(club: Club):
    """The club's current cards, by table number."""
    return TableCard.objects.filter(club=club, retired_at__isnull=True).order_by("number")


def most_tables(club: Club) -> int:
    """The highest table number the club has had in any round (0: never drawn a round)."""
    return Game.objects.filter(session__club=club).aggregate(most=Max("table"))["most"] or 0


def _lock_club(club: Club) -> Club:
    return locked(Club.objects.all()).get(pk=club.pk)


def table_cards_make(*, club: Club, actor: AbstractBaseUser | None, up_to: int) -> list[TableCard]:
    """Make the missing cards for tables 1 to `up_to` (the ones the club has are kept: their
    printed cards go on working). Safe to run twice: the second run makes nothing."""
    if not 1 <= up_to <= MOST_CARDS:
        raise ValidationError({"up_to": f"Give the number of tables, from 1 to {MOST_CARDS}."})
    with transaction.atomic():
        club = _lock_club(club)
        have = set(current_cards(club).values_list("number", flat=True))
        made = []
        for number in range(1, up_to + 1):
            if number in have:
                continue
            card = TableCard(club=club, number=number, token=unused_token(), made_by=actor)
            card.full_clean()
            card.save()
            made.append(card)
        if made:
            audit_record_many(
                actor=actor,
                action=GameVerb.TABLE_CARD_MADE,
                club=club,
                entries=[(card, {"number": card.number}) for card in made],
            )
    return made


def table_cards_renew(
    *, club: Club, actor: AbstractBaseUser | None, token: str = ""
) -> list[TableCard]:
    """New cards for every table number the club has a card for: new tokens, the old cards'
    links stop at once (their address then says they were replaced). For a lost or
    photographed card. The same form posted twice renews once (its one-time token)."""
    with transaction.atomic():
        spend_token(token=token, actor=actor)
        club = _lock_club(club)
        old = list(current_cards(club))
        if not old:
            raise ValidationError("The club has no table cards yet: make them first.")
        now = timezone.now()
        TableCard.objects.filter(pk__in=[card.pk for card in old]).update(retired_at=now)
        made = []
        for previous in old:
            card = TableCard(
                club=club, number=previous.number, token=unused_token(), made_by=actor, made_at=now
            )
            card.full_clean()
            card.save()
            made.append((card, previous))
        audit_record_many(
            actor=actor,
            action=GameVerb.TABLE_CARD_RENEWED,
            club=club,
            entries=[
                (card, {"number": card.number, "replaces": previous.pk}) for card, previous in made
            ],
        )
    return [card for card, _ in made]


# --- Where a card (or an old game link) leads now ---------------------------------------------


@dataclass(frozen=True)
class TableNow:
    """What a table number has now: its current `game`, or why not. `refusal` (the card does
    not work: replaced, links off) is answered 410; otherwise no game is a plain page saying
    what there is (`sentence`), with the round's tables when a round is drawn."""

    club: Club
    number: int
    session: Session | None = None
    round: Round | None = None
    game: Game | None = None
    refusal: str = ""
    sentence: str = ""


def table_card(token: str) -> TableCard | None:
    """The card a link names (None: no card has it); lower case, like a game's token."""
    token = (token or "").strip().lower()
    if not TOKEN_PATTERN.fullmatch(token):
        return None
    return TableCard.objects.select_related("club").filter(token=token).first()


def todays_session(club: Club) -> Session | None:
    """See the module's terms."""
    return (
        Session.objects.filter(club=club, state=SessionState.OPEN, date__lte=timezone.localdate())
        .select_related("club")
        .order_by("-date")
        .first()
    )


def _table_in(session: Session, number: int) -> TableNow:
    """The game at table `number` in the newest round of `session` (or why there is none); at
    a tournament, the game seated last at that table (see `later_round`)."""
    club = session.club
    if not links_on(session):
        return TableNow(club=club, number=number, session=session, refusal=LINKS_OFF)
    latest = None
    if session.is_tournament:
        latest = Game.objects.filter(session=session, table=number).order_by("-pk").first()
    round_ = latest.round if latest else session.rounds.order_by("-number").first()
    if round_ is None:
        return TableNow(
            club=club,
            number=number,
            session=session,
            sentence=f"No round is drawn yet on {session.date:%A %-d %B}. When the organiser "
            "draws it, reload this page.",
        )
    game = (
        Game.objects.select_related("session__club", "round")
        .filter(round=round_, table=number)
        .first()
    )
    if game is None:
        return TableNow(
            club=club,
            number=number,
            session=session,
            round=round_,
            sentence=f"Table {number} has no game in round {round_.number}. Find your table "
            "below; when the next round is drawn, reload this page.",
        )
    return TableNow(club=club, number=number, session=session, round=round_, game=game)


def card_now(card: TableCard) -> TableNow:
    """Where the card leads now (see the module's terms). Only its own club's games."""
    club = card.club
    if card.retired_at is not None:
        return TableNow(
            club=club,
            number=card.number,
            refusal=f"This card was replaced by new cards on {card.retired_at:%A %-d %B %Y}: "
            "it no longer opens a table. Scan the card on the table now, or ask the organiser.",
        )
    if not club.table_links:
        return TableNow(club=club, number=card.number, refusal=LINKS_OFF)
    session = todays_session(club)
    if session is None:
        return TableNow(
            club=club,
            number=card.number,
            sentence="No session is open today. Once the organiser opens it and draws a "
            "round, this card opens the table's game.",
        )
    return _table_in(session, card.number)


def table_forward(game: Game) -> TableNow | None:
    """Where an old game link goes on a GET: the same table number's current game in its own
    session, when the only reason the link is closed is that a later round is drawn (None:
    keep the link's refusal: links off, the session settled, the game unfinished)."""
    session = game.session
    if not links_on(session) or not session.is_open or status_refusal(game):
        return None
    if later_round(game) is None:
        return None
    return _table_in(session, game.table)
