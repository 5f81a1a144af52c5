# Sourced by scripts/run and scripts/test (after _venv.sh): build the browser client in web/
# into src/burraco/app/static/ (which `burraco serve` serves) when it is missing or when
# anything in web/ that goes into the build changed.  Needs Node 20+ and npm.
set -euo pipefail
web="$root/web"
built="$root/src/burraco/app/static"

# Install web/node_modules from package-lock.json when missing or older than the lock file.
web_packages() {
  if ! command -v npm >/dev/null; then
    echo "the web client needs Node.js 20+ and npm (https://nodejs.org)" >&2
    exit 1
  fi
  if [ ! -f "$web/node_modules/.package-lock.json" ] \
      || [ "$web/package-lock.json" -nt "$web/node_modules/.package-lock.json" ]; then
    echo "installing the web client's packages (npm ci)" >&2
    # should `npm ci` ever trip on a platform-only optional dependency missing from the lock
    # file, `npm install --no-save` installs the same locked versions without changing it
    (cd "$web" && { npm ci --no-audit --no-fund --loglevel=error 2>/dev/null \
      || npm install --no-save --no-audit --no-fund --loglevel=error; })
  fi
}

# public/ counts too (the manifest, the icons), but not public/cards/ and public/avatars/,
# which the build renders
# the message catalogs too (the build reads every language's .po: src/burraco/locale/)
web_hash=$(cd "$web" && find package.json package-lock.json index.html vite.config.ts tsconfig.json \
  po-catalogs.ts scripts src public ../src/burraco/locale \( -path public/cards -o -path public/avatars \) \
  -prune -o -type f \( -name '*.mo' -o -name '*.py' -o -name '*.pyc' \) -prune -o -type f -print0 \
  | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
if [ ! -f "$built/index.html" ] || [ "$(cat "$built/.web-build" 2>/dev/null)" != "$web_hash" ]; then
  web_packages
  echo "building the web client into $built" >&2
  (cd "$web" && npm run --silent build >/dev/null)
  echo "$web_hash" > "$built/.web-build"
fi
