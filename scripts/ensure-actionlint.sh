#!/usr/bin/env bash
# ensure-actionlint.sh: make actionlint (the GitHub Actions workflow checker, github.com/rhysd/actionlint)
# available at the version pinned here, built from Go modules (no release binary is downloaded), so
# `npm test` can check .github/workflows/*.yml (tests/release/workflows.test.ts).
#
# Usage:
#   ACTIONLINT=$(scripts/ensure-actionlint.sh | tail -1) && "$ACTIONLINT" .github/workflows/*.yml
#
# Options:
#   --force-build   build even if the cached binary is there and reports the pinned version
#   -h, --help
#
# Output: .cache/actionlint/v<version>/actionlint (ignored by git, like .cache/pulumi). Built only when
# missing: about a minute with empty Go caches, 0.05 s once built.
# The last line on stdout is the binary's absolute path; all progress goes to stderr.
# Environment: GO (go binary), ACTIONLINT_VERSION (default: the pinned one below).
set -euo pipefail

VERSION="${ACTIONLINT_VERSION:-1.7.12}"
VERSION="${VERSION#v}"
MODULE=github.com/rhysd/actionlint/cmd/actionlint

log() { printf '[ensure-actionlint] %s\n' "$*" >&2; }
die() { printf '[ensure-actionlint] ERROR: %s\n' "$*" >&2; exit 1; }

FORCE=0
while [ $# -gt 0 ]; do
  case "$1" in
    --force-build) FORCE=1 ;;
    -h|--help) sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 0 ;;
    *) die "unknown argument: $1 (see --help)" ;;
  esac
  shift
done

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VDIR="$REPO_ROOT/.cache/actionlint/v$VERSION"
BIN="$VDIR/actionlint"
START=$SECONDS

version_of() { # the version line `actionlint -version` prints first, or nothing
  timeout 30 "$1" -version 2>/dev/null | head -1 | tr -d '[:space:]' || true
}
bin_ok() { [ -x "$1" ] && [ "$(version_of "$1")" = "v$VERSION" ]; }

if [ "$FORCE" = 0 ] && bin_ok "$BIN"; then log "actionlint v$VERSION already built"; echo "$BIN"; exit 0; fi

# ---------------------------------------------------------------- lock
mkdir -p "$VDIR"
exec 9>"$VDIR/.lock"
if ! flock -n 9; then
  log "another ensure-actionlint run is building v$VERSION; waiting for it..."
  flock 9
  if [ "$FORCE" = 0 ] && bin_ok "$BIN"; then log "built by the other run"; echo "$BIN"; exit 0; fi
fi

# ---------------------------------------------------------------- go
GO="${GO:-}"
if [ -z "$GO" ]; then
  if command -v go >/dev/null 2>&1; then GO="$(command -v go)"
  elif [ -x /usr/local/go/bin/go ]; then GO=/usr/local/go/bin/go
  else die "no Go toolchain found (set GO=/path/to/go)"; fi
fi
# `go install pkg@version` builds outside any module (this checkout has no go.mod at its root).
export GOWORK=off GO111MODULE=on GOFLAGS="-buildvcs=false"
JOBS="$(n=$(nproc 2>/dev/null || echo 2); [ "$n" -gt 2 ] && n=2; echo "$n")"
log "building $MODULE@v$VERSION with $("$GO" env GOVERSION) (-p $JOBS)"

TMP_BIN="$VDIR/bin.tmp.$$"
rm -rf "$TMP_BIN"; mkdir -p "$TMP_BIN"
trap 'rm -rf "$TMP_BIN"' EXIT
GOBIN="$TMP_BIN" nice -n 10 "$GO" install -p "$JOBS" -trimpath -ldflags "-s -w" "$MODULE@v$VERSION"

got="$(version_of "$TMP_BIN/actionlint")"
[ "$got" = "v$VERSION" ] || die "built actionlint reports '$got', expected v$VERSION"
mv -f "$TMP_BIN/actionlint" "$BIN"
log "actionlint $got ready at $BIN; took $((SECONDS - START))s"
echo "$BIN"
