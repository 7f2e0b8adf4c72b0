import { config } from 'zod';

// zod probes for eval (new Function) to compile its parsers when a schema is built; our CSP forbids
// eval, and the blocked probe is reported as a CSP violation. Its interpreter is plenty fast for forms.
config({ jitless: true });
