"""``table-ui``: the dealer's touchscreen, a Kivy app and a client of the daemon's local API.

One process, one asyncio loop: Kivy's ``async_run`` and the :class:`~ui.connection.Connection`
run side by side (Kivy's objects are touched from that loop only). The daemon never waits for
the screen; the screen reconnects by itself. ``docs/ui.md`` has the options and the
touchscreen's input configuration.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .layout import Sizes, default_dpi

DEFAULT_SOCKET = Path("/run/table-controller/api.sock")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="table-ui", description="The dealer's touchscreen.")
    parser.add_argument(
        "--socket", type=Path, default=DEFAULT_SOCKET, help=f"the API socket (default {DEFAULT_SOCKET})"
    )
    parser.add_argument(
        "--size",
        default=None,
        help="a window of WIDTHxHEIGHT pixels (default: the whole display the console is given)",
    )
    parser.add_argument(
        "--dpi", type=float, default=None, help="the screen's density (default: the Pi screen of that width)"
    )
    parser.add_argument("--fullscreen", action="store_true", help="full screen (the kiosk)")
    return parser


def parse_size(text: str) -> tuple[int, int]:
    width, sep, height = text.partition("x")
    if not sep or not width.isdigit() or not height.isdigit() or int(width) < 320 or int(height) < 240:
        raise argparse.ArgumentTypeError(f"--size: {text!r} is not WIDTHxHEIGHT of at least 320x240")
    return int(width), int(height)


def configure_kivy(width: int | None, height: int | None, fullscreen: bool) -> None:
    """Kivy reads these before its first import: no arguments of its own, the window's size."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    from kivy.config import Config

    if width is not None and height is not None:
        Config.set("graphics", "width", str(width))
        Config.set("graphics", "height", str(height))
    Config.set("graphics", "resizable", "0")
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    # The touchscreen gives touches; the mouse (SDL's emulated one) only when nothing else does.
    Config.set("input", "mouse", "mouse,disable_on_activity")
    Config.set("kivy", "exit_on_escape", "0")


def make_app(socket: Path, sizes: Sizes | None, dpi: float | None = None) -> Any:
    """The app; ``sizes`` ``None``: from the window SDL opened (KMS/DRM: the whole display)."""
    from kivy.app import App

    from .console import Console
    from .view import ConsoleView

    class TableUi(App):
        title = "Table controller"

        def __init__(self) -> None:
            super().__init__()
            self.console = Console(socket)
            self.view: ConsoleView | None = None

        def build(self) -> ConsoleView:
            from kivy.core.window import Window

            width, height = (int(v) for v in Window.size)
            chosen = sizes or Sizes(width, height, dpi or default_dpi(width))
            # Said once at start: what a technician checks first when the screen looks wrong.
            laid_out = f"{chosen.width}x{chosen.height}"
            print(f"table-ui: window {width}x{height}, laid out for {laid_out}", file=sys.stderr)
            self.view = ConsoleView(self.console, chosen)
            return self.view

    return TableUi()


async def run(app: Any) -> None:
    """The app and the connection in one loop; the connection stops when the window closes."""
    link = asyncio.get_running_loop().create_task(app.console.connection.run())
    try:
        await app.async_run(async_lib="asyncio")
    finally:
        link.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await link


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    sizes: Sizes | None = None
    if args.size is not None:
        try:
            width, height = parse_size(args.size)
        except argparse.ArgumentTypeError as exc:
            print(f"table-ui: {exc}", file=sys.stderr)
            return 2
        sizes = Sizes(width, height, args.dpi or default_dpi(width))
    # No --size: the whole display it is given (a 1024x600 screen is laid out at 1024x600, not in
    # Kivy's default window), full screen; KMS/DRM is full screen in any case.
    fullscreen = args.fullscreen or sizes is None
    configure_kivy(sizes.width if sizes else None, sizes.height if sizes else None, fullscreen)
    asyncio.run(run(make_app(args.socket, sizes, args.dpi)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
