#!/usr/bin/env bash
# Builds and installs the pgvector extension into the local PostgreSQL from the vendored source
# (Debian 12 packages no pgvector for its PostgreSQL 15). Idempotent: does nothing when the server
# already offers the extension. Needs root (apt-get, make install) and ../shared beside the clone.
set -euo pipefail
cd "$(dirname "$0")/.."

TARBALL="${PGVECTOR_TARBALL:-../shared/vendor/pgvector-0.8.6.tar.gz}"
PG_MAJOR="${PG_MAJOR:-$(ls /etc/postgresql 2>/dev/null | sort -n | tail -n 1)}"
if [ -z "$PG_MAJOR" ]; then
  echo "install-pgvector: no PostgreSQL cluster under /etc/postgresql" >&2
  exit 1
fi
PG_CONFIG="/usr/lib/postgresql/$PG_MAJOR/bin/pg_config"

available() {
  # Ask the running server when there is one; otherwise look for the control file it would read.
  if pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
    [ "$(psql -h 127.0.0.1 -U postgres -d postgres -Atc "SELECT count(*) FROM pg_available_extensions WHERE name = 'vector'" 2>/dev/null)" = "1" ]
  else
    [ -f "/usr/share/postgresql/$PG_MAJOR/extension/vector.control" ]
  fi
}

if available; then
  echo "pgvector is already available to PostgreSQL $PG_MAJOR"
  exit 0
fi

if [ ! -f "$TARBALL" ]; then
  echo "install-pgvector: $TARBALL not found (../shared must sit beside the clone)" >&2
  exit 1
fi

# postgresql-15 ships pg_config but not the server headers the build needs.
if [ ! -f "/usr/include/postgresql/$PG_MAJOR/server/postgres.h" ] || [ ! -x "$PG_CONFIG" ]; then
  echo "Installing postgresql-server-dev-$PG_MAJOR"
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y "postgresql-server-dev-$PG_MAJOR" make gcc
fi

BUILD_DIR="$(mktemp -d)"
trap 'rm -rf "$BUILD_DIR"' EXIT
tar -xzf "$TARBALL" -C "$BUILD_DIR"
SRC="$(find "$BUILD_DIR" -mindepth 1 -maxdepth 1 -type d | head -n 1)"
echo "Building pgvector from $TARBALL for PostgreSQL $PG_MAJOR"
make -C "$SRC" PG_CONFIG="$PG_CONFIG" -j"$(nproc)"
make -C "$SRC" PG_CONFIG="$PG_CONFIG" install

if ! available; then
  echo "install-pgvector: built and installed, but PostgreSQL $PG_MAJOR still does not list the extension" >&2
  exit 1
fi
echo "pgvector installed for PostgreSQL $PG_MAJOR"
