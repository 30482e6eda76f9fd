"""The one place where exceptions become exit codes and one-line messages."""

from __future__ import annotations

import contextlib
import os
import sys
import traceback
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from curator.errors import EXIT_INTERNAL, CuratorError, from_os_error
from curator.locations import cache_root, make_private
from curator.output import one_line

if TYPE_CHECKING:
    from curator.commands.app import App


class Exit(Exception):
    """Carries a command's exit code out of the error handler."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def silence_stdout() -> None:
    """Point stdout at /dev/null after a reader closed the pipe, so the flush at exit has
    somewhere to go (as the Python docs advise for SIGPIPE)."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _log_path() -> str:
    return os.path.join(cache_root(), "curator.log")


@contextlib.contextmanager
def error_handler(passthrough: tuple[type[BaseException], ...] = ()) -> Iterator[None]:
    try:
        yield
    except passthrough:
        raise
    except CuratorError as e:
        print(f"curator: {one_line(str(e))}", file=sys.stderr)  # messages quote paths and titles
        raise Exit(e.exit_code) from None
    except KeyboardInterrupt:
        print("curator: interrupted", file=sys.stderr)
        raise Exit(130) from None
    except BrokenPipeError:
        # `curator search ... | head` closes the pipe early; that is not a failure.
        silence_stdout()
        raise Exit(0) from None
    except Exception as e:
        refused = from_os_error(e)
        if refused is not None:
            print(f"curator: {one_line(str(refused))}", file=sys.stderr)
            raise Exit(refused.exit_code) from None
        tb = traceback.format_exc()
        where = _log_path()
        try:
            make_private(os.path.dirname(where), "the error log's folder")  # a traceback may quote a note's text
            with open(os.open(where, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600), "a") as log:
                log.write(tb + "\n")
            told = f"traceback in {where}"
        except (OSError, CuratorError):  # a folder another user could read: the traceback stays here
            told = "traceback follows"
            sys.stderr.write(tb)
        print(
            f"curator: internal error: {type(e).__name__}: {e} — this is a bug; {told}",
            file=sys.stderr,
        )
        raise Exit(EXIT_INTERNAL) from None


@contextlib.contextmanager
def rebuilding_damage(app_of: Callable[[], App | None]) -> Iterator[None]:
    """SQLite found the serving epoch damaged: never read it again, build a new one (and
    say so as the command's error). ``app_of`` gives the command's ``App`` once it ran (the
    root group makes it as it starts)."""
    try:
        yield
    except Exception as e:
        from curator.index.damage import is_damage, rebuild_after_damage  # heavy: the index, apsw

        app = app_of()
        if app is None or not is_damage(e):
            raise
        raise rebuild_after_damage(*app.place(), e) from None
