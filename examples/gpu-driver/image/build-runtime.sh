#!/bin/bash
# Builds what the GPU driver's image ships besides its base: a jlink runtime of just the modules
# the driver needs, the driver's jar, and an AOT cache (JDK 25, JEP 483/514/515: classes loaded
# and linked, method profiles) made from a training run of the driver on that runtime, so that
# nothing is written at run time and nothing can go stale (the cache is made from the very jar
# and runtime it ships with). The Dockerfile runs it; RuntimeImageIT (examples/gpu-driver-demo)
# runs it without Docker.
#
#   build-runtime.sh <driver jar> <demo jar> <output dir>
#
# Needs JAVA_HOME: a JDK 25 with jlink and jdeps (it runs the training's in-memory API server and
# kubelet client from the demo jar too, gpu-driver-demo.jar of examples/gpu-driver-demo). The
# output dir, which must be where the image has it (the cache names the jar's path): <out>/java
# (the runtime), <out>/app/gpu-driver.jar, <out>/app/gpu-driver.aot,
# <out>/app/lib/libjnidispatch.so (JNA's native part, unpacked here so that JNA writes nothing to
# /tmp at run time), <out>/app/jvm.options (the options the image's entry point passes:
# `java @<out>/app/jvm.options -jar <out>/app/gpu-driver.jar`).
#
# Steps, each also a command of its own (build-runtime.sh <step> ...), for tests:
#   modules <jar>             the jar's modules by jdeps, checked against runtime-modules.txt
#   runtime <out>             jlink the runtime into <out>/java
#   train <demo jar> <out>    the training run, writing <out>/app/gpu-driver.aot
#   verify <demo jar> <out>   a short real run with the cache required (-XX:AOTMode=on): fails
#                             on any [aot]/[cds] message and on any file written under <out>
# Settings (environment): COMPRESS (jlink's --compress, default zip-0: see the README), CYCLES
# (training cycles, default 100), TRAINING_OPTIONS (the JVM options of the training run, default
# the chart's kubeletPlugin.jvmOptions: the profiles are then those of the pod's JVM).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${JAVA_HOME:?JAVA_HOME must name a JDK 25 with jlink and jdeps}"
jdk=$JAVA_HOME/bin
modules_file=$here/runtime-modules.txt
values=$here/../deployments/helm/dra4j-gpu-driver/values.yaml

die() { echo "build-runtime: $*" >&2; exit 1; }

# The chart's kubeletPlugin.jvmOptions: the first jvmOptions line of its values.
chart_options() {
  sed -n 's/^  jvmOptions: "\(.*\)"$/\1/p' "$values" | head -n 1
}

# The modules to link: the list's plain lines, joined by commas.
listed_modules() {
  grep -v -e '^#' -e '^-' -e '^$' "$modules_file" | paste -sd, -
}

check_modules() {
  local jar=$1 needed listed excluded missing=()
  needed=$("$jdk/jdeps" --multi-release 25 --ignore-missing-deps --print-module-deps "$jar" \
    | tr ',' '\n')
  listed=$(listed_modules | tr ',' '\n')
  excluded=$(sed -n 's/^-\([a-z.]*\):.*/\1/p' "$modules_file")
  for module in $needed; do
    printf '%s\n%s\n' "$listed" "$excluded" | grep -qx "$module" || missing+=("$module")
  done
  if ((${#missing[@]})); then
    die "jdeps finds that $jar needs ${missing[*]}, which $modules_file neither lists nor" \
      "leaves out with a reason: add each (or a line '-module: why')"
  fi
  echo "build-runtime: jdeps: the jar needs $(paste -sd, <<<"$needed"); linking $(listed_modules)"
}

link_runtime() {
  local out=$1
  rm -rf "$out/java"
  mkdir -p "$out"
  "$jdk/jlink" --add-modules "$(listed_modules)" --strip-debug --no-man-pages \
    --no-header-files --compress="${COMPRESS:-zip-0}" --output "$out/java"
}

# The app directory: the jar, JNA's native library and the options file.
lay_out_app() {
  local jar=$1 out=$2 arch
  mkdir -p "$out/app/lib"
  cp "$jar" "$out/app/gpu-driver.jar"
  case $(uname -m) in x86_64) arch=x86-64 ;; aarch64) arch=aarch64 ;; *) arch=$(uname -m) ;; esac
  (cd "$out/app/lib" && "$jdk/jar" xf "$out/app/gpu-driver.jar" \
    "com/sun/jna/linux-$arch/libjnidispatch.so" \
    && mv "com/sun/jna/linux-$arch/libjnidispatch.so" . && rm -r com)
  # Only what the cache and the image's layout need; the tuning is the chart's (JAVA_TOOL_OPTIONS).
  # Compact object headers must be the training's setting for the cache to map.
  printf '%s\n' "-XX:AOTCache=$out/app/gpu-driver.aot" "-XX:+UseCompactObjectHeaders" \
    "-Djna.boot.library.path=$out/app/lib" "-Djna.nounpack=true" >"$out/app/jvm.options"
}

# The options of a run on the shipped runtime: the training's (or the chart's) then the image's.
run_options() {
  local out=$1
  # shellcheck disable=SC2086
  printf '%s\n' ${TRAINING_OPTIONS:-$(chart_options)}
  grep -v '^-XX:AOTCache=' "$out/app/jvm.options"
}

train() {
  local demo=$1 out=$2 work
  work=$(mktemp -d /tmp/gpu-training.XXXXXX) # short: socket paths have a length limit
  rm -f "$out/app/gpu-driver.aot"
  mapfile -t options < <(run_options "$out")
  # The cache is written as the driver exits after SIGTERM (a child JVM assembles it).
  "$jdk/java" -cp "$demo" "$here/TrainingRun.java" "$work" "${CYCLES:-100}" \
    "$out/java/bin/java" "${options[@]}" "-XX:AOTCacheOutput=$out/app/gpu-driver.aot" \
    -jar "$out/app/gpu-driver.jar" kubelet-plugin
  [[ -s $out/app/gpu-driver.aot ]] || die "the training run wrote no AOT cache; see $work"
  rm -rf "$work"
  echo "build-runtime: AOT cache $(du -h "$out/app/gpu-driver.aot" | cut -f1)"
}

verify() {
  local demo=$1 out=$2 work stamp written
  work=$(mktemp -d /tmp/gpu-verify.XXXXXX)
  stamp=$work/stamp
  touch "$stamp"
  sleep 1 # mtimes have a granularity; anything written from here is newer than the stamp
  mapfile -t options < <(run_options "$out")
  # The cache is required: the JVM refuses to start if it cannot map it.
  "$out/java/bin/java" "${options[@]}" -XX:AOTMode=on "-XX:AOTCache=$out/app/gpu-driver.aot" \
    -jar "$out/app/gpu-driver.jar" --help >"$work/help.txt" 2>&1 \
    || die "the runtime did not run --help with the cache: $(cat "$work/help.txt")"
  "$jdk/java" -cp "$demo" "$here/TrainingRun.java" "$work/run" 3 \
    "$out/java/bin/java" "${options[@]}" -XX:AOTMode=on "-XX:AOTCache=$out/app/gpu-driver.aot" \
    -Xlog:aot=warning,cds=warning -jar "$out/app/gpu-driver.jar" kubelet-plugin
  if grep -E '\[(aot|cds)' "$work/help.txt" "$work/run/driver.log"; then
    die "the JVM printed the [aot]/[cds] messages above: the cache does not fit the runtime"
  fi
  written=$(find "$out" -newer "$stamp")
  [[ -z $written ]] || die "the driver wrote under $out at run time: $written"
  echo "build-runtime: verified: the driver ran on the runtime with the cache required, no" \
    "[aot]/[cds] message, nothing written under $out"
  rm -rf "$work"
}

case ${1:-} in
  modules) check_modules "$2" ;;
  runtime) link_runtime "$2" ;;
  train) train "$2" "$3" ;;
  verify) verify "$2" "$3" ;;
  -*|'') die "usage: build-runtime.sh <driver jar> <demo jar> <output dir> (or a step; see the comment)" ;;
  *)
    [[ $# -eq 3 ]] || die "usage: build-runtime.sh <driver jar> <demo jar> <output dir>"
    jar=$(realpath "$1"); demo=$(realpath "$2"); mkdir -p "$3"; out=$(realpath "$3")
    check_modules "$jar"
    link_runtime "$out"
    lay_out_app "$jar" "$out"
    train "$demo" "$out"
    verify "$demo" "$out"
    ;;
esac
