#!/bin/sh
# Starts one docintel app: `docintel <app>` or APP=<app>; `docintel cli ...` runs the admin CLI.
# exec keeps node as PID 1's direct replacement, so SIGTERM reaches its graceful shutdown.
set -eu
cd /app

if [ "${1:-}" = "cli" ]; then
  shift
  exec node apps/api-gateway/dist/cli/main.js "$@"
fi

app="${1:-${APP:-}}"
[ $# -gt 0 ] && shift

if [ -z "$app" ] || [ ! -f "apps/$app/dist/main.js" ]; then
  echo "usage: docintel <app> | docintel cli <command>   (or set APP=<app>)" >&2
  echo "apps: $(ls apps | tr '\n' ' ')" >&2
  exit 64
fi
exec node "apps/$app/dist/main.js" "$@"
