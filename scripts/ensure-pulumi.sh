#!/usr/bin/env bash
# ensure-pulumi.sh: make the Pulumi CLI, the nodejs language host and the dynamic-provider
# plugin script available at exactly the @pulumi/pulumi version pinned in this repo, built from
# Go modules (no Pulumi binary can be downloaded on these machines).
#
# Usage:
#   BIN=$(scripts/ensure-pulumi.sh | tail -1) && export PATH="$BIN:$PATH"
#
# Options:
#   --force-build            build even if a matching pulumi is on PATH or already cached
#   --pulumi-version X.Y.Z   build this version instead of the pinned one
#   --no-language-host       do not fail when pulumi-language-nodejs cannot be resolved/built
#                            (the bin dir then lacks it; programs cannot be run from a directory)
#   -h, --help
#
# Version source (first that exists): --pulumi-version, node_modules/@pulumi/pulumi/package.json,
# package.json (devDependencies/dependencies "@pulumi/pulumi", exact version), $PULUMI_VERSION.
#
# Output: .cache/pulumi/v<version>/bin/{pulumi,pulumi-language-nodejs,pulumi-resource-pulumi-nodejs}
# (and bin/legacy/pulumi-language-nodejs when the host is the legacy one: see scripts/language-host)
# The last line on stdout is the absolute bin directory; all progress goes to stderr.
# Environment: GO (go binary), ENSURE_PULUMI_JOBS (go build -p, default: nproc capped at 2).
set -euo pipefail

log() { printf '[ensure-pulumi] %s\n' "$*" >&2; }
die() { printf '[ensure-pulumi] ERROR: %s\n' "$*" >&2; exit 1; }

FORCE=0
NO_LH=0
VERSION_ARG=""
while [ $# -gt 0 ]; do
  case "$1" in
    --force-build) FORCE=1 ;;
    --no-language-host) NO_LH=1 ;;
    --pulumi-version) [ $# -ge 2 ] || die "--pulumi-version needs a value"; VERSION_ARG="$2"; shift ;;
    --pulumi-version=*) VERSION_ARG="${1#*=}" ;;
    -h|--help) sed -n '2,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 0 ;;
    *) die "unknown argument: $1 (see --help)" ;;
  esac
  shift
done

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
START=$SECONDS
elapsed() { local s=$((SECONDS - START)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }

# Keep every pulumi invocation here local and quiet.
export PULUMI_SKIP_UPDATE_CHECK=true

# ---------------------------------------------------------------- version
is_exact() { [[ "$1" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; }
json_field() { # json_field <file> <js expression on `p`>; prints "" when unknown
  if command -v node >/dev/null 2>&1; then
    node -e 'const p=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));
             const v=('"$2"'); process.stdout.write(v ? String(v) : "")' "$1" 2>/dev/null || true
  fi
}
detect_version() {
  local v=""
  if [ -n "$VERSION_ARG" ]; then v="$VERSION_ARG"; log "version from --pulumi-version: $v"
  else
    local nm="$REPO_ROOT/node_modules/@pulumi/pulumi/package.json"
    if [ -f "$nm" ]; then
      v="$(json_field "$nm" 'p.version')"
      [ -n "$v" ] || v="$(sed -n 's/^[[:space:]]*"version"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' "$nm" | head -1)"
      [ -n "$v" ] && log "version from node_modules/@pulumi/pulumi: $v"
    fi
    if [ -z "$v" ] && [ -f "$REPO_ROOT/package.json" ]; then
      v="$(json_field "$REPO_ROOT/package.json" '(p.devDependencies||{})["@pulumi/pulumi"]||(p.dependencies||{})["@pulumi/pulumi"]')"
      if [ -z "$v" ] && ! command -v node >/dev/null 2>&1; then
        v="$(grep -o '"@pulumi/pulumi"[[:space:]]*:[[:space:]]*"[^"]*"' "$REPO_ROOT/package.json" | sed 's/.*"\([^"]*\)"$/\1/' | while read -r c; do is_exact "${c#v}" && { echo "$c"; break; }; done || true)"
      fi
      v="${v#v}"
      if [ -n "$v" ] && ! is_exact "$v"; then log "package.json pins @pulumi/pulumi as '$v' (not exact): ignored"; v=""; fi
      [ -n "$v" ] && log "version from package.json: $v"
    fi
    if [ -z "$v" ] && [ -n "${PULUMI_VERSION:-}" ]; then v="$PULUMI_VERSION"; log "version from PULUMI_VERSION: $v"; fi
  fi
  v="${v#v}"
  [ -n "$v" ] || die "cannot tell which Pulumi version to build: no node_modules/@pulumi/pulumi, no exact \"@pulumi/pulumi\" in package.json, no PULUMI_VERSION"
  is_exact "$v" || die "not an exact version: '$v'"
  VERSION="$v"
}
detect_version

VDIR="$REPO_ROOT/.cache/pulumi/v$VERSION"
BIN="$VDIR/bin"
SRC="$VDIR/src"

version_of() { # prints what `<pulumi> version` prints (last stdout line), or nothing
  timeout 60 "$1" version 2>/dev/null | tail -1 | tr -d '[:space:]' || true
}
bin_ok() { # bin_ok <dir>: the three executables are there and pulumi reports the right version
  [ -x "$1/pulumi" ] && [ -x "$1/pulumi-resource-pulumi-nodejs" ] || return 1
  [ -x "$1/pulumi-language-nodejs" ] || { [ "$NO_LH" = 1 ] && [ -e "$1/.no-language-host" ]; } || return 1
  # A legacy host runs behind scripts/language-host (earlier builds lacked it: rebuild those).
  [ ! -e "$1/.language-host-version" ] || [ -x "$1/legacy/pulumi-language-nodejs" ] || return 1
  [ "$(version_of "$1/pulumi")" = "v$VERSION" ]
}

# ---------------------------------------------------------------- fast paths
if [ "$FORCE" = 0 ]; then
  if p="$(command -v pulumi 2>/dev/null)" && [ "$(version_of "$p")" = "v$VERSION" ]; then
    d="$(cd "$(dirname "$p")" && pwd -P)"
    if [ "$NO_LH" = 1 ] || command -v pulumi-language-nodejs >/dev/null 2>&1; then
      command -v pulumi-resource-pulumi-nodejs >/dev/null 2>&1 \
        || log "note: pulumi-resource-pulumi-nodejs is not on PATH (dynamic providers need it)"
      log "pulumi v$VERSION already on PATH ($p): nothing to build"
      echo "$d"; exit 0
    fi
    log "pulumi v$VERSION is on PATH ($p) but pulumi-language-nodejs is not: building our own"
  fi
  if bin_ok "$BIN"; then log "pulumi v$VERSION already built"; echo "$BIN"; exit 0; fi
fi

# ---------------------------------------------------------------- lock
mkdir -p "$VDIR"
exec 9>"$VDIR/.lock"
if ! flock -n 9; then
  log "another ensure-pulumi run is building v$VERSION; waiting for it..."
  flock 9
  if [ "$FORCE" = 0 ] && bin_ok "$BIN"; then log "built by the other run ($(elapsed))"; echo "$BIN"; exit 0; fi
fi

# ---------------------------------------------------------------- go
GO="${GO:-}"
if [ -z "$GO" ]; then
  if command -v go >/dev/null 2>&1; then GO="$(command -v go)"
  elif [ -x /usr/local/go/bin/go ]; then GO=/usr/local/go/bin/go
  else die "no Go toolchain found (set GO=/path/to/go; Go >= 1.25.11 is needed)"; fi
fi
# -mod=mod: let `go build` fill go.sum; -buildvcs=false: src/ lives inside this git checkout.
export GOFLAGS="-mod=mod -buildvcs=false"
export GOWORK=off GO111MODULE=on
JOBS="${ENSURE_PULUMI_JOBS:-$(n=$(nproc 2>/dev/null || echo 2); [ "$n" -gt 2 ] && n=2; echo "$n")}"
GOMODCACHE="$("$GO" env GOMODCACHE)"
log "building Pulumi v$VERSION from Go modules with $("$GO" env GOVERSION) (-p $JOBS)"
log "the first build takes several minutes (downloads ~1 GB of modules, compiles ~2000 packages); later runs take seconds"

mkdir -p "$SRC"
cd "$SRC"
rm -f go.mod go.sum
printf 'module ensurepulumi.local/wrapper\n\ngo 1.25\n' > go.mod

PKG=github.com/pulumi/pulumi/pkg/v3
SDK=github.com/pulumi/pulumi/sdk/v3
LH=github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3
LH_LEGACY_VERSION="${ENSURE_PULUMI_LEGACY_LH_VERSION:-3.68.0}"
VERVAR=github.com/pulumi/pulumi/sdk/v3/go/common/version.Version

download() { # download <module@version>: prints go's JSON; fails with go's error text
  local out
  out="$("$GO" mod download -json "$1" 2>&1)" || true
  if printf '%s' "$out" | grep -q '"Error"'; then
    printf '%s\n' "$out" | sed -n 's/^[[:space:]]*"Error": "\(.*\)",\{0,1\}$/\1/p' | sed 's/\\n/\n    /g; s/\\t/ /g' >&2
    return 1
  fi
  printf '%s' "$out" | grep -q '"Dir"' || { printf '%s\n' "$out" >&2; return 1; }
  printf '%s\n' "$out"
}

log "go mod download $PKG@v$VERSION"
PKG_JSON="$(download "$PKG@v$VERSION")" || die "cannot download $PKG@v$VERSION from $("$GO" env GOPROXY).
  The Pulumi CLI cannot be built at v$VERSION on this machine. Pick a version the proxy serves with
  --pulumi-version X.Y.Z (the CLI then reports that version), or pin @pulumi/pulumi to it."
log "go mod download $SDK@v$VERSION"
download "$SDK@v$VERSION" >/dev/null || die "cannot download $SDK@v$VERSION"
PKG_MOD="$GOMODCACHE/cache/download/$PKG/@v/v$VERSION.mod"
PKG_INFO="$GOMODCACHE/cache/download/$PKG/@v/v$VERSION.info"
[ -f "$PKG_MOD" ] || PKG_MOD="$(printf '%s' "$PKG_JSON" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p')"
COMMIT="$(sed -n 's/.*"Hash":"\([0-9a-f]\{40\}\)".*/\1/p' "$PKG_INFO" 2>/dev/null || true)"
log "release commit (pkg/v$VERSION tag): ${COMMIT:-unknown}"

# Non-local replace directives of a go.mod file, as `go mod edit -replace` arguments.
nonlocal_replaces() {
  "$GO" mod edit -json "$1" | node -e '
    const m = JSON.parse(require("fs").readFileSync(0, "utf8"));
    for (const r of m.Replace || []) if (r.New.Version)
      console.log(`${r.Old.Path}${r.Old.Version ? "@" + r.Old.Version : ""}=${r.New.Path}@${r.New.Version}`);' 2>/dev/null \
  || "$GO" mod edit -print "$1" | sed -n 's/^replace[[:space:]]*//p; /^replace (/,/^)/p' \
       | grep '=>' | grep -v '=>[[:space:]]*\.' \
       | awk '{ if ($3 == "=>") print $1"@"$2"="$4"@"$5; else print $1"="$3"@"$4 }'
}

# Language host: tag v$VERSION if there is one, else a pseudo-version at the release commit.
LH_VER=""
if out="$("$GO" list -m -json "$LH@v$VERSION" 2>/dev/null)"; then
  LH_VER="v$VERSION"
elif [ -n "$COMMIT" ] && out="$("$GO" list -m -json "$LH@$COMMIT" 2>&1)"; then
  LH_VER="$(printf '%s' "$out" | sed -n 's/^[[:space:]]*"Version": "\(.*\)",$/\1/p' | head -1)"
fi
LH_LEGACY=""
if [ -n "$LH_VER" ]; then
  log "language host module: $LH@$LH_VER"
  download "$LH@$LH_VER" >/dev/null || die "cannot download $LH@$LH_VER"
elif [ "$NO_LH" = 1 ]; then
  log "WARNING: $LH is not available at v$VERSION nor at commit ${COMMIT:-?}; building the CLI only (--no-language-host)"
else
  # The language host became a module of its own after v$LH_LEGACY_VERSION; until then it was a
  # package of sdk/v3. When the proxy serves neither the tag nor the release commit of the new
  # module (seen here: 403 for every version), build that last in-sdk release instead. Its gRPC
  # protocol is the one the CLI still speaks (Run, GetRequiredPlugins, InstallDependencies, About);
  # the program itself runs on the project's own @pulumi/pulumi, so behaviour follows that version.
  log "$LH is not served at v$VERSION nor at the release commit ${COMMIT:-?}"
  log "falling back to $SDK/nodejs/cmd/pulumi-language-nodejs@v$LH_LEGACY_VERSION (the last release that shipped it inside sdk/v3)"
  download "$SDK@v$LH_LEGACY_VERSION" >/dev/null || die "cannot download $SDK@v$LH_LEGACY_VERSION either.
  Without a language host pulumi cannot run nodejs programs from a directory. Re-run with --no-language-host to
  build the CLI alone (Automation API inline programs do not need the language host)."
  LH_LEGACY=1
fi

# ---------------------------------------------------------------- wrapper module
GO_DIRECTIVE="$("$GO" mod edit -json "$PKG_MOD" | sed -n 's/^[[:space:]]*"Go": "\(.*\)",\{0,1\}$/\1/p' | head -1)"
"$GO" mod edit -go="${GO_DIRECTIVE:-1.25}" -require="$PKG@v$VERSION" -require="$SDK@v$VERSION" go.mod
REPLACES="$(nonlocal_replaces "$PKG_MOD")"
if [ -n "$LH_VER" ]; then
  "$GO" mod edit -require="$LH@$LH_VER" go.mod
  LH_MOD="$GOMODCACHE/cache/download/$LH/@v/$LH_VER.mod"
  [ -f "$LH_MOD" ] && REPLACES="$REPLACES
$(nonlocal_replaces "$LH_MOD")"
fi
while read -r r; do
  [ -n "$r" ] || continue
  case "$r" in "$PKG"*|"$SDK"*) continue ;; esac   # never redirect pulumi's own modules
  if ! grep -q "^replace ${r%%[=@]*} " go.mod; then "$GO" mod edit -replace="$r" go.mod; log "replace ${r/=/ => }"; fi
done <<< "$(printf '%s\n' "$REPLACES" | sort -u)"

# Pin pulumi's own modules to v$VERSION whatever else requires (defensive: the language host's
# go.mod requires pkg/v3 at the placeholder v3.0.0-00010101000000-000000000000, which upstream
# maps to ../../../../pkg and no proxy serves).
"$GO" mod edit -replace="$PKG=$PKG@v$VERSION" -replace="$SDK=$SDK@v$VERSION" go.mod

LDFLAGS="-s -w"
if grep -rqs '^var Version string' "$GOMODCACHE/$SDK@v$VERSION/go/common/version/"; then
  LDFLAGS="$LDFLAGS -X $VERVAR=v$VERSION"
else
  log "WARNING: $VERVAR not found in sdk v$VERSION; pulumi version may print nothing"
fi

# ---------------------------------------------------------------- build
TMP_BIN="$VDIR/bin.tmp.$$"
rm -rf "$TMP_BIN"; mkdir -p "$TMP_BIN"
trap 'rm -rf "$TMP_BIN"' EXIT
build() { # build <name> <package>
  local t=$SECONDS
  log "go build $2 ($(elapsed) so far)"
  nice -n 10 "$GO" build -p "$JOBS" -trimpath -ldflags "$LDFLAGS" -o "$TMP_BIN/$1" "$2"
  log "built $1 in $((SECONDS - t))s"
}
build pulumi "$PKG/cmd/pulumi"
if [ -n "$LH_VER" ]; then build pulumi-language-nodejs "$LH"
elif [ -n "$LH_LEGACY" ]; then
  # A wrapper of its own: the legacy host needs sdk/v3 at its release, not at v$VERSION.
  mkdir -p "$VDIR/src-lh" "$TMP_BIN/legacy"
  ( cd "$VDIR/src-lh" && rm -f go.mod go.sum \
    && printf 'module ensurepulumi.local/languagehost\n\ngo 1.25\n' > go.mod \
    && "$GO" mod edit -require="$SDK@v$LH_LEGACY_VERSION" go.mod \
    && while read -r r; do [ -n "$r" ] && "$GO" mod edit -replace="$r" go.mod; done \
         <<< "$(nonlocal_replaces "$GOMODCACHE/cache/download/$SDK/@v/v$LH_LEGACY_VERSION.mod")" \
    && LDFLAGS="-s -w -X $VERVAR=v$LH_LEGACY_VERSION" build legacy/pulumi-language-nodejs "$SDK/nodejs/cmd/pulumi-language-nodejs" )
  # In front of it, a host that forwards every call and answers the one the legacy host lacks,
  # GenerateProgram (`pulumi import` prints code with it), with the nodejs program generator at
  # v$VERSION: a package of the CLI's wrapper module, so it builds from the modules just fetched.
  rm -rf "$SRC/languagehost" && cp -R "$REPO_ROOT/scripts/language-host" "$SRC/languagehost"
  build pulumi-language-nodejs ./languagehost
  echo "v$LH_LEGACY_VERSION" > "$TMP_BIN/.language-host-version"
else : > "$TMP_BIN/.no-language-host"; fi

# Dynamic-provider plugin: the 3-line script shipped at the root of @pulumi/pulumi.
PLUGIN_SRC="$REPO_ROOT/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"
if [ -f "$PLUGIN_SRC" ]; then
  cp "$PLUGIN_SRC" "$TMP_BIN/pulumi-resource-pulumi-nodejs"
else
  cat > "$TMP_BIN/pulumi-resource-pulumi-nodejs" <<'EOF'
#!/bin/sh
PULUMI_DYNAMIC_PROVIDER_SCRIPT_PATH=$(node -e "console.log(require.resolve('@pulumi/pulumi/cmd/dynamic-provider'))")
if [ ! -z "$PULUMI_DYNAMIC_PROVIDER_SCRIPT_PATH" ]; then
    node "$PULUMI_DYNAMIC_PROVIDER_SCRIPT_PATH" $@
fi
EOF
fi
chmod 755 "$TMP_BIN/pulumi-resource-pulumi-nodejs"

got="$(version_of "$TMP_BIN/pulumi")"
[ "$got" = "v$VERSION" ] || die "built pulumi reports '$got', expected v$VERSION"
if [ -n "$LH_VER$LH_LEGACY" ]; then
  "$TMP_BIN/pulumi-language-nodejs" --help >/dev/null 2>&1 || [ $? -eq 2 ] || die "pulumi-language-nodejs does not start"
fi

rm -rf "$BIN"
mv "$TMP_BIN" "$BIN"
trap - EXIT
log "pulumi $got ready in $BIN ($(du -sh "$BIN" | cut -f1)); took $(elapsed)"
echo "$BIN"
