/** Patches net.Socket once so connections to other hosts are refused; `onRefused` hears of each. */
export function refuseOutboundConnections(onRefused: (host: string, port: unknown) => void): void;
