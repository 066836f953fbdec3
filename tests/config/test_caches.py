"""The CACHES setting from the environment (config/caches.py): Redis through Django's own backend
when a cache URL is given, each process's memory when none is, and a clear refusal to start
when the URL is not one Redis answers on."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.caches import LOCAL_BACKEND, REDIS_BACKEND, caches_from_env
from tests.config.test_settings import PRODUCTION_ENV, run_manage


def test_without_a_cache_url_each_process_keeps_its_own_cache():
    assert caches_from_env({})["default"]["BACKEND"] == LOCAL_BACKEND


@pytest.mark.parametrize(
    "url",
    [
        "redis://127.0.0.1:6379",
        "redis://cache.internal:6379/2",
        "rediss://user:secret@cache.example.org:6380/0",
        "unix:///run/redis/redis.sock?db=1",
    ],
)
def test_a_redis_url_makes_redis_the_default_cache(url):
    default = caches_from_env({"CACHE_URL": url, "CACHE_KEY_PREFIX": "club-a"})["default"]
    assert default["BACKEND"] == REDIS_BACKEND
    assert default["LOCATION"] == url
    assert default["KEY_PREFIX"] == "club-a"
    # A Redis that stops answering must not hold a worker for minutes.
    assert default["OPTIONS"]["socket_timeout"] <= 5


def test_redis_url_is_read_when_cache_url_is_not_set():
    only = caches_from_env({"REDIS_URL": "redis://r:6379/1"})["default"]
    assert only["LOCATION"] == "redis://r:6379/1"
    both = caches_from_env({"REDIS_URL": "redis://r:6379/1", "CACHE_URL": "redis://c:6379/3"})
    assert both["default"]["LOCATION"] == "redis://c:6379/3"


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("memcached://127.0.0.1:11211", "give a redis://, rediss:// or unix:// URL"),
        ("127.0.0.1:6379", "give a redis://, rediss:// or unix:// URL"),
        ("redis://", "name the Redis host"),
        ("redis://cache:63x9/0", "it is not a URL"),
        ("redis://cache:6379/sessions", "the Redis database number"),
        ("unix://", "names the socket file"),
    ],
)
def test_a_bad_cache_url_is_refused_with_what_to_write(url, message):
    with pytest.raises(ImproperlyConfigured, match=message) as refused:
        caches_from_env({"CACHE_URL": url})
    assert str(refused.value).startswith(f"CACHE_URL='{url}'")


def test_a_refused_url_never_shows_its_password():
    with pytest.raises(ImproperlyConfigured) as refused:
        caches_from_env({"REDIS_URL": "redis://pegboard:hunter2@cache:port/0"})
    assert "hunter2" not in str(refused.value)
    assert str(refused.value).startswith("REDIS_URL='redis://…@cache:port/0'")


def test_a_bad_cache_url_stops_the_site_at_startup():
    result = run_manage("check", env=PRODUCTION_ENV | {"CACHE_URL": "memcached://cache:11211"})
    assert result.returncode != 0
    assert "CACHE_URL='memcached://cache:11211'" in result.stderr
    assert "redis://" in result.stderr


def test_the_site_starts_with_a_redis_cache_url_without_reaching_redis():
    """Settings only name the server: `check` passes even where no Redis answers."""
    env = PRODUCTION_ENV | {"CACHE_URL": "redis://127.0.0.1:1/0"}
    result = run_manage("check", "--deploy", "--fail-level", "DEBUG", env=env)
    assert result.returncode == 0, result.stderr
