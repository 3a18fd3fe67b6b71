"""Fixtures shared by the tests of ``game``: registrations that last one test only."""

import pytest

from game.players import _registry as registry


@pytest.fixture
def clean_registry():
    """Registrations made by a test (``register``, entry points loaded) are undone after it."""
    registered, loaded = dict(registry._registered), dict(registry._loaded)
    yield
    registry._registered.clear()
    registry._registered.update(registered)
    registry._loaded.clear()
    registry._loaded.update(loaded)


@pytest.fixture
def register(monkeypatch):
    """``register(name, cls)``: a test player in the registry for one test only."""

    def add(name, cls):
        monkeypatch.setitem(registry._registered, name, cls)

    return add
