"""The release check: builds the Central bundle in a fresh clone and checks it.

1. A throwaway GPG key in a temporary GNUPGHOME (deleted at the end, its agent stopped).
2. A clone of this checkout's HEAD in a temporary directory, set to the release version (the
   current one without -SNAPSHOT), built with the release profile: ./mvnw -Prelease deploy,
   tests not even compiled (the first build ran them), the unpublished modules left out of the
   reactor, nothing installed into ~/.m2 and nothing uploaded. Maven runs online: the Central plugin
   will not run offline (it sends nothing, but may download the plugins it needs).
3. Every artifact of the bundle, central-bundle.zip in target/central-publishing of the first
   module (dra4j-dependencies), against Central's rules (bundle_rules.py).
4. Reproducibility: the clone's jars against the jars of the first build in this checkout (the
   README's ./mvnw -B verify -Pbenchmarks, run before), equal apart from the version (jar_compare.py).
Exits 1 naming each artifact and broken rule, 0 when all holds.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bundle_rules import check_bundle  # noqa: E402
from jar_compare import compare_jars  # noqa: E402
from set_version import current_version, set_version  # noqa: E402

# Built by the first build but not published: no place in the reactor of the release build.
# (benchmarks needs no entry: it is only in the reactor with -Pbenchmarks, which this build lacks.)
UNPUBLISHED_MODULES = ("examples/gpu-driver", "examples/gpu-driver-demo", "integration-tests")
# Jars a published module builds besides its artifacts, compared too: the command line's
# runnable jar (java -jar dra4j.jar).
EXTRA_JARS = ("cli/target/dra4j.jar",)


def generate_key(home: Path) -> str:
    """A passphrase-less signing key in home; its fingerprint."""
    home.mkdir(mode=0o700)
    env = dict(os.environ, GNUPGHOME=str(home))
    subprocess.run(["gpg", "--batch", "--quiet", "--pinentry-mode", "loopback", "--passphrase", "",
                    "--quick-generate-key", "dra4j release check <release-check@dra4j.invalid>",
                    "ed25519", "sign", "1d"], env=env, check=True, capture_output=True)
    listing = subprocess.run(["gpg", "--batch", "--with-colons", "--list-secret-keys"], env=env,
                             check=True, capture_output=True, text=True).stdout
    return next(line.split(":")[9] for line in listing.splitlines() if line.startswith("fpr:"))


def stop_agent(home: Path) -> None:
    """Stops the gpg-agent that gpg started for this home."""
    subprocess.run(["gpgconf", "--kill", "gpg-agent"], env=dict(os.environ, GNUPGHOME=str(home)),
                   check=False, capture_output=True)


def build_bundle(checkout: Path, work: Path, gnupg_home: Path, key: str) -> Path:
    """Clones HEAD into work/src, builds the bundle at the release version; the clone's path."""
    head = subprocess.run(["git", "-C", str(checkout), "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()
    clone = work / "src"
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(checkout), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "checkout", "-q", head], check=True)
    snapshot = current_version(clone)
    release = snapshot.removesuffix("-SNAPSHOT")
    set_version(clone, release)
    command = ["./mvnw", "-B", "-Prelease", "deploy", "-Dmaven.test.skip=true", "-Dinvoker.skip=true",
               "-Darchetype.test.skip=true", "-Dmaven.install.skip=true", f"-Dgpg.keyname={key}",
               "-pl", ",".join("!" + m for m in UNPUBLISHED_MODULES)]
    print(f"release check: building the bundle of {head[:12]} at {release} in {clone}", flush=True)
    env = dict(os.environ, GNUPGHOME=str(gnupg_home))
    env.pop("MAVEN_GPG_PASSPHRASE", None)
    log = work / "build.log"
    with open(log, "w", encoding="utf-8") as out:
        result = subprocess.run(command, cwd=clone, env=env, stdout=out, stderr=subprocess.STDOUT,
                                check=False)
    if result.returncode != 0:
        print(log.read_text(encoding="utf-8", errors="replace")[-6000:], file=sys.stderr)
        raise SystemExit(f"release check: the release build failed ({' '.join(command)})")
    return clone


def compare_with_first_build(checkout: Path, clone: Path, bundle: Path) -> list[str]:
    """Compares the bundle's jars (and EXTRA_JARS) with the first build's; the problems."""
    snapshot, release = current_version(checkout), current_version(clone)
    reference = {}
    for jar in list(checkout.glob("*/target/*.jar")) + list(checkout.glob("*/*/target/*.jar")):
        reference[jar.name] = jar
    problems, compared, identical = [], 0, 0
    pairs = []
    for jar in sorted(bundle.rglob("*.jar")):
        name = jar.name.replace(f"-{release}", f"-{snapshot}", 1)
        pairs.append((reference.get(name), jar, name))
    for extra in EXTRA_JARS:
        pairs.append((checkout / extra if (checkout / extra).is_file() else None, clone / extra, extra))
    replacements = ((snapshot.encode(), release.encode()),) if snapshot != release else ()
    for first, second, label in pairs:
        if first is None:
            problems.append(f"{label}: not in the first build here (run ./mvnw -B verify -Pbenchmarks first)")
            continue
        if not second.is_file():
            problems.append(f"{label}: the release build made no {second.name}")
            continue
        compared += 1
        identical += first.read_bytes() == second.read_bytes()
        problems += [f"{label}: {d}" for d in compare_jars(first, second, replacements)[:10]]
    print(f"release check: {compared} jars of the release build compared with the first build's:"
          f" {identical} byte for byte the same, {compared - identical} apart from the version")
    return problems


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-compare", action="store_true",
                        help="skip the comparison with this checkout's jars")
    parser.add_argument("--keep", action="store_true", help="keep the clone and the bundle")
    args = parser.parse_args(argv)
    checkout = Path(subprocess.run(["git", "rev-parse", "--show-toplevel"], check=True,
                                   capture_output=True, text=True).stdout.strip())
    if not args.no_compare:
        dirty = subprocess.run(["git", "-C", str(checkout), "status", "--porcelain",
                                "--untracked-files=no"], check=True, capture_output=True,
                               text=True).stdout
        if dirty:
            print("release check: uncommitted changes, the clone would not have them (commit, or"
                  f" use --no-compare):\n{dirty}", file=sys.stderr)
            return 2
    started = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="dra4j-release-"))
    gnupg_home = work / "gnupg"
    try:
        key = generate_key(gnupg_home)
        clone = build_bundle(checkout, work, gnupg_home, key)
        built = time.monotonic()
        zips = sorted(clone.glob("*/target/central-publishing/central-bundle.zip"))
        if len(zips) != 1:
            print(f"release check: expected one central-bundle.zip in the clone, found {zips}",
                  file=sys.stderr)
            return 1
        zip_path = zips[0]
        bundle = work / "bundle"
        with zipfile.ZipFile(zip_path) as archive:
            archive.extractall(bundle)
        files = sorted(p for p in bundle.rglob("*") if p.is_file())
        components = sorted({p.parent.relative_to(bundle) for p in files})
        print(f"release check: bundle {zip_path.name}: {len(components)} components, "
              f"{len(files)} files, built in {built - started:.0f} s")
        problems = [str(v) for v in check_bundle(bundle, gnupg_home)]
        if not args.no_compare:
            problems += compare_with_first_build(checkout, clone, bundle)
        for problem in problems:
            print(f"release check: FAIL {problem}", file=sys.stderr)
        print(f"release check: {'FAILED' if problems else 'passed'}: {len(components)} components, "
              f"{len(problems)} problems, {time.monotonic() - started:.0f} s in all")
        if args.keep:
            print(f"release check: kept {work}")
        return 1 if problems else 0
    finally:
        stop_agent(gnupg_home)
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
