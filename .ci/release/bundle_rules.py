"""Maven Central's rules for an upload bundle, checked on every artifact in it.

A bundle is a directory (or the unpacked zip) in the Maven repository layout:
<group path>/<artifactId>/<version>/<artifactId>-<version>[-<classifier>].<ext>. Central checks,
for each component (one artifactId and version):
- the pom names the project and says what it is: name, description, url, licenses, developers and
  scm. Central reads the pom as uploaded and resolves its parents, so a value a child inherits
  from its parent counts, provided the parent is in the bundle too (or already on Central: not
  the case here, every dra4j parent is released with its children). name is never inherited by
  Maven, so every pom needs its own;
- a component with a jar has a -sources.jar and a -javadoc.jar beside it;
- every file has an .asc signature that verifies, and .md5 and .sha1 checksums that match
  (.sha256 and .sha512 are optional for Central; dra4j's bundles have them, so they are checked).
Each broken rule is one Violation naming the artifact (file or component) and the rule.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

POM_NS = "{http://maven.apache.org/POM/4.0.0}"
CHECKSUMS = ("md5", "sha1", "sha256", "sha512")
SIDE_FILES = (".asc",) + tuple("." + c for c in CHECKSUMS)
# Elements a pom must have, directly or from a parent; name is never inherited.
INHERITED_FIELDS = ("description", "url", "licenses", "developers", "scm")


@dataclass(frozen=True)
class Violation:
    """One broken rule: the artifact (file or groupId:artifactId:version) and what is wrong."""

    artifact: str
    rule: str
    detail: str

    def __str__(self) -> str:
        return f"{self.artifact}: {self.rule}: {self.detail}"


@dataclass(frozen=True)
class Component:
    """One groupId:artifactId:version of the bundle, its directory and its parsed pom."""

    group_id: str
    artifact_id: str
    version: str
    directory: Path
    pom: ET.Element | None

    @property
    def gav(self) -> str:
        return f"{self.group_id}:{self.artifact_id}:{self.version}"


def check_bundle(root: Path, gnupg_home: Path | None = None) -> list[Violation]:
    """Every violation of Central's rules in the bundle unpacked at root, in file order."""
    violations: list[Violation] = []
    components = _components(root, violations)
    by_gav = {c.gav: c for c in components}
    for component in components:
        violations += _check_pom(component, by_gav)
        violations += _check_companion_jars(component)
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        if path.name.endswith(SIDE_FILES):
            if not Path(str(path)[: str(path).rfind(".")]).is_file():
                violations.append(Violation(_rel(root, path), "orphan", "no file it belongs to"))
            continue
        violations += _check_checksums(root, path)
        violations += _check_signature(root, path, gnupg_home)
    if not components:
        violations.append(Violation(str(root), "layout", "no component (no .pom file) in the bundle"))
    return violations


def _rel(root: Path, path: Path) -> str:
    return str(path.relative_to(root))


def _components(root: Path, violations: list[Violation]) -> list[Component]:
    components = []
    for pom_file in sorted(root.rglob("*.pom")):
        version_dir = pom_file.parent
        artifact_id, version = version_dir.parent.name, version_dir.name
        group_id = ".".join(version_dir.parent.parent.relative_to(root).parts)
        if pom_file.name != f"{artifact_id}-{version}.pom":
            violations.append(Violation(_rel(root, pom_file), "layout",
                                        f"expected {artifact_id}-{version}.pom in this directory"))
            continue
        try:
            pom = ET.parse(pom_file).getroot()
        except ET.ParseError as e:
            violations.append(Violation(_rel(root, pom_file), "pom", f"not well-formed XML: {e}"))
            pom = None
        components.append(Component(group_id, artifact_id, version, version_dir, pom))
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        directory = path.parent
        if not (directory / f"{directory.parent.name}-{directory.name}.pom").is_file():
            violations.append(Violation(_rel(root, path), "layout",
                                        "not in a <groupId>/<artifactId>/<version> directory with its pom"))
        elif not path.name.startswith(f"{directory.parent.name}-{directory.name}"):
            violations.append(Violation(_rel(root, path), "layout",
                                        f"name does not start with {directory.parent.name}-{directory.name}"))
    return components


def _text(pom: ET.Element, path: str) -> str:
    element = pom.find(_ns(path))
    return (element.text or "").strip() if element is not None else ""


def _ns(path: str) -> str:
    return "/".join(POM_NS + part for part in path.split("/"))


def _parent_gav(pom: ET.Element) -> str | None:
    parent = pom.find(_ns("parent"))
    if parent is None:
        return None
    return ":".join(_text(parent, f) for f in ("groupId", "artifactId", "version"))


def _field_present(pom: ET.Element, field: str) -> tuple[bool, str]:
    """Whether the pom itself has the field complete, and if not what is missing in it."""
    if field in ("name", "description", "url"):
        value = _text(pom, field)
        if not value:
            return False, f"no <{field}>"
        if "${" in value:
            return False, f"<{field}> has an unresolved property: {value}"
        return True, ""
    if field == "licenses":
        names = [_text(lic, "name") for lic in pom.findall(_ns("licenses/license"))]
        return (bool(names) and all(names)), "no <licenses><license> with a <name>"
    if field == "developers":
        devs = pom.findall(_ns("developers/developer"))
        named = [d for d in devs if _text(d, "name") or _text(d, "id")]
        return (bool(devs) and len(named) == len(devs)), "no <developers><developer> with a <name> or <id>"
    if field == "scm":
        url = _text(pom, "scm/url")
        return (bool(url) and "${" not in url), "no <scm><url>"
    raise ValueError(field)


def _check_pom(component: Component, by_gav: dict[str, Component]) -> list[Violation]:
    if component.pom is None:
        return []
    pom, gav = component.pom, component.gav
    violations = []
    declared = (_text(pom, "groupId") or _text(pom, "parent/groupId"),
                _text(pom, "artifactId"), _text(pom, "version") or _text(pom, "parent/version"))
    if declared != (component.group_id, component.artifact_id, component.version):
        violations.append(Violation(gav, "pom coordinates",
                                    f"the pom says {':'.join(declared)}"))
    if component.version.endswith("-SNAPSHOT"):
        violations.append(Violation(gav, "version", "a SNAPSHOT cannot be released to Central"))
    present, missing = _field_present(pom, "name")
    if not present:
        violations.append(Violation(gav, "pom name", missing + " (Maven never inherits it)"))
    for field in INHERITED_FIELDS:
        current, seen, chain = pom, {gav}, []
        present, missing = _field_present(current, field)
        while not present:
            parent = _parent_gav(current)
            if parent is None:
                violations.append(Violation(gav, f"pom {field}", missing + _through(chain)))
                break
            if parent not in by_gav or by_gav[parent].pom is None or parent in seen:
                violations.append(Violation(gav, f"pom {field}",
                                            f"{missing}, and its parent {parent} is not in the bundle"))
                break
            seen.add(parent)
            chain.append(parent)
            current = by_gav[parent].pom
            present, missing = _field_present(current, field)
    return violations


def _through(chain: list[str]) -> str:
    return f" (nor in its parents {', '.join(chain)})" if chain else ""


def _check_companion_jars(component: Component) -> list[Violation]:
    base = f"{component.artifact_id}-{component.version}"
    packaging = _text(component.pom, "packaging") if component.pom is not None else ""
    main_jar = component.directory / f"{base}.jar"
    violations = []
    if packaging not in ("", "pom") or main_jar.is_file():
        if not main_jar.is_file():
            violations.append(Violation(component.gav, "main jar",
                                        f"packaging {packaging} but no {base}.jar"))
        for classifier in ("sources", "javadoc"):
            if not (component.directory / f"{base}-{classifier}.jar").is_file():
                violations.append(Violation(component.gav, f"{classifier} jar",
                                            f"no {base}-{classifier}.jar beside {base}.jar"))
    return violations


def _check_checksums(root: Path, path: Path) -> list[Violation]:
    data = path.read_bytes()
    violations = []
    for algorithm in CHECKSUMS:
        side = Path(f"{path}.{algorithm}")
        if not side.is_file():
            violations.append(Violation(_rel(root, path), f"checksum {algorithm}", f"no {side.name}"))
            continue
        recorded = side.read_text(encoding="ascii", errors="replace").split()
        actual = hashlib.new(algorithm, data).hexdigest()
        if not recorded or recorded[0].lower() != actual:
            violations.append(Violation(_rel(root, path), f"checksum {algorithm}",
                                        f"{side.name} says {recorded[0] if recorded else '(empty)'},"
                                        f" the file's is {actual}"))
    return violations


def _check_signature(root: Path, path: Path, gnupg_home: Path | None) -> list[Violation]:
    signature = Path(f"{path}.asc")
    if not signature.is_file():
        return [Violation(_rel(root, path), "signature", f"no {signature.name}")]
    env = dict(os.environ)
    if gnupg_home is not None:
        env["GNUPGHOME"] = str(gnupg_home)
    result = subprocess.run(["gpg", "--batch", "--status-fd", "1", "--verify", str(signature), str(path)],
                            env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0 or "[GNUPG:] VALIDSIG" not in result.stdout:
        reason = (result.stderr.strip().splitlines() or ["no output"])[-1]
        return [Violation(_rel(root, path), "signature", f"gpg --verify rejects {signature.name}: {reason}")]
    return []
