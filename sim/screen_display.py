"""Kivy for the screen's tests, screenshots and benchmark (``bench/bench_ui.py``): a private Xvfb,
the app in this process's asyncio loop, taps as touches (Kivy's own ``UnitTestTouch``), a walk of
the widget tree, and the checks of what is drawn (:func:`cut_off`, :func:`small_targets`,
:func:`out_of_view`, :func:`broken_words`). Part of the bench rig (``sim``), never of the product.

Kivy opens one window per process and reads its environment once, before its first import, so
:func:`start_display` runs before anything imports ``kivy``; a missing Xvfb is a clear error.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

from ui.console import Console
from ui.layout import Sizes, default_dpi

SCREEN_SIZES = ((800, 480), (1024, 600))
FRAME = 0.03
#: How long a tap waits for its key to be drawn before it says the key is not on the screen.
KEY_WAIT = 5.0


class NoDisplay(RuntimeError):
    """Xvfb is not installed: the widget tests and the screenshots need it."""


@contextlib.contextmanager
def start_display(screen: str = "1280x720") -> Iterator[str]:
    """A private X server (Xvfb, 24-bit, GLX, ``screen`` pixels) for this process; ``DISPLAY``
    set while it runs."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        raise NoDisplay(
            "Xvfb is not installed: the screen's widget tests draw on a virtual display "
            "(apt-get install xvfb libgl1-mesa-dri xauth; scripts/system-deps)"
        )
    read, write = os.pipe()
    proc = subprocess.Popen(
        [
            xvfb,
            "-displayfd",
            str(write),
            "-screen",
            "0",
            f"{screen}x24",
            "-nolisten",
            "tcp",
            "+extension",
            "GLX",
        ],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    try:
        with os.fdopen(read) as lines:
            number = lines.readline().strip()
        if not number:
            raise NoDisplay(f"Xvfb exited ({proc.poll()}) without giving a display")
        previous = os.environ.get("DISPLAY")
        os.environ["DISPLAY"] = f":{number}"
        yield os.environ["DISPLAY"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        if "previous" in locals():
            if previous is None:
                os.environ.pop("DISPLAY", None)
            else:
                os.environ["DISPLAY"] = previous


def kivy_environment(width: int, height: int) -> None:
    """Before Kivy's first import: its home in a temporary directory, no log file, the size."""
    os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    from ui.app import configure_kivy

    configure_kivy(width, height, False)


class Screen:
    """The app running in this loop; :meth:`show` puts a console's view in the window."""

    def __init__(self, app: Any, sizes: Sizes) -> None:
        self.app, self.sizes = app, sizes
        self.view: Any = None

    async def show(self, console: Console) -> Any:
        from kivy.core.window import Window

        from ui.view import ConsoleView

        if self.view is not None:
            Window.remove_widget(self.view)
        self.view = ConsoleView(console, self.sizes)
        Window.add_widget(self.view)
        await self.frames()
        return self.view

    async def frames(self, n: int = 6) -> None:
        for _ in range(n):
            await asyncio.sleep(FRAME)

    def keys(self, text: str) -> list[Any]:
        from ui.kivy_parts import Key

        return [w for w in self.walk() if isinstance(w, Key) and text in (w.name, w.text)]

    def walk(self) -> Iterator[Any]:
        if self.view is not None:
            yield from self.view.walk(restrict=True)

    async def tap(self, text: str, nth: int = 0) -> None:
        """Touch the key reading ``text`` at its centre, as a finger would, and let it draw."""
        from kivy.tests.common import UnitTestTouch

        await self.frames(2)  # a panel rebuilt by the last answer is laid out before it is touched
        found = self.keys(text)
        deadline = time.monotonic() + KEY_WAIT
        while len(found) <= nth and time.monotonic() < deadline:
            # A loaded machine draws late: the panel the last tap asked for may come a few frames on.
            await self.frames(1)
            found = self.keys(text)
        if len(found) <= nth:
            shown = sorted({w.name for w in self.walk() if hasattr(w, "name") and isinstance(w.name, str)})
            raise AssertionError(f"no key {text!r} on the screen (keys: {shown})")
        key = found[nth]
        if key.disabled:
            raise AssertionError(f"the key {text!r} is disabled")
        await self.scroll_to(key)
        x, y = key.to_window(*key.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
        await self.frames(3)

    async def scroll_to(self, widget: Any) -> None:
        """As the dealer's finger would: scroll the panel until ``widget`` shows, and only then.

        Kivy's ``ScrollView.scroll_to`` moves a view whose content fits (it sets ``scroll_y`` to 0,
        the bottom, whatever the widget's place), so a key already in view is not scrolled to."""
        from kivy.uix.scrollview import ScrollView

        parent = widget.parent
        # The window is its own parent: stop there.
        while parent is not None and not isinstance(parent, ScrollView) and parent.parent is not parent:
            parent = parent.parent
        if not isinstance(parent, ScrollView) or _inside(_window_box(widget), _window_box(parent)):
            return
        parent.scroll_to(widget, padding=0, animate=False)
        await self.frames(2)

    async def screenshot(self, path: Path) -> Path:
        from kivy.core.window import Window

        await self.frames(4)
        path.parent.mkdir(parents=True, exist_ok=True)
        written = Path(Window.screenshot(name=str(path.with_suffix("")) + "%(counter)04d.png"))
        written.replace(path)
        return path


@contextlib.asynccontextmanager
async def running_app(width: int, height: int) -> AsyncIterator[Screen]:
    """The Kivy app at ``width`` x ``height`` (the display and environment already set)."""
    from kivy.app import App
    from kivy.core.window import Window
    from kivy.uix.widget import Widget

    class Bare(App):  # the screen's views are put in the window by Screen.show
        def build(self) -> Any:
            return Widget()

    app = Bare()
    task = asyncio.get_running_loop().create_task(app.async_run(async_lib="asyncio"))
    await asyncio.sleep(0.3)
    Window.size = (width, height)
    await asyncio.sleep(0.1)
    try:
        yield Screen(app, Sizes(width, height, default_dpi(width)))
    finally:
        app.stop()
        await task


def cut_off(screen: Screen) -> list[str]:
    """Every label whose text does not fit its box (wider or taller than the widget)."""
    from kivy.uix.label import Label

    bad = []
    for w in screen.walk():
        if isinstance(w, Label) and w.text and w.texture_size[0] and w.get_root_window() is not None:
            tw, th = w.texture_size
            if tw > w.width + 1 or th > w.height + 1:
                bad.append(f"{w.text!r}: text {tw}x{th} in a box {w.width:.0f}x{w.height:.0f}")
    return bad


def small_targets(screen: Screen) -> list[str]:
    """Every key smaller than 9 mm either way."""
    from ui.kivy_parts import Key

    return [
        f"{w.text!r}: {w.width:.0f}x{w.height:.0f} < {screen.sizes.target}"
        for w in screen.walk()
        if isinstance(w, Key)
        and (w.width < screen.sizes.target - 0.5 or w.height < screen.sizes.target - 0.5)
    ]


def _window_box(widget: Any) -> tuple[float, float, float, float]:
    left, bottom = widget.to_window(widget.x, widget.y)
    right, top = widget.to_window(widget.right, widget.top)
    return left, bottom, right, top


def _inside(box: tuple[float, float, float, float], outer: tuple[float, float, float, float]) -> bool:
    """``box`` (left, bottom, right, top) entirely inside ``outer``, to half a pixel."""
    left, bottom, right, top = box
    ol, ob, or_, ot = outer
    return left >= ol - 0.5 and bottom >= ob - 0.5 and right <= or_ + 0.5 and top <= ot + 0.5


def out_of_view(screen: Screen) -> list[str]:
    """Every enabled key not entirely in view: outside the window, scrolled (even partly) out of
    its scroll view, or under the tab bar. A key the dealer cannot see cannot be the next one."""
    from kivy.core.window import Window
    from kivy.uix.scrollview import ScrollView

    from ui.kivy_parts import Key

    view = screen.view
    if view is None:
        return []
    tabs = view.tabs_bar if view.tabs_bar.parent is not None else None
    tabs_top = _window_box(tabs)[3] if tabs is not None else 0.0
    bad = []
    for w in screen.walk():
        if not isinstance(w, Key) or w.disabled or w.get_root_window() is None:
            continue
        # A row of choices that scrolls sideways (twelve seats, eighteen wagers): the row is to
        # be in view, not each key in it.
        strip = next((p for p in _parents(w) if getattr(p, "choices_list", False)), None)
        left, bottom, right, top = _window_box(strip if strip is not None else w)
        where = f"{w.name or w.text!r} at ({left:.0f}, {bottom:.0f})-({right:.0f}, {top:.0f})"
        if left < -0.5 or bottom < -0.5 or right > Window.width + 0.5 or top > Window.height + 0.5:
            bad.append(f"{where}: outside the {Window.width}x{Window.height} window")
            continue
        in_tabs = tabs is not None and any(p is tabs for p in _parents(w))
        if not in_tabs and bottom < tabs_top - 0.5:
            bad.append(f"{where}: under the tab bar (top {tabs_top:.0f})")
            continue
        for p in _parents(strip if strip is not None else w):
            if isinstance(p, ScrollView):
                sl, sb, sr, st = _window_box(p)
                if not _inside((left, bottom, right, top), (sl, sb, sr, st)):
                    bad.append(f"{where}: scrolled out of its view ({sl:.0f}, {sb:.0f})-({sr:.0f}, {st:.0f})")
                    break
    return bad


def _parents(widget: Any) -> Iterator[Any]:
    parent = widget.parent
    while parent is not None and parent.parent is not parent:
        yield parent
        parent = parent.parent


def broken_words(screen: Screen) -> list[str]:
    """Every word too wide for its label's line, which Kivy breaks mid-word ("Touchdo|wn")."""
    import re

    from kivy.uix.label import Label

    bad = []
    for w in screen.walk():
        if not isinstance(w, Label) or not w.text or w.get_root_window() is None:
            continue
        room = w.text_size[0]
        if not room:
            continue
        plain = re.sub(r"\[/?[a-z]+(=[^\]]*)?\]", "", w.text)
        # A label drawn all in one [size=N] (the dealer's line) is measured at that size.
        sized = re.fullmatch(r"\[size=(\d+)\].*\[/size\]", w.text, re.S)
        scale = int(sized.group(1)) / w.font_size if sized else 1.0
        for word in plain.split():
            width = w._label.get_extents(word)[0] * scale
            if width > room + 1:
                bad.append(f"{word!r} ({width:.0f} px) in a line of {room:.0f} px: {plain[:40]!r}")
    return bad
