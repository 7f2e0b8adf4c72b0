#!/bin/sh
# stagelight api | worker | migrate | seed
set -e
# api and worker run their bundles (docs/decisions/001) with V8 heap limits that keep resident memory
# low (docs/decisions/011), two malloc arenas, so libvips' threads in the worker do not each grow
# their own, and a fixed mmap threshold, so freed picture buffers go back to the system instead of
# fragmenting the heap (docs/decisions/021). Migrate and seed run from source.
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}"
case "${1:-api}" in
  api) node --import tsx shared/src/server/db/migrate-cli.ts && exec node --max-semi-space-size=4 --max-old-space-size=384 api/dist/index.mjs ;;
  worker) exec node --max-semi-space-size=4 --max-old-space-size=384 worker/dist/index.mjs ;;
  migrate) exec node --import tsx shared/src/server/db/migrate-cli.ts ;;
  seed) exec node --import tsx scripts/seed.ts ;;
  *) exec "$@" ;;
esac
