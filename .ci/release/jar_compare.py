"""Compares two builds' jars entry by entry, for the reproducibility check.

Two builds of one commit must give the same jars. The release check's second build is the
release build, whose version differs from the first build's (0.1.0 against 0.1.0-SNAPSHOT), and
the build writes the version into a few entries (the pom and pom.properties under META-INF/maven,
the build-info file, the Javadoc titles). So an entry's content is equal when it is the same once
the first build's version is replaced by the second's in both (in both: a source file or a page
that names the first version as text has it in both builds). Everything else must be equal: the entries
and their order, each entry's time, permissions, compression method, extra field and comment, and
for an entry without the version, its compressed size too.
"""

from __future__ import annotations

import zipfile
from pathlib import Path


def compare_jars(first: Path, second: Path, replacements: tuple[tuple[bytes, bytes], ...] = ()
                 ) -> list[str]:
    """The differences between two jars (empty when equal apart from the replacements)."""
    if first.read_bytes() == second.read_bytes():
        return []
    differences: list[str] = []
    with zipfile.ZipFile(first) as a, zipfile.ZipFile(second) as b:
        names_a = [i.filename for i in a.infolist()]
        names_b = [i.filename for i in b.infolist()]
        if names_a != names_b:
            only_a = sorted(set(names_a) - set(names_b))
            only_b = sorted(set(names_b) - set(names_a))
            if only_a or only_b:
                differences.append(f"entries only in the first: {only_a[:5]}, only in the second: "
                                   f"{only_b[:5]}")
            else:
                differences.append("the same entries in a different order")
            return differences
        if a.comment != b.comment:
            differences.append("zip comment differs")
        for info_a, info_b in zip(a.infolist(), b.infolist()):
            differences += _compare_entry(a, info_a, b, info_b, replacements)
    return differences


def _compare_entry(a: zipfile.ZipFile, info_a: zipfile.ZipInfo, b: zipfile.ZipFile,
                   info_b: zipfile.ZipInfo, replacements: tuple[tuple[bytes, bytes], ...]
                   ) -> list[str]:
    name = info_a.filename
    differences = []
    for field in ("date_time", "external_attr", "compress_type", "extra", "comment",
                  "create_system", "flag_bits"):
        if getattr(info_a, field) != getattr(info_b, field):
            differences.append(f"{name}: {field} {getattr(info_a, field)!r} against "
                               f"{getattr(info_b, field)!r}")
    content_a, content_b = a.read(info_a), b.read(info_b)
    if _normalized(content_a, replacements) != _normalized(content_b, replacements):
        differences.append(f"{name}: content differs ({len(content_a)} against {len(content_b)} bytes)")
    elif content_a == content_b and info_a.compress_size != info_b.compress_size:
        differences.append(f"{name}: compressed size {info_a.compress_size} against "
                           f"{info_b.compress_size}")
    return differences


def _normalized(content: bytes, replacements: tuple[tuple[bytes, bytes], ...]) -> bytes:
    for old, new in replacements:
        content = content.replace(old, new)
    return content
