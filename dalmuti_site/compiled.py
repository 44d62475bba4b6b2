"""Queries made on every page and every move, their SQL compiled once per process.

Django compiles a QuerySet's SQL afresh each time it is evaluated: for a model of twenty
columns, with a join and the model's ordering, that is 0.1–0.4 ms of Python, more than a
warm PostgreSQL connection takes to answer such a query. A `CompiledQuery` is built once
with marker numbers where its arguments go, compiled once per database, and then run with
each call's arguments put in the markers' places. Django reads the rows as for any
QuerySet (select_related, values_list and prefetching alike), so what a compiled query
returns is what the same QuerySet returns.

What it returns is a list, never a QuerySet: a QuerySet filtered further would carry the
SQL compiled without the filter.

It leans on how Django (pinned to 5.2 in pyproject.toml) runs a query: the iterables ask
the query for its compiler and the compiler for its SQL (`as_sql`), and read the rows
with what compiling set on the compiler. tests/test_compiled.py fails if an upgrade
changes that.
"""

import copy
import inspect
import threading
from collections.abc import Callable

from django.db import connections
from django.db.models import QuerySet
from django.db.transaction import TransactionManagementError

# Each stands for one argument while the SQL is compiled, and is found again among the
# compiled parameters. Within the range of every integer column, even a small one (Django
# drops a condition whose number lies outside its column's range); a number the built
# query itself holds as well is found twice, and refused when compiling.
_MARKERS = (32_003, 32_009, 32_027, 32_051, 32_057, 32_063, 32_069, 32_077)


class CompiledQuery:
    """`build(*arguments)` -> the QuerySet, each argument a number used once in it (an id,
    a round's number); calling the compiled query with numbers gives that QuerySet's rows
    as a list."""

    def __init__(self, build: Callable[..., QuerySet]):
        self._build = build
        self._arity = len(inspect.signature(build).parameters)
        if self._arity > len(_MARKERS):
            raise ValueError(f"a compiled query takes at most {len(_MARKERS)} arguments")
        self._proto: QuerySet | None = None
        # By database alias: the compiler as it compiled, its SQL and parameters, and
        # where the arguments go among them.
        self._ready: dict[str, tuple] = {}
        self._compiling = threading.Lock()

    def __call__(self, *arguments: int) -> list:
        if len(arguments) != self._arity:
            raise TypeError(f"this query takes {self._arity} arguments, not {len(arguments)}")
        # Numbers, read as Django reads an integer column's value ("7" is 7); None or a
        # model instance would make other SQL than the markers': refused.
        values = [int(argument) for argument in arguments]
        proto, ready = self._prepared()
        compiler, sql, params, places, converters = ready
        connection = connections[proto.db]
        if (proto.query.select_for_update and connection.features.has_select_for_update
                and connection.get_autocommit()):
            # What Django's own compiling would refuse.
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction.")
        filled = list(params)
        for place, value in zip(places, values, strict=True):
            filled[place] = value
        # A copy for this call, with this thread's connection (each thread has its own).
        run = copy.copy(compiler)
        run.connection = connection
        run.as_sql = lambda *args, **kwargs: (sql, tuple(filled))
        run.get_converters = converters
        queryset = proto._chain()
        queryset.query.get_compiler = lambda *args, **kwargs: run
        return list(queryset)

    def _prepared(self) -> tuple[QuerySet, tuple]:
        """The QuerySet built with the markers, and what compiling it gave, for its
        database: built and compiled by one thread, the first to ask, while any other
        asking then waits. Compiling writes into the query it compiles (its joins'
        counts are raised, then set back), so two compiling one query at once could keep
        SQL missing a join, for the life of the process."""
        proto = self._proto
        if proto is not None:
            ready = self._ready.get(proto.db)
            if ready is not None:
                return proto, ready
        with self._compiling:
            if self._proto is None:
                self._proto = self._build(*_MARKERS[:self._arity])
            proto = self._proto
            ready = self._ready.get(proto.db)
            if ready is None:
                ready = self._ready[proto.db] = self._compile(proto, proto.db)
            return proto, ready

    def _compile(self, proto: QuerySet, alias: str) -> tuple:
        # A copy of the query is compiled: the calls' own copies (`_chain`) are made from
        # the built one, which compiling leaves alone.
        compiler = proto.query.chain().get_compiler(using=alias)
        sql, params = compiler.as_sql()
        places = []
        for marker in _MARKERS[:self._arity]:
            found = [i for i, param in enumerate(params)
                     if isinstance(param, int) and param == marker]
            if len(found) != 1:
                raise ValueError(f"each argument must be used once in the query: {sql}")
            places.append(found[0])
        return compiler, sql, tuple(params), places, _found_once(compiler.get_converters)


def _found_once(find: Callable[[list], dict]) -> Callable[[list], dict]:
    """`find` (a compiler's `get_converters`), asked once for each list of columns it is
    given: Django asks which of a query's columns need converting (a JSON document read,
    a time put in the active zone) at every run, some 30 calls per model read, for the
    same columns of the same compiled query. The columns asked about are kept with what
    was found, so that their ids stay theirs; a converter is given the connection when it
    converts, so what is found for one database serves each thread's connection to it."""
    kept: dict[tuple[int, ...], tuple[list, dict]] = {}

    def converters(expressions: list) -> dict:
        key = tuple(map(id, expressions))
        found = kept.get(key)
        if found is None:
            found = kept.setdefault(key, (list(expressions), find(expressions)))
        return found[1]

    return converters
