"""Views of logins, passwords and PINs: the welcome page a one-time link opens, an organiser's
page for a player's login, and everyone's own account page.

Terms:
- welcome page: `/welcome/<link>/`, where a login sets its password with a one-time link
  (club.services). A live link is redirected to `/welcome/set-password/` with its token kept in
  the session (see WelcomeView); a dead link (unknown: 404; used, replaced or expired: 410)
  gets a page that says why and what to do, never the form.
- handover: the link an organiser just made, shown once (full address and QR code) on the
  player's login page, to hand the phone over or print. The raw token is kept in the organiser's
  Django session from the post until the next view of a player's login page, which takes it out;
  the database keeps only its hash.
- secret: a response whose address holds a link token is never cached (`Cache-Control:
  no-store`) and never sent as a referrer (`Referrer-Policy: no-referrer`); a page that shows a
  token (the handover) or takes a new password (the welcome form) is never cached.

Views stay thin: check a permission, validate a form, call one service, add a message, redirect.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.mixins import LoginRequiredMixin, PermissionRequiredMixin
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.views.generic import View

from club import services
from club.forms import (
    LoginGiveForm,
    LoginLinkForm,
    LoginRoleForm,
    OwnPasswordForm,
    PinForm,
)
from club.mail import login_link_send
from club.mixins import ClubMixin
from club.models import LoginLink, Player
from club.pin_waits import PIN_MEMORY_DAYS
from club.selectors import login_link_live, pin_tries, username_suggestion
from core.mail import email_configured
from core.mixins import PageMixin, add_service_errors
from core.qr import absolute_url, is_local_only, qr_svg
from core.submissions import AlreadySaved

HANDOVER = "pegboard_login_handover"  # the session key of the link to show once
WELCOME_TOKEN = "pegboard_welcome_token"  # the session key of the link being used
SET_PASSWORD = "set-password"  # the welcome page's address once the token is in the session
BACKEND = "club.backends.ClubBackend"


def welcome_url(request, token: str) -> str:
    return absolute_url(request, reverse("welcome", kwargs={"link": token}))


def never_cached(response):
    add_never_cache_headers(response)  # Cache-Control: ... no-store ...
    return response


def secret(response):
    """A response at an address that holds a token: never cached, never sent as a referrer."""
    response["Referrer-Policy"] = "no-referrer"
    return never_cached(response)


class NeverCachedMixin:
    """A page that shows a secret (a link's token): never cached."""

    def dispatch(self, request, *args, **kwargs):
        return never_cached(super().dispatch(request, *args, **kwargs))


# --- The welcome page -----------------------------------------------------------------------------


class WelcomeView(View):
    """Set a password with a one-time link, then be logged in as its login.

    The address holds the token, so, as Django's own password-reset page does, a live link is
    answered by a redirect to `/welcome/set-password/` (the token kept in the session), whose
    form is posted from an address with no secret in it. A page sent with `Referrer-Policy:
    no-referrer` cannot post a form here at all: the browser then sends `Origin: null`, which
    Django's CSRF check refuses. Every answer at the token's address (the redirect, a dead
    link's page) is sent with no-referrer; every answer is never cached.

    Someone already logged in (as anybody) may use a link: the form says who they will be, and
    logging in as the link's login ends their own session (Django's `login` flushes a session
    of another user)."""

    def dispatch(self, request, *args, **kwargs):
        self.at_token = kwargs["link"] != SET_PASSWORD
        if self.at_token:
            self.token = kwargs["link"]
        else:
            self.token = request.session.get(WELCOME_TOKEN, "")
        self.link = services.login_link_find(self.token) if self.token else None
        response = super().dispatch(request, *args, **kwargs)
        return secret(response) if self.at_token else never_cached(response)

    def dead(self, link: LoginLink | None):
        """The page a dead link gets: why, and what to do."""
        refusal = services.link_refusal(link)
        if link is None and not self.at_token:
            refusal = (
                "This page needs the link you were given: open it again. (Your browser must "
                "accept this site's cookies.)"
            )
        context = {"link": link, "refusal": refusal}
        status = 404 if link is None else 410
        return render(self.request, "club/welcome_dead.html", context, status=status)

    def render_form(self, form, status=200):
        link = self.link
        other = self.request.user.is_authenticated and self.request.user.pk != link.user_id
        context = {"link": link, "form": form, "other_user": self.request.user if other else None}
        return render(self.request, "club/welcome.html", context, status=status)

    def get(self, request, *args, **kwargs):
        if services.link_refusal(self.link):
            return self.dead(self.link)
        if self.at_token:
            request.session[WELCOME_TOKEN] = self.token
            return redirect("welcome", link=SET_PASSWORD)
        return self.render_form(SetPasswordForm(self.link.user))

    def post(self, request, *args, **kwargs):
        if services.link_refusal(self.link):
            return self.dead(self.link)
        form = SetPasswordForm(self.link.user, request.POST)
        if form.is_valid():
            password = form.cleaned_data["new_password1"]
            try:
                user = services.login_link_use(token=self.token, password=password)
            except ValidationError as error:
                # Used or replaced since the page was opened (another tab, a double press)?
                link = services.login_link_find(self.token)
                if services.link_refusal(link):
                    return self.dead(link)
                add_service_errors(form, error, {"password": "new_password2"})
            else:
                request.session.pop(WELCOME_TOKEN, None)
                login(request, user, backend=BACKEND)
                messages.success(
                    request,
                    f"Your password is set and you are logged in as {user.get_username()}. "
                    "Next time, log in with that username and your password.",
                )
                return redirect("home")
        return self.render_form(form, status=400)


# --- A player's login, for organisers -------------------------------------------------------------


class PlayerLoginMixin(NeverCachedMixin, PageMixin, PermissionRequiredMixin, ClubMixin):
    """The player's login page: its state, the forms, and the handover once."""

    permission_required = "club.change_player"
    template_name = "club/player_login.html"

    def get_player(self) -> Player:
        if not hasattr(self, "player"):
            self.player = get_object_or_404(
                Player.objects.select_related("user"), pk=self.kwargs["pk"], club=self.club
            )
        return self.player

    def page_url(self) -> str:
        return reverse("club:player_login", args=[self.get_player().pk])

    def handover(self) -> dict | None:
        """The link made by the last post, once: taken out of the session here."""
        saved = self.request.session.pop(HANDOVER, None)
        player = self.get_player()
        if not isinstance(saved, dict) or saved.get("player") != player.pk:
            return None
        link = services.login_link_find(saved.get("token") or "")
        if link is None or link.user_id != player.user_id or services.link_refusal(link):
            return None  # used or replaced since: there is nothing to hand over
        url = welcome_url(self.request, saved["token"])
        return {
            "url": url,
            "qr": qr_svg(url, title=f"One-time link for {player.display_name}"),
            "link": link,
            "local_only": is_local_only(url),
        }

    def page_context(self, **overrides) -> dict:
        player = self.get_player()
        user = player.user
        role = services.login_role(user)
        context = {
            "player": player,
            "login": user,
            "site_login": services.is_site_login(user),
            "login_role": role,
            "own": user is not None and user.pk == self.request.user.pk,
            "live_link": login_link_live(user),
            "pin_tries": pin_tries(player),
            "pin_memory_days": PIN_MEMORY_DAYS,
            "email_configured": email_configured(),
            "handover": self.handover(),
            "pin_form": PinForm(),
        }
        if user is None:
            suggestion = username_suggestion(player.display_name)
            context["give_form"] = LoginGiveForm(initial={"username": suggestion})
        elif not context["site_login"]:
            context["role_form"] = LoginRoleForm(initial={"role": role})
            context["link_form"] = LoginLinkForm()
        context.update(overrides)
        return context

    def hand_over(self, token: str) -> None:
        """Keep the new link for the next view of the page, and e-mail it when the site sends
        e-mail and the login has an address (once the link's transaction has committed)."""
        player = self.get_player()
        self.request.session[HANDOVER] = {"player": player.pk, "token": token}
        link = services.login_link_find(token)
        if link is None or not email_configured() or not link.user.email:
            return
        request, url, address = self.request, welcome_url(self.request, token), link.user.email

        def send():
            if login_link_send(link, url, player.display_name):
                messages.info(request, f"The link was also e-mailed to {address}.")
            else:
                messages.warning(
                    request, f"The link could not be e-mailed to {address}: hand it over below."
                )

        transaction.on_commit(send)


class PlayerLoginView(PlayerLoginMixin, View):
    def get(self, request, *args, **kwargs):
        return self.render_page()


class PlayerLoginPostView(PlayerLoginMixin, View):
    http_method_names = ["post"]


class LoginGiveView(PlayerLoginPostView):
    def post(self, request, *args, **kwargs):
        player = self.get_player()
        form = LoginGiveForm(request.POST)
        if form.is_valid():
            try:
                token = services.login_give(
                    player=player,
                    actor=request.user,
                    username=form.cleaned_data["username"],
                    role=form.cleaned_data["role"],
                    email=form.cleaned_data["email"],
                    token=form.submission_token(),
                )
            except AlreadySaved as error:
                messages.info(request, error.messages[0])
                return redirect(self.page_url())
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                self.hand_over(token)
                messages.success(
                    request,
                    f"{player} has the login {form.cleaned_data['username']!r} "
                    f"({form.cleaned_data['role']}): hand over the link below to set a password.",
                )
                return redirect(self.page_url())
        return self.render_page(status=400, give_form=form)


class LoginRoleView(PlayerLoginPostView):
    def post(self, request, *args, **kwargs):
        player = self.get_player()
        form = LoginRoleForm(request.POST)
        if form.is_valid():
            role = form.cleaned_data["role"]
            before = services.login_role(player.user)
            try:
                services.login_role_set(player=player, actor=request.user, role=role)
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                if before == role:
                    messages.info(request, f"{player}'s login is a {role} already.")
                else:
                    messages.success(request, f"{player}'s login is now a {role}.")
                return redirect(self.page_url())
        return self.render_page(status=400, role_form=form)


class LoginLinkView(PlayerLoginPostView):
    def post(self, request, *args, **kwargs):
        player = self.get_player()
        form = LoginLinkForm(request.POST)
        if form.is_valid():
            try:
                token = services.login_link_new(
                    player=player, actor=request.user, token=form.submission_token()
                )
            except AlreadySaved as error:
                messages.info(request, error.messages[0])
            except ValidationError as error:
                messages.error(request, " ".join(error.messages))
            else:
                self.hand_over(token)
                messages.success(
                    request,
                    f"A new one-time link for {player}: the older one no longer works.",
                )
        else:
            messages.error(request, " ".join(form.non_field_errors()))
        return redirect(self.page_url())


def pin_done_message(player: Player, pin: str, own: bool) -> str:
    whose = "Your" if own else f"{player}'s"
    return f"{whose} table PIN is set." if pin else f"{whose} table PIN is removed."


class PlayerPinView(PlayerLoginPostView):
    def post(self, request, *args, **kwargs):
        player = self.get_player()
        form = PinForm(request.POST, clear="clear" in request.POST)
        if form.is_valid():
            pin = form.cleaned_data["pin"]
            try:
                services.pin_set(player=player, actor=request.user, pin=pin)
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                own = player.user_id == request.user.pk
                messages.success(request, pin_done_message(player, pin, own))
                return redirect(self.page_url())
        return self.render_page(status=400, pin_form=form)


# --- One's own account ----------------------------------------------------------------------------


class AccountMixin(PageMixin, LoginRequiredMixin):
    """The account page: one's own password, and one's own table PIN (with a player record)."""

    template_name = "club/account.html"

    def get_player(self) -> Player | None:
        if not hasattr(self, "player"):
            self.player = (
                Player.objects.filter(user=self.request.user).select_related("club").first()
            )
        return self.player

    def page_context(self, **overrides) -> dict:
        player = self.get_player()
        context = {
            "account_player": player,
            "login_role": services.login_role(self.request.user) if player else "",
            "password_form": OwnPasswordForm(),
            "pin_form": PinForm() if player else None,
            "pin_tries": pin_tries(player) if player else None,
            "pin_memory_days": PIN_MEMORY_DAYS,
        }
        context.update(overrides)
        return context


class AccountView(AccountMixin, View):
    def get(self, request, *args, **kwargs):
        return self.render_page()


class AccountPasswordView(AccountMixin, View):
    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        form = OwnPasswordForm(request.POST)
        if form.is_valid():
            try:
                user = services.password_change(
                    user=request.user,
                    old_password=form.cleaned_data["old_password"],
                    new_password=form.cleaned_data["new_password1"],
                )
            except ValidationError as error:
                add_service_errors(form, error, {"new_password": "new_password1"})
            else:
                # Django logs out every session whose password hash no longer matches: keep
                # this one.
                update_session_auth_hash(request, user)
                messages.success(request, "Your password is changed.")
                return redirect("club:account")
        return self.render_page(status=400, password_form=form)


class AccountPinView(AccountMixin, View):
    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        player = self.get_player()
        if player is None:
            raise Http404("This login has no player record, so it has no table PIN.")
        form = PinForm(request.POST, clear="clear" in request.POST)
        if form.is_valid():
            pin = form.cleaned_data["pin"]
            try:
                services.pin_set(player=player, actor=request.user, pin=pin)
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(request, pin_done_message(player, pin, own=True))
                return redirect("club:account")
        return self.render_page(status=400, pin_form=form)
