// Refuses every TCP connection to a host that is not this machine, in the test process (through
// guards.ts) and in the api and worker processes tests start (node --import). Tests talk to local fakes
// only; a connection elsewhere is a test that depends on the internet or a config that leaked a real host.
// Plain JavaScript, so a spawned bundle can load it without TypeScript.
import net from 'node:net';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '0.0.0.0', '::', '::ffff:127.0.0.1']);
const patched = Symbol.for('stagelight.no-outbound');

/** The host and port a `socket.connect(...)` call names; no host for a Unix socket. */
function targetOf(args) {
  const [first, second] = args;
  // net.connect() hands the socket its arguments normalised: [options, callback].
  const options = Array.isArray(first) ? first[0] : first;
  if (typeof options === 'object' && options !== null) {
    return options.path ? {} : { host: options.host ?? 'localhost', port: options.port };
  }
  if (typeof options === 'string' && !/^\d+$/.test(options)) return {}; // a path
  return { host: typeof second === 'string' ? second : 'localhost', port: options };
}

/** Patches net.Socket once; `onRefused(host, port)` hears of each refused connection. */
export function refuseOutboundConnections(onRefused) {
  if (net.Socket.prototype[patched]) return;
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function (...args) {
    const { host, port } = targetOf(args);
    if (host === undefined || LOCAL_HOSTS.has(String(host).toLowerCase())) return connect.apply(this, args);
    onRefused(host, port);
    const error = Object.assign(new Error(`Tests may not connect to ${host}:${port}`), { code: 'ECONNREFUSED' });
    process.nextTick(() => this.destroy(error));
    return this;
  };
  net.Socket.prototype[patched] = true;
}

// Loaded with --import (a spawned api or worker): say so on stderr, where the test reads the output.
if (process.env.STAGELIGHT_REFUSE_OUTBOUND === 'report') {
  refuseOutboundConnections((host, port) => process.stderr.write(`OUTBOUND REFUSED ${host}:${port}\n`));
}
