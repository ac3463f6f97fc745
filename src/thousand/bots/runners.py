"""Where the arena's sets are played: in this process, in local worker processes, or on a Ray
cluster.

A :class:`Runner` maps a task function over tasks and yields the results in the order of the
tasks, whichever worker played them, so a run's figures depend on its seed only. The task
functions and their tasks and results are plain picklable values (the arena ships each set's
games back as deal logs), the same for every runner.

The Ray runner (``thousand arena --cluster HOST:PORT``) needs the optional extra
``thousand[cluster]`` here and the same ``thousand`` installed on every node of the cluster: it
ships no code, only the tasks.
"""

from __future__ import annotations

import contextlib
import signal
import socket
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: what a gRPC server (a Ray head's GCS) answers first: an HTTP/2 frame header of a SETTINGS frame
_SETTINGS = 0x04
_HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, _SETTINGS, 0, 0, 0, 0, 0])


class ClusterError(Exception):
    """The cluster cannot play the arena's sets; the message is one sentence."""


class Runner(ABC):
    """Plays tasks somewhere; open it with ``with`` before :meth:`imap`."""

    def __enter__(self) -> Runner:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        return None

    @abstractmethod
    def imap(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        """``fn`` of each task, in the order of the tasks."""


class InProcess(Runner):
    """Every task in this process, one after the other."""

    def imap(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        return map(fn, tasks)


class Processes(Runner):
    """Tasks spread over ``workers`` local processes (started fresh: ``spawn``)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._stack = contextlib.ExitStack()
        self._pool: Any = None

    def __enter__(self) -> Runner:
        import multiprocessing

        self._pool = self._stack.enter_context(
            multiprocessing.get_context("spawn").Pool(self.workers)
        )
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._stack.close()
        self._pool = None

    def imap(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        assert self._pool is not None, "open the runner with `with` first"
        results: Iterator[R] = self._pool.imap(fn, tasks)
        return results


class RayCluster(Runner):
    """Tasks spread over the CPUs of the Ray cluster whose head is at ``address`` (HOST:PORT,
    as ``ray start --head`` prints it)."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.host, self.port = parse_address(address)
        self._ray: Any = None
        self._sigterm: Any = None

    def __enter__(self) -> Runner:
        ray = import_ray()
        check_ray_head(self.host, self.port)
        import logging

        # ray.init sets its own SIGTERM handler and leaves it: give back ours on the way out
        self._sigterm = signal.getsignal(signal.SIGTERM)
        ray.init(address=self.address, logging_level=logging.WARNING, log_to_driver=False)
        self._ray = ray
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._ray is not None:
            self._ray.shutdown()
            self._ray = None
            if threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGTERM, self._sigterm)

    def imap(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        ray = self._ray
        assert ray is not None, "open the runner with `with` first"
        remote = ray.remote(fn)
        pending = [remote.remote(task) for task in tasks]
        return self._gathered(pending)

    def _gathered(self, pending: list[Any]) -> Iterator[Any]:
        from ray.exceptions import RayTaskError

        for ref in pending:
            try:
                yield self._ray.get(ref)
            except RayTaskError as e:
                if "No module named 'thousand" in str(e):
                    raise ClusterError(
                        f"--cluster: the workers of the Ray cluster at {self.address} cannot"
                        " import thousand: install the same thousand on every node"
                    ) from None
                raise


def runner_for(workers: int, cluster: str | None = None) -> Runner:
    """The Ray cluster at ``cluster`` where one is named, else ``workers`` local processes (this
    process alone for one)."""
    if cluster is not None:
        return RayCluster(cluster)
    return InProcess() if workers <= 1 else Processes(workers)


def parse_address(address: str) -> tuple[str, int]:
    """HOST and PORT of ``HOST:PORT``; ValueError, in one sentence, for anything else."""
    host, colon, port = address.rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(
            f"--cluster: {address!r} is not HOST:PORT, the address of a Ray head"
            " (as `ray start --head` prints it)"
        )
    return host, int(port)


def import_ray() -> Any:
    """The ``ray`` module; ValueError, in one sentence, where it is not installed."""
    try:
        import ray
    except ImportError:
        raise ValueError(
            "--cluster: Ray is not installed here: pip install 'thousand[cluster]'"
        ) from None
    return ray


def check_ray_head(host: str, port: int, timeout: float = 5.0) -> None:
    """ClusterError, in one sentence, unless a gRPC server (as a Ray head is) answers at
    ``host:port`` within ``timeout`` seconds (Ray itself would retry for minutes)."""
    where = f"{host}:{port}"
    try:
        with socket.create_connection((host, port), timeout=timeout) as s:
            s.sendall(_HTTP2_PREFACE)
            head = b""
            while len(head) < 9:
                chunk = s.recv(9 - len(head))
                if not chunk:
                    break
                head += chunk
    except TimeoutError:
        raise ClusterError(
            f"--cluster: no Ray head answered at {where} within {timeout:.0f} s"
        ) from None
    except OSError as e:
        why = e.strerror or type(e).__name__
        raise ClusterError(f"--cluster: no Ray head answers at {where}: {why}") from None
    if len(head) < 9 or head[3] != _SETTINGS:
        raise ClusterError(f"--cluster: {where} answers, but not as a Ray head does")
