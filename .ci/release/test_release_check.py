"""Tests of the release check's rules on small bundles made here, good and broken on purpose.

Run by .ci/release-check before the real check: python3 -m unittest discover -s .ci/release
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
import unittest
import zipfile
from pathlib import Path

from bundle_rules import check_bundle
from jar_compare import compare_jars
from release_check import generate_key, stop_agent

PARENT_POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.example</groupId><artifactId>parent</artifactId><version>1.0.0</version>
  <packaging>pom</packaging>
  <name>Parent</name><description>The parent</description><url>https://example.invalid</url>
  <licenses><license><name>Apache-2.0</name></license></licenses>
  <developers><developer><name>Someone</name></developer></developers>
  <scm><url>https://example.invalid/scm</url></scm>
</project>"""

CHILD_POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent><groupId>io.example</groupId><artifactId>parent</artifactId><version>1.0.0</version></parent>
  <artifactId>child</artifactId>
  <name>Child</name>
</project>"""


class BundleTest(unittest.TestCase):
    """A bundle of a parent pom and a child jar that inherits its metadata."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.keys = Path(tempfile.mkdtemp(prefix="dra4j-rc-test-"))
        cls.home = cls.keys / "gnupg"
        cls.key = generate_key(cls.home)

    @classmethod
    def tearDownClass(cls) -> None:
        stop_agent(cls.home)
        shutil.rmtree(cls.keys, ignore_errors=True)

    def setUp(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="dra4j-bundle-"))
        self.addCleanup(shutil.rmtree, self.root, True)
        self.parent = self.root / "io/example/parent/1.0.0"
        self.child = self.root / "io/example/child/1.0.0"
        self.put(self.parent / "parent-1.0.0.pom", PARENT_POM.encode())
        self.put(self.child / "child-1.0.0.pom", CHILD_POM.encode())
        for name in ("child-1.0.0.jar", "child-1.0.0-sources.jar", "child-1.0.0-javadoc.jar"):
            self.put(self.child / name, self.jar({"a.txt": name.encode()}))

    def jar(self, entries: dict[str, bytes]) -> bytes:
        path = self.root / "tmp.jar"
        with zipfile.ZipFile(path, "w") as archive:
            for name, data in entries.items():
                archive.writestr(zipfile.ZipInfo(name, (2026, 1, 1, 0, 0, 0)), data)
        data = path.read_bytes()
        path.unlink()
        return data

    def put(self, path: Path, data: bytes) -> None:
        """Writes a file with its signature and its four checksums, as the release build does."""
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        subprocess.run(["gpg", "--batch", "--yes", "--quiet", "--pinentry-mode", "loopback",
                        "--passphrase", "", "-u", self.key, "--armor", "--detach-sign", str(path)],
                       env=dict(os.environ, GNUPGHOME=str(self.home)), check=True)
        for algorithm in ("md5", "sha1", "sha256", "sha512"):
            Path(f"{path}.{algorithm}").write_text(hashlib.new(algorithm, data).hexdigest())

    def rules(self) -> list[str]:
        return [f"{v.artifact}: {v.rule}" for v in check_bundle(self.root, self.home)]

    def test_a_complete_bundle_passes(self) -> None:
        self.assertEqual([], self.rules())

    def test_a_pom_without_its_own_name_fails_although_the_parent_has_one(self) -> None:
        self.put(self.child / "child-1.0.0.pom", CHILD_POM.replace("<name>Child</name>", "").encode())
        self.assertEqual(["io.example:child:1.0.0: pom name"], self.rules())

    def test_metadata_missing_in_the_child_and_its_parent_fails_both(self) -> None:
        parent = PARENT_POM.replace("<description>The parent</description>", "")
        self.put(self.parent / "parent-1.0.0.pom", parent.encode())
        self.assertEqual(["io.example:child:1.0.0: pom description",
                          "io.example:parent:1.0.0: pom description"], sorted(self.rules()))

    def test_inherited_metadata_needs_the_parent_in_the_bundle(self) -> None:
        shutil.rmtree(self.parent)
        self.assertEqual(["io.example:child:1.0.0: pom " + f for f in
                          ("description", "url", "licenses", "developers", "scm")], self.rules())

    def test_an_unresolved_property_is_not_a_value(self) -> None:
        parent = PARENT_POM.replace("https://example.invalid</url>", "${project.home}</url>")
        self.put(self.parent / "parent-1.0.0.pom", parent.encode())
        self.assertEqual(["io.example:child:1.0.0: pom url", "io.example:parent:1.0.0: pom url"],
                         sorted(self.rules()))

    def test_a_jar_without_sources_or_javadoc_fails(self) -> None:
        for side in ("", ".asc", ".md5", ".sha1", ".sha256", ".sha512"):
            (self.child / f"child-1.0.0-javadoc.jar{side}").unlink()
        self.assertEqual(["io.example:child:1.0.0: javadoc jar"], self.rules())

    def test_a_wrong_checksum_fails(self) -> None:
        (self.child / "child-1.0.0.jar.sha1").write_text("0" * 40)
        self.assertEqual(["io/example/child/1.0.0/child-1.0.0.jar: checksum sha1"], self.rules())

    def test_a_missing_checksum_fails(self) -> None:
        (self.parent / "parent-1.0.0.pom.sha512").unlink()
        self.assertEqual(["io/example/parent/1.0.0/parent-1.0.0.pom: checksum sha512"], self.rules())

    def test_a_file_changed_after_signing_fails_its_signature(self) -> None:
        jar = self.child / "child-1.0.0.jar"
        data = jar.read_bytes() + b"x"
        jar.write_bytes(data)
        for algorithm in ("md5", "sha1", "sha256", "sha512"):
            Path(f"{jar}.{algorithm}").write_text(hashlib.new(algorithm, data).hexdigest())
        self.assertEqual(["io/example/child/1.0.0/child-1.0.0.jar: signature"], self.rules())

    def test_an_unsigned_file_fails(self) -> None:
        (self.child / "child-1.0.0-sources.jar.asc").unlink()
        self.assertEqual(["io/example/child/1.0.0/child-1.0.0-sources.jar: signature"], self.rules())

    def test_a_snapshot_cannot_be_released(self) -> None:
        snapshot = self.root / "io/example/snap/1.0.0-SNAPSHOT"
        pom = PARENT_POM.replace("<artifactId>parent</artifactId><version>1.0.0</version>",
                                 "<artifactId>snap</artifactId><version>1.0.0-SNAPSHOT</version>")
        self.put(snapshot / "snap-1.0.0-SNAPSHOT.pom", pom.encode())
        self.assertEqual(["io.example:snap:1.0.0-SNAPSHOT: version"], self.rules())


class JarCompareTest(unittest.TestCase):
    """Two builds' jars: equal apart from the version, or not."""

    def setUp(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="dra4j-jars-"))
        self.addCleanup(shutil.rmtree, self.dir, True)

    def jar(self, name: str, entries: list[tuple[str, bytes, tuple[int, ...]]]) -> Path:
        path = self.dir / name
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            for entry, data, when in entries:
                archive.writestr(zipfile.ZipInfo(entry, when), data)
        return path

    def test_jars_that_differ_only_in_the_version_are_equal(self) -> None:
        when = (2026, 1, 1, 0, 0, 0)
        first = self.jar("a.jar", [("p", b"version=1.0-SNAPSHOT", when), ("c", b"code", when)])
        second = self.jar("b.jar", [("p", b"version=1.0", when), ("c", b"code", when)])
        self.assertEqual([], compare_jars(first, second, ((b"1.0-SNAPSHOT", b"1.0"),)))

    def test_a_version_that_is_text_not_the_project_version_is_left_as_it_is(self) -> None:
        when = (2026, 1, 1, 0, 0, 0)
        first = self.jar("a.jar", [("Doc.html", b"<title>1.0-SNAPSHOT</title> e.g. 1.0-SNAPSHOT", when)])
        second = self.jar("b.jar", [("Doc.html", b"<title>1.0</title> e.g. 1.0-SNAPSHOT", when)])
        self.assertEqual([], compare_jars(first, second, ((b"1.0-SNAPSHOT", b"1.0"),)))

    def test_an_entry_time_from_the_clock_is_a_difference(self) -> None:
        first = self.jar("a.jar", [("c", b"code", (2026, 1, 1, 0, 0, 0))])
        second = self.jar("b.jar", [("c", b"code", (2026, 1, 1, 0, 0, 2))])
        self.assertEqual(["c: date_time (2026, 1, 1, 0, 0, 0) against (2026, 1, 1, 0, 0, 2)"],
                         compare_jars(first, second))

    def test_a_build_time_in_an_entry_is_a_difference(self) -> None:
        when = (2026, 1, 1, 0, 0, 0)
        first = self.jar("a.jar", [("info", b"time=2026-01-01T10:00:00Z", when)])
        second = self.jar("b.jar", [("info", b"time=2026-01-01T10:05:00Z", when)])
        self.assertEqual(["info: content differs (25 against 25 bytes)"], compare_jars(first, second))

    def test_entries_in_another_order_are_a_difference(self) -> None:
        when = (2026, 1, 1, 0, 0, 0)
        first = self.jar("a.jar", [("x", b"1", when), ("y", b"2", when)])
        second = self.jar("b.jar", [("y", b"2", when), ("x", b"1", when)])
        self.assertEqual(["the same entries in a different order"], compare_jars(first, second))


if __name__ == "__main__":
    unittest.main()
