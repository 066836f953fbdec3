"""Hostile posts: every form of the site (every endpoint, each with its target) posted with
its valid baselines, with each attack of `SWEEP` in each free-text field, with bytes that are not
UTF-8, and with hypothesis-generated hostile values. No post gets a 500, every HTML response is
inert, a rejected post writes nothing and an accepted one writes only what is consistent.
"""

from __future__ import annotations

from urllib.parse import quote, urlencode

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.security.hostile_checks import FUZZ, SWEEP, posted, run_post
from tests.security.hostile_world import TARGETS, post_views

pytestmark = pytest.mark.django_db


def test_every_post_view_is_fuzzed(club, member):
    found = post_views(club, member("organiser"))
    assert found == set(TARGETS), "give every view that accepts POST a Target"


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_hostile_posts_never_500_and_rejected_posts_write_nothing(name, world):
    target = TARGETS[name](world)
    for data in target.valid:  # the harness posts what the view really accepts
        assert run_post(world, target, data), f"{name} refused its valid baseline {data}"
    # Each free-text field, one at a time, gets each attack while the rest of the post is
    # valid: what hypothesis finds only by luck (a NUL in the one field stored as typed). The
    # first baseline takes every field, even one it leaves out (a ruling's reason on "agree").
    for index, valid in enumerate(target.valid):
        for field_name in sorted(target.fields.text):
            if index and field_name not in valid:
                continue  # the other baselines only for the fields they fill
            for attack in SWEEP:
                run_post(world, target, {**valid, field_name: attack})
        # Bytes that are not UTF-8 in every text field (Django reads them with replacement).
        broken = "&".join(f"{quote(name)}=%FF%FE%C0%AF%00" for name in sorted(target.fields.text))
        run_post(world, target, f"{urlencode(valid, doseq=True)}&{broken}".encode())
    seen = {True: 0, False: 0}

    # Without fields only the unknown keys vary: a few examples say enough.
    @settings(FUZZ, max_examples=15 if target.fields else 3)
    @given(data=st.data())
    def fuzz(data):
        post = data.draw(posted(target), label="post")
        urlencoded = data.draw(st.booleans(), label="urlencoded")
        seen[run_post(world, target, post, urlencoded=urlencoded)] += 1

    fuzz()
    if target.fields:
        assert seen[False], f"no hostile post to {name} was refused"
