# Sourced by the other scripts: make sure .venv exists and holds this project.
# Reinstalls when pyproject.toml changes, so a fresh clone and an old checkout
# both end up with exactly the pinned dependencies.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv="$root/.venv"
# extras to install: the caller sets BURRACO_EXTRAS (scripts/test: dev), never its arguments
extras="${BURRACO_EXTRAS:-}"
hash=$(sha256sum "$root/pyproject.toml" | cut -c1-16)
stamp="$venv/.installed-${extras:-base}-$hash"
# an install with the dev extras holds everything the base install does
[ -z "$extras" ] && [ -f "$venv/.installed-dev-$hash" ] && stamp="$venv/.installed-dev-$hash"
if [ ! -x "$venv/bin/python" ]; then
  echo "creating $venv" >&2
  python3 -m venv "$venv"
fi
if [ ! -f "$stamp" ]; then
  echo "installing burraco${extras:+[$extras]} into $venv" >&2
  target="$root"
  [ -n "$extras" ] && target="$root[$extras]"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$target"
  rm -f "$venv"/.installed-"${extras:-base}"-*
  touch "$stamp"
fi
