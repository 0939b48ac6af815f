#!/usr/bin/env bash
# Shared set-up for scripts/serve and scripts/test: Python venv, system packages, front-end assets.
# Idempotent and fast on a second run: each step is skipped when its inputs have not changed.
# Usage: scripts/setup.sh [EXTRAS]   (EXTRAS: comma-separated pip extras, e.g. "test,train")
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
EXTRAS=${1:-}
STAMPS=.venv/.akgen-stamps

say() { printf '\033[1m[akgen]\033[0m %s\n' "$*"; }

digest() { cat "$@" 2>/dev/null | sha256sum | cut -c1-16; }

# --- System packages (Debian): a C++ compiler and bubblewrap for the sandbox -----------------
need_apt=()
command -v g++ >/dev/null || need_apt+=(g++)
command -v bwrap >/dev/null || need_apt+=(bubblewrap)
command -v prlimit >/dev/null || need_apt+=(util-linux)
if [ -n "${AKGEN_APT_EXTRA:-}" ]; then
  for pkg in $AKGEN_APT_EXTRA; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
  done
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    say "installing system packages: ${need_apt[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    say "missing system packages: ${need_apt[*]} — install them (e.g. sudo apt-get install ${need_apt[*]})"
    exit 1
  fi
fi

# --- Python ----------------------------------------------------------------------------------
PY=${AKGEN_PYTHON:-}
if [ -z "$PY" ]; then
  for candidate in python3.11 python3; do
    if command -v "$candidate" >/dev/null && "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
      PY=$candidate; break
    fi
  done
fi
if [ -z "$PY" ]; then
  say "Python 3.11 is required (set AKGEN_PYTHON to its path)"; exit 1
fi
if [ ! -x .venv/bin/python ]; then
  say "creating .venv with $($PY --version)"
  "$PY" -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip 2>&1 | grep -v '^WARNING: Location' || true
fi
mkdir -p "$STAMPS"
want=$(digest pyproject.toml requirements/constraints.txt; echo "$EXTRAS")
if [ "$(cat "$STAMPS/pip-$EXTRAS" 2>/dev/null)" != "$want" ]; then
  say "installing Python packages${EXTRAS:+ (extras: $EXTRAS)}"
  spec="."; [ -n "$EXTRAS" ] && spec=".[$EXTRAS]"
  .venv/bin/python -m pip install -q -c requirements/constraints.txt -e "$spec" 2>&1 \
    | grep -v -e '^WARNING: Location' -e 'BuildBackendWarning' || true
  .venv/bin/python -c 'import django, dramatiq, bench_runner' \
    || { say "Python install failed"; exit 1; }
  echo "$want" > "$STAMPS/pip-$EXTRAS"
fi

# --- Front-end assets (npm registry → esbuild → static/dist) ---------------------------------
want=$(digest package.json package-lock.json)
if [ ! -d node_modules ] || [ "$(cat "$STAMPS/npm" 2>/dev/null)" != "$want" ]; then
  command -v npm >/dev/null || { say "npm is required to build the front-end assets"; exit 1; }
  say "installing front-end packages"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > "$STAMPS/npm"
fi
want=$(digest package-lock.json static/src/*)
if [ ! -f static/dist/app.js ] || [ "$(cat "$STAMPS/assets" 2>/dev/null)" != "$want" ]; then
  say "building front-end assets"
  npm run --silent build
  echo "$want" > "$STAMPS/assets"
fi
cd "$ROOT"
