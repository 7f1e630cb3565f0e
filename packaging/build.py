"""Build the Debian packages of a table's Pi and of the casino's meter server (docs/install.md).

``scripts/package`` runs this. For each architecture (amd64, arm64) it makes:

- ``table-controller_<version>_<arch>.deb``: the daemon, ``tablectl`` and ``table-ui`` in a
  self-contained environment under ``/opt/table-controller`` (Debian's ``python3``, 3.11 in
  bookworm, with every other dependency a pinned wheel for that architecture: nothing is
  downloaded on the Pi), the units, sysusers, tmpfiles and udev rules, the debconf questions and
  the maintainer scripts of ``packaging/table-controller/``, the defaults of
  ``/etc/table-controller/table-controller.toml`` as a conffile (the table's answers go in a
  drop-in beside it: :func:`config_files`), man pages made from each command's ``--help``, and
  ``tablectl``'s bash completion;
- ``progressive-meter_<version>_<arch>.deb``: the meter under ``/opt/progressive-meter``, its
  unit and user, the Mosquitto configuration it expects, and ``progressive-link-enroll`` (the
  floor's certificates and passwords).

The environment is not made with ``pip install`` into a venv (that runs the target's Python) but
with ``pip install --target --platform``: wheels for the target's architecture, unpacked on this
machine, so an arm64 package builds on an amd64 machine without emulation; pure-Python wheels
of our own distributions come from this tree. The console scripts are written here, naming
``/opt/<package>/bin/python3``, a link to Debian's ``/usr/bin/python3.11``.
"""

from __future__ import annotations

import argparse
import configparser
import gzip
import hashlib
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
PYTHON = "3.11"
#: Debian's name of an architecture -> the wheels' platform tags pip may take for it (bookworm:
#: glibc 2.36, so every manylinux up to 2_36).
PLATFORMS = {
    "amd64": ("manylinux_2_36_x86_64", "manylinux2014_x86_64", "linux_x86_64"),
    "arm64": ("manylinux_2_36_aarch64", "manylinux2014_aarch64", "linux_aarch64"),
}
#: dpkg's Maintainer field; DEBFULLNAME and DEBEMAIL (as dch reads them) name a site's own builder.
MAINTAINER = (
    f"{os.environ.get('DEBFULLNAME', 'Table controller maintainers')} "
    f"<{os.environ.get('DEBEMAIL', 'maintainers@table-controller.example.com')}>"
)


@dataclass(frozen=True)
class Package:
    """One Debian package: the distributions in its environment and what else it ships."""

    name: str
    distributions: tuple[str, ...]
    commands: tuple[str, ...]
    description: str
    shared: tuple[str, ...] = ()
    """Modules of the table's tree the package carries as they are (no wheel of their own)."""


TABLE = Package(
    "table-controller",
    ("table-controller", "progressive-link-wire"),
    ("table-controller", "tablectl", "table-ui"),
    "casino table-game controller for a table's Raspberry Pi",
)
METER = Package(
    "progressive-meter",
    ("progressive-meter", "progressive-link-wire"),
    ("progressive-meter",),
    "central progressive meter for linked casino tables (MQTT)",
    # The meter judges a claim's cards with the table's own hand rankings (meter/claims.py; the
    # import contract "Of the controller the meter sees only ..." in pyproject.toml): those
    # pure modules and nothing else of the controller (no daemon, no Kivy, no GPIO).
    shared=(
        "controller/__init__.py",
        "controller/rules/__init__.py",
        "controller/rules/core/__init__.py",
        "controller/rules/core/cards.py",
        "controller/rules/core/dispatch.py",
        "controller/rules/core/hand.py",
        "controller/rules/rankings",
    ),
)
PACKAGES = (TABLE, METER)


def log(text: str) -> None:
    print(f"package: {text}", file=sys.stderr, flush=True)


def run(*args: str | Path, **kw: object) -> subprocess.CompletedProcess[str]:
    kw.setdefault("text", True)
    return subprocess.run([str(a) for a in args], check=True, **kw)  # type: ignore[call-overload,no-any-return]


def version() -> str:
    """The distributions' version and the commit count: each commit's package is newer than the last."""
    text = (REPO / "pyproject.toml").read_text()
    base = next(line.split('"')[1] for line in text.splitlines() if line.startswith("version = "))
    count = run("git", "-C", REPO, "rev-list", "--count", "HEAD", capture_output=True).stdout.strip()
    sha = run("git", "-C", REPO, "rev-parse", "--short=8", "HEAD", capture_output=True).stdout.strip()
    return f"{base}+{count}.g{sha}"


def build_wheels(work: Path) -> Path:
    """Our own pure-Python wheels (the product, the wire, the meter), built once for every arch."""
    wheels = work / "wheels"
    shutil.rmtree(wheels, ignore_errors=True)
    wheels.mkdir(parents=True)
    src = work / "src"
    shutil.rmtree(src, ignore_errors=True)
    # A clean copy of the committed tree: nothing of a build/ or an egg-info left in the checkout.
    src.mkdir()
    archive = run("git", "-C", REPO, "archive", "--format=tar", "HEAD", capture_output=True, text=False)
    run("tar", "-x", "-C", src, input=archive.stdout, text=False)
    for directory in (src, src / "wire", src / "meter"):
        run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", wheels, directory)
    return wheels


def install_environment(pkg: Package, arch: str, wheels: Path, venv_root: Path, prefix: str) -> None:
    """The venv at ``venv_root`` (installed as ``prefix``): pyvenv.cfg, python3, site-packages, scripts."""
    site = venv_root / "lib" / f"python{PYTHON}" / "site-packages"
    site.mkdir(parents=True)
    (venv_root / "bin").mkdir()
    # --system-site-packages: Raspberry Pi OS's python3-lgpio, the pin factory the unit names.
    (venv_root / "pyvenv.cfg").write_text(
        f"home = /usr/bin\ninclude-system-site-packages = true\nversion = {PYTHON}\n"
    )
    os.symlink(f"/usr/bin/python{PYTHON}", venv_root / "bin" / "python3")
    os.symlink("python3", venv_root / "bin" / "python")
    platform_args = [arg for tag in PLATFORMS[arch] for arg in ("--platform", tag)]
    constraints = HERE / "constraints.txt"
    abi = f"cp{PYTHON.replace('.', '')}"
    run(
        sys.executable, "-m", "pip", "install", "--quiet", "--root-user-action=ignore", "--no-compile",
        "--target", site, *platform_args, "--python-version", PYTHON, "--implementation", "cp",
        "--abi", abi, "--only-binary=:all:", "--find-links", wheels, "-c", constraints, *pkg.distributions,
    )  # fmt: skip
    src = wheels.parent / "src"  # the committed tree build_wheels made the wheels of
    for shared in pkg.shared:
        if (src / shared).is_dir():
            shutil.copytree(src / shared, site / shared, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            (site / shared).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src / shared, site / shared)
        # As Debian ships them (the tree's own modes follow the checkout's umask).
        for path in [site / shared, *(site / shared).rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
    # pip --target leaves the host's scripts and the wheels' data files (Kivy's examples) here.
    for extra in ("bin", "share"):
        shutil.rmtree(site / extra, ignore_errors=True)
    for name, target in console_scripts(site).items():
        if name not in pkg.commands:
            continue
        module, func = target.split(":")
        script = venv_root / "bin" / name
        # A shell script, not a Python one: its interpreter is the environment's python3.
        code = f'import sys; sys.argv[0] = "{name}"; from {module} import {func}; sys.exit({func}())'
        script.write_text(
            f"#!/bin/sh\n# {name}: {target} ({pkg.name}, built by packaging/build.py)\n"
            f"exec {prefix}/bin/python3 -c '{code}' \"$@\"\n"
        )
        script.chmod(0o755)
    missing = set(pkg.commands) - {p.name for p in (venv_root / "bin").iterdir()}
    if missing:
        raise SystemExit(f"package: {pkg.name}: no console script for {sorted(missing)}")
    # No byte code in the package: postinst compiles it on the Pi, prerm removes it (as Debian's
    # own Python packages do), so /opt stays read-only to the services and nothing is stale.
    for cache in list(site.rglob("__pycache__")):
        shutil.rmtree(cache)
    # Shared objects are loaded, not run (the wheels ship some with the executable bit).
    for library in site.rglob("*.so*"):
        if library.is_file() and not library.is_symlink():
            library.chmod(0o644)


def console_scripts(site: Path) -> dict[str, str]:
    scripts: dict[str, str] = {}
    for entry_points in site.glob("*.dist-info/entry_points.txt"):
        parser = configparser.ConfigParser()
        parser.optionxform = str  # type: ignore[assignment,method-assign]
        parser.read(entry_points)
        if parser.has_section("console_scripts"):
            scripts.update(parser["console_scripts"])
    return scripts


def pinned(site: Path) -> list[str]:
    """name==version of every wheel in the environment (shipped as the package's record of them)."""
    out = []
    for meta in sorted(site.glob("*.dist-info/METADATA")):
        fields = dict(line.split(": ", 1) for line in meta.read_text().splitlines()[:5] if ": " in line)
        out.append(f"{fields['Name']}=={fields['Version']}")
    return out


def man_pages(native_bin: Path, out: Path, package: Package, ver: str) -> None:
    """One man page per command, from its ``--help`` (run from a native environment)."""
    for command in package.commands:
        help_text = run(
            native_bin / command, "--help", capture_output=True,
            env={**os.environ, "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1", "KIVY_NO_FILELOG": "1",
                 "KIVY_HOME": str(out / ".kivy"), "PYTHONDONTWRITEBYTECODE": "1"},
        ).stdout  # fmt: skip
        lines = help_text.splitlines()
        body = "\n".join(_roff(line) for line in lines)
        page = (
            f'.TH {command.upper()} 1 "{time.strftime("%Y-%m-%d", time.gmtime(source_epoch()))}" '
            f'"{package.name} {ver}" "User Commands"\n'
            f".SH NAME\n{command} \\- {_roff(package.description)}\n"
            f".SH SYNOPSIS\n.nf\n{body}\n.fi\n"
            f".SH SEE ALSO\n/usr/share/doc/{package.name}/\n"
        )
        (out / f"{command}.1.gz").write_bytes(gzip.compress(page.encode(), mtime=source_epoch()))


def _roff(line: str) -> str:
    line = line.replace("\\", "\\\\").replace("-", "\\-")
    return "\\&" + line if line.startswith((".", "'")) else line


def source_epoch() -> int:
    out = run("git", "-C", REPO, "log", "-1", "--format=%ct", capture_output=True).stdout.strip()
    return int(out)


def install(src: Path, dest: Path, mode: int = 0o644) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dest)
    dest.chmod(mode)


def lay_out(pkg: Package, root: Path, ver: str, man: Path) -> list[str]:
    """The package's files besides its environment; the conffiles it ships."""
    systemd = REPO / "systemd"
    doc = root / "usr/share/doc" / pkg.name
    conffiles: list[str] = []
    own = HERE / pkg.name
    if pkg is TABLE:
        for unit in ("table-controller.service", "table-ui.service"):
            install(systemd / unit, root / "lib/systemd/system" / unit)
        install(systemd / "table-controller.sysusers.conf", root / "usr/lib/sysusers.d/table-controller.conf")
        install(own / "tmpfiles.conf", root / "usr/lib/tmpfiles.d/table-controller.conf")
        # The package's rules; a site's own adapters: a copy of the same name in /etc/udev/rules.d,
        # which udev reads instead (systemd/README.md), and an upgrade never touches.
        install(systemd / "99-table-controller.rules", root / "lib/udev/rules.d/99-table-controller.rules")
        # The defaults, a conffile (dpkg keeps a technician's edits on upgrade, and asks when
        # the package's own changed too); the table's answers are not in it but in a drop-in,
        # table-controller.d/10-table.toml, that postinst writes from this template (config.md).
        defaults, table = config_files()
        share = root / "usr/share/table-controller"
        share.mkdir(parents=True, exist_ok=True)
        for where in (root / "etc/table-controller", share):
            where.mkdir(parents=True, exist_ok=True)
            (where / "table-controller.toml").write_text(defaults)
        (root / "etc/table-controller/table-controller.d").mkdir()
        (share / "10-table.toml").write_text(table)
        conffiles.append("/etc/table-controller/table-controller.toml")
        install(REPO / "examples/table-controller.toml", doc / "examples/table-controller.toml")
        for submission in sorted(REPO.glob("examples/*/rules-submission.toml")):
            install(submission, doc / "examples" / submission.parent.name / "rules-submission.toml")
        install(own / "tablectl.bash-completion", root / "usr/share/bash-completion/completions/tablectl")
        for name in ("systemd.md", "tablectl.md", "config.md", "journal.md", "install.md", "local-api.md"):
            install(REPO / "docs" / name, doc / name)
    else:
        install(systemd / "progressive-meter.service", root / "lib/systemd/system/progressive-meter.service")
        install(own / "sysusers.conf", root / "usr/lib/sysusers.d/progressive-meter.conf")
        share = root / "usr/share/progressive-meter"
        for conf in sorted((systemd / "mosquitto").glob("*.conf")):
            install(conf, share / "mosquitto" / conf.name)
        install(REPO / "meter/meter.example.toml", share / "meter.example.toml")
        install(own / "progressive-link-enroll", root / "usr/sbin/progressive-link-enroll", 0o755)
        for name in ("meter.md", "progressive-link.md", "install.md"):
            install(REPO / "docs" / name, doc / name)
    for command in pkg.commands:
        os.makedirs(root / "usr/bin", exist_ok=True)
        os.symlink(f"/opt/{pkg.name}/bin/{command}", root / "usr/bin" / command)
        install(man / f"{command}.1.gz", root / "usr/share/man/man1" / f"{command}.1.gz")
    if pkg is METER:
        install(
            man / "progressive-link-enroll.8.gz", root / "usr/share/man/man8/progressive-link-enroll.8.gz"
        )
    install(HERE / "copyright", doc / "copyright")
    changelog = (
        f"{pkg.name} ({ver}) bookworm; urgency=medium\n\n"
        f"  * Built from commit {ver.rsplit('.g', 1)[-1]} of the table controller's repository.\n\n"
        f" -- {MAINTAINER}  {time.strftime('%a, %d %b %Y %H:%M:%S +0000', time.gmtime(source_epoch()))}\n"
    )
    (doc / "changelog.gz").write_bytes(gzip.compress(changelog.encode(), mtime=source_epoch()))
    overrides = own / "lintian-overrides"
    install(overrides, root / "usr/share/lintian/overrides" / pkg.name)
    return conffiles


def config_files() -> tuple[str, str]:
    """The table's configuration as the package installs it, from the example's: the defaults
    (every section but ``[table]`` and ``[progressive_link]``), shipped as the conffile
    /etc/table-controller/table-controller.toml; and the template of the table's own drop-in,
    ``[table]`` with the id left to fill, from which postinst writes
    /etc/table-controller/table-controller.d/10-table.toml (and adds a ``[progressive_link]`` from
    the enrollment's bundle)."""
    text = (REPO / "examples/table-controller.toml").read_text()
    defaults: list[str] = []
    table: list[str] = []
    into: list[str] | None = None  # the example's own head comment (its table CS-3) is left out
    for line in text.splitlines():
        if line.startswith("["):
            section = line[1:].split("]", 1)[0]
            into = table if section == "table" else None if section == "progressive_link" else defaults
        if into is None:
            continue
        if into is table and line.startswith("id = "):
            line = 'id = "@TABLE_ID@"' + line[len('id = "CS-3"') :]
        into.append(line)
    if not any(line.startswith('id = "@TABLE_ID@"') for line in table):
        raise SystemExit("package: examples/table-controller.toml has no [table] id line to fill")
    head = (
        "# table-controller's defaults for a table (docs/config.md), shipped by the package as a\n"
        "# conffile: yours to edit, and an upgrade keeps your edits (dpkg asks when the package's\n"
        "# own defaults changed too). The pins and ports are the example's. The table's own\n"
        "# [table] and [progressive_link] are in table-controller.d/10-table.toml, which the\n"
        "# installer wrote from its answers; keys of a drop-in there are read over these.\n\n"
    )
    note = (
        "# The table's own configuration, written by table-controller's installer from its answers\n"
        "# (dpkg-reconfigure table-controller writes it again); read over table-controller.toml.\n"
    )
    return head + "\n".join(defaults).strip() + "\n", note + "\n".join(table).rstrip() + "\n"


def control_files(pkg: Package, arch: str, ver: str, root: Path, control: Path, conffiles: list[str]) -> None:
    own = HERE / pkg.name
    control.mkdir(parents=True)
    files = [
        f for f in sorted(root.rglob("*")) if f.is_file() and not f.is_symlink() and "DEBIAN" not in f.parts
    ]
    size = sum(f.stat().st_size for f in files) // 1024
    schema = _journal_schema_version()
    for script in ("preinst", "postinst", "prerm", "postrm", "config"):
        if (own / script).exists():
            text = (
                (own / script).read_text().replace("@JOURNAL_SCHEMA@", str(schema)).replace("@VERSION@", ver)
            )
            (control / script).write_text(text)
            (control / script).chmod(0o755)
    if (own / "templates").exists():
        install(own / "templates", control / "templates")
    if conffiles:
        (control / "conffiles").write_text("".join(f"{c}\n" for c in conffiles))
    fields = (own / "control").read_text().format(version=ver, arch=arch, size=size, maintainer=MAINTAINER)
    (control / "control").write_text(fields)
    sums = []
    for f in files:
        digest = hashlib.md5(f.read_bytes()).hexdigest()  # dpkg's md5sums format
        sums.append(f"{digest}  {f.relative_to(root)}\n")
    (control / "md5sums").write_text("".join(sums))
    (control / "md5sums").chmod(0o644)


def _journal_schema_version() -> int:
    text = (REPO / "controller/journal/schema.py").read_text()
    line = next(line for line in text.splitlines() if line.startswith("SCHEMA_VERSION: Final = "))
    return int(line.rsplit("=", 1)[1])


def build(arches: list[str], out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    ver = version()
    # Each version's own: two builds at once (scripts/test-package builds two commits) never meet.
    work = out / "build" / ver
    started = time.monotonic()
    wheels = build_wheels(work)
    host = run("dpkg", "--print-architecture", capture_output=True).stdout.strip()
    order = sorted(arches, key=lambda a: a != host)  # the host's first: its commands write the man pages
    man: dict[str, Path] = {}
    made = []
    for arch in order:
        for pkg in PACKAGES:
            t0 = time.monotonic()
            stage = work / f"{pkg.name}_{arch}"
            shutil.rmtree(stage, ignore_errors=True)
            root = stage / "root"
            prefix = f"/opt/{pkg.name}"
            venv = root / prefix.lstrip("/")
            install_environment(pkg, arch, wheels, venv, prefix)
            site = venv / "lib" / f"python{PYTHON}" / "site-packages"
            (venv / "wheels.txt").write_text("".join(f"{p}\n" for p in pinned(site)))
            if pkg.name not in man:
                if arch != host:
                    raise SystemExit(f"package: build {host} too: its commands write the man pages")
                man[pkg.name] = stage / "man"
                man[pkg.name].mkdir()
                native = stage / "native"
                # The scripts name /opt/...; from the stage the environment's own python runs them.
                native.mkdir()
                for command in pkg.commands:
                    wrapper = native / command
                    wrapper.write_text((venv / "bin" / command).read_text().replace(prefix, str(venv)))
                    wrapper.chmod(0o755)
                man_pages(native, man[pkg.name], pkg, ver)
                if pkg is METER:
                    page = (HERE / pkg.name / "progressive-link-enroll.8").read_bytes()
                    (man[pkg.name] / "progressive-link-enroll.8.gz").write_bytes(
                        gzip.compress(page, mtime=source_epoch())
                    )
            conffiles = lay_out(pkg, root, ver, man[pkg.name])
            control_files(pkg, arch, ver, root, root / "DEBIAN", conffiles)
            deb = out / f"{pkg.name}_{ver}_{arch}.deb"
            env = {**os.environ, "SOURCE_DATE_EPOCH": str(source_epoch())}
            run("fakeroot", "dpkg-deb", "--root-owner-group", "-Zxz", "--build", root, deb,
                capture_output=True, env=env)  # fmt: skip
            log(f"{deb.name}: {deb.stat().st_size / 1e6:.1f} MB in {time.monotonic() - t0:.0f} s")
            made.append(deb)
    log(f"{len(made)} packages in {time.monotonic() - started:.0f} s")
    return made


def main() -> int:
    parser = argparse.ArgumentParser(prog="scripts/package", description=__doc__.splitlines()[0])
    parser.add_argument("--arch", action="append", choices=sorted(PLATFORMS), help="default: amd64 and arm64")
    parser.add_argument("--out", type=Path, default=REPO / "dist", help="default: dist/")
    parser.add_argument(
        "--lintian", action="store_true", help="run lintian on each package; fail on an error"
    )
    args = parser.parse_args()
    debs = build(args.arch or sorted(PLATFORMS), args.out)
    if args.lintian:
        for deb in debs:
            result = subprocess.run(
                ["lintian", "--fail-on", "error", str(deb)], text=True, capture_output=True
            )
            print(result.stdout, end="")
            if result.returncode != 0:
                print(result.stderr, file=sys.stderr, end="")
                return 1
    for deb in debs:
        print(deb)
    return 0


if __name__ == "__main__":
    sys.exit(main())
