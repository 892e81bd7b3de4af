"""Shared fixtures for the CPU test suite: a fresh compile-cache directory per test."""
import pytest


@pytest.fixture
def cache_dir(tmp_path):
    d = tmp_path / "cache"
    d.mkdir(mode=0o700)
    return str(d)
