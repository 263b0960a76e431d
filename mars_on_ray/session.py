"""The client: sessions, execute, fetch, progress. (being written)"""
from __future__ import annotations

from .core.user import set_runner

_default = None


class Session:
    pass


def get_default_session(create: bool = True):
    return _default


def new_session(*args, **kwargs):
    raise NotImplementedError


def execute(*objs, session=None, **kwargs):
    raise NotImplementedError


def fetch(*objs, session=None, **kwargs):
    raise NotImplementedError


set_runner(execute, fetch)
