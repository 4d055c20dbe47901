#!/usr/bin/env bash
# Installs every Debian 12 package SweepBench needs to build, test, package and run.
# Idempotent: safe to run again; apt-get skips what is already installed.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# lld: a linker several times faster than GNU ld for the test executables (cmake/FastLinker.cmake).
BUILD="build-essential cmake ninja-build pkg-config git ccache lld
  qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev qt6-charts-dev qt6-svg-dev
  libgl-dev libvulkan-dev
  libyaml-cpp-dev libquazip1-qt6-dev qt6-5compat-dev zlib1g-dev rapidjson-dev"
RUNTIME="libqt6widgets6 libqt6charts6 libqt6svg6 libqt6network6 qt6-qpa-plugins
  fonts-dejavu-core"
# python3-venv/pip: the real-server setup (tests/realserver/) builds llama.cpp and installs vLLM
# into venvs; libnuma1: vLLM's CPU build links it.
# clang + libclang-rt-14-dev: the libFuzzer targets of tests/fuzz (libFuzzer ships in compiler-rt).
TEST="xvfb xauth appstream desktop-file-utils file dpkg-dev python3-venv python3-pip libnuma1
  clang libclang-rt-14-dev"
$SUDO apt-get install -y -qq --no-install-recommends $BUILD $RUNTIME $TEST
