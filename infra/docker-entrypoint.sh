#!/bin/sh
# stagelight api | worker | migrate | seed
set -e
# A small young generation keeps resident memory low at no measured cost (docs/decisions/011).
case "${1:-api}" in
  api) node --import tsx shared/src/db/migrate-cli.ts && exec node --max-semi-space-size=2 --import tsx api/src/index.ts ;;
  worker) exec node --max-semi-space-size=2 --import tsx worker/src/index.ts ;;
  migrate) exec node --import tsx shared/src/db/migrate-cli.ts ;;
  seed) exec node --import tsx scripts/seed.ts ;;
  *) exec "$@" ;;
esac
