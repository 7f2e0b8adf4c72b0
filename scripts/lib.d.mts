// Types of the helpers in lib.mjs (plain Node, so they run before dependencies exist) for TypeScript scripts.
export declare const root: string;
export declare function run(command: string, args: string[], options?: object): void;
export declare function ensureDependencies(): void;
export declare function loadDotEnv(): void;
