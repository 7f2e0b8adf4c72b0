import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** A pino logger; tests pass a `destination` that reads what is logged. */
export function createLogger(options: { level: string; name: string; destination?: DestinationStream }): Logger {
  return pino({
    name: options.name,
    level: options.level,
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'req.headers["stripe-signature"]',
        '*.password',
      ],
      remove: true,
    },
  }, options.destination);
}
