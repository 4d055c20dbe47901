#!/usr/bin/env bash
# Builds the .deb from a configured build folder and checks its desktop integration.
#   usage: tests/packaging/check-package.sh BUILD_DIR
# Runs `cpack -G DEB` in BUILD_DIR (CPack packages what is already built: build sweepbench first), unpacks the package with
# dpkg-deb -x into a temporary folder and checks: usr/bin/sweepbench, the desktop file
# (desktop-file-validate), the AppStream metainfo, the hicolor icons, `appstreamcli validate-tree
# --no-net` on the unpacked tree, and that desktop file name, metainfo <id>, <launchable> and Icon=
# all use the one application id. Prints every failure and exits 1 if there was any (2 on usage or
# missing tools). The .deb stays in BUILD_DIR; its path is printed at the end.
set -uo pipefail

APP_ID=io.github.sweepbench.SweepBench
ICON_SIZES="16 24 32 48 64 128 256"

die() { echo "check-package: $*" >&2; exit 2; }
[ $# -eq 1 ] || die "usage: $0 BUILD_DIR"
BUILD_DIR=$(cd "$1" 2>/dev/null && pwd) || die "no such build folder: $1"
[ -f "$BUILD_DIR/CPackConfig.cmake" ] || die "$BUILD_DIR has no CPackConfig.cmake (configure it with cmake first)"
for tool in cpack dpkg-deb desktop-file-validate appstreamcli; do
  command -v "$tool" >/dev/null || die "missing tool '$tool' (run packaging/install-deps.sh)"
done

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
ok() { echo "ok:   $*"; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/sweepbench-pkg.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$TMP"' EXIT

echo "== cpack -G DEB in $BUILD_DIR"
if ! (cd "$BUILD_DIR" && cpack -G DEB) >"$TMP/cpack.log" 2>&1; then
  cat "$TMP/cpack.log" >&2
  echo "FAIL: cpack -G DEB failed (log above)" >&2
  exit 1
fi
DEB=$(sed -n 's/^CPack: - package: \(.*\.deb\) generated\.$/\1/p' "$TMP/cpack.log" | tail -n 1)
if [ -z "$DEB" ] || [ ! -f "$DEB" ]; then
  cat "$TMP/cpack.log" >&2
  echo "FAIL: cpack did not report a generated .deb" >&2
  exit 1
fi
ok "built $(basename "$DEB")"

VERSION=$(dpkg-deb -f "$DEB" Version)
ARCH=$(dpkg-deb -f "$DEB" Architecture)
[ "$(basename "$DEB")" = "sweepbench_${VERSION}_${ARCH}.deb" ] \
  && ok "file name follows sweepbench_<version>_<arch>.deb" \
  || fail "file name $(basename "$DEB") is not sweepbench_${VERSION}_${ARCH}.deb"
DEPENDS=$(dpkg-deb -f "$DEB" Depends)
case "$DEPENDS" in
  *libqt6core6*) ok "Depends (shlibdeps): $DEPENDS" ;;
  *) fail "Depends lacks the shared libraries found by dpkg-shlibdeps: '$DEPENDS'" ;;
esac

ROOT="$TMP/root"
mkdir -p "$ROOT"
dpkg-deb -x "$DEB" "$ROOT" || { echo "FAIL: dpkg-deb -x $DEB" >&2; exit 1; }
if dpkg-deb -c "$DEB" | awk '{print $6}' | grep -q '^\./usr/local/'; then
  fail "package installs under /usr/local; expected /usr"
fi

# Binary
[ -x "$ROOT/usr/bin/sweepbench" ] && ok "usr/bin/sweepbench" || fail "usr/bin/sweepbench missing or not executable"

# Desktop file
DESKTOP_FILES=("$ROOT"/usr/share/applications/*.desktop)
DESKTOP="$ROOT/usr/share/applications/$APP_ID.desktop"
if [ ! -e "${DESKTOP_FILES[0]}" ]; then
  fail "no desktop file under usr/share/applications"
elif [ ! -f "$DESKTOP" ]; then
  fail "desktop file is not named $APP_ID.desktop: $(cd "$ROOT/usr/share/applications" && ls)"
else
  if out=$(desktop-file-validate "$DESKTOP" 2>&1) && [ -z "$out" ]; then
    ok "desktop-file-validate $APP_ID.desktop"
  else
    fail "desktop-file-validate $APP_ID.desktop:"; echo "$out" >&2
  fi
  icon=$(sed -n 's/^Icon=//p' "$DESKTOP" | head -n 1)
  [ "$icon" = "$APP_ID" ] && ok "Icon=$icon" || fail "desktop file Icon='$icon', expected $APP_ID"
  exec_bin=$(sed -n 's/^Exec=\([^ ]*\).*/\1/p' "$DESKTOP" | head -n 1)
  [ -x "$ROOT/usr/bin/$exec_bin" ] && ok "Exec=$exec_bin is in the package" \
    || fail "desktop file Exec='$exec_bin' is not usr/bin/$exec_bin of the package"
fi

# Metainfo
METAINFO="$ROOT/usr/share/metainfo/$APP_ID.metainfo.xml"
if [ ! -f "$METAINFO" ]; then
  fail "usr/share/metainfo/$APP_ID.metainfo.xml missing (found: $(ls "$ROOT/usr/share/metainfo" 2>/dev/null))"
else
  ok "usr/share/metainfo/$APP_ID.metainfo.xml"
  mid=$(sed -n 's:.*<id>\(.*\)</id>.*:\1:p' "$METAINFO" | head -n 1)
  launch=$(sed -n 's:.*<launchable type="desktop-id">\(.*\)</launchable>.*:\1:p' "$METAINFO" | head -n 1)
  [ "$mid" = "$APP_ID" ] && ok "metainfo <id>$mid</id>" || fail "metainfo <id> is '$mid', expected $APP_ID"
  [ "$launch" = "$APP_ID.desktop" ] && ok "metainfo <launchable>$launch</launchable>" \
    || fail "metainfo <launchable> is '$launch', expected $APP_ID.desktop"
  grep -q '<developer_name>' "$METAINFO" && ok "metainfo has <developer_name>" || fail "metainfo lacks <developer_name>"
  meta_version=$(sed -n 's:.*<release version="\([^"]*\)".*:\1:p' "$METAINFO" | head -n 1)
  [ "$meta_version" = "$VERSION" ] && ok "metainfo newest release $meta_version = package version" \
    || fail "metainfo newest <release> is '$meta_version' but the package version is $VERSION"
fi

# Icons
HICOLOR="$ROOT/usr/share/icons/hicolor"
[ -f "$HICOLOR/scalable/apps/$APP_ID.svg" ] && ok "icon scalable/apps/$APP_ID.svg" \
  || fail "usr/share/icons/hicolor/scalable/apps/$APP_ID.svg missing"
for s in $ICON_SIZES; do
  png="$HICOLOR/${s}x${s}/apps/$APP_ID.png"
  if [ ! -f "$png" ]; then
    fail "usr/share/icons/hicolor/${s}x${s}/apps/$APP_ID.png missing"
    continue
  fi
  # PNG IHDR: width and height are big-endian 32-bit integers at bytes 16..23.
  dims=$(od -An -tu1 -j16 -N8 "$png" | awk '{print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8}')
  [ "$dims" = "${s}x${s}" ] && ok "icon ${s}x${s}" || fail "icon ${s}x${s}/apps/$APP_ID.png is $dims"
done

# AppStream on the whole tree (catches id/launchable/icon mismatches across files)
if out=$(appstreamcli validate-tree --no-net "$ROOT" 2>&1); then
  ok "appstreamcli validate-tree --no-net"
else
  fail "appstreamcli validate-tree --no-net:"; echo "$out" >&2
fi

echo "== package: $DEB"
if [ "$failures" -ne 0 ]; then
  echo "check-package: $failures check(s) failed" >&2
  exit 1
fi
echo "check-package: all checks passed"
