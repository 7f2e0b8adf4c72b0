#!/bin/sh
# stagelight api | worker | migrate | seed
set -e
case "${1:-api}" in
  api) node --import tsx shared/src/db/migrate-cli.ts && exec node --import tsx api/src/index.ts ;;
  worker) exec node --import tsx worker/src/index.ts ;;
  migrate) exec node --import tsx shared/src/db/migrate-cli.ts ;;
  seed) exec node --import tsx scripts/seed.ts ;;
  *) exec "$@" ;;
esac
