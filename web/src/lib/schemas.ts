// The shared schemas, for the browser. zod-setup comes first: schemas are built (and zod's eval probe
// would run) when @app/shared/schemas is evaluated.
import './zod-setup.ts';

export * from '@app/shared/schemas';
