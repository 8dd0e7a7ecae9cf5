#!/bin/sh
# The entry point of docker/local/Dockerfile.redis: as the official image, options alone run redis-server,
# and redis-server without a configuration file listens on every address with protected mode off.
set -e
if [ "${1#-}" != "$1" ]; then set -- redis-server "$@"; fi
if [ "$1" = redis-server ]; then
  case "$2" in
    *.conf) ;;
    *) shift; set -- redis-server --bind '*' --protected-mode no "$@" ;;
  esac
fi
exec "$@"
