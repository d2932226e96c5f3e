#!/bin/sh
# As the official nats image: `-js ...` means `nats-server -js ...`.
set -eu
case "${1:-}" in
  -*) set -- nats-server "$@" ;;
esac
exec "$@"
