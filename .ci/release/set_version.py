"""Sets the version of every dra4j pom: python3 .ci/release/set_version.py NEW [ROOT].

Each module's pom names the project version once (its own <version>, or its parent's for the
modules that inherit it); this replaces that one occurrence in every pom.xml that git tracks and
refuses to go on when a pom does not have it exactly once. Used by the release (docs/releasing.md)
and by .ci/release-check, which builds the bundle at the release version.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path


def current_version(root: Path) -> str:
    """The version of the build's root pom (dra4j-parent), from its parent element."""
    text = (root / "pom.xml").read_text(encoding="utf-8")
    match = re.search(r"<parent>.*?<version>([^<]+)</version>.*?</parent>", text, re.S)
    if not match:
        raise SystemExit(f"{root / 'pom.xml'}: no <parent><version>")
    return match.group(1).strip()


def set_version(root: Path, new: str) -> list[Path]:
    """Replaces the current version with new in every tracked pom.xml; the poms it changed."""
    if not re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?", new):
        raise SystemExit(f"version {new!r} is not MAJOR.MINOR.PATCH[-QUALIFIER]")
    old = current_version(root)
    listed = subprocess.run(["git", "-C", str(root), "ls-files", "pom.xml", "*/pom.xml"],
                            capture_output=True, text=True, check=True).stdout.split()
    # The archetype's template and test projects are not modules: they use @project.version@.
    poms = [root / p for p in listed if "/src/" not in p]
    needle = f"<version>{old}</version>"
    for pom in poms:
        count = pom.read_text(encoding="utf-8").count(needle)
        if count != 1:
            raise SystemExit(f"{pom}: {needle} occurs {count} times, expected once")
    for pom in poms:
        text = pom.read_text(encoding="utf-8")
        pom.write_text(text.replace(needle, f"<version>{new}</version>"), encoding="utf-8")
    return poms


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 3):
        print("usage: set_version.py NEW_VERSION [PROJECT_ROOT]", file=sys.stderr)
        return 2
    root = Path(argv[2] if len(argv) == 3 else ".").resolve()
    old = current_version(root)
    poms = set_version(root, argv[1])
    print(f"{old} -> {argv[1]} in {len(poms)} poms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
